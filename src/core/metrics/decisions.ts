// A binary set's decision per row. score >= threshold decides, unless the file has its own
// prediction column the user named (--map pred=COLUMN, BinarySet.pred): a column the user named
// decides accuracy, the rates at the threshold, the error groups and each instance's correctness,
// while calibration (ECE, Brier, log loss, the bins, AUC) keeps reading the score.
import type { BinarySet } from '../types';

/** Row i's decision (0/1). */
export function decisionAt(set: Pick<BinarySet, 'score' | 'pred'>, threshold: number, i: number): 0 | 1 {
  if (set.pred) return set.pred[i] ? 1 : 0;
  return set.score[i] >= threshold ? 1 : 0;
}

/**
 * What "score >= threshold" readers (the rates, the error groups) should read to get the set's
 * decisions: the scores at the threshold, or the decisions themselves at 0.5.
 */
export function decisionScores(set: Pick<BinarySet, 'score' | 'pred'>, threshold: number): { score: ArrayLike<number>; threshold: number } {
  return set.pred ? { score: set.pred, threshold: 0.5 } : { score: set.score, threshold };
}

/** Share of rows whose decision equals the label, or null for no rows. */
export function decisionAccuracy(set: Pick<BinarySet, 'score' | 'label' | 'pred'>, threshold: number): number | null {
  const n = set.label.length;
  if (!n) return null;
  let hits = 0;
  for (let i = 0; i < n; i++) hits += decisionAt(set, threshold, i) === set.label[i] ? 1 : 0;
  return hits / n;
}
