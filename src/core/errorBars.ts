// Error bars of a report (issue 18; docs/metrics.md, "Error bars"): the standard error of every
// metric that is a mean over instances, clustered standard errors and design effects, the interval
// method (percentile bootstrap, t, Wilson), the bootstrap that resamples whole clusters, and the
// figures of repeated attempts at one item. The arithmetic is in metrics/errorBars.ts; this module
// knows which metric is which mean over which per-instance value.
import { decisionAt } from './metrics/decisions';
import type { ClustersResult, MetricName, ParseResult, PredictionSet, RateName, RepeatsResult, Report, RowProblem, ScoreOptions } from './types';
import { METRIC_NAMES } from './types';
import { bootstrapCountIntervals, bootstrapIntervals, type Counts } from './metrics/bootstrap';
import {
  clusteredStderr, meanStderr, repeatFigures, tInterval, wilsonInterval, type ClusterCodes,
} from './metrics/errorBars';

export type IntervalMethod = 'bootstrap' | 't' | 'wilson';
export const INTERVAL_METHODS: readonly IntervalMethod[] = ['bootstrap', 't', 'wilson'];

/** Fewer instances (or clusters) than this: intervals are rough (Bowyer et al. 2025). */
export const ROUGH_BELOW = 30;
/** Fewer clusters than this: no cluster-bootstrap interval at all (2 clusters have 3 distinct resamples). */
export const FEWEST_CLUSTERS_FOR_BOOTSTRAP = 5;

const LOG_LOSS_EPS = 1e-15;
const KL_EPS = 1e-6;

/** A metric that is a mean over instances, and how to write each instance's value. */
export interface MeanMetric {
  name: MetricName;
  fill(out: Float64Array): void;
  /** Proportions (0/1 values): Wilson applies. */
  proportion?: boolean;
  /** Values `scale` times another metric's (NBR = Brier / 2): its figures follow without a pass of their own. */
  derived?: { from: MetricName; scale: number };
}

function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * The mean-over-instances metrics of a set (docs/metrics.md): accuracy (and lm-eval's acc_norm),
 * Brier, NBR, log loss; for probabilities mse, tvd and kl. `set` is the scored set, `original` the
 * parsed one (lm-eval: accuracy stays acc under --decision acc_norm).
 */
export function meanMetrics(set: PredictionSet, o: Pick<ScoreOptions, 'threshold'>, original: PredictionSet = set): MeanMetric[] {
  const n = set.n;
  switch (set.kind) {
    case 'binary': {
      const { score, label } = set;
      const brier = (out: Float64Array) => { for (let i = 0; i < n; i++) { const d = score[i] - (label[i] ? 1 : 0); out[i] = d * d; } };
      return [
        { name: 'accuracy', proportion: true, fill: (out) => { for (let i = 0; i < n; i++) out[i] = decisionAt(set, o.threshold, i) === (label[i] ? 1 : 0) ? 1 : 0; } },
        { name: 'brier', fill: brier },
        { name: 'nbr', fill: brier, derived: { from: 'brier', scale: 1 } },
        { name: 'log_loss', fill: (out) => { for (let i = 0; i < n; i++) { const s = clip(score[i], LOG_LOSS_EPS, 1 - LOG_LOSS_EPS); out[i] = -(label[i] ? Math.log(s) : Math.log(1 - s)); } } },
      ];
    }
    case 'confidence': {
      const { confidence: c, correct } = set;
      return [
        { name: 'accuracy', proportion: true, fill: (out) => { for (let i = 0; i < n; i++) out[i] = correct[i] ? 1 : 0; } },
        { name: 'brier', fill: (out) => { for (let i = 0; i < n; i++) out[i] = (c[i] - correct[i]) ** 2; } },
        { name: 'log_loss', fill: (out) => { for (let i = 0; i < n; i++) { const s = clip(c[i], LOG_LOSS_EPS, 1 - LOG_LOSS_EPS); out[i] = -(correct[i] ? Math.log(s) : Math.log(1 - s)); } } },
      ];
    }
    case 'multiclass': {
      const base = original.kind === 'multiclass' ? original : set;
      const out: MeanMetric[] = [
        { name: 'accuracy', proportion: true, fill: (v) => { for (let i = 0; i < n; i++) v[i] = base.pred[i] === base.gold[i] ? 1 : 0; } },
      ];
      if (base.predNorm) {
        const pn = base.predNorm;
        out.push({ name: 'acc_norm', proportion: true, fill: (v) => { for (let i = 0; i < n; i++) v[i] = pn[i] === base.gold[i] ? 1 : 0; } });
      }
      const probs = set.probs;
      if (probs) {
        const k = set.classes.length;
        const brier = (scale: number) => (v: Float64Array) => {
          for (let i = 0; i < n; i++) {
            let s = 0;
            for (let j = 0; j < k; j++) { const d = probs[i * k + j] - (j === set.gold[i] ? 1 : 0); s += d * d; }
            v[i] = s * scale;
          }
        };
        out.push({ name: 'brier', fill: brier(1) }, { name: 'nbr', fill: brier(0.5), derived: { from: 'brier', scale: 0.5 } });
        out.push({
          name: 'log_loss', fill: (v) => {
            for (let i = 0; i < n; i++) {
              const g = set.gold[i];
              const p = g >= 0 && g < k ? probs[i * k + g] : 0;
              v[i] = -Math.log(clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS));
            }
          },
        });
      }
      return out;
    }
    case 'probability': {
      const { predProb: p, goldProb: q } = set;
      return [
        { name: 'mse', fill: (v) => { for (let i = 0; i < n; i++) v[i] = (p[i] - q[i]) ** 2; } },
        { name: 'tvd', fill: (v) => { for (let i = 0; i < n; i++) v[i] = Math.abs(p[i] - q[i]); } },
        {
          name: 'kl', fill: (v) => {
            for (let i = 0; i < n; i++) {
              const a = clip(q[i], KL_EPS, 1 - KL_EPS);
              const b = clip(p[i], KL_EPS, 1 - KL_EPS);
              v[i] = a * Math.log(a / b) + (1 - a) * Math.log((1 - a) / (1 - b));
            }
          },
        },
      ];
    }
    // Per-sample scores: their means and SEs are the taskMetrics' (attachTaskMetricErrors).
    case 'scores': return [];
  }
}

