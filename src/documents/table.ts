// The readable output of `eval-lens score`: one block per file, the kind's metrics in the order of
// metricOrder.ts (the kind's metrics, then any other the report carries, then the rates).
import { reportMetricNames } from './metricOrder';
import { formatGroups } from './groupTable';
import { judgeLines } from './judgeTable';
import type { Report, RowProblem } from '../core/types';
import { disagreeingReported } from '../core/report';
import { reportedExtras, taskMetricLines } from './reportedLines';
import { nonFiniteText } from '../core/formats/pythonJson';
import { sliceContrastLines } from './sliceTable';
import { errorBarLines, standardErrorText } from './errorBars';
import { summaryLines } from './summaryLines';
import { reportedOnText } from '../common/reportedOn';

/** Problems listed per file before "... N more". */
const PROBLEMS_SHOWN = 10;

/** 4 decimals; NaN and infinities as Python's json spells them (a figure the file gives so); "—" for none. */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (!Number.isFinite(v)) return nonFiniteText(v)!;
  return v.toFixed(4);
}

function problemLine(p: RowProblem): string {
  const where = `line ${p.line}${p.column ? `:${p.column}` : ''}`;
  return `    ${where.padEnd(12)} ${p.severity.padEnd(7)} ${p.code}: ${p.message}`;
}

function counts(r: Report): string {
  const parts = [`n=${r.n}`];
  if (r.skipped) parts.push(`skipped=${r.skipped}`);
  if (r.unlabeled) parts.push(`unlabeled=${r.unlabeled}`);
  const e = epochsText(r);
  return parts.join('  ') + (e ? ` (${e})` : '');
}

/** Inspect epochs beside n: "1 sample × 10 epochs, reduced by mean" (n counts sample-epochs). */
export function epochsText(r: Pick<Report, 'epochs'>): string | undefined {
  const e = r.epochs;
  if (!e) return undefined;
  return `${e.samples} sample${e.samples === 1 ? '' : 's'} × ${e.count} epoch${e.count === 1 ? '' : 's'}, reduced by ${e.reducer}`;
}

export function formatReport(r: Report): string {
  const out: string[] = [];
  out.push(`${r.path}`);
  if (r.notScored) {
    // A data file the folder scan looked at and did not take as predictions.
    out.push(`  not scored: ${r.fatal}`);
    return out.join('\n');
  }
  const title = [r.format, r.summary?.harness, r.kindUnknown ? undefined : r.kind, r.task].filter(Boolean).join(' · ');
  // A summary has figures, not a count of samples scored.
  out.push(r.summary ? `  ${title}` : `  ${title}   ${counts(r)}`);
  if (r.fatal) out.push(`  not scored: ${r.fatal}`);
  out.push(...summaryLines(r));
  const disagree = new Set(disagreeingReported(r));
  const hasReported = Object.keys(r.reported).length > 0;
  for (const name of reportMetricNames(r)) {
    const v = r.metrics[name];
    const ci = r.intervals[name];
    let line = `  ${name.padEnd(13)} ${formatNumber(v).padStart(8)}`;
    if (ci) line += `  [${formatNumber(ci[0])}, ${formatNumber(ci[1])}]`;
    const se = standardErrorText(r, name);
    if (se) line += `  ${se}`;
    if (hasReported && name in r.reported) {
      line += `   reported ${formatNumber(r.reported[name])}${reportedOnText(r)}${disagree.has(name) ? '  ✗ disagrees' : ''}`;
    }
    out.push(line);
  }
  out.push(...errorBarLines(r));
  out.push(...taskMetricLines(r));
  if (r.groups) out.push(...formatGroups(r));
  out.push(...judgeLines(r));
  if (r.slices) out.push(...sliceContrastLines(r.slices));
  if (!r.summary) out.push(...reportedExtras(r));
  if (r.problems.length) {
    const errors = r.problems.filter((p) => p.severity === 'error').length;
    out.push(`  problems: ${r.problems.length} (${errors} error${errors === 1 ? '' : 's'})`);
    for (const p of r.problems.slice(0, PROBLEMS_SHOWN)) out.push(problemLine(p));
    if (r.problems.length > PROBLEMS_SHOWN) out.push(`    … ${r.problems.length - PROBLEMS_SHOWN} more (use --json for all)`);
  }
  return out.join('\n');
}

export function formatTable(reports: Report[], summary: { raft_score?: number | null }): string {
  const blocks = reports.map(formatReport);
  if (summary.raft_score !== undefined) blocks.push(raftSummaryLine(reports, summary.raft_score));
  return blocks.join('\n\n') + '\n';
}

/** The RAFT summary in plain words: how many task files were scored, and the mean when any was. */
export function raftSummaryLine(reports: Report[], score: number | null | undefined): string {
  const raft = reports.filter((r) => r.format === 'raft');
  const scored = raft.filter((r) => typeof r.metrics.macro_f1 === 'number').length;
  const files = `${raft.length} RAFT task file${raft.length === 1 ? '' : 's'}`;
  if (!scored) return `raft_score: not computed: ${raft.length === 1 ? 'the RAFT task file could not' : `none of the ${files} could`} be scored (see above).`;
  const of = scored === raft.length ? `${scored} task${scored === 1 ? '' : 's'}` : `${scored} of ${files} scored`;
  return `raft_score (mean macro_f1 over ${of}): ${formatNumber(score)}`;
}
