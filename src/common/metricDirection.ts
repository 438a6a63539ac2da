// Which way is better for each metric (docs/metrics.md): the one table behind the board's ranking,
// the compare table's "better"/"worse" (CLI and panel), the regression gate (--fail-on-regression),
// the report cards' arrows and the worst group of a per-group table. In src/common because the
// webview needs it as much as the core and the CLI.
import type { MetricName } from '../core/types';

export type Direction = 'lower' | 'higher';

/** 'lower': errors and losses; 'higher': scores, rewards and correlations (docs/metrics.md). A Record, so a new metric name does not compile without its direction. */
const METRIC_DIRECTION: Record<MetricName, Direction> = {
  accuracy: 'higher', auc: 'higher', macro_f1: 'higher', raft_score: 'higher',
  brier: 'lower', nbr: 'lower', log_loss: 'lower', ece: 'lower', ece_quantile: 'lower',
  mce: 'lower', mce_quantile: 'lower', ks: 'lower',
  hmr: 'higher', r_o: 'higher', r_u: 'higher', hmr_beta: 'higher',
  mse: 'lower', tvd: 'lower', kl: 'lower', spearman: 'higher',
  acc_norm: 'higher', perplexity: 'lower', stderr: 'lower',
  // σ* equals smECE at the fixed point: smaller is better calibrated too.
  smece: 'lower', smece_sigma: 'lower', ece_classwise: 'lower',
  // Judges: grades, win rates, ratings and agreement are better high; a judge's position bias low.
  // length_bias is a correlation whose best value is 0: 'lower' ranks it by its signed value, so read it, don't rank by it.
  judge_score: 'higher', win_rate: 'higher', win_rate_adjusted: 'higher', rating: 'higher', position_bias: 'lower',
  length_bias: 'lower', agreement: 'higher', kappa: 'higher',
  // A stated confidence: telling right answers from wrong ones is better high, its Brier low.
  confidence_auroc: 'higher', confidence_brier: 'lower',
};

/** 'higher' for scores and rewards (accuracy, auc, hmr, ...), 'lower' for errors and losses. */
export function betterDirection(metric: MetricName): Direction {
  return METRIC_DIRECTION[metric];
}

/** +1 when delta (candidate - baseline) is an improvement, -1 when worse, 0 when equal. */
export function improvement(metric: MetricName, delta: number): -1 | 0 | 1 {
  if (delta === 0) return 0;
  return (delta > 0) === (betterDirection(metric) === 'higher') ? 1 : -1;
}
