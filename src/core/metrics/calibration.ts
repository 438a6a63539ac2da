// Calibration (docs/metrics.md, "Calibration" and "Over- and underconfidence"): reliability bins, ECE/MCE over equal-width and
// equal-count bins, the KS calibration error, and the harmonic mean of over/under-confidence rewards.
//
// `value` is what is binned (score for binary, top-label confidence otherwise) and `target` what it
// should match on average (label, or correctness). Instances whose value is NaN are left out of
// every binning (callers should not pass NaN; this only keeps the functions total). A metric of no
// instances is NaN (undefined).
import type { ReliabilityBin } from '../types';
import { gather, stableArgsort } from './sort';

export type Targets = ArrayLike<number>;

/** Equal-width edges b / nBins, computed as the division itself so "0.3" lands in [0.3, 0.4). */
export function widthEdges(nBins: number): Float64Array {
  const edges = new Float64Array(nBins + 1);
  for (let b = 0; b <= nBins; b++) edges[b] = b / nBins;
  return edges;
}

/**
 * Equal-width bin of v: edges[b] <= v < edges[b + 1], the last bin closed at 1, values outside
 * [0, 1] clamped into the end bins, NaN -1. floor(v * n) is off by at most one when v * n rounds
 * across an integer, so one comparison against the exact edge corrects it.
 */
export function widthBin(v: number, nBins: number, edges: Float64Array): number {
  if (v !== v) return -1;
  let b = Math.floor(v * nBins);
  if (b < 0) b = 0;
  else if (b > nBins - 1) b = nBins - 1;
  if (b > 0 && v < edges[b]) b--;
  else if (b < nBins - 1 && v >= edges[b + 1]) b++;
  return b;
}

export function checkBins(nBins: number): number {
  const b = Math.floor(nBins);
  if (!(b >= 1 && b <= 32767)) throw new RangeError(`bin count must be 1..32767, got ${nBins}`);
  return b;
}

/** Equal-width bin index of each instance (-1 for NaN). */
export function binIndexEqualWidth(value: Float64Array, nBins: number): Int16Array {
  const nb = checkBins(nBins);
  const edges = widthEdges(nb);
  const out = new Int16Array(value.length);
  for (let i = 0; i < value.length; i++) out[i] = widthBin(value[i], nb, edges);
  return out;
}

/**
 * Equal-count bin index of each instance (-1 for NaN): instances sorted by value (stable), split
 * like numpy.array_split (the first N mod nBins bins one larger). `order` = stableArgsort(value).
 */
export function binIndexEqualCount(value: Float64Array, nBins: number, order?: Uint32Array): Int16Array {
  const nb = checkBins(nBins);
  const ord = order ?? stableArgsort(value);
  const out = new Int16Array(value.length).fill(-1);
  const m = countFinite(value);
  forEachEqualCountBin(m, nb, (b, start, end) => {
    for (let p = start; p < end; p++) out[ord[p]] = b;
  });
  return out;
}

/** Reliability bins of width 1/nBins: [0, 1/n), ..., [(n-1)/n, 1] (last closed). */
export function equalWidthBins(value: Float64Array, target: Targets, nBins: number): ReliabilityBin[] {
  const nb = checkBins(nBins);
  const edges = widthEdges(nb);
  const count = new Float64Array(nb);
  const sumV = new Float64Array(nb);
  const sumT = new Float64Array(nb);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    const b = widthBin(v, nb, edges);
    if (b < 0) continue;
    count[b]++;
    sumV[b] += v;
    sumT[b] += target[i];
  }
  const bins: ReliabilityBin[] = [];
  for (let b = 0; b < nb; b++) bins.push(makeBin(edges[b], edges[b + 1], count[b], sumV[b], sumT[b]));
  return bins;
}

/**
 * Reliability bins of equal count (numpy.array_split sizes over the value-sorted instances);
 * lo/hi are the smallest and largest value inside. Bins left empty (fewer instances than bins)
 * take lo = hi = the previous bin's hi (0 when there is none), so the diagram stays NaN-free.
 */