/** Rows grouped into clusters, and the column that named them (the ID column for repeats). */
export interface ReportClusters extends ClusterCodes {
  column: string;
  /** Rows without a value, each a cluster of its own (counted in `count`). */
  singletons?: number;
}

/** Whether the per-instance mean is the report's figure (a format's own definition may differ: Inspect). */
function sameFigure(mean: number, figure: number | null | undefined): boolean {
  return typeof figure === 'number' && Math.abs(mean - figure) <= 1e-9 * Math.max(1, Math.abs(figure));
}

/**
 * Standard errors, clusters and the intervals of the chosen method, onto the report (whose
 * metrics and bootstrap intervals are computed): `standard_errors`, `clusters`, `interval_method`,
 * `rough_intervals`, and the intervals replaced where the method gives them. With clusters, the
 * caller has already made the bootstrap resample whole clusters (clusterBootstrap).
 */
export function attachErrorBars(
  report: Report, set: PredictionSet, original: PredictionSet, o: ScoreOptions, clusters?: ReportClusters, own?: OwnSums,
): void {
  const method = o.interval ?? 'bootstrap';
  const n = set.n;
  const se: Partial<Record<MetricName, number>> = {};
  const clustered: ClustersResult | undefined = clusters
    ? { column: clusters.column, count: clusters.count, ...(clusters.singletons ? { singletons: clusters.singletons } : {}), standard_errors: {}, design_effect: {} }
    : undefined;
  // Few clusters: a percentile bootstrap over a handful of clusters has a handful of distinct
  // resamples (2 clusters: 3), so its intervals are far too narrow or too wide. The means get t
  // intervals with clusters − 1 degrees of freedom instead; the rest keep the bootstrap (below 5
  // clusters: nothing). A clustered bootstrap with --interval t or wilson already gives means t.
  const few = clustered && clusters && clusters.count < ROUGH_BELOW && clusters.count >= 2 && method === 'bootstrap';
  let values: Float64Array | undefined;
  const intervals = report.intervals;
  for (const m of meanMetrics(set, o, original)) {
    const figure = report.metrics[m.name];
    if (typeof figure !== 'number') continue;
    let s: { mean: number; se: number };
    let c: number | null = null;
    if (m.derived) {
      // Same values up to a factor: no pass of its own (scoring speed on a million rows).
      const from = se[m.derived.from];
      const fromFigure = report.metrics[m.derived.from];
      if (from === undefined || typeof fromFigure !== 'number' || !sameFigure(fromFigure * m.derived.scale, figure)) continue;
      s = { mean: figure, se: from * m.derived.scale };
      const fromC = clustered?.standard_errors[m.derived.from];
      c = fromC === undefined || fromC === null ? null : fromC * m.derived.scale;
    } else if (!clusters && own && own.metrics[m.name] === figure && (m.proportion || own.squares?.[m.name] !== undefined)) {
      // The set's own figure, whose pass also summed the squared terms (or a proportion, whose
      // squares are its values): no pass over the rows here (scoring speed on a million rows).
      const ss = m.proportion ? proportionSquares(figure, n) : Math.max(0, own.squares![m.name]! - n * figure * figure);
      s = { mean: figure, se: n < 2 ? 0 : Math.sqrt(ss / (n - 1)) / Math.sqrt(n) };
    } else {
      const buffer = (values ??= new Float64Array(n));
      m.fill(buffer);
      s = shiftedMeanStderr(buffer, figure);
      if (!sameFigure(s.mean, figure)) continue;
      if (clusters) c = clusteredStderr(buffer, clusters);
    }
    se[m.name] = s.se;
    let useSe = s.se;
    let df = n - 1;
    if (clustered && clusters) {
      clustered.standard_errors[m.name] = c;
      clustered.design_effect[m.name] = c !== null && s.se > 0 ? (c / s.se) ** 2 : null;
      useSe = c ?? NaN;
      df = clusters.count - 1;
    }
    if (method === 't' || (method === 'wilson' && m.proportion && clusters) || (few && (o.bootstrap > 0 || m.name in intervals))) {
      // Wilson has no clustered form: with clusters a proportion gets the clustered t interval.
      const iv = tInterval(s.mean, useSe, df);
      if (iv) intervals[m.name] = iv; else delete intervals[m.name];
    } else if (method === 'wilson' && m.proportion) {
      const iv = wilsonInterval(Math.round(s.mean * n), n);
      if (iv) intervals[m.name] = iv;
    }
  }
  if (method === 'wilson' && !clusters && set.kind === 'binary') Object.assign(intervals, rateWilson(set, o.threshold, report.metrics));
  report.standard_errors = se;
  report.interval_method = method;
  if (clustered && few && clusters) {
    const others: 'bootstrap' | 'none' = clusters.count < FEWEST_CLUSTERS_FOR_BOOTSTRAP ? 'none' : 'bootstrap';
    clustered.few = { means: 't', others };
    if (others === 'none') for (const name of Object.keys(intervals)) if (!(name in se)) delete intervals[name as MetricName];
    report.problems.push({
      line: 1, severity: 'warning', code: 'group-column',
      message: `Only ${clusters.count} clusters of ${JSON.stringify(clusters.column)}: clustered intervals need about 30. The means get t intervals with ${clusters.count - 1} degree${clusters.count === 2 ? '' : 's'} of freedom (wide, as they should be)${others === 'none' ? `; the other metrics get no interval (a bootstrap over fewer than ${FEWEST_CLUSTERS_FOR_BOOTSTRAP} clusters has almost no distinct resamples)` : '; the other metrics\' cluster-bootstrap intervals are rough'}.`,
    });
  }
  if (clustered) report.clusters = clustered;
  const units = clusters ? clusters.count : n;
  if (Object.keys(intervals).length && units < ROUGH_BELOW) report.rough_intervals = true;
}

