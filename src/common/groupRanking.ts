// Which metrics a per-group table shows for each kind, which one ranks the groups, and which group
// is the worst by it: one rule for the CLI's group table and the report's.
import type { GroupSlice, Kind, MetricName, Report } from '../core/types';
import { betterDirection } from './metricDirection';

type GroupMetric = keyof GroupSlice['metrics'];

/** Columns shown per kind; the first (a metric, with a direction) ranks the groups. */
export const GROUP_COLUMNS: Record<Kind, [MetricName, ...GroupMetric[]]> = {
  binary: ['accuracy', 'auc', 'ece', 'tpr', 'fpr', 'ppr'],
  multiclass: ['accuracy', 'macro_f1', 'ece'],
  confidence: ['accuracy', 'ece', 'hmr'],
  probability: ['mse', 'tvd', 'spearman'],
  // Per-sample scores: their means per group are the group's taskMetrics; no set metric ranks them.
  // A judge file's groups are its models (src/core/judges/): each model's grade, rating or win rate.
  scores: ['accuracy', 'judge_score', 'rating', 'win_rate', 'win_rate_adjusted', 'stderr'],
};

export function lowerIsBetter(metric: MetricName): boolean {
  return betterDirection(metric) === 'lower';
}

/** Index of the group with the worst ranking metric (-1 when fewer than two groups have it). */
export function worstGroupIndex(kind: Kind, groups: readonly GroupSlice[]): number {
  const key = GROUP_COLUMNS[kind][0];
  const lower = lowerIsBetter(key);
  let worst = -1;
  let seen = 0;
  groups.forEach((g, k) => {
    const v = g.metrics[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) return;
    seen++;
    const w = worst === -1 ? undefined : (groups[worst].metrics[key] as number);
    if (w === undefined || (lower ? v > w : v < w)) worst = k;
  });
  return seen >= 2 ? worst : -1;
}

/** The groups with the intervals of the bootstrap pass (same groups: the same file and options). */
export function withGroupIntervals(groups: Report['groups'], intervals: Report['intervals'][] | undefined): Report['groups'] {
  if (!groups || !intervals || intervals.length !== groups.groups.length) return groups;
  return { ...groups, groups: groups.groups.map((g, k) => ({ ...g, intervals: intervals[k] })) };
}
