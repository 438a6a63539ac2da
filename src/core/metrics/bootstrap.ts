// Percentile bootstrap intervals (METRICS.md, "Uncertainty") with a small seeded PRNG, so that the
// same seed gives the same intervals on every machine and in every run.

// Resample columns with gather(column, idx) from ./sort.

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
  const out: Record<string, [number, number]> = {};
  if (n <= 0 || resamples <= 0) return out;
  const rand = mulberry32(seed);
  const idx = new Uint32Array(n);
  const samples = new Map<string, number[]>();
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rand() * n);
    const result = compute(idx);
    for (const key of Object.keys(result)) {
      const v = result[key];
      if (v === null || !Number.isFinite(v)) continue;
      let list = samples.get(key);
      if (!list) samples.set(key, (list = []));
      list.push(v);
    }
  }
  const alpha = (1 - level) / 2;
  for (const [key, list] of samples) {
    const sorted = Float64Array.from(list).sort();
    out[key] = [percentile(sorted, alpha), percentile(sorted, 1 - alpha)];
  }
  return out;
}
