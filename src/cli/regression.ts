// `eval-lens compare BASE CAND --fail-on-regression auc,ece [--alpha A]`: the run fails (exit 3)
// when a candidate is significantly worse than the baseline on a listed metric, in the direction in
// which that metric improves. Significantly better, or no significant difference, passes.
import type { MetricName } from '../core/types';
import { betterDirection, improvement } from '../common/metricDirection';
import { UsageError } from './args';
import type { ComparedMetric, RegressionResult } from '../documents/gateResults';

export type { ComparedMetric, RegressionResult } from '../documents/gateResults';
import { gateNumber, metricName } from './gates';

/** `--fail-on-regression auc,ece`: the metric names, each known. */
export function parseRegressionMetrics(text: string | undefined): MetricName[] {
  if (text === undefined) return [];
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (!names.length) throw new UsageError(`--fail-on-regression takes METRIC[,METRIC...], e.g. auc,ece; got '${text}'.`);
  return [...new Set(names.map((n) => metricName(n, '--fail-on-regression')))];
}

/** `--alpha A`: a significance level strictly between 0 and 1 (default 0.05). */
export function parseAlpha(raw: string | undefined): number {
  if (raw === undefined) return 0.05;
  const a = Number(raw);
  if (raw.trim() === '' || !(a > 0 && a < 1)) throw new UsageError(`--alpha takes a number between 0 and 1, got '${raw}'.`);
  return a;
}

/** `--margin δ`: a non-negative number, in the metric's own units (0.01 = one point of accuracy). */
export function parseMargin(raw: string | undefined, gated: readonly MetricName[]): number | undefined {
  if (raw === undefined) return undefined;
  const m = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(m) || m < 0) throw new UsageError(`--margin takes a non-negative number (in the metric's units, e.g. 0.01), got '${raw}'.`);
  if (!gated.length) throw new UsageError('--margin needs --fail-on-regression METRIC[,METRIC...].');
  return m;
}

/**
 * The regression gate, per listed metric and candidate. A listed metric the comparison lacks, or
 * whose test could not be run (p-value null), fails: the gate cannot vouch for it. With `margin`
 * (--margin δ) it is a non-inferiority gate instead: a candidate fails when the 95% interval of its
 * delta reaches more than δ in the metric's worse direction (for auc: lower bound < −δ), so a
 * significant regression smaller than δ passes; a missing interval fails.
 */
export function checkRegressions(compared: ComparedMetric[], metrics: MetricName[], alpha: number, margin?: number): RegressionResult[] {
  const out: RegressionResult[] = [];
  for (const metric of metrics) {
    const direction = betterDirection(metric);
    const rows = compared.filter((x) => x.metric === metric);
    if (!rows.length) out.push({ metric, run: null, delta: null, p_value: null, direction, failed: true, reason: 'not in the comparison', ...(margin !== undefined ? { margin } : {}) });
    for (const c of rows) {
      const base = { metric, run: c.run, delta: c.delta, p_value: c.p_value, direction };
      if (margin !== undefined) {
        out.push(nonInferiority(base, c.interval ?? null, margin));
        continue;
      }
      if (c.delta === null || c.p_value === null || !Number.isFinite(c.delta) || !Number.isFinite(c.p_value)) {
        out.push({ ...base, failed: true, reason: 'no test result' });
      } else {
        out.push({ ...base, failed: c.p_value < alpha && improvement(metric, c.delta) < 0 });
      }
    }
  }
  return out;
}

/** Non-inferiority: the worse end of the interval of delta must stay within δ of 0. */
function nonInferiority(base: Omit<RegressionResult, 'failed'>, interval: [number, number] | null, margin: number): RegressionResult {
  if (!interval || !Number.isFinite(interval[0]) || !Number.isFinite(interval[1])) {
    return { ...base, margin, interval: null, failed: true, reason: 'no 95% interval of the difference (non-inferiority needs the paired bootstrap: --bootstrap N > 0)' };
  }
  // The worse end: the lower bound when higher is better, the upper bound when lower is better.
  const worse = base.direction === 'higher' ? interval[0] : interval[1];
  const failed = base.direction === 'higher' ? worse < -margin : worse > margin;
  const shown = `[${gateNumber(interval[0])}, ${gateNumber(interval[1])}]`;
  return {
    ...base, margin, interval, failed,
    ...(failed ? { reason: `may be worse by more than the margin: the 95% interval of delta ${shown} reaches ${gateNumber(worse)}, beyond ${base.direction === 'higher' ? '−' : '+'}${gateNumber(margin)}` } : {}),
  };
}

export function regressionReport(results: RegressionResult[], alpha: number): string {
  if (!results.length) return '';
  const lines = results.filter((r) => r.failed).map((r) => {
    const who = r.run ? `${r.run}: ` : '';
    if (r.reason) return `eval-lens: regression gate failed: ${who}${r.metric}: ${r.reason}.`;
    return `eval-lens: regression gate failed: ${who}${r.metric} is significantly worse (${r.direction} is better): delta ${gateNumber(r.delta!)}, p ${r.p_value! < 1e-4 ? '< 0.0001' : `= ${gateNumber(r.p_value!)}`} < alpha ${alpha}.`;
  });
  const failed = lines.length;
  const margin = results.find((r) => r.margin !== undefined)?.margin;
  const metrics = [...new Set(results.map((r) => r.metric))].join(', ');
  lines.push(failed
    ? `eval-lens: ${failed} of ${results.length} regression check${results.length === 1 ? '' : 's'} failed (exit 3).`
    : margin !== undefined
      ? `eval-lens: non-inferior within the margin ${gateNumber(margin)} (the 95% interval of delta) on ${metrics}.`
      : `eval-lens: no significant regression (alpha ${alpha}) on ${metrics}.`);
  return lines.map((l) => l + '\n').join('');
}
