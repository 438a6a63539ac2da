// Instance-level agreement of a candidate with the baseline: the 2x2 table of who is right, which
// also gives McNemar's discordant counts, and for probabilities (ALMANACS), who is closer.
import { decisionAt } from '../metrics/decisions';
import type { PredictionSet } from '../types';

export interface AgreementCounts {
  both_right: number;
  /** Baseline right, candidate wrong. */
  baseline_only: number;
  /** Candidate right, baseline wrong. */
  candidate_only: number;
  both_wrong: number;
}

/** Probability kind: how many instances each run predicts closer to the true probability. */
export interface CloserCounts {
  baseline_closer: number;
  candidate_closer: number;
  /** Equally close (to the last bit). */
  equal: number;
}

/**
 * Per instance, 1 when the run's answer is right: binary pred = score >= threshold against the
 * label, multiclass pred against gold, confidence sets' own `correct`. Null for probabilities.
 */
export function correctness(set: PredictionSet, threshold: number): Uint8Array | null {
  const n = set.n;
  switch (set.kind) {
    case 'binary': {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = decisionAt(set, threshold, i) === set.label[i] ? 1 : 0;
      return out;
    }
    case 'multiclass': {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = set.gold[i] === set.pred[i] ? 1 : 0;
      return out;
    }
    case 'confidence': return set.correct;
    case 'probability': case 'scores': return null;
  }
}

/** The 2x2 table of two aligned correctness columns. */
export function agreementCounts(baseline: Uint8Array, candidate: Uint8Array): AgreementCounts {
  const cell = [0, 0, 0, 0]; // index 2 * baseline + candidate
  for (let i = 0; i < baseline.length; i++) cell[2 * baseline[i] + candidate[i]]++;
  return { both_right: cell[3], baseline_only: cell[2], candidate_only: cell[1], both_wrong: cell[0] };
}

/** Who predicts closer to the truth; each run against its own true probability (they should agree). */
export function closerCounts(
  baseline: { predProb: Float64Array; goldProb: Float64Array },
  candidate: { predProb: Float64Array; goldProb: Float64Array },
): CloserCounts {
  let b = 0;
  let c = 0;
  let e = 0;
  for (let i = 0; i < baseline.predProb.length; i++) {
    const db = Math.abs(baseline.predProb[i] - baseline.goldProb[i]);
    const dc = Math.abs(candidate.predProb[i] - candidate.goldProb[i]);
    if (db < dc) b++;
    else if (dc < db) c++;
    else e++;
  }
  return { baseline_closer: b, candidate_closer: c, equal: e };
}
