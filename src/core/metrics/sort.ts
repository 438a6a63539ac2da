// Stable argsort of float64 values.
//
// Why not Array.prototype.sort: a comparator sort of 1,000,000 indices takes ~0.5 s in V8. The
// main path is a bucket sort by value: one pass that counts the bucket of each value
// (floor((v - min) * K / (max - min)), monotone in v, so buckets are ordered; min = 0, max = 1
// for probabilities, else a second counting pass over the range found), one that scatters values
// and indices into their buckets in index order, and one insertion pass that
// orders the few values inside each bucket (strict comparisons, so ties keep index order: the
// binned metrics need that, "ties keep file order", docs/metrics.md#binning). With K = n / 4 buckets that is
// about half the time of an LSD radix sort over the 64-bit keys (four scatter passes), and it
// leaves the sorted values behind as well, which the metrics walk instead of gathering them.
// Buckets that come out large (clustered or skewed values) are bucket-sorted again over their own
// range; past a few levels, or for values whose range is not finite (infinities), the LSD radix
// sorts below take over: four passes of 16-bit digits for large inputs, six passes of 11-bit digits
// for mid-sized ones, insertion sort for tiny ones.

const RADIX = 1 << 16;
const MASK = RADIX - 1;
// Below this many values the 16-bit histograms (4 x 65536 counters) cost more than the sorting:
// use 11-bit digits (6 passes over 2048 buckets) there instead.
const SMALL_RADIX_LIMIT = 1 << 16;
const RADIX11 = 1 << 11;
const MASK11 = RADIX11 - 1;

// Typed-array views use the platform's byte order; find which 32-bit word of a double holds the
// sign and exponent, once, so a big-endian host still sorts correctly.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A column sorted ascending (stable) and the permutation that sorts it: sorted[p] = values[order[p]]. */
export interface SortedColumn {
  order: Uint32Array;
  sorted: Float64Array;
}

/**
 * Indices that sort `values` ascending; equal values keep their index order (stable).
 * -0 and +0 are equal. NaN (which callers should not pass) sorts last, in index order.
 */
export function stableArgsort(values: Float64Array): Uint32Array {
  return sortWithOrder(values).order;
}

/** stableArgsort(values) and the values in that order, which the bucket sort produces anyway. */
export function sortWithOrder(values: Float64Array): SortedColumn {
  const n = values.length;
  if (n >= BUCKET_MIN) {
    const done = bucketSort(values);
    if (done) return done;
  }
  const order = radixArgsort(values);
  return { order, sorted: gather(values, order) };
}

/** Below this size the insertion and 11-bit radix sorts are as fast and simpler. */
const BUCKET_MIN = 256;
/** Buckets up to this size are left to the insertion pass; larger ones are bucket-sorted again. */
const BUCKET_INSERTION_MAX = 48;
/** Levels of re-bucketing before a large bucket is handed to the radix sort. */
const BUCKET_MAX_DEPTH = 4;

/**
 * The bucket sort, or null when it does not apply (NaN present, an infinite or overflowing range):
 * the radix sort handles those.
 */
function bucketSort(values: Float64Array): SortedColumn | null {
  const n = values.length;
  const k = n >>> 2;
  const counts = new Uint32Array(k);
  // Each loop is a function of its own: in a fresh process V8 compiles a long loop while it runs
  // (OSR), and code after the loop in the same function, not yet run, would throw that code away.
  // Probabilities are the common case: count into k buckets over [0, 1] while finding the range,
  // and count again over the actual range only when that is not [0, 1] or covers less than half.
  const range = new Float64Array(2);
  if (!countUnitBuckets(values, counts, range)) return null; // NaN
  let min = range[0];
  const max = range[1];
  let scale = k;
  if (min < 0 || max > 1 || max - min < 0.5) {
    const width = max - min;
    if (!(width < Infinity)) return null;
    // width 0: every value equal (or -0 and +0), one bucket, which the re-bucketing leaves as is.
    scale = width > 0 ? k / width : 0;
    if (!(scale < Infinity)) return null; // a subnormal width
    counts.fill(0);
    countBuckets(values, min, scale, counts);
  } else {
    min = 0;
  }
  prefixSumsInPlace(counts, 0);
  const order = new Uint32Array(n);
  const sorted = new Float64Array(n);
  scatterBuckets(values, min, scale, counts, sorted, order);
  // counts[b] is now the end of bucket b. Large buckets first, then one insertion pass over all.
  sortLargeBuckets(sorted, order, counts, 0, 0);
  insertionPass(sorted, order, 0, n);
  return { order, sorted };
}

