// Which way is better for each metric (docs/metrics.md): the board ranks by it and the compare table
// says "better" or "worse" in words, and the CLI's regression gate (--fail-on-regression) fails on it.
import type { MetricName } from '../types';

const HIGHER_IS_BETTER: ReadonlySet<MetricName> = new Set<MetricName>([
  'accuracy', 'acc_norm', 'auc', 'macro_f1', 'raft_score', 'hmr', 'r_o', 'r_u', 'hmr_beta', 'spearman',
]);

/** 'higher' for scores and rewards (accuracy, auc, hmr, ...), 'lower' for errors and losses. */
export function betterDirection(metric: MetricName): 'higher' | 'lower' {
  return HIGHER_IS_BETTER.has(metric) ? 'higher' : 'lower';
}

/** +1 when delta (candidate - baseline) is an improvement, -1 when worse, 0 when equal. */
export function improvement(metric: MetricName, delta: number): -1 | 0 | 1 {
  if (delta === 0) return 0;
  return (delta > 0) === (betterDirection(metric) === 'higher') ? 1 : -1;
}
