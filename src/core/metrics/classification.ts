// Classification: accuracy, per-class precision/recall/F1 with the confusion matrix, macro F1.
// Zero-division conventions follow scikit-learn's zero_division=0 (the RAFT reference).
import type { ClassStats } from '../types';

/** mean(pred == gold); NaN for no instances. */
export function accuracy(pred: ArrayLike<number>, gold: ArrayLike<number>): number {
  const n = pred.length;
  let hits = 0;
  for (let i = 0; i < n; i++) if (pred[i] === gold[i]) hits++;
  return hits / n;
}

/** confusion[g][p] = instances of gold g predicted p. Rows with an index outside 0..k-1 are left out. */
export function confusionMatrix(gold: Int32Array, pred: Int32Array, k: number): number[][] {
  const m: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i];
    const p = pred[i];
    if (g >= 0 && g < k && p >= 0 && p < k) m[g][p]++;
  }
  return m;
}

/**
 * Per-class precision, recall, F1 and support, and the confusion matrix. Precision is 0 for a class
 * never predicted, recall 0 for a class never gold, F1 = 2tp / (2tp + fp + fn) and 0 when that is 0/0.
 */
export function classStats(gold: Int32Array, pred: Int32Array, k: number, classes: string[]): ClassStats {
  const confusion = confusionMatrix(gold, pred, k);
  const precision: number[] = [];
  const recall: number[] = [];
  const f1: number[] = [];
  const support: number[] = [];
  for (let c = 0; c < k; c++) {
    const tp = confusion[c][c];
    let goldCount = 0;
    let predCount = 0;
    for (let j = 0; j < k; j++) {
      goldCount += confusion[c][j];
      predCount += confusion[j][c];
    }
    precision.push(predCount === 0 ? 0 : tp / predCount);
    recall.push(goldCount === 0 ? 0 : tp / goldCount);
    f1.push(f1Of(tp, predCount - tp, goldCount - tp));
    support.push(goldCount);
  }
  return { classes: classes.slice(), precision, recall, f1, support, confusion };
}

function f1Of(tp: number, fp: number, fn: number): number {
  const den = 2 * tp + fp + fn;
  return den === 0 ? 0 : (2 * tp) / den;
}

/**
 * Unweighted mean of per-class F1. Over all k classes by default (the class list is known: RAFT's
 * f1_score(labels=all_classes, average='macro')), or over `include` (e.g. classesSeen(...)).
 * NaN when there is no class to average.
 */
export function macroF1(gold: Int32Array, pred: Int32Array, k: number, include?: number[]): number {
  const confusion = confusionMatrix(gold, pred, k);
  const classes = include ?? Array.from({ length: k }, (_, c) => c);
  if (classes.length === 0) return NaN;
  let sum = 0;
  for (const c of classes) {
    if (c < 0 || c >= k) continue; // a class index outside the matrix has no instances: F1 0
    const tp = confusion[c][c];
    let goldCount = 0;
    let predCount = 0;
    for (let j = 0; j < k; j++) {
      goldCount += confusion[c][j];
      predCount += confusion[j][c];
    }
    sum += f1Of(tp, predCount - tp, goldCount - tp);
  }
  return sum / classes.length;
}

