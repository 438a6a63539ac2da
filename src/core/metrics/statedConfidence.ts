// A stated confidence as a predictor of the answer's correctness (docs/metrics.md#confidence_auroc,
// #confidence_brier): how well it tells right answers from wrong ones (the AUROC of the confidence
// against correctness) and its Brier score against correctness. For the confidence kind and for a
// multiclass file whose only probability is the answer's stated confidence. Rows without a
// confidence (NaN) are left out of both.
import { auc } from './ranking';

export interface StatedConfidenceMetrics {
  /** P(confidence of a right answer > that of a wrong one), ties 1/2; null when all are right or all wrong. */
  confidence_auroc: number | null;
  /** mean((c - correct)^2); null without a row. */
  confidence_brier: number | null;
}

export function statedConfidenceMetrics(confidence: Float64Array, correct: Uint8Array): StatedConfidenceMetrics {
  let n = 0;
  for (let i = 0; i < confidence.length; i++) if (!Number.isNaN(confidence[i])) n++;
  const c = n === confidence.length ? confidence : new Float64Array(n);
  const y = n === confidence.length ? correct : new Uint8Array(n);
  if (c !== confidence) {
    for (let i = 0, j = 0; i < confidence.length; i++) {
      if (Number.isNaN(confidence[i])) continue;
      c[j] = confidence[i];
      y[j++] = correct[i];
    }
  }
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (c[i] - y[i]) ** 2;
  return { confidence_auroc: n ? auc(c, y) : null, confidence_brier: n ? squares / n : null };
}