/** What the scoring pass already knows: the set's own figures and the sums of squared per-row terms. */
export interface OwnSums {
  metrics: Report['metrics'];
  squares?: Partial<Record<MetricName, number>>;
}

/** Sum of squared deviations of n values in {0, 1} with mean p: k (n - k) / n, k = p n. */
function proportionSquares(p: number, n: number): number {
  const k = Math.round(p * n);
  return (k * (n - k)) / n;
}

/**
 * Mean and SE (ddof 1) in one pass, with sums shifted by `shift` (the report's figure, which is the
 * mean when the figure is this metric's): sum (x - K) and sum (x - K)^2, the usual stable
 * single-pass form. 0 for one value.
 */
function shiftedMeanStderr(x: Float64Array, shift: number): { mean: number; se: number } {
  const n = x.length;
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - shift;
    s1 += d;
    s2 += d * d;
  }
  const mean = shift + s1 / n;
  if (n < 2) return { mean, se: 0 };
  const ss = Math.max(0, s2 - (s1 * s1) / n);
  return { mean, se: Math.sqrt(ss / (n - 1)) / Math.sqrt(n) };
}

/**
 * Standard errors of the per-sample metrics a task logged itself (lm-eval's f1, bleu, ...; a NaN
 * is a sample that did not log it), under their own names; with --interval t, their t intervals.
 * A name that is also one of ours keeps ours.
 */
