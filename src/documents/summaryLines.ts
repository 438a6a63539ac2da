// A summary file's figures in the outputs of `eval-lens score` (the table, --markdown, --csv): name,
// value and the samples each figure is over, instead of metrics recomputed from predictions (there
// are none).
import type { Report, SummaryFigure } from '../core/types';
import { nonFiniteText } from '../core/formats/pythonJson';
import { markdownTable, markdownText, type Cell, type Table } from '../common/tabular';

/** Figures listed per file before "... N more". */
export const SUMMARY_FIGURES_SHOWN = 200;

/**
 * Metric names of counts and sizes (HELM's num_prompt_tokens, batch_size; AlpacaEval's n_wins,
 * avg_length): a whole value of one is a count, printed whole.
 */
const COUNT_METRIC = /(?:^|[_@ -])(?:n|num|count|counts|total|support|size|length|tokens|instances|samples|examples|references|trials|wins|draws|losses|ties)(?:$|[_@ -])/i;

/**
 * A summary's value: to 4 decimals, NaN and infinities spelled. A whole number prints whole when it
 * is a count (by its metric's name) or lies outside [0, 1] (a token count, a rating); a whole 0 or 1
 * of any other metric is a rate or score at its bound, 0.0000 or 1.0000 as its neighbours are.
 */
export function summaryValueText(v: number | null, metric = ''): string {
  if (v === null) return 'not reported';
  if (!Number.isFinite(v)) return nonFiniteText(v)!;
  const count = COUNT_METRIC.test(metric) && !/finish_reason/i.test(metric); // finish_reason_length is a rate
  return Number.isInteger(v) && (count || Math.abs(v) > 1) ? String(v) : v.toFixed(4);
}

/** Decimal places of summaryValueText's 4-decimal form (".dddd"): a whole number is padded by as much, so units line up. */
const DECIMALS = 5;

/** Names longer than this are printed on a line of their own, their value on the next, in the column. */
const NAME_WIDTH = 60;

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
  const width = Math.min(NAME_WIDTH, Math.max(13, ...shown.map((f) => f.name.length)));
  // Values line up on their units digit: a whole number ends where the decimals' units do.
  const texts = shown.map((f) => summaryValueText(f.value, f.metric || f.name));
  const withDecimals = texts.some((t) => /^-?\d+\.\d{4}$/.test(t));
  for (const [k, f] of shown.entries()) {
    const whole = withDecimals && /^-?\d+$/.test(texts[k]);
    const value = whole ? `${texts[k]}${' '.repeat(DECIMALS)}` : texts[k];
    const samples = f.n !== undefined ? `  on ${f.n.toLocaleString('en-US')} samples` : '';
    if (f.name.length > width) out.push(`    ${f.name}`);
    out.push(`    ${(f.name.length > width ? '' : f.name).padEnd(width)} ${value.padStart(12)}${samples}`.trimEnd());
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
    rows: shown.map((f) => [f.name, summaryValueText(f.value, f.metric || f.name), ...(withN ? [f.n === undefined ? '' : f.n.toLocaleString('en-US')] : [])]),
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
