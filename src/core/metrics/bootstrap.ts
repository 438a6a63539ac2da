// Percentile bootstrap intervals (docs/metrics.md, "Intervals") with a small seeded PRNG, so that the
// same seed gives the same intervals on every machine and in every run.
//
// A resample draws n row indices with replacement: floor(rand() * n), n times. Its metrics depend
// only on how often each row was drawn, so bootstrapCountIntervals() hands the compute function
// those multiplicities (w[i] = draws of row i) instead of the indices: with the columns sorted
// once, every metric of a resample is one O(n) pass with weights, no gather and no sort
// (./resample.ts). The draws are the same as bootstrapIntervals() makes for the same seed.

/** mulberry32: a 32-bit-state PRNG, uniform on [0, 1). Tiny, fast and reproducible everywhere. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** numpy.percentile's default (linear interpolation between order statistics); q in [0, 1]. */
export function percentile(sorted: Float64Array, q: number): number {
  const m = sorted.length;
  if (m === 0) return NaN;
  const h = (m - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, m - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Percentile intervals at `level` for every metric `compute` returns, over `resamples` resamples of
 * n instance indices drawn with replacement. Null or non-finite results of a resample are skipped
 * for that metric (e.g. AUC when a resample holds one class); a metric with no usable resample is
 * left out of the result. `idx` is reused between calls: copy it if you keep it.
 */
export function bootstrapIntervals(
  n: number,
  resamples: number,
  seed: number,
  compute: (idx: Uint32Array) => Record<string, number | null>,
  level = 0.95,
): Record<string, [number, number]> {
  if (n <= 0 || resamples <= 0) return {};
  const rand = mulberry32(seed);
  const idx = new Uint32Array(n);
  const samples = new Samples();
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rand() * n);
    samples.add(compute(idx));
  }
  return samples.intervals(level);
}

/** Multiplicities of one resample: w[i] = how many of the n draws picked row i (sum n). */
export type Counts = Uint8Array | Uint32Array;

/**
 * bootstrapIntervals() with each resample given as multiplicities: the same draws for the same
 * seed, so the same resampled multisets. `w` is reused between calls. `onResample` (optional) is
 * called after each resample with the number done, e.g. to report progress or to throw to cancel.
 */
export function bootstrapCountIntervals(
  n: number,
  resamples: number,
  seed: number,
  compute: (w: Counts) => Record<string, number | null>,
  level = 0.95,
  onResample?: (done: number) => void,
): Record<string, [number, number]> {
  if (n <= 0 || resamples <= 0) return {};
  return percentileIntervals(bootstrapCountSamples(n, 0, resamples, seed, compute, onResample), level);
}

/**
 * Each metric's values over resamples [from, to) of the sequence bootstrapCountIntervals draws for
 * `seed` (null and non-finite values left out), in resample order. Ranges side by side, their
 * lists joined in order, are the whole run's lists: a pass can be split between threads
 * (src/core/bootstrapParts.ts). `onResample` hears the number done in this range.
 */
export function bootstrapCountSamples(
  n: number,
  from: number,
  to: number,
  seed: number,
  compute: (w: Counts) => Record<string, number | null>,
  onResample?: (done: number) => void,
): Record<string, number[]> {
  const samples = new Samples();
  if (n <= 0 || to <= from) return samples.lists();
  const draws = new CountDraws(n, seed, from);
  for (let r = from; r < to; r++) {
    samples.add(compute(draws.next()));
    onResample?.(r - from + 1);
  }
  return samples.lists();
}

/** Percentile intervals at `level` of each metric's resample values (a metric with none is left out). */
export function percentileIntervals(lists: Record<string, number[]>, level = 0.95): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  const alpha = (1 - level) / 2;
  for (const [key, list] of Object.entries(lists)) {
    if (!list.length) continue;
    const sorted = Float64Array.from(list).sort();
    out[key] = [percentile(sorted, alpha), percentile(sorted, 1 - alpha)];
  }
  return out;
}

/**
 * Successive resamples as multiplicities, drawn with mulberry32(seed) exactly as bootstrapIntervals
 * draws indices. One byte per row: a row drawn 256 times or more (possible only in theory for
 * n >= 256) makes that resample count again into 32-bit counters, from the same PRNG state.
 */
export class CountDraws {
  private state: number;
  private readonly w8: Uint8Array;
  private w32: Uint32Array | null = null;

  /**
   * `first`: start at that resample of the sequence (each resample is n draws, each draw one step
   * of the PRNG's state, so the state there is seed + first * n * 0x6d2b79f5, modulo 2^32).
   */
  constructor(private readonly n: number, seed: number, first = 0) {
    this.state = (seed + Math.imul(Math.imul(first, n), 0x6d2b79f5)) >>> 0;
    this.w8 = new Uint8Array(n);
    warmUpDraws();
  }

