// The paired percentile bootstrap (docs/metrics.md, "Comparing runs"): every run is resampled with the
// same instances, so a resample's delta (candidate - baseline) keeps the pairing. A resample is
// given as multiplicities (w[i] = draws of aligned instance i, see ../metrics/bootstrap.ts), so
// each run's metrics of a resample cost one O(n) weighted pass over columns sorted once
// (../metrics/resample.ts); the draws are made once and shared by all runs.
//
// Stratified: with several strata (RAFT tasks), each resample draws every stratum on its own
// (stratum t from seed mixed with t; stratum 0 from the seed itself, so one stratum draws exactly
// what `score --bootstrap N --seed S` draws).
import { CountDraws, percentile, type Counts } from '../metrics/bootstrap';

/** A run's metrics of one resample, from the multiplicities of each stratum. */
export type StrataResampler = (ws: readonly Counts[]) => Record<string, number | null>;

export interface PairedBootstrapOptions {
  /** Resamples (e.g. 1000). */
  resamples: number;
  seed: number;
  /** Interval level, default 0.95. */
  level?: number;
  /** Called after each resample with the number done (progress; throw to cancel). */
  onResample?: (done: number) => void;
}

/** One metric's paired bootstrap result for one candidate against the baseline. */
export interface PairedDelta {
  /** Percentile interval of the resampled deltas; null when no resample gave a finite delta. */
  interval: [number, number] | null;
  /** min(1, 2 * min(share of deltas <= 0, share >= 0)); null with the interval. */
  p: number | null;
  /** Resamples with a finite delta (a resample holding one class has no AUC, for instance). */
  resamples: number;
  /**
   * Every resample gave the same nonzero delta (one aligned instance, or the same paired difference
   * on every instance): the resamples say nothing of the delta's variability, so there is no p-value.
   */
  constant?: true;
}

/**
 * Paired bootstrap of every metric the resamplers return. runs[0] is the baseline; the result
 * maps each metric to one PairedDelta per candidate (runs[1..]).
 */
export function pairedBootstrap(
  strataSizes: readonly number[],
  runs: readonly StrataResampler[],
  opts: PairedBootstrapOptions,
): Record<string, PairedDelta[]> {
  const { resamples, seed } = opts;
  const level = opts.level ?? 0.95;
  const candidates = runs.length - 1;
  if (candidates < 1 || resamples <= 0 || strataSizes.some((n) => n <= 0)) return {};
  const draws = strataSizes.map((n, t) => new CountDraws(n, t === 0 ? seed : mixSeed(seed, t)));
  // deltas.get(metric)[c * resamples + r]: NaN where undefined.
  const deltas = new Map<string, Float64Array>();
  for (let r = 0; r < resamples; r++) {
    const ws = draws.map((d) => d.next());
    const base = runs[0](ws);
    for (let c = 1; c <= candidates; c++) {
      const cand = runs[c](ws);
      for (const key of Object.keys(base)) {
        const a = base[key];
        const b = cand[key];
        if (a === null || b === null || b === undefined) continue;
        let list = deltas.get(key);
        if (!list) deltas.set(key, (list = new Float64Array(candidates * resamples).fill(NaN)));
        list[(c - 1) * resamples + r] = b - a;
      }
    }
    opts.onResample?.(r + 1);
  }
  const out: Record<string, PairedDelta[]> = {};
  for (const [key, list] of deltas) {
    out[key] = [];
    for (let c = 0; c < candidates; c++) out[key].push(summarise(list.subarray(c * resamples, (c + 1) * resamples), level));
  }
  return out;
}

/** The interval and p-value of one candidate's resampled deltas. */
export function summarise(deltas: Float64Array, level = 0.95): PairedDelta {
  const finite = deltas.filter((d) => Number.isFinite(d)).sort();
  const m = finite.length;
  if (m === 0) return { interval: null, p: null, resamples: 0 };
  let atMost = 0;
  let atLeast = 0;
  for (let i = 0; i < m; i++) {
    if (finite[i] <= 0) atMost++;
    if (finite[i] >= 0) atLeast++;
  }
  const alpha = (1 - level) / 2;
  const interval: [number, number] = [percentile(finite, alpha), percentile(finite, 1 - alpha)];
  // A degenerate bootstrap (all resamples equal) would give p = 0 for any nonzero delta, from no
  // variability at all. All equal to 0 (a run against itself) keeps p = 1, as McNemar's b + c = 0.
  if (finite[0] === finite[m - 1] && finite[0] !== 0) return { interval, p: null, resamples: m, constant: true };
  return { interval, p: Math.min(1, (2 * Math.min(atMost, atLeast)) / m), resamples: m };
}

/** A different 32-bit seed for stratum t (golden-ratio step, then a murmur-style mix). */
function mixSeed(seed: number, t: number): number {
  let h = (seed + Math.imul(t, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A one-stratum resampler (w of the aligned instances) as a StrataResampler. */
export function oneStratum(f: (w: Counts) => Record<string, number | null>): StrataResampler {
  return (ws) => f(ws[0]);
}

// Re-exported for callers that write their own resamplers.
export type { Counts };