/**
 * Bucket sizes as if the values were in [0, 1] (bucket floor(v * k), the top one closed), and
 * their [min, max] into out; false when a value is NaN. Values outside [0, 1] land in the end
 * buckets or nowhere: the caller counts again then.
 */
function countUnitBuckets(values: Float64Array, counts: Uint32Array, out: Float64Array): boolean {
  const k = counts.length;
  const last = k - 1;
  let min = Infinity;
  let max = -Infinity;
  let nan = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const b = (v * k) | 0;
    counts[b < 0 ? 0 : b < last ? b : last]++;
    min = v < min ? v : min;
    max = v > max ? v : max;
    nan += v !== v ? 1 : 0;
  }
  out[0] = min;
  out[1] = max;
  return nan === 0;
}

/** Bucket sizes: bucket of v = floor((v - min) * scale), the top one closed. */
function countBuckets(values: Float64Array, min: number, scale: number, counts: Uint32Array): void {
  const last = counts.length - 1;
  for (let i = 0; i < values.length; i++) {
    const b = ((values[i] - min) * scale) | 0;
    counts[b < last ? b : last]++;
  }
}

/** Sizes to starts, from `start`. */
function prefixSumsInPlace(counts: Uint32Array, start: number): void {
  let sum = start;
  for (let b = 0; b < counts.length; b++) {
    const c = counts[b];
    counts[b] = sum;
    sum += c;
  }
}

/** Values and indices into their buckets, in index order (counts: the buckets' starts, left as ends). */
function scatterBuckets(
  values: Float64Array, min: number, scale: number, counts: Uint32Array, sorted: Float64Array, order: Uint32Array,
): void {
  const last = counts.length - 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const b = ((v - min) * scale) | 0;
    const p = counts[b < last ? b : last]++;
    sorted[p] = v;
    order[p] = i;
  }
}

/** Bucket-sort again every bucket above BUCKET_INSERTION_MAX; `ends` holds the buckets' ends. */
function sortLargeBuckets(sorted: Float64Array, order: Uint32Array, ends: Uint32Array, start: number, depth: number): void {
  let s = start;
  for (let b = 0; b < ends.length; b++) {
    const e = ends[b];
    if (e - s > BUCKET_INSERTION_MAX) sortRange(sorted, order, s, e, depth + 1);
    s = e;
  }
}

/** Sort sorted[start..end) (with order alongside), stably, in place; no NaN inside. */
function sortRange(sorted: Float64Array, order: Uint32Array, start: number, end: number, depth: number): void {
  const n = end - start;
  let min = Infinity;
  let max = -Infinity;
  for (let p = start; p < end; p++) {
    const v = sorted[p];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) return; // all equal: already in index order
  const range = max - min;
  const k = n >>> 2;
  const scale = k / range;
  const vals = sorted.slice(start, end);
  const ords = order.slice(start, end);
  if (depth > BUCKET_MAX_DEPTH || !(scale < Infinity)) {
    const perm = radixArgsort(vals);
    for (let q = 0; q < n; q++) {
      sorted[start + q] = vals[perm[q]];
      order[start + q] = ords[perm[q]];
    }
    return;
  }
  const counts = new Uint32Array(k);
  countBuckets(vals, min, scale, counts);
  prefixSumsInPlace(counts, start);
  const last = k - 1;
  for (let q = 0; q < n; q++) {
    const v = vals[q];
    const b = ((v - min) * scale) | 0;
    const p = counts[b < last ? b : last]++;
    sorted[p] = v;
    order[p] = ords[q];
  }
  sortLargeBuckets(sorted, order, counts, start, depth);
  // The insertion pass over the whole array follows at the top level.
}

/**
 * Insertion sort of [start, end) where every value is already within its bucket: elements move only
 * inside their bucket (values of earlier buckets are strictly smaller). Strict comparison: stable.
 */
function insertionPass(sorted: Float64Array, order: Uint32Array, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const v = sorted[i];
    if (!(sorted[i - 1] > v)) continue;
    const o = order[i];
    let j = i - 1;
    do {
      sorted[j + 1] = sorted[j];
      order[j + 1] = order[j];
      j--;
    } while (j >= start && sorted[j] > v);
    sorted[j + 1] = v;
    order[j + 1] = o;
  }
}

