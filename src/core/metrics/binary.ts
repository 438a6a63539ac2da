// Every metric of a binary (risk-score) set in one go: the hot path for large folktexts files.
// One stable sort of the scores serves AUC, the ROC curve, the equal-count bins and KS. The columns
// are gathered into sorted order once and then walked sequentially: on a million rows each walk
// through the order costs a cache miss per row, and four such walks cost more than the sort.
// Everything order-free (Brier, log loss, accuracy, HMR sums) shares a single pass over the rows.
import type { MetricName, ReliabilityBin, RocCurve } from '../types';
import { equalCountBinsSorted, equalWidthBins, fMeasure, ksSorted, maxGap, meanGap, weightedGap } from './calibration';
import { aucSorted, rocCurveSorted } from './ranking';
import { stableArgsort } from './sort';

export const BINARY_METRICS = [
  'accuracy', 'auc', 'brier', 'nbr', 'log_loss', 'ece', 'ece_quantile', 'mce', 'mce_quantile', 'ks',
  'hmr', 'r_o', 'r_u', 'hmr_beta',
] as const satisfies readonly MetricName[];
export type BinaryMetricName = (typeof BINARY_METRICS)[number];

export interface BinaryMetricsOptions {
  /** Reliability bins (equal-width and equal-count). */
  bins: number;
  /** pred = score >= threshold. */
  threshold: number;
  hmrBeta: number;
  /** stableArgsort(score), when the caller already has it. */
  order?: Uint32Array;
  /** Cap on ROC points (decimated). Default 512. */
  rocPoints?: number;
}

export interface BinaryMetrics {
  /** null where undefined (AUC with one class, anything of an empty set). */
  metrics: Record<BinaryMetricName, number | null>;
  bins: { equalWidth: ReliabilityBin[]; equalCount: ReliabilityBin[] };
  roc: RocCurve | null;
  /** stableArgsort(score): reuse it for binIndexEqualCount and the like. */
  order: Uint32Array;
}

const LOG_LOSS_EPS = 1e-15;

/**
 * Binary metrics per METRICS.md. Calibration (ece, mce, ks and the bins) is of the risk score:
 * value = score, target = label. HMR is top-label: c = max(s, 1 - s), correct = (pred == label).
 */
export function binaryMetrics(score: Float64Array, label: Uint8Array, opts: BinaryMetricsOptions): BinaryMetrics {
  const n = score.length;
  // Options read up front: V8 optimises the first long loop mid-call (OSR), and code after it
  // that has not run yet deoptimises on a first call, which is the only call the CLI makes.
  const { bins: nBins, threshold, hmrBeta } = opts;
  const rocPoints = opts.rocPoints ?? 512;
  const order = opts.order ?? stableArgsort(score);
  const sortedScore = new Float64Array(n);
  const sortedLabel = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    const i = order[p];
    sortedScore[p] = score[i];
    sortedLabel[p] = label[i];
  }
  const equalWidth = equalWidthBins(score, label, nBins);
  const equalCount = equalCountBinsSorted(sortedScore, sortedLabel, nBins);

  let brierSum = 0;
  let logSum = 0;
  let hits = 0;
  let sumWrong = 0; // confidence on incorrect predictions
  let nWrong = 0;
  let sumUnder = 0; // 1 - confidence on correct predictions
  for (let i = 0; i < n; i++) {
    const s = score[i];
    const y = label[i] ? 1 : 0;
    const d = s - y;
    brierSum += d * d;
    const sc = s < LOG_LOSS_EPS ? LOG_LOSS_EPS : s > 1 - LOG_LOSS_EPS ? 1 - LOG_LOSS_EPS : s;
    logSum += y ? Math.log(sc) : Math.log(1 - sc);
    const pred = s >= threshold ? 1 : 0;
    const c = s > 0.5 ? s : 1 - s;
    if (pred === y) {
      hits++;
      sumUnder += 1 - c;
    } else {
      nWrong++;
      sumWrong += c;
    }
  }
  const nRight = n - nWrong;
  const r_o = nWrong === 0 ? 1 : 1 - sumWrong / nWrong;
  const r_u = nRight === 0 ? 1 : 1 - sumUnder / nRight;
  const brier = brierSum / n;

  const raw: Record<BinaryMetricName, number | null> = {
    accuracy: hits / n,
    auc: aucSorted(sortedScore, sortedLabel),
    brier,
    nbr: brier, // for two classes the summed multiclass Brier is 2 * brier, so nbr = brier
    log_loss: -logSum / n,
    ece: weightedGap(equalWidth),
    ece_quantile: meanGap(equalCount),
    mce: maxGap(equalWidth),
    mce_quantile: maxGap(equalCount),
    ks: ksSorted(sortedScore, sortedLabel),
    hmr: fMeasure(r_o, r_u, 1),
    r_o,
    r_u,
    hmr_beta: fMeasure(r_o, r_u, hmrBeta),
  };
  const metrics = {} as Record<BinaryMetricName, number | null>;
  for (const name of BINARY_METRICS) {
    const v = raw[name];
    // An empty set (n = 0) gives 0/0 everywhere: report undefined, never a perfect score.
    metrics[name] = n === 0 || v === null || !Number.isFinite(v) ? null : v;
  }
  return {
    metrics,
    bins: { equalWidth, equalCount },
    roc: rocCurveSorted(sortedScore, sortedLabel, rocPoints),
    order,
  };
}