export function attachTaskMetricErrors(report: Report, list: ParseResult['taskMetrics'], o: ScoreOptions): void {
  if (!list?.length || !report.taskMetrics) return;
  const se: Record<string, number> = (report.standard_errors ??= {});
  for (const t of list) {
    if ((METRIC_NAMES as readonly string[]).includes(t.name)) continue;
    // NaN: not logged (as TaskMetric.n counts); an infinite value makes the mean and SE infinite: none.
    const finite = t.values.filter((v) => !Number.isNaN(v));
    if (!finite.length) continue;
    const s = meanStderr(finite);
    if (!Number.isFinite(s.se)) continue;
    se[t.name] = s.se;
    const shown = report.taskMetrics.find((x) => x.name === t.name);
    if (o.interval === 't' && shown) {
      const iv = tInterval(s.mean, s.se, finite.length - 1);
      if (iv) shown.interval = iv; else delete shown.interval;
    }
  }
}

/**
 * The standard error and interval of a format's own mean figure from its per-sample values
 * (ParseResult.metricValues: Inspect's accuracy over C/I/P values): the SE (ddof 1) always, the
 * interval by the report's method (bootstrap with resamples, t, or Wilson for 0/1 values).
 */
export function attachOwnMetricErrors(report: Report, values: ParseResult['metricValues'], o: ScoreOptions): void {
  for (const [name, x] of Object.entries(values ?? {}) as [MetricName, Float64Array][]) {
    const figure = report.metrics[name];
    if (typeof figure !== 'number' || x.length < 2) continue;
    const s = meanStderr(x);
    if (!sameFigure(s.mean, figure)) continue;
    (report.standard_errors ??= {})[name] = s.se;
    const method = o.interval ?? 'bootstrap';
    const zeroOne = x.every((v) => v === 0 || v === 1);
    let iv: [number, number] | null | undefined;
    if (method === 't' || (method === 'wilson' && !zeroOne)) iv = tInterval(s.mean, s.se, x.length - 1);
    else if (method === 'wilson') iv = wilsonInterval(x.reduce((a, v) => a + v, 0), x.length);
    else if (o.bootstrap > 0) {
      const n = x.length;
      iv = bootstrapIntervals(n, o.bootstrap, o.seed, (idx) => {
        let t = 0;
        for (let i = 0; i < n; i++) t += x[idx[i]];
        return { mean: t / n };
      }).mean;
    }
    if (iv) report.intervals[name] = iv;
    report.interval_method = method;
    if (x.length < ROUGH_BELOW && iv) report.rough_intervals = true;
  }
}

/** Wilson intervals of folktexts' rates at the threshold (proportions of counts), where the rate is k/m. */
function rateWilson(set: Extract<PredictionSet, { kind: 'binary' }>, threshold: number, metrics: Report['metrics']): Partial<Record<RateName, [number, number]>> {
  let tp = 0, fp = 0, tn = 0, fn = 0;
  for (let i = 0; i < set.n; i++) {
    const p = decisionAt(set, threshold, i) === 1;
    if (set.label[i]) { if (p) tp++; else fn++; } else if (p) fp++; else tn++;
  }
  const rates: [RateName, number, number][] = [
    ['tpr', tp, tp + fn], ['fnr', fn, tp + fn], ['fpr', fp, fp + tn], ['tnr', tn, fp + tn],
    ['precision', tp, tp + fp], ['ppr', tp + fp, set.n],
  ];
  const out: Partial<Record<RateName, [number, number]>> = {};
  for (const [name, k, m] of rates) {
    if (m > 0 && sameFigure(k / m, metrics[name])) out[name] = wilsonInterval(k, m)!;
  }
  return out;
}