/** The LSD radix argsort (any doubles, NaN last). */
function radixArgsort(values: Float64Array): Uint32Array {
  const n = values.length;
  if (n < 64) return smallArgsort(values);
  if (n < SMALL_RADIX_LIMIT) return argsort11(values);

  // Map each double to an unsigned 64-bit key (hi, lo) whose unsigned order is the numeric order:
  // positives get the sign bit set, negatives get every bit flipped.
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const loIx = LITTLE_ENDIAN ? 0 : 1;
  const hiIx = 1 - loIx;
  let keyLo: Uint32Array = new Uint32Array(n);
  let keyHi: Uint32Array = new Uint32Array(n);
  let idx: Uint32Array = new Uint32Array(n);
  // The four digit histograms in the same pass that builds the keys.
  const hist = new Uint32Array(4 * RADIX);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    let h: number;
    let l: number;
    if (v !== v) {
      h = 0xffffffff; // NaN: after +Infinity, whatever its sign or payload
      l = 0xffffffff;
    } else if (v === 0) {
      h = 0x80000000; // -0 and +0 must tie
      l = 0;
    } else {
      h = words[2 * i + hiIx];
      l = words[2 * i + loIx];
      if (h & 0x80000000) {
        h = ~h >>> 0;
        l = ~l >>> 0;
      } else {
        h = (h | 0x80000000) >>> 0;
      }
    }
    keyLo[i] = l;
    keyHi[i] = h;
    idx[i] = i;
    hist[l & MASK]++;
    hist[RADIX + (l >>> 16)]++;
    hist[2 * RADIX + (h & MASK)]++;
    hist[3 * RADIX + (h >>> 16)]++;
  }

  // A digit that every key shares leaves the order unchanged: skip that pass (common for the
  // exponent digit of probabilities).
  const run = [0, 1, 2, 3].map((d) => {
    for (let b = d * RADIX, end = b + RADIX; b < end; b++) if (hist[b] === n) return false;
    return true;
  });

  let tmpIdx: Uint32Array = new Uint32Array(n);
  let tmpHi: Uint32Array = new Uint32Array(n);
  const offsets = new Uint32Array(RADIX);
  let t: Uint32Array;

  // Each pass is its own loop moving only the arrays later passes still read: in V8 one generic
  // loop with flags was measurably slower, and small per-pass functions were no faster.
  if (run[0]) {
    // Low 16 bits of the low word: every key part travels along.
    prefixSums(hist, 0, offsets);
    const tmpLo = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const l = keyLo[i];
      const p = offsets[l & MASK]++;
      tmpLo[p] = l;
      tmpHi[p] = keyHi[i];
      tmpIdx[p] = idx[i];
    }
    keyLo = tmpLo;
    t = keyHi; keyHi = tmpHi; tmpHi = t;
    t = idx; idx = tmpIdx; tmpIdx = t;
  }
  if (run[1]) {
    // High 16 bits of the low word: the low word is not read again.
    prefixSums(hist, RADIX, offsets);
    for (let i = 0; i < n; i++) {
      const p = offsets[keyLo[i] >>> 16]++;
      tmpHi[p] = keyHi[i];
      tmpIdx[p] = idx[i];
    }
    t = keyHi; keyHi = tmpHi; tmpHi = t;
    t = idx; idx = tmpIdx; tmpIdx = t;
  }
  if (run[2]) {
    prefixSums(hist, 2 * RADIX, offsets);
    if (run[3]) {
      for (let i = 0; i < n; i++) {
        const h = keyHi[i];
        const p = offsets[h & MASK]++;
        tmpHi[p] = h;
        tmpIdx[p] = idx[i];
      }
      t = keyHi; keyHi = tmpHi; tmpHi = t;
    } else {
      for (let i = 0; i < n; i++) tmpIdx[offsets[keyHi[i] & MASK]++] = idx[i];
    }
    t = idx; idx = tmpIdx; tmpIdx = t;
  }
  if (run[3]) {
    // Last pass: only the indices are still needed.
    prefixSums(hist, 3 * RADIX, offsets);
    for (let i = 0; i < n; i++) tmpIdx[offsets[keyHi[i] >>> 16]++] = idx[i];
    idx = tmpIdx;
  }
  return idx;
}

