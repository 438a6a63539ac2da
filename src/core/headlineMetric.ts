// The one number that summarises a report of each kind (tree, status bar, leaderboard cells).
import type { MetricName, Report } from './types';

/** ECE for risk scores, macro-F1 for RAFT, MSE for ALMANACS, accuracy otherwise. */
export function headlineMetric(r: Pick<Report, 'format' | 'kind'>): MetricName {
  if (r.format === 'raft') return 'macro_f1';
  if (r.kind === 'probability') return 'mse';
  if (r.kind === 'binary') return 'ece';
  return 'accuracy';
}