/**
 * Percentile bootstrap intervals that resample whole clusters: each resample draws C clusters with
 * replacement (the same draws as a row bootstrap of C rows with this seed) and scores the rows of
 * the drawn clusters, each as often as its cluster was drawn. `rowsOf` scores a row multiset.
 */
export function clusterBootstrap(
  clusters: ClusterCodes, resamples: number, seed: number,
  rowsOf: (w: Counts) => Record<string, number | null>, onResample?: (done: number) => void,
): Record<string, [number, number]> {
  const n = clusters.code.length;
  const w = new Uint32Array(n);
  return bootstrapCountIntervals(clusters.count, resamples, seed, (wc) => rowsOf(rowCounts(clusters, wc, w)), 0.95, onResample);
}

/** Row multiplicities from cluster multiplicities (into `w`). */
export function rowCounts(clusters: ClusterCodes, wc: Counts, w: Uint32Array): Uint32Array {
  const code = clusters.code;
  for (let i = 0; i < code.length; i++) w[i] = wc[code[i]];
  return w;
}

/** The column names that number attempts at one item (Inspect's epochs, n samples per prompt). */
export const ATTEMPT_COLUMNS = ['epoch', 'attempt', 'repeat', 'sample_index'] as const;

/** Each row's item (0..items-1) by its ID, or null when no ID repeats. */
export function repeatedItems(ids: readonly string[] | undefined, idNumbers: Float64Array | undefined): { item: Int32Array; items: number; names: string[] } | null {
  const n = ids?.length ?? idNumbers?.length ?? 0;
  if (!n) return null;
  const item = new Int32Array(n);
  const seen = new Map<string, number>();
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = ids ? ids[i] : String(idNumbers![i]);
    let k = seen.get(id);
    if (k === undefined) { k = names.length; seen.set(id, k); names.push(id); }
    item[i] = k;
  }
  return names.length < n ? { item, items: names.length, names } : null;
}

/** Inspect's instance IDs "<id> (epoch <k>)": each row's sample ID, or null when the IDs carry no epochs. */
export function inspectSampleIds(ids: readonly string[] | undefined): string[] | null {
  if (!ids?.length) return null;
  const out: string[] = [];
  for (const id of ids) {
    const m = /^(.*) \(epoch \d+\)$/s.exec(id);
    if (!m) return null;
    out.push(m[1]);
  }
  return out;
}

/** Each row's 0/1 correctness (the attempt is right), for repeats; null for probabilities. */
export function rowCorrect(set: PredictionSet, threshold: number): Float64Array | null {
  const n = set.n;
  const out = new Float64Array(n);
  switch (set.kind) {
    case 'binary': for (let i = 0; i < n; i++) out[i] = decisionAt(set, threshold, i) === (set.label[i] ? 1 : 0) ? 1 : 0; return out;
    case 'confidence': for (let i = 0; i < n; i++) out[i] = set.correct[i] ? 1 : 0; return out;
    case 'multiclass': for (let i = 0; i < n; i++) out[i] = set.pred[i] === set.gold[i] ? 1 : 0; return out;
    case 'probability': case 'scores': return null;
  }
}

/** The repeats figures of a set whose rows are attempts at items. */
export function repeatsOf(set: PredictionSet, threshold: number, item: Int32Array, items: number): RepeatsResult | null {
  const correct = rowCorrect(set, threshold);
  return correct ? repeatFigures(item, items, correct) : null;
}

/** The items with some but not all attempts right (indices, ascending). */
export function flakyItems(item: Int32Array, items: number, correct: Float64Array): number[] {
  const right = new Uint32Array(items);
  const count = new Uint32Array(items);
  for (let i = 0; i < item.length; i++) { count[item[i]]++; if (correct[i] === 1) right[item[i]]++; }
  const out: number[] = [];
  for (let k = 0; k < items; k++) if (right[k] > 0 && right[k] < count[k]) out.push(k);
  return out;
}

/** A problem for a cluster column with one cluster. */
export function oneClusterProblem(column: string): RowProblem {
  return { line: 1, severity: 'warning', code: 'group-column', message: `Every row is in one cluster of ${JSON.stringify(column)}: a clustered standard error needs two or more clusters, so it is undefined (null).` };
}
