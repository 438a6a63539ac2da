// Proper scores: Brier and log loss (docs/metrics.md, "Proper scores").
// Means of nothing are NaN: callers report an empty set as undefined rather than as a perfect 0.

const LOG_LOSS_EPS = 1e-15;

/** mean((score - label)^2). */
export function brierBinary(score: Float64Array, label: Uint8Array): number {
  const n = score.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = score[i] - (label[i] ? 1 : 0);
    sum += d * d;
  }
  return sum / n;
}

/**
 * Mean over instances of sum over classes (p_k - 1[k = gold])^2, in [0, 2]; nbr = this / 2.
 * `probs` is n x k row-major. A gold index outside 0..k-1 counts as no class being right.
 */
export function brierMulticlass(probs: Float64Array, k: number, gold: Int32Array): number {
  const n = gold.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const row = i * k;
    const g = gold[i];
    for (let c = 0; c < k; c++) {
      const d = probs[row + c] - (c === g ? 1 : 0);
      sum += d * d;
    }
  }
  return sum / n;
}

/** -mean(label*log(s) + (1-label)*log(1-s)), s clipped to [1e-15, 1 - 1e-15]. */
export function logLossBinary(score: Float64Array, label: Uint8Array): number {
  const n = score.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = clip(score[i], LOG_LOSS_EPS, 1 - LOG_LOSS_EPS);
    sum += label[i] ? Math.log(s) : Math.log(1 - s);
  }
  return -sum / n;
}

/**
 * -mean(log p_gold), p clipped to [1e-15, 1 - 1e-15]. Rows are not renormalised (the parser flags
 * probabilities that do not sum to 1); for normalised rows this equals scikit-learn's log_loss.
 */
export function logLossMulticlass(probs: Float64Array, k: number, gold: Int32Array): number {
  const n = gold.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const g = gold[i];
    const p = g >= 0 && g < k ? probs[i * k + g] : 0;
    sum += Math.log(clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS));
  }
  return -sum / n;
}

export function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