export function equalCountBins(
  value: Float64Array,
  target: Targets,
  nBins: number,
  order?: Uint32Array,
): ReliabilityBin[] {
  const ord = order ?? stableArgsort(value);
  return equalCountBinsSorted(gather(value, ord), gatherTargets(target, ord), nBins);
}

/** equalCountBins() of columns already sorted by ascending value (NaN last). */
export function equalCountBinsSorted(value: Float64Array, target: Targets, nBins: number): ReliabilityBin[] {
  const nb = checkBins(nBins);
  const m = countBeforeNaN(value);
  const bins: ReliabilityBin[] = [];
  let lastHi = 0;
  forEachEqualCountBin(m, nb, (_b, start, end) => {
    if (start === end) {
      bins.push(makeBin(lastHi, lastHi, 0, 0, 0));
      return;
    }
    let sumV = 0;
    let sumT = 0;
    for (let p = start; p < end; p++) {
      sumV += value[p];
      sumT += target[p];
    }
    // Sorted ascending, so the ends of the run are its min and max.
    lastHi = value[end - 1];
    bins.push(makeBin(value[start], lastHi, end - start, sumV, sumT));
  });
  return bins;
}

/** target reordered by ord, as a typed array (targets may be labels, correctness or probabilities). */
function gatherTargets(target: Targets, ord: Uint32Array): Float64Array | Uint8Array {
  if (target instanceof Uint8Array) return gather(target, ord);
  const out = new Float64Array(ord.length);
  for (let p = 0; p < ord.length; p++) out[p] = target[ord[p]];
  return out;
}

/** Values before the trailing NaNs of a sorted column. */
function countBeforeNaN(sorted: Float64Array): number {
  let m = sorted.length;
  while (m > 0 && sorted[m - 1] !== sorted[m - 1]) m--;
  return m;
}

export function makeBin(lo: number, hi: number, count: number, sumV: number, sumT: number): ReliabilityBin {
  if (count === 0) return { lo, hi, count: 0, meanValue: null, meanTarget: null, gap: null };
  const meanValue = sumV / count;
  const meanTarget = sumT / count;
  return { lo, hi, count, meanValue, meanTarget, gap: Math.abs(meanValue - meanTarget) };
}

/** numpy.array_split bounds of m sorted positions into nBins runs: [start, end) per bin. */
export function forEachEqualCountBin(m: number, nBins: number, f: (b: number, start: number, end: number) => void): void {
  const base = Math.floor(m / nBins);
  const extra = m % nBins;
  let start = 0;
  for (let b = 0; b < nBins; b++) {
    const end = start + base + (b < extra ? 1 : 0);
    f(b, start, end);
    start = end;
  }
}

/** Instances that take part in binning (NaN sorts last, so they are the first m of the order). */
function countFinite(value: Float64Array): number {
  let m = 0;
  for (let i = 0; i < value.length; i++) if (value[i] === value[i]) m++;
  return m;
}

/** sum over non-empty bins of (n_b / N) * gap_b. */
export function weightedGap(bins: readonly ReliabilityBin[]): number {
  let total = 0;
  for (const b of bins) total += b.count;
  if (total === 0) return NaN;
  let sum = 0;
  for (const b of bins) if (b.count > 0) sum += (b.count / total) * (b.gap as number);
  return sum;
}

/** Unweighted mean of gap over non-empty bins (the seed's ece_quantile recipe). */
export function meanGap(bins: readonly ReliabilityBin[]): number {
  let sum = 0;
  let k = 0;
  for (const b of bins) {
    if (b.count > 0) {
      sum += b.gap as number;
      k++;
    }
  }
  return k === 0 ? NaN : sum / k;
}

/** Largest gap over non-empty bins. */
export function maxGap(bins: readonly ReliabilityBin[]): number {
  let max = -Infinity;
  for (const b of bins) if (b.count > 0 && (b.gap as number) > max) max = b.gap as number;
  return max === -Infinity ? NaN : max;
}

/** Expected calibration error: weighted, over equal-width bins. */
export function ece(value: Float64Array, target: Targets, nBins: number): number {
  return weightedGap(equalWidthBins(value, target, nBins));
}

