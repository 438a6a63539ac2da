// DeLong's test for two correlated ROC curves (DeLong, DeLong & Clarke-Pearson 1988), computed with
// midranks in O(n log n) as Sun & Xu (2014) show, instead of the O(m n) placement values:
// for positive i, V10(i) = (Tz(i) - Tx(i)) / n, for negative j, V01(j) = 1 - (Tz(j) - Ty(j)) / m,
// where Tz is the midrank among all scores, Tx among positives only, Ty among negatives only.
// AUC = mean V10 = mean V01; S = cov(V10) / m + cov(V01) / n (sample covariances), and for two
// runs z = (AUC_b - AUC_a) / sqrt(S_aa + S_bb - 2 S_ab), p = erfc(|z| / sqrt(2)) (docs/metrics.md#delong).
import { sortWithOrder } from '../metrics/sort';
import { normalTwoSidedP } from './erfc';

/** Placement values of one run: V10 over the positives, V01 over the negatives, in row order. */
export interface Placements {
  auc: number;
  v10: Float64Array;
  v01: Float64Array;
}

/**
 * AUC and placement values of `score` against `label` (0/1) by midranks: one stable sort, one
 * walk over its tie groups. Null when one class is absent.
 */
export function placements(score: Float64Array, label: Uint8Array): Placements | null {
  const total = score.length;
  let m = 0;
  for (let i = 0; i < total; i++) m += label[i] ? 1 : 0;
  const n = total - m;
  if (m === 0 || n === 0) return null;
  const { order, sorted } = sortWithOrder(score);
  // Row -> index among the positives (or the negatives), in row order.
  const slot = new Uint32Array(total);
  for (let i = 0, p = 0, q = 0; i < total; i++) slot[i] = label[i] ? p++ : q++;
  const v10 = new Float64Array(m);
  const v01 = new Float64Array(n);
  let pos = 0; // positives before the tie group
  let neg = 0;
  let rankSum = 0; // sum over positives of Tz - Tx (= negatives below, ties counted half)
  for (let start = 0; start < total; ) {
    let end = start + 1;
    while (end < total && sorted[end] === sorted[start]) end++;
    let gp = 0;
    for (let k = start; k < end; k++) gp += label[order[k]] ? 1 : 0;
    const gn = end - start - gp;
    // Tz - Tx for a positive of this group = negatives strictly below + half the tied negatives;
    // Tz - Ty for a negative = positives below + half the tied positives.
    const posPlace = (neg + gn / 2) / n;
    const negPlace = 1 - (pos + gp / 2) / m;
    for (let k = start; k < end; k++) {
      const row = order[k];
      if (label[row]) v10[slot[row]] = posPlace;
      else v01[slot[row]] = negPlace;
    }
    rankSum += gp * (neg + gn / 2);
    pos += gp;
    neg += gn;
    start = end;
  }
  return { auc: rankSum / (m * n), v10, v01 };
}

export interface DeLongResult {
  /** AUC of the baseline and of the candidate. */
  aucs: [number, number];
  /** candidate - baseline. */
  delta: number;
  /** Variance of the delta, S_aa + S_bb - 2 S_ab. */
  variance: number;
  /** delta / sqrt(variance); null when the variance is 0 (then p says whether the AUCs differ). */
  z: number | null;
  /** Two-sided p-value; 1 when variance is 0 and delta is 0, 0 when variance is 0 and delta is not. */
  p: number;
}

/**
 * DeLong's test of candidate AUC against baseline AUC on the same instances and labels. Null when
 * a class is absent, or has a single instance (no sample covariance).
 */
export function delongTest(baseline: Float64Array, candidate: Float64Array, label: Uint8Array): DeLongResult | null {
  const a = placements(baseline, label);
  const b = placements(candidate, label);
  if (!a || !b) return null;
  const m = a.v10.length;
  const n = a.v01.length;
  if (m < 2 || n < 2) return null;
  const s10 = covariance2(a.v10, b.v10, a.auc, b.auc);
  const s01 = covariance2(a.v01, b.v01, a.auc, b.auc);
  const variance = Math.max(0, (s10[0] + s10[1] - 2 * s10[2]) / m + (s01[0] + s01[1] - 2 * s01[2]) / n);
  const delta = b.auc - a.auc;
  if (!(variance > 0)) return { aucs: [a.auc, b.auc], delta, variance: 0, z: null, p: delta === 0 ? 1 : 0 };
  const z = delta / Math.sqrt(variance);
  return { aucs: [a.auc, b.auc], delta, variance, z, p: normalTwoSidedP(z) };
}

/** Sample variances and covariance (denominator len - 1) of x and y about the given means: [var x, var y, cov]. */
function covariance2(x: Float64Array, y: Float64Array, mx: number, my: number): [number, number, number] {
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < x.length; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const d = x.length - 1;
  return [sxx / d, syy / d, sxy / d];
}