function prefixSums(hist: Uint32Array, base: number, offsets: Uint32Array): void {
  let sum = 0;
  for (let b = 0; b < RADIX; b++) {
    offsets[b] = sum;
    sum += hist[base + b];
  }
}

export type NumericArray = Float64Array | Float32Array | Uint8Array | Int16Array | Int32Array | Uint32Array;

/**
 * src[idx[0]], src[idx[1]], ...: a column reordered by an argsort, or resampled by bootstrap
 * indices, of the same typed-array kind. Walking a sorted copy sequentially is several times
 * faster than walking src through the order on large inputs (cache misses).
 */
export function gather<T extends NumericArray>(src: T, idx: Uint32Array): T {
  const out = new (src.constructor as new (n: number) => T)(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = src[idx[i]];
  return out;
}

/** The sortable unsigned 64-bit key of each value, as (hi, lo) words (see stableArgsort). */
function sortKeys(values: Float64Array, keyHi: Uint32Array, keyLo: Uint32Array): void {
  const n = values.length;
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const loIx = LITTLE_ENDIAN ? 0 : 1;
  const hiIx = 1 - loIx;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v !== v) {
      keyHi[i] = 0xffffffff;
      keyLo[i] = 0xffffffff;
    } else if (v === 0) {
      keyHi[i] = 0x80000000;
      keyLo[i] = 0;
    } else {
      const h = words[2 * i + hiIx];
      const l = words[2 * i + loIx];
      const neg = h & 0x80000000;
      keyHi[i] = neg ? ~h >>> 0 : (h | 0x80000000) >>> 0;
      keyLo[i] = neg ? ~l >>> 0 : l;
    }
  }
}

/**
 * The same LSD radix sort with 11-bit digits for mid-sized inputs, where the 16-bit sort's fixed
 * cost (~2 ms for its 4 x 65536 histograms) dominates: 0.14 ms instead of 2.4 ms at n = 1000.
 * One generic loop per pass: simpler, and fast enough at this size.
 */
function argsort11(values: Float64Array): Uint32Array {
  const n = values.length;
  let keyHi: Uint32Array = new Uint32Array(n);
  let keyLo: Uint32Array = new Uint32Array(n);
  sortKeys(values, keyHi, keyLo);
  let idx: Uint32Array = new Uint32Array(n);
  let tmpHi: Uint32Array = new Uint32Array(n);
  let tmpLo: Uint32Array = new Uint32Array(n);
  let tmpIdx: Uint32Array = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const count = new Uint32Array(RADIX11);
  // Digits: bits 0-10, 11-21, 22-31 of the low word, then the same of the high word.
  for (let d = 0; d < 6; d++) {
    const src = d < 3 ? keyLo : keyHi;
    const shift = (d % 3) * 11;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(src[i] >>> shift) & MASK11]++;
    let trivial = false;
    let sum = 0;
    for (let b = 0; b < RADIX11; b++) {
      const c = count[b];
      if (c === n) trivial = true;
      count[b] = sum;
      sum += c;
    }
    if (trivial) continue;
    for (let i = 0; i < n; i++) {
      const p = count[(src[i] >>> shift) & MASK11]++;
      tmpIdx[p] = idx[i];
      tmpHi[p] = keyHi[i];
      tmpLo[p] = keyLo[i];
    }
    let t = idx; idx = tmpIdx; tmpIdx = t;
    t = keyHi; keyHi = tmpHi; tmpHi = t;
    t = keyLo; keyLo = tmpLo; tmpLo = t;
  }
  return idx;
}

/** Insertion sort for short inputs, where the radix passes' fixed cost dominates. */
function smallArgsort(values: Float64Array): Uint32Array {
  const n = values.length;
  const out = new Uint32Array(n);
  // NaN compares greater than everything (and equal to NaN), as in the radix path.
  const greater = (a: number, b: number) => (b !== b ? false : a !== a ? true : a > b);
  for (let i = 0; i < n; i++) out[i] = i;
  for (let i = 1; i < n; i++) {
    const cur = out[i];
    const v = values[cur];
    let j = i - 1;
    // Strictly greater only, so equal values keep index order.
    while (j >= 0 && greater(values[out[j]], v)) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = cur;
  }
  return out;
}

/** First position in sorted[0..m) whose value is >= x (m when none). */
export function lowerBound(sorted: Float64Array, m: number, x: number): number {
  let lo = 0;
  let hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
