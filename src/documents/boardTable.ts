// The readable output of `eval-lens board`: runs best first, one column per task, value and
// interval in each cell, the row mean last; the ranking direction in words.
import type { Board } from '../core/compare/board';
import { formatNumber } from './table';
import { problemsLine } from './scoreTables';

export function formatBoard(b: Board): string {
  const what = b.pivot === 'prompting' ? `change in ${b.metric} from multiple-choice to numeric prompting (numeric − multiple-choice)` : b.metric;
  const out: string[] = [];
  out.push(`leaderboard: ${what}; ${b.better} is better; rows ranked by ${b.mean_of === 'raft_score' ? 'raft_score (mean macro_f1 over tasks)' : 'the row mean'}${b.source === 'reported' ? '; figures as reported in the results table (no intervals)' : ''}`);
  // How a task metric was chosen and which way it is better (or that nobody says).
  if (b.metric_note) out.push(`metric: ${b.metric_note}`);
  const ranked = b.rows.some((r) => r.rank_interval || r.tier);
  const header = ['#', 'run', ...b.columns, b.mean_of, ...(ranked ? ['rank 95%', 'tier'] : [])];
  const rows = b.rows.map((r, i) => [
    String(r.rank ?? i + 1),
    r.run,
    ...b.columns.map((c) => cell(r.values[c], r.intervals[c])),
    r.mean === null ? '—' : `${formatNumber(r.mean)}${r.cells < b.columns.length ? ` (${r.cells}/${b.columns.length})` : ''}`,
    ...(ranked ? [rankIntervalText(r.rank_interval), r.tier ? String(r.tier) : '—'] : []),
  ]);
  const all = [header, ...rows];
  const widths = header.map((_, j) => Math.max(...all.map((r) => r[j].length)));
  for (const r of all) out.push(r.map((c, j) => (j === 1 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  ').trimEnd());
  if (b.rows.some((r) => Object.values(r.intervals).some(Boolean))) out.push('cells: value [95% bootstrap interval]');
  if (ranked) out.push(RANK_NOTE);
  out.push(...problemLines(b.problems));
  return out.join('\n') + '\n';
}

/** Problems listed under the board before "… N more". */
const PROBLEMS_SHOWN = 10;

/**
 * The board's problems, counted by severity, the worst first, then "… N more": as score and compare
 * print theirs, in the table (stdout), so none is dropped without a count. (Files not on the board
 * and rows missing tasks are notes; two runs of one model, a warning.)
 */
function problemLines(problems: Board['problems']): string[] {
  if (!problems.length) return [];
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = problems.map((p, i) => [p, i] as const).sort((a, b) => order[a[0].severity] - order[b[0].severity] || a[1] - b[1]).map(([p]) => p);
  const out = ['', problemsLine(problems)];
  for (const p of sorted.slice(0, PROBLEMS_SHOWN)) out.push(`  ${p.path ?? ''}${p.path ? ': ' : ''}${p.severity === 'info' ? 'note' : p.severity}: ${p.message}`);
  if (sorted.length > PROBLEMS_SHOWN) out.push(`  … ${sorted.length - PROBLEMS_SHOWN} more (use --json for all)`);
  return out;
}

/** What the rank interval and the tier mean, under the board in every document. */
export const RANK_NOTE = 'rank 95%: the ranks a bootstrap of the items gives (2.5% to 97.5%); tier 1: the top run and every run not significantly worse than it (paired bootstrap, Holm, α 0.05), then tier 2 among the rest, …';

/** [1, 2] -> "1–2", [3, 3] -> "3", null -> "—". */
export function rankIntervalText(ri: [number, number] | null | undefined): string {
  if (!ri) return '—';
  return ri[0] === ri[1] ? String(ri[0]) : `${ri[0]}–${ri[1]}`;
}

function cell(v: number | null, ci: [number, number] | null): string {
  if (v === null) return '—';
  return ci ? `${formatNumber(v)} [${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : formatNumber(v);
}
