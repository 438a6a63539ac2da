// folktexts' figures at a decision threshold (folktexts/evaluation.py): the confusion-matrix rates
// of evaluate_binary_predictions, with its "worst result" for an empty denominator, and its
// compute_best_threshold on scikit-learn's roc_curve points.
import type { RateName } from '../types';
import { ece } from '../metrics/calibration';
import { sortWithOrder } from '../metrics/sort';

/** The rates folktexts reports per group, in its order (accuracy first). */
export const GROUP_RATE_KEYS = ['accuracy', 'tpr', 'fnr', 'fpr', 'tnr', 'balanced_accuracy', 'precision', 'ppr'] as const;
export type GroupRateKey = (typeof GROUP_RATE_KEYS)[number];

/** a / b, or folktexts' safe_division worst result when b is 0. */
function safeDivision(a: number, b: number, worst: number): number {
  return b === 0 ? worst : a / b;
}

/** evaluate_binary_predictions on pred = score >= threshold, over the rows in `rows` (all when absent). */
export function thresholdRates(score: ArrayLike<number>, label: ArrayLike<number>, threshold: number, rows?: ArrayLike<number>): Record<GroupRateKey, number> {
  let tp = 0, fp = 0, tn = 0, fn = 0;
  const n = rows ? rows.length : score.length;
  for (let k = 0; k < n; k++) {
    const i = rows ? rows[k] : k;
    const p = score[i] >= threshold;
    if (label[i] === 1) { if (p) tp++; else fn++; } else if (p) fp++; else tn++;
  }
  const total = tp + fp + tn + fn;
  const tpr = safeDivision(tp, tp + fn, 0);
  const tnr = safeDivision(tn, tn + fp, 0);
  return {
    accuracy: (tp + tn) / total,
    tpr,
    fnr: safeDivision(fn, tp + fn, 1),
    fpr: safeDivision(fp, tn + fp, 1),
    tnr,
    balanced_accuracy: 0.5 * (tpr + tnr),
    precision: safeDivision(tp, tp + fp, 0),
    ppr: safeDivision(tp + fp, total, 0),
  };
}

/** The whole-set figures beside METRIC_NAMES: the rates at the threshold and ece_scaled. */
export function wholeSetRates(score: Float64Array, label: Uint8Array, threshold: number, bins: number): Record<RateName, number | null> {
  const { accuracy: _accuracy, ...rates } = thresholdRates(score, label, threshold);
  return { ...rates, ece_scaled: eceScaled(score, label, bins) };
}

/** ece after min-max scaling of the scores to [0, 1]; null when every score is the same. */
export function eceScaled(score: Float64Array, label: Uint8Array, bins: number): number | null {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < score.length; i++) { if (score[i] < lo) lo = score[i]; if (score[i] > hi) hi = score[i]; }
  if (!(hi > lo)) return null;
  const scaled = new Float64Array(score.length);
  for (let i = 0; i < score.length; i++) scaled[i] = (score[i] - lo) / (hi - lo);
  return ece(scaled, label, bins);
}

export interface BestThreshold {
  /** The chosen threshold: a score of the file, or Infinity (sklearn's first point: nothing positive). */
  threshold: number;
  /** Its fpr and tpr on the ROC curve. */
  fpr: number;
  tpr: number;
}

/**
 * folktexts' compute_best_threshold: argmin of fpr + (1 - tpr) over roc_curve(label, score), the
 * first point in scikit-learn's order (highest threshold first) on ties. sklearn drops collinear
 * intermediate points; cost is linear along such a segment, so its first minimum is a kept point and
 * walking every distinct score gives the same answer. Null when one class is absent (sklearn's
 * rates are then NaN).
 */
export function bestThreshold(score: Float64Array, label: Uint8Array): BestThreshold | null {
  const { order, sorted } = sortWithOrder(score);
  const n = score.length;
  let pos = 0;
  for (let i = 0; i < n; i++) pos += label[i];
  const neg = n - pos;
  if (pos === 0 || neg === 0) return null;
  // sklearn's first point: threshold inf, no positives predicted (cost 1).
  let best: BestThreshold = { threshold: Infinity, fpr: 0, tpr: 0 };
  let bestCost = 0 + (1 - 0);
  let tps = 0, fps = 0;
  // Descending scores: walk the ascending order from its end, one tie group at a time.
  for (let j = n - 1; j >= 0;) {
    const s = sorted[j];
    while (j >= 0 && sorted[j] === s) {
      if (label[order[j]] === 1) tps++; else fps++;
      j--;
    }
    const fpr = fps / neg;
    const tpr = tps / pos;
    const cost = fpr + (1 - tpr);
    if (cost < bestCost) { bestCost = cost; best = { threshold: s, fpr, tpr }; }
  }
  return best;
}

/** The rates that get bootstrap intervals (accuracy has its own; ece_scaled's scaling moves with each resample's extremes). */
export const RESAMPLED_RATES = ['tpr', 'fnr', 'fpr', 'tnr', 'balanced_accuracy', 'precision', 'ppr'] as const;

/** The rates of one bootstrap resample, given as row multiplicities: one O(n) pass. */
export function rateResampler(score: Float64Array, label: Uint8Array, threshold: number): (w: ArrayLike<number>) => Record<string, number | null> {
  // 0 = tn, 1 = fn, 2 = fp, 3 = tp: the cell of each row.
  const cell = new Uint8Array(score.length);
  for (let i = 0; i < score.length; i++) cell[i] = (score[i] >= threshold ? 2 : 0) + (label[i] === 1 ? 1 : 0);
  return (w) => {
    const c = [0, 0, 0, 0];
    for (let i = 0; i < cell.length; i++) c[cell[i]] += w[i];
    const [tn, fn, fp, tp] = c;
    return confusionRates(tn, fn, fp, tp);
  };
}

/** The resampled rates (RESAMPLED_RATES) of a resample's confusion counts. */
export function confusionRates(tn: number, fn: number, fp: number, tp: number): Record<string, number | null> {
  const tpr = safeDivision(tp, tp + fn, 0);
  const tnr = safeDivision(tn, tn + fp, 0);
  return {
    tpr, fnr: safeDivision(fn, tp + fn, 1), fpr: safeDivision(fp, tn + fp, 1), tnr,
    balanced_accuracy: 0.5 * (tpr + tnr), precision: safeDivision(tp, tp + fp, 0), ppr: safeDivision(tp + fp, tp + fp + tn + fn, 0),
  };
}
