// Which way each metric improves: the one place gates, comparisons and the report's cards ask.
import type { MetricName } from './types';

export type Direction = 'lower' | 'higher';

/** 'lower': errors and losses; 'higher': scores, rewards and correlations (METRICS.md). */
export const METRIC_DIRECTION: Record<MetricName, Direction> = {
  accuracy: 'higher', auc: 'higher', macro_f1: 'higher', raft_score: 'higher',
  brier: 'lower', nbr: 'lower', log_loss: 'lower', ece: 'lower', ece_quantile: 'lower',
  mce: 'lower', mce_quantile: 'lower', ks: 'lower',
  hmr: 'higher', r_o: 'higher', r_u: 'higher', hmr_beta: 'higher',
  mse: 'lower', tvd: 'lower', kl: 'lower', spearman: 'higher',
  acc_norm: 'higher', perplexity: 'lower', stderr: 'lower',
};

/** True when going from `base` to `base + delta` makes the metric worse (a zero change is not). */
export function isWorse(metric: MetricName, delta: number): boolean {
  return METRIC_DIRECTION[metric] === 'lower' ? delta > 0 : delta < 0;
}
