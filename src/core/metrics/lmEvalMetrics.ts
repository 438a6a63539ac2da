// lm-eval's own decision rules and figures on top of a multiclass set: acc_norm (the choice with
// the highest loglikelihood per character), the choice between acc and acc_norm for the
// calibration views, and the perplexity of single-continuation tasks (lambada).
import type { MetricName, PredictionSet, ScoreOptions } from '../types';

/**
 * The set as the calibration views should see it: with decision 'acc_norm', each row's prediction
 * is its acc_norm choice, and its confidence that choice's probability (the same softmax of the
 * loglikelihoods; only the rule that picks the answer changes). Other sets pass unchanged.
 */
export function withDecision(set: PredictionSet, decision: ScoreOptions['decision']): PredictionSet {
  if (decision !== 'acc_norm' || set.kind !== 'multiclass' || !set.predNorm) return set;
  const k = set.classes.length;
  let confidence: Float64Array | undefined;
  if (set.probs) {
    confidence = new Float64Array(set.n);
    for (let i = 0; i < set.n; i++) confidence[i] = set.probs[i * k + set.predNorm[i]];
  }
  return { ...set, pred: set.predNorm, confidence };
}

/** acc_norm and perplexity where the set has what they need; metrics the set makes meaningless, as undefined. */
export function lmEvalMetrics(set: PredictionSet): { add: Partial<Record<MetricName, number | null>>; drop: MetricName[] } {
  const add: Partial<Record<MetricName, number | null>> = {};
  const drop: MetricName[] = [];
  if (set.kind !== 'multiclass') return { add, drop };
  if (set.predNorm) add.acc_norm = agreement(set.predNorm, set.gold);
  if (set.continuationLoglik) {
    add.perplexity = perplexity(set.continuationLoglik);
    // Every gold is "the target continuation": a per-class F1 over {greedy, not greedy} means nothing.
    drop.push('macro_f1');
  }
  return { add, drop };
}

function agreement(a: Int32Array, b: Int32Array): number | null {
  if (!a.length) return null;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/** lm-eval's "perplexity" aggregation: exp(-mean(loglikelihood)). */
export function perplexity(ll: Float64Array): number | null {
  if (!ll.length) return null;
  let s = 0;
  for (const x of ll) s += x;
  return Math.exp(-s / ll.length);
}

/** Length of a choice text as Python's len counts it: Unicode code points, not UTF-16 units. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * lm-eval's pred_norm: argmax of loglikelihood / character length (numpy's first on ties). A choice
 * of length 0 divides by zero as numpy does (ll / 0 = -inf for ll < 0, NaN for 0; argmax takes NaN).
 */
export function normalisedArgmax(lls: readonly number[], choices: readonly string[]): number {
  let best = 0;
  let bestValue = NaN;
  for (let j = 0; j < lls.length; j++) {
    const v = lls[j] / codePointLength(choices[j]);
    if (j === 0) { bestValue = v; continue; }
    if (Number.isNaN(bestValue)) break; // numpy's argmax returns the first NaN
    if (Number.isNaN(v) || v > bestValue) { best = j; bestValue = v; }
  }
  return best;
}
