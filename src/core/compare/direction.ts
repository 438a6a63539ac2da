// Which way is better for each metric, as the board ranks and the compare table says it in words:
// read from the one table of directions (src/core/metricDirection.ts).
import type { MetricName } from '../types';
import { METRIC_DIRECTION } from '../metricDirection';

/** 'higher' for scores and rewards (accuracy, auc, hmr, ...), 'lower' for errors and losses. */
export function betterDirection(metric: MetricName): 'higher' | 'lower' {
  return METRIC_DIRECTION[metric];
}

/** +1 when delta (candidate - baseline) is an improvement, -1 when worse, 0 when equal. */
export function improvement(metric: MetricName, delta: number): -1 | 0 | 1 {
  if (delta === 0) return 0;
  return (delta > 0) === (betterDirection(metric) === 'higher') ? 1 : -1;
}
