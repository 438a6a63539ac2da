// Probability regression (ALMANACS): a predicted P(Yes) against the model's true P(Yes).
// Means of nothing are NaN (undefined), not 0.
import { clip } from './scoring';
import { stableArgsort } from './sort';

const KL_EPS = 1e-6;

/** mean((pred - gold)^2): the ALMANACS primary score. */
export function mse(pred: Float64Array, gold: Float64Array): number {
  const n = pred.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = pred[i] - gold[i];
    sum += d * d;
  }
  return sum / n;
}

/** mean |pred - gold|: the total variation distance between Bernoulli(pred) and Bernoulli(gold). */
export function tvd(pred: Float64Array, gold: Float64Array): number {
  const n = pred.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(pred[i] - gold[i]);
  return sum / n;
}

/** mean KL(Bernoulli(gold) || Bernoulli(pred)), both clipped to [1e-6, 1 - 1e-6] so it stays finite. */
export function klBernoulli(pred: Float64Array, gold: Float64Array): number {
  const n = pred.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const p = clip(pred[i], KL_EPS, 1 - KL_EPS);
    const g = clip(gold[i], KL_EPS, 1 - KL_EPS);
    sum += g * Math.log(g / p) + (1 - g) * Math.log((1 - g) / (1 - p));
  }
  return sum / n;
}

/**
 * Spearman rank correlation with average ranks for ties (scipy.stats.spearmanr).
 * null when undefined: fewer than two pairs, or either side constant.
 */
export function spearman(a: Float64Array, b: Float64Array): number | null {
  const n = a.length;
  if (n < 2 || b.length !== n) return null;
  const ra = averageRanks(a);
  const rb = averageRanks(b);
  // Pearson correlation of the ranks; both have mean (n + 1) / 2 exactly.
  const mean = (n + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = ra[i] - mean;
    const db = rb[i] - mean;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return null;
  const r = sab / Math.sqrt(saa * sbb);
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

/** 1-based ranks, tied values sharing the mean of their ranks. */
export function averageRanks(values: Float64Array, order?: Uint32Array): Float64Array {
  const n = values.length;
  const ord = order ?? stableArgsort(values);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    const v = values[ord[i]];
    let j = i + 1;
    while (j < n && values[ord[j]] === v) j++;
    // Positions i..j-1 (0-based) hold one tied value: ranks i+1..j, mean (i + 1 + j) / 2.
    const r = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) ranks[ord[t]] = r;
    i = j;
  }
  return ranks;
}
