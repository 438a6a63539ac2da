// A judge file on a leaderboard (`eval-lens board`): one row per model, from the report's per-model
// groups, under the file's task (its name); the arena ratings bring their own rank intervals and
// tiers (over the battles' bootstrap), which the board keeps instead of a rank bootstrap of its own.
import type { MetricName, Report } from '../types';
import type { Board, BoardEntry } from '../compare/board';
import { baseName } from '../../common/paths';

/** The board entries of a judge report (one per model), or undefined for any other report. */
export function judgeBoardEntries(r: Report): BoardEntry[] | undefined {
  if (!r.judge || !r.groups || r.groups.column !== 'model') return undefined;
  const task = r.task ?? baseName(r.path).replace(/\.[^.]*$/, '');
  return r.groups.groups.map((g) => ({
    run: g.value, task, format: r.format, kind: r.kind, path: r.path,
    metrics: g.metrics as Partial<Record<MetricName, number | null>>,
    intervals: g.intervals as Partial<Record<MetricName, [number, number]>>,
  }));
}

/** The metric a board of these judge reports ranks by when none is asked for: the first one's headline. */
export function judgeBoardMetric(reports: readonly Report[]): MetricName | undefined {
  return reports.find((r) => r.judge)?.judge?.headline;
}

/** A board of one arena file's ratings takes the ratings' rank intervals and tiers. */
export function withRatingRanks(board: Board, reports: readonly Report[]): void {
  if (board.metric !== 'rating' || board.columns.length !== 1 || reports.length !== 1) return;
  const ratings = reports[0].judge?.ratings;
  if (!ratings) return;
  const byModel = new Map(ratings.map((r) => [r.model, r]));
  for (const row of board.rows) {
    const r = byModel.get(row.run);
    if (!r) continue;
    row.rank_interval = r.rank_interval;
    row.tier = r.tier;
  }
}
