// A summary file's figures in the outputs of `eval-lens score` (the table, --markdown, --csv): name,
// value and the samples each figure is over, instead of metrics recomputed from predictions (there
// are none).
import type { Report, SummaryFigure } from '../core/types';
import { nonFiniteText } from '../core/formats/pythonJson';
import { markdownTable, markdownText, type Cell, type Table } from '../common/tabular';

/** Figures listed per file before "... N more". */
export const SUMMARY_FIGURES_SHOWN = 200;

/** A summary's value as the file gives it: whole numbers whole, others to 4 decimals, NaN and infinities spelled. */
export function summaryValueText(v: number | null): string {
  if (v === null) return 'not reported';
  if (!Number.isFinite(v)) return nonFiniteText(v)!;
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}

/** "6 figures of 3 tasks" (the tasks, models or splits the figures are named by). */
export function summaryCountText(figures: SummaryFigure[]): string {
  const of = (key: 'task' | 'model' | 'split', word: string) => {
    const n = new Set(figures.map((f) => f[key]).filter((v) => v !== undefined)).size;
    return n > 1 ? ` of ${n} ${word}` : '';
  };
  return `${figures.length} figure${figures.length === 1 ? '' : 's'}${of('task', 'tasks') || of('model', 'models') || of('split', 'splits')}`;
}

/** The lines under a summary's title: what it is, then one line per figure. */
export function summaryLines(r: Report): string[] {
  const s = r.summary;
  if (!s) return [];
  const out = [`  ${s.source}: ${summaryCountText(s.figures)}${r.sourceModel ? `, model ${r.sourceModel}` : ''}`];
  const shown = s.figures.slice(0, SUMMARY_FIGURES_SHOWN);
  const width = Math.min(60, Math.max(13, ...shown.map((f) => f.name.length)));
  for (const f of shown) {
    out.push(`    ${f.name.padEnd(width)} ${summaryValueText(f.value).padStart(12)}${f.n !== undefined ? `  on ${f.n.toLocaleString('en-US')} samples` : ''}`);
  }
  if (s.figures.length > shown.length) out.push(`    … ${s.figures.length - shown.length} more (use --json for all)`);
  return out;
}

/** A summary's figures in `score --markdown` (and "Copy as Markdown"): what it is, then a table of them. */
export function summaryMarkdown(r: Report): string[] {
  const s = r.summary;
  if (!s) return [];
  const shown = s.figures.slice(0, SUMMARY_FIGURES_SHOWN);
  const withN = shown.some((f) => f.n !== undefined);
  const table: Table = {
    columns: ['figure', 'value', ...(withN ? ['samples'] : [])],
    rows: shown.map((f) => [f.name, summaryValueText(f.value), ...(withN ? [f.n === undefined ? '' : f.n.toLocaleString('en-US')] : [])]),
    align: ['left', 'right', 'right'],
  };
  const out = [markdownText(`${s.source}: ${summaryCountText(s.figures)}${r.sourceModel ? `, model ${r.sourceModel}` : ''}.`), '', markdownTable(table)];
  if (s.figures.length > shown.length) out.push(`The first ${shown.length} of ${s.figures.length} figures; \`eval-lens score --json\` has every one.`, '');
  return out;
}

/** A summary's figures in `score --csv`: one row each, its value under `reported` (nothing is recomputed), its samples under `n`. */
export function summaryCsvRows(r: Report): Cell[][] {
  return (r.summary?.figures ?? []).map((f) => [
    r.path, r.format, '', f.task ?? r.task ?? '', f.n ?? null, r.skipped, r.unlabeled, f.name, null, null, null,
    f.value !== null && !Number.isFinite(f.value) ? nonFiniteText(f.value)! : f.value, '',
  ]);
}
