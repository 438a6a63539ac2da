// The metrics a report carries, in the one order every output of `eval-lens score` uses (terminal
// table, --json, --markdown, --csv): the kind's list from the metric table, then any other metric
// name, then the rates at the threshold.
import { METRIC_NAMES, RATE_NAMES, type MetricName, type RateName, type Report } from '../core/types';
import { KIND_METRICS } from '../common/metricTable';

export function reportMetricNames(r: Pick<Report, 'kind' | 'metrics'>): (MetricName | RateName)[] {
  const order = new Set<MetricName | RateName>([...KIND_METRICS[r.kind].computed, ...METRIC_NAMES, ...RATE_NAMES]);
  return [...order].filter((m) => r.metrics[m] !== undefined);
}
