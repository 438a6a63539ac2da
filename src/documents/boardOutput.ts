// `eval-lens board --markdown | --csv`: the leaderboard as a pull-request table or a data file. Rows
// come ranked (best first by the row mean); Markdown cells carry 4 decimals and the interval when
// computed, CSV one row per run and task at full precision.
import type { Board } from '../core/compare/board';
import { formatNumber } from './table';
import { RANK_NOTE, rankIntervalText } from './boardTable';
import { csvTable, markdownCode, markdownTable, markdownText, type Cell, type Table } from '../common/tabular';

function cell(v: number | null | undefined, ci: [number, number] | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return ci ? `${formatNumber(v)} [${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : formatNumber(v);
}

export function boardMarkdownTable(board: Board): Table {
  const mean = board.mean_of === 'raft_score' ? 'raft_score' : 'mean';
  const ranked = board.rows.some((r) => r.rank_interval || r.tier);
  const columns = ['rank', 'run', ...board.columns, mean, ...(ranked ? ['rank 95%', 'tier'] : [])];
  const rows: Cell[][] = board.rows.map((r, k) => [
    String(r.rank ?? k + 1), markdownCode(r.run, true),
    ...board.columns.map((c) => cell(r.values[c], r.intervals[c])),
    formatNumber(r.mean),
    ...(ranked ? [rankIntervalText(r.rank_interval), r.tier ? String(r.tier) : '—'] : []),
  ]);
  return { columns, rows, align: columns.map((c) => (c === 'run' ? 'left' : 'right')) };
}

/** One board (or each pivot) as a section: the metric and its direction in words, then the table. */
export function boardMarkdown(boards: Board[]): string {
  return boards.map((b) => {
    const title = `## Eval Lens board: \`${b.metric}\` (${b.better} is better${b.pivot ? ', numeric minus multiple-choice' : ''})`;
    const table = boardMarkdownTable(b);
    // Cells are ours (numbers, code-span runs) except the task names in the header.
    return [title, '', ...(b.metric_note ? [markdownText(`metric: ${b.metric_note}`), ''] : []), `${b.rows.length} ${b.rows.length === 1 ? 'run' : 'runs'} × ${b.columns.length} ${b.columns.length === 1 ? 'task' : 'tasks'} · ${markdownText(b.source)} figures`, '',
      markdownTable(table, table.columns.map((_, i) => i)), ...(b.rows.some((r) => r.rank_interval || r.tier) ? [RANK_NOTE, ''] : [])].join('\n');
  }).join('\n');
}

export const BOARD_CSV_COLUMNS = ['metric', 'rank', 'run', 'task', 'value', 'ci_low', 'ci_high', 'row_mean', 'path', 'rank_low', 'rank_high', 'tier'];

export function boardCsv(boards: Board[]): string {
  const rows: Cell[][] = [];
  for (const b of boards) {
    b.rows.forEach((r, k) => {
      for (const task of b.columns) {
        const ci = r.intervals[task];
        rows.push([b.metric, r.rank ?? k + 1, r.run, task, r.values[task] ?? null, ci?.[0], ci?.[1], r.mean, r.paths[task] ?? '', r.rank_interval?.[0] ?? null, r.rank_interval?.[1] ?? null, r.tier ?? null]);
      }
    });
  }
  return csvTable({ columns: BOARD_CSV_COLUMNS, rows });
}
