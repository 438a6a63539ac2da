// Discrimination: AUC (Mann-Whitney) and the ROC curve, both from one ascending stable sort of the
// scores. The *Sorted variants take the columns already reordered by that sort (binaryMetrics
// gathers them once and walks them sequentially).
import type { RocCurve } from '../types';
import { gather, stableArgsort } from './sort';

/**
 * Area under the ROC curve: P(score of a positive > score of a negative), ties counting 1/2
 * (Mann-Whitney U / (n_pos * n_neg)). null when one class is absent.
 * `order` is stableArgsort(score), passed in when the caller already has it.
 */
export function auc(score: Float64Array, label: Uint8Array, order?: Uint32Array): number | null {
  const ord = order ?? stableArgsort(score);
  return aucSorted(gather(score, ord), gather(label, ord));
}

/** auc() of columns already sorted by ascending score. */
export function aucSorted(score: Float64Array, label: Uint8Array): number | null {
  const n = score.length;
  // Close a tie group whenever the score changes: each positive of a group beats every negative
  // below the group and ties with half of those inside it. Counts are integers, so the sum is
  // exact up to 2^53.
  let negBelow = 0;
  let wins = 0;
  let nPos = 0;
  let pos = 0; // positives and negatives of the open tie group
  let neg = 0;
  let prev = n > 0 ? score[0] : 0;
  for (let i = 0; i < n; i++) {
    const v = score[i];
    if (v !== prev) {
      wins += pos * (negBelow + 0.5 * neg);
      negBelow += neg;
      nPos += pos;
      pos = 0;
      neg = 0;
      prev = v;
    }
    if (label[i] !== 0) pos++;
    else neg++;
  }
  wins += pos * (negBelow + 0.5 * neg);
  nPos += pos;
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  return wins / (nPos * nNeg);
}

/**
 * ROC curve with scikit-learn's roc_curve semantics (drop_intermediate=False): one point per
 * distinct score, from the highest threshold down, preceded by (0, 0) at threshold max + 1 (the
 * scikit-learn 1.2 convention; it keeps the curve JSON-safe where later versions use +inf).
 * Decimated to at most `maxPoints` points, always keeping the first and the last.
 * null when one class is absent.
 */
export function rocCurve(
  score: Float64Array,
  label: Uint8Array,
  order?: Uint32Array,
  maxPoints = 512,
): RocCurve | null {
  const ord = order ?? stableArgsort(score);
  return rocCurveSorted(gather(score, ord), gather(label, ord), maxPoints);
}

/** rocCurve() of columns already sorted by ascending score. */
export function rocCurveSorted(score: Float64Array, label: Uint8Array, maxPoints = 512): RocCurve | null {
  const n = score.length;
  let nPos = 0;
  for (let i = 0; i < n; i++) if (label[i] !== 0) nPos++;
  let groups = 0;
  for (let i = 0; i < n; i++) if (i === n - 1 || score[i + 1] !== score[i]) groups++;
  return rocCurveCounted(score, label, nPos, groups, maxPoints);
}

/**
 * rocCurveSorted() when the positives and the distinct scores (tie groups) are already counted,
 * as binaryMetrics' pass does: one walk from the top score down, recording only the kept points.
 */
export function rocCurveCounted(
  score: Float64Array,
  label: Uint8Array,
  nPos: number,
  groups: number,
  maxPoints = 512,
): RocCurve | null {
  const n = score.length;
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  // Points: (0, 0), then one per distinct score from the highest down.
  const keep = decimatedIndices(groups + 1, maxPoints);
  const fpr: number[] = [0];
  const tpr: number[] = [0];
  const thresholds: number[] = [score[n - 1] + 1];
  let point = 1;
  let next = 1; // index into keep
  let tp = 0;
  let fp = 0;
  for (let i = n - 1; i >= 0 && next < keep.length; i--) {
    if (label[i] !== 0) tp++;
    else fp++;
    // A point closes after the last member of a tie group (the next lower score differs).
    if (i === 0 || score[i - 1] !== score[i]) {
      if (point === keep[next]) {
        fpr.push(fp / nNeg);
        tpr.push(tp / nPos);
        thresholds.push(score[i]);
        next++;
      }
      point++;
    }
  }
  return { fpr, tpr, thresholds };
}

/** Up to `maxPoints` indices of 0..m-1, evenly spaced, always including 0 and m - 1. */
export function decimatedIndices(m: number, maxPoints: number): number[] {
  const limit = Math.max(2, Math.floor(maxPoints));
  if (m <= limit) return Array.from({ length: m }, (_, i) => i);
  const out: number[] = [];
  // Even spacing over the index range: step > 1, so rounding never repeats an index.
  for (let j = 0; j < limit; j++) out.push(Math.round((j * (m - 1)) / (limit - 1)));
  return out;
}