/** ece_quantile: UNweighted mean gap over non-empty equal-count bins (docs/metrics.md#ece_quantile). */
export function eceQuantile(value: Float64Array, target: Targets, nBins: number, order?: Uint32Array): number {
  return meanGap(equalCountBins(value, target, nBins, order));
}

/** Maximum calibration error over equal-width bins. */
export function mce(value: Float64Array, target: Targets, nBins: number): number {
  return maxGap(equalWidthBins(value, target, nBins));
}

/** Maximum calibration error over equal-count bins. */
export function mceQuantile(value: Float64Array, target: Targets, nBins: number, order?: Uint32Array): number {
  return maxGap(equalCountBins(value, target, nBins, order));
}

/**
 * KS calibration error (Gupta et al. 2021): the largest gap between the cumulative sums of value
 * and of target, both divided by N, over instances sorted by value (stable).
 */
export function ks(value: Float64Array, target: Targets, order?: Uint32Array): number {
  const ord = order ?? stableArgsort(value);
  return ksSorted(gather(value, ord), gatherTargets(target, ord));
}

/** ks() of columns already sorted by ascending value (NaN last). */
export function ksSorted(value: Float64Array, target: Targets): number {
  const m = countBeforeNaN(value);
  if (m === 0) return NaN;
  // The running difference of the two sums, divided by N once at the end.
  let diff = 0;
  let max = 0;
  for (let i = 0; i < m; i++) {
    diff += value[i] - target[i];
    const a = diff < 0 ? -diff : diff;
    if (a > max) max = a;
  }
  return max / m;
}

export interface HmrResult {
  r_o: number;
  r_u: number;
  hmr: number;
  hmr_beta: number;
}

/**
 * Harmonic mean of rewards (docs/metrics.md#hmr). r_o = 1 - mean confidence of incorrect answers
 * (1 when none), r_u = 1 - mean (1 - confidence) of correct answers (1 when none);
 * hmr = 2 r_o r_u / (r_o + r_u), hmr_beta = (1 + b^2) r_o r_u / (b^2 r_o + r_u), 0 when the
 * denominator is 0. NaN confidences are left out.
 */
export function hmr(confidence: Float64Array, correct: ArrayLike<number>, beta = 1): HmrResult {
  let sumWrong = 0;
  let nWrong = 0;
  let sumUnder = 0;
  let nRight = 0;
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i];
    if (c !== c) continue;
    if (correct[i]) {
      sumUnder += 1 - c;
      nRight++;
    } else {
      sumWrong += c;
      nWrong++;
    }
  }
  const r_o = nWrong === 0 ? 1 : 1 - sumWrong / nWrong;
  const r_u = nRight === 0 ? 1 : 1 - sumUnder / nRight;
  return { r_o, r_u, hmr: fMeasure(r_o, r_u, 1), hmr_beta: fMeasure(r_o, r_u, beta) };
}

/** (1 + b^2) a c / (b^2 a + c): the F-measure form, with c weighing b times as much as a. */
export function fMeasure(a: number, c: number, beta: number): number {
  const b2 = beta * beta;
  const den = b2 * a + c;
  return den === 0 ? 0 : ((1 + b2) * a * c) / den;
}

/** z_0.975, the normal quantile of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval of a proportion p observed over n (docs/metrics.md#bins): (p + z²/2n ∓
 * z sqrt(p(1 - p)/n + z²/4n²)) / (1 + z²/n), z = z_0.975; clipped to [0, 1] against rounding.
 */
export function wilsonInterval(p: number, n: number, z = Z95): [number, number] {
  const z2n = (z * z) / n;
  const centre = p + z2n / 2;
  const half = z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  const den = 1 + z2n;
  return [Math.max(0, (centre - half) / den), Math.min(1, (centre + half) / den)];
}

/** The bins with targetInterval (Wilson 95% of meanTarget over count) on each non-empty bin. Targets must be 0/1. */
export function withTargetIntervals(bins: ReliabilityBin[]): ReliabilityBin[] {
  for (const b of bins) if (b.count > 0 && b.meanTarget !== null) b.targetInterval = wilsonInterval(b.meanTarget, b.count);
  return bins;
}