  next(): Counts {
    const start = this.state;
    this.w8.fill(0);
    const r = drawCounts(this.w8, this.n, start);
    if (r >= 0) {
      this.state = r;
      return this.w8;
    }
    const w32 = (this.w32 ??= new Uint32Array(this.n));
    w32.fill(0);
    drawCounts(w32, this.n, start); // the same draws, counted in 32 bits
    this.state = -1 - r;
    return w32;
  }
}

/**
 * n draws of floor(u * n) into w from mulberry32 state `a` (inlined: the same numbers as
 * mulberry32()). Returns the new state, or -1 - state when a count passed 255 (a Uint8Array
 * counter wrapped). A number, not an object: this runs once per resample, and V8 keeps its
 * optimised code only if what follows the loop is as plain as the loop.
 *
 * Four draws a turn (V8 checks w and moves its loop state once per turn: a third less time on 1M
 * rows), the state as an int32 (the same bits as mulberry32's uint32), and u * n as x * 2^-32 * n,
 * which is the double mulberry32() / 4294967296 gives exactly; n < 2^31, so `| 0` is floor.
 */
export function drawCounts(w: Counts, n: number, a: number): number {
  if (n > 0x7fffffff) throw new RangeError(`drawCounts: ${n} rows, at most 2^31 - 1`);
  let wrapped = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    let t0 = (a = (a + 0x6d2b79f5) | 0);
    let t1 = (a = (a + 0x6d2b79f5) | 0);
    let t2 = (a = (a + 0x6d2b79f5) | 0);
    let t3 = (a = (a + 0x6d2b79f5) | 0);
    t0 = Math.imul(t0 ^ (t0 >>> 15), t0 | 1);
    t0 ^= t0 + Math.imul(t0 ^ (t0 >>> 7), t0 | 61);
    t1 = Math.imul(t1 ^ (t1 >>> 15), t1 | 1);
    t1 ^= t1 + Math.imul(t1 ^ (t1 >>> 7), t1 | 61);
    t2 = Math.imul(t2 ^ (t2 >>> 15), t2 | 1);
    t2 ^= t2 + Math.imul(t2 ^ (t2 >>> 7), t2 | 61);
    t3 = Math.imul(t3 ^ (t3 >>> 15), t3 | 1);
    t3 ^= t3 + Math.imul(t3 ^ (t3 >>> 7), t3 | 61);
    const j0 = (((t0 ^ (t0 >>> 14)) >>> 0) * TWO_POW_MINUS_32 * n) | 0;
    const j1 = (((t1 ^ (t1 >>> 14)) >>> 0) * TWO_POW_MINUS_32 * n) | 0;
    const j2 = (((t2 ^ (t2 >>> 14)) >>> 0) * TWO_POW_MINUS_32 * n) | 0;
    const j3 = (((t3 ^ (t3 >>> 14)) >>> 0) * TWO_POW_MINUS_32 * n) | 0;
    // One after the other: two draws of the same row both count.
    const c0 = w[j0] + 1;
    w[j0] = c0;
    const c1 = w[j1] + 1;
    w[j1] = c1;
    const c2 = w[j2] + 1;
    w[j2] = c2;
    const c3 = w[j3] + 1;
    w[j3] = c3;
    wrapped |= c0 | c1 | c2 | c3;
  }
  for (; i < n; i++) {
    let t = (a = (a + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const j = (((t ^ (t >>> 14)) >>> 0) * TWO_POW_MINUS_32 * n) | 0;
    const c = w[j] + 1;
    w[j] = c;
    wrapped |= c;
  }
  // Bit 8 or above: a count passed 255 (a Uint8Array stored it mod 256).
  return wrapped >>> 8 === 0 ? a >>> 0 : -1 - (a >>> 0);
}

const TWO_POW_MINUS_32 = 1 / 4294967296;

/**
 * drawCounts on a few rows once per process, both loops and the return, before its first long run:
 * V8 compiles it during that run (on-stack), and code after a loop that had not run yet (the rest
 * loop, the return's test) deoptimised it at the end of every resample, measured 17 times in 20.
 */
let drawsWarm = false;
function warmUpDraws(): void {
  if (drawsWarm) return;
  drawsWarm = true;
  for (let r = 0; r < 50; r++) drawCounts(new Uint8Array(7), 7, r);
}

/** Per-metric resample values, then their percentile intervals. */
class Samples {
  private readonly byKey = new Map<string, number[]>();

  add(result: Record<string, number | null>): void {
    for (const key of Object.keys(result)) {
      const v = result[key];
      if (v === null || !Number.isFinite(v)) continue;
      let list = this.byKey.get(key);
      if (!list) this.byKey.set(key, (list = []));
      list.push(v);
    }
  }

  /** Each metric's values, keys in the order first seen. */
  lists(): Record<string, number[]> {
    return Object.fromEntries(this.byKey);
  }

  intervals(level: number): Record<string, [number, number]> {
    return percentileIntervals(this.lists(), level);
  }
}
