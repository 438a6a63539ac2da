// Every metric of a binary (risk-score) set in one go: the hot path for large folktexts files.
// One stable sort of the scores (which leaves the sorted scores behind), then one pass in sorted
// order computes everything: AUC by tie groups, KS, both binnings (equal-width bins are contiguous
// runs of the sorted scores), Brier, log loss, accuracy and the HMR sums. Only the labels are read
// through the order (one byte per row, a cache-friendly random read). The ROC curve's points are
// reached from checkpoints that pass records, without a second walk over every row.
import { KIND_METRICS } from '../../common/metricTable';
import type { ReliabilityBin, RocCurve, SmoothReliability } from '../types';
import { checkBins, fMeasure, makeBin, maxGap, meanGap, weightedGap, widthEdges } from './calibration';
import { decimatedIndices, rocCurveCounted } from './ranking';
import { gather, lowerBound, sortWithOrder } from './sort';
import { smoothCalibration } from './smoothCalibration';

export const BINARY_METRICS = KIND_METRICS.binary.computed;
export type BinaryMetricName = (typeof BINARY_METRICS)[number];

export interface BinaryMetricsOptions {
  /** Reliability bins (equal-width and equal-count). */
  bins: number;
  /** pred = score >= threshold. */
  threshold: number;
  hmrBeta: number;
  /** stableArgsort(score), when the caller already has it. */
  order?: Uint32Array;
  /** The scores in `order` (gather(score, order)), when the caller has them too. */
  sorted?: Float64Array;
  /** Cap on ROC points (decimated). Default 512. */
  rocPoints?: number;
}

export interface BinaryMetrics {
  /** null where undefined (AUC with one class, anything of an empty set). */
  metrics: Record<BinaryMetricName, number | null>;
  bins: { equalWidth: ReliabilityBin[]; equalCount: ReliabilityBin[] };
  roc: RocCurve | null;
  /** stableArgsort(score): reuse it for binIndexEqualCount and the like. */
  order: Uint32Array;
  /** The scores in that order. */
  sorted: Float64Array;
  /** The smoothed reliability diagram of the scores against the labels at σ* (null: no finite score). */
  smooth: SmoothReliability | null;
  /** Sums over the rows of the squared Brier and log-loss terms, for their standard errors (../errorBars.ts). */
  squares: { brier: number; log_loss: number };
}

const LOG_LOSS_EPS = 1e-15;

/**
 * Binary metrics as docs/metrics.md defines them. Calibration (ece, mce, ks and the bins) is of the risk score:
 * value = score, target = label. HMR is top-label: c = max(s, 1 - s), correct = (pred == label).
 */
export function binaryMetrics(score: Float64Array, label: Uint8Array, opts: BinaryMetricsOptions): BinaryMetrics {
  const n = score.length;
  const nb = checkBins(opts.bins);
  const { threshold, hmrBeta } = opts;
  const rocPoints = opts.rocPoints ?? 512;
  let order: Uint32Array;
  let sorted: Float64Array;
  if (opts.order) {
    order = opts.order;
    sorted = opts.sorted ?? gather(score, order);
  } else {
    ({ order, sorted } = sortWithOrder(score));
  }
  const p = sortedPass(sorted, order, label, nb, threshold);
  // Smooth ECE of the risk score, from the scores already sorted (NaN last, left out).
  const smooth = smoothCalibration(sorted.subarray(0, p.finite), p.sortedLabel.subarray(0, p.finite));
  const nWrong = n - p.hits;
  const nRight = p.hits;
  const r_o = nWrong === 0 ? 1 : 1 - p.sumWrong / nWrong;
  const r_u = nRight === 0 ? 1 : 1 - p.sumUnder / nRight;
  const brier = p.brierSum / n;
  const nNeg = n - p.nPos;
  const raw: Record<BinaryMetricName, number | null> = {
    accuracy: p.hits / n,
    auc: p.nPos === 0 || nNeg === 0 ? null : p.wins / (p.nPos * nNeg),
    brier,
    nbr: brier, // for two classes the summed multiclass Brier is 2 * brier, so nbr = brier
    log_loss: -p.logSum / n,
    ece: weightedGap(p.equalWidth),
    ece_quantile: meanGap(p.equalCount),
    mce: maxGap(p.equalWidth),
    mce_quantile: maxGap(p.equalCount),
    ks: p.finite === 0 ? NaN : p.ksMax / p.finite,
    hmr: fMeasure(r_o, r_u, 1),
    r_o,
    r_u,
    hmr_beta: fMeasure(r_o, r_u, hmrBeta),
    smece: smooth ? smooth.result.smece : null,
    smece_sigma: smooth ? smooth.result.sigma : null,
  };
  const metrics = {} as Record<BinaryMetricName, number | null>;
  for (const name of BINARY_METRICS) {
    const v = raw[name];
    // An empty set (n = 0) gives 0/0 everywhere: report undefined, never a perfect score.
    metrics[name] = n === 0 || v === null || !Number.isFinite(v) ? null : v;
  }
  return {
    metrics,
    bins: { equalWidth: p.equalWidth, equalCount: p.equalCount },
    // With NaN scores (never in a parsed set) the tie groups past the finite ones were not
    // checkpointed: the plain walk from the top then.
    roc: p.finite === n
      ? rocFromCheckpoints(sorted, p.sortedLabel, p.nPos, p.groups, p.ckPos, p.ckNeg, rocPoints)
      : rocCurveCounted(sorted, p.sortedLabel, p.nPos, p.groups, rocPoints),
    order,
    sorted,
    smooth: smooth ? smooth.curve : null,
    squares: { brier: p.brierSq, log_loss: p.logSq },
  };
}

interface SortedPass {
  sortedLabel: Uint8Array;
  equalWidth: ReliabilityBin[];
  equalCount: ReliabilityBin[];
  /** Mann-Whitney wins (ties 1/2) and positives. */
  wins: number;
  nPos: number;
  /** Distinct scores (NaN counting each as its own). */
  groups: number;
  /** max |sum (value - target)| over prefixes, and the non-NaN rows it runs over. */
  ksMax: number;
  finite: number;
  brierSum: number;
  logSum: number;
  /** Sums of the squared Brier terms ((s - y)^4) and squared log terms. */
  brierSq: number;
  logSq: number;
  hits: number;
  sumWrong: number;
  sumUnder: number;
  /** ROC checkpoints: positives and negatives below the last tie group of each block of groups. */
  ckPos: Float64Array;
  ckNeg: Float64Array;
}

/** Rows per block of the order-free sums (Brier, log loss, HMR): blocked summation, ~1e-16 relative. */
const BLOCK = 4096;

/**
 * The single walk in sorted order, in segments: a segment ends wherever an equal-width or an
 * equal-count bin ends, and every BLOCK rows. Inside a segment the loop has no data-dependent
 * branch, for a reason of V8's: in a fresh process (the CLI) the 1M-row loop is compiled mid-run
 * (OSR) from the type feedback seen so far, and code first reached later (a bin that closes after
 * 100,000 rows, the half of the scores above 0.5) would throw the compiled loop away again. So
 * bins close in the outer loop, the first segments are short so that the outer loop has run
 * before the compile, and the inner loop's conditionals only pick between values (a conditional
 * arm with arithmetic in it is code that may not have run yet).
 *
 * Sums run in sorted order: the bins add exactly what equalCountBinsSorted() adds, KS what
 * ksSorted() adds, the AUC counts are exact integers; Brier, log loss and the HMR sums differ from
 * a file-order sum only by rounding (block sums: closer to the exact sum than a plain running sum).
 */
function sortedPass(sorted: Float64Array, order: Uint32Array, label: Uint8Array, nb: number, threshold: number): SortedPass {
  const n = sorted.length;
  const sortedLabel = new Uint8Array(n);
  // NaN (never in a parsed set) sorts last and stays out of the binnings and KS.
  let m = n;
  while (m > 0 && sorted[m - 1] !== sorted[m - 1]) m--;
  const edges = widthEdges(nb);
  // Bin ends as positions in sorted order. Equal-width bin b holds edges[b] <= v < edges[b + 1]
  // (the bin of widthBin(): the count of inner edges <= v), so it ends where v >= edges[b + 1] starts.
  const widthEnd = new Float64Array(nb);
  for (let b = 0; b < nb - 1; b++) widthEnd[b] = lowerBound(sorted, m, edges[b + 1]);
  widthEnd[nb - 1] = m;
  const countEnd = new Float64Array(nb);
  const base = Math.floor(m / nb);
  const extra = m % nb;
  for (let b = 0, end = 0; b < nb; b++) countEnd[b] = end += base + (b < extra ? 1 : 0);
  const seg = segmentEnds(m, widthEnd, countEnd);
  const k = seg.length;
  // Per segment: 1 where a bin of that kind ends (its sums restart); the sums at its end.
  const closeW = new Uint8Array(k);
  const closeQ = new Uint8Array(k);
  const segW = new Float64Array(2 * k);
  const segQ = new Float64Array(2 * k);
  for (let b = 0, j = 0; b < nb; b++) {
    while (seg[j] < widthEnd[b]) j++;
    closeW[j] = 1;
  }
  for (let b = 0, j = 0; b < nb; b++) {
    while (seg[j] < countEnd[b]) j++;
    closeQ[j] = 1;
  }

  const ckPos = new Float64Array((m >>> CK_SHIFT) + 1);
  const ckNeg = new Float64Array((m >>> CK_SHIFT) + 1);
  const st = new Float64Array(STATE_SIZE);
  st[S_PREV] = m > 0 ? sorted[0] : 0;
  st[S_GROUPS] = m > 0 ? 1 : 0;
  // The AUC counts are exact integers up to 2^53; starting them at 0.5 (taken off below) keeps them
  // doubles from the start, so that crossing 2^31 does not deoptimise the loop.
  st[S_BELOW] = 0.5;
  st[S_PAIRS] = 0.5;
  fusedLoop(sorted, order, label, sortedLabel, seg, closeW, closeQ, segW, segQ, ckPos, ckNeg, threshold, st);
  let brierSum = st[S_BRIER];
  let logSum = st[S_LOG];
  let brierSq = st[S_BRIER2];
  let logSq = st[S_LOG2];
  let hits = st[S_HITS];
  let sumWrong = st[S_WRONG];
  let sumUnder = st[S_UNDER];
  let groups = st[S_GROUPS];
  const ksMax = st[S_KS];
  const negC = st[S_NEG];
  let wins = st[S_BELOW] - 0.5 + 0.5 * (st[S_PAIRS] - 0.5);
  let nPos = st[S_POS];

  // NaN rows: each its own tie group above everything in the AUC, and in the order-free sums, where
  // they make Brier, log loss and HMR undefined; never predicted positive (NaN >= t is false).
  let pos = 0;
  let neg = 0;
  let negBelow = negC;
  for (let q = m; q < n; q++) {
    const s = sorted[q];
    const y = label[order[q]] !== 0 ? 1 : 0;
    sortedLabel[q] = y;
    if (q > 0) {
      wins += pos * (negBelow + 0.5 * neg);
      negBelow += neg;
      nPos += pos;
      pos = 0;
      neg = 0;
      groups++;
    }
    pos += y;
    neg += 1 - y;
    brierSum += s;
    logSum += s;
    brierSq += s;
    logSq += s;
    if (y === 0) {
      hits++;
      sumUnder += s;
    } else {
      sumWrong += s;
    }
  }
  wins += pos * (negBelow + 0.5 * neg);
  nPos += pos;

  // The bins from the segment sums: a bin's sums are those at the segment where it ends.
  const equalWidth: ReliabilityBin[] = [];
  const equalCount: ReliabilityBin[] = [];
  let lastHi = 0;
  for (let b = 0, j = 0; b < nb; b++) {
    const start = b === 0 ? 0 : widthEnd[b - 1];
    const end = widthEnd[b];
    while (seg[j] < end) j++;
    const count = end - start;
    equalWidth.push(makeBin(edges[b], edges[b + 1], count, count ? segW[2 * j] : 0, count ? segW[2 * j + 1] : 0));
  }
  for (let b = 0, j = 0; b < nb; b++) {
    const start = b === 0 ? 0 : countEnd[b - 1];
    const end = countEnd[b];
    while (seg[j] < end) j++;
    const count = end - start;
    if (count === 0) {
      // Bins left empty (fewer values than bins) take lo = hi = the previous bin's hi.
      equalCount.push(makeBin(lastHi, lastHi, 0, 0, 0));
      continue;
    }
    lastHi = sorted[end - 1];
    equalCount.push(makeBin(sorted[start], lastHi, count, segQ[2 * j], segQ[2 * j + 1]));
  }
  return {
    sortedLabel, equalWidth, equalCount, wins, nPos, groups, ksMax, finite: m,
    brierSum, logSum, brierSq, logSq, hits, sumWrong, sumUnder, ckPos, ckNeg,
  };
}

// The sorted pass's running state, kept in a Float64Array between the caller and the loop.
const S_PREV = 0;
const S_GROUPS = 1;
const S_POS = 2;
const S_NEG = 3;
const S_BELOW = 4;
const S_PAIRS = 5;
const S_KS = 6;
const S_BRIER = 7;
const S_LOG = 8;
const S_HITS = 9;
const S_WRONG = 10;
const S_UNDER = 11;
const S_BRIER2 = 12;
const S_LOG2 = 13;
const STATE_SIZE = 14;

/**
 * The hot loop of sortedPass(), a small function of its own: V8 compiles a small function sooner
 * and faster, which matters when the loop runs once, in a fresh process.
 */
function fusedLoop(
  sorted: Float64Array, order: Uint32Array, label: Uint8Array, sortedLabel: Uint8Array, seg: Float64Array,
  closeW: Uint8Array, closeQ: Uint8Array, segW: Float64Array, segQ: Float64Array, ckPos: Float64Array,
  ckNeg: Float64Array, threshold: number, st: Float64Array,
): void {
  let wV = 0; // running sums of the open equal-width bin
  let wT = 0;
  let qV = 0; // and of the open equal-count bin
  let qT = 0;
  // AUC: wins = sum over positives of (negatives below its tie group + half those inside it)
  //      = sum over positives of negatives before the group + half the positive-negative pairs
  //        within groups, both counted branch-free with the group's start counts.
  let prev = st[S_PREV];
  let groups = st[S_GROUPS];
  let posC = 0;
  let negC = 0;
  let gPos = 0; // posC, negC where the current tie group began
  let gNeg = 0;
  let below = st[S_BELOW];
  let pairs = st[S_PAIRS];
  let diff = 0;
  let ksMax = 0;
  let brierSum = 0;
  let logSum = 0;
  let brierSq = 0;
  let logSq = 0;
  let hits = 0;
  let sumWrong = 0; // confidence on incorrect predictions
  let sumUnder = 0; // 1 - confidence on correct predictions
  let p = 0;
  for (let j = 0; j < seg.length; j++) {
    const end = seg[j];
    // Block sums, added to the totals once per segment.
    let bBrier = 0;
    let bLog = 0;
    let bBrier2 = 0;
    let bLog2 = 0;
    let bWrong = 0;
    let bUnder = 0;
    for (; p < end; p++) {
      const s = sorted[p];
      const y = label[order[p]] !== 0 ? 1 : 0;
      sortedLabel[p] = y;
      const fresh = s !== prev;
      gPos = fresh ? posC : gPos;
      gNeg = fresh ? negC : gNeg;
      groups += fresh ? 1 : 0;
      prev = s;
      // ROC checkpoints: where the last tie group of each block of 2^CK_SHIFT groups begins.
      const blk = (groups - 1) >>> CK_SHIFT;
      ckPos[blk] = gPos;
      ckNeg[blk] = gNeg;
      below += y * gNeg;
      pairs += y * (negC - gNeg) + (1 - y) * (posC - gPos);
      posC += y;
      negC += 1 - y;
      diff += s - y;
      ksMax = Math.max(ksMax, Math.abs(diff));
      wV += s;
      wT += y;
      qV += s;
      qT += y;
      const d = s - y;
      const d2 = d * d;
      bBrier += d2;
      bBrier2 += d2 * d2;
      const sc = Math.max(LOG_LOSS_EPS, Math.min(1 - LOG_LOSS_EPS, s));
      const sn = 1 - sc;
      const l = Math.log(y ? sc : sn);
      bLog += l;
      bLog2 += l * l;
      const c = Math.max(s, 1 - s);
      const h = (s >= threshold ? 1 : 0) === y ? 1 : 0;
      hits += h;
      bUnder += h * (1 - c);
      bWrong += (1 - h) * c;
    }
    brierSum += bBrier;
    logSum += bLog;
    brierSq += bBrier2;
    logSq += bLog2;
    sumWrong += bWrong;
    sumUnder += bUnder;
    segW[2 * j] = wV;
    segW[2 * j + 1] = wT;
    segQ[2 * j] = qV;
    segQ[2 * j + 1] = qT;
    const cw = closeW[j] !== 0;
    const cq = closeQ[j] !== 0;
    wV = cw ? 0 : wV;
    wT = cw ? 0 : wT;
    qV = cq ? 0 : qV;
    qT = cq ? 0 : qT;
  }
  st[S_GROUPS] = groups;
  st[S_POS] = posC;
  st[S_NEG] = negC;
  st[S_BELOW] = below;
  st[S_PAIRS] = pairs;
  st[S_KS] = ksMax;
  st[S_BRIER] = brierSum;
  st[S_LOG] = logSum;
  st[S_BRIER2] = brierSq;
  st[S_LOG2] = logSq;
  st[S_HITS] = hits;
  st[S_WRONG] = sumWrong;
  st[S_UNDER] = sumUnder;
}

/** Tie groups per ROC checkpoint block: 64. */
const CK_SHIFT = 6;

/**
 * rocCurveCounted() without walking every row: the kept points are tie groups spread evenly over
 * all of them, and each is reached from the nearest checkpoint below it (the pass recorded where
 * the last group of every block of 64 began), or from the previous kept point when that is closer.
 * Rows walked: at most 64 groups' worth per point, never more than the rows.
 */
function rocFromCheckpoints(
  sorted: Float64Array, label: Uint8Array, nPos: number, groups: number, ckPos: Float64Array, ckNeg: Float64Array,
  maxPoints: number,
): RocCurve | null {
  const n = sorted.length;
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return null;
  // Point i >= 1 is the tie group i from the top: ascending group groups - i.
  const keep = decimatedIndices(groups + 1, maxPoints);
  const k = keep.length;
  const fpr = new Array<number>(k);
  const tpr = new Array<number>(k);
  const thresholds = new Array<number>(k);
  fpr[0] = 0;
  tpr[0] = 0;
  thresholds[0] = sorted[n - 1] + 1;
  // A walker at the start of tie group g: row p, positives below pos.
  let g = 0;
  let p = 0;
  let pos = 0;
  for (let j = k - 1; j >= 1; j--) {
    const target = groups - keep[j];
    const b = ((target + 1) >>> CK_SHIFT) - 1; // the last block whose last group is <= target
    const c = (b << CK_SHIFT) + (1 << CK_SHIFT) - 1;
    if (b >= 0 && c > g) {
      g = c;
      pos = ckPos[b];
      p = pos + ckNeg[b];
    }
    for (; g < target; g++) {
      const v = sorted[p];
      do pos += label[p++];
      while (p < n && sorted[p] === v);
    }
    tpr[j] = (nPos - pos) / nPos;
    fpr[j] = (nNeg - (p - pos)) / nNeg;
    thresholds[j] = sorted[p];
  }
  return { fpr, tpr, thresholds };
}

/**
 * Ends of the segments of the sorted pass, ascending, the last = m: every bin end, every BLOCK
 * rows, and short segments first (16, 32, ..., BLOCK / 2) so the outer loop runs early on.
 */
function segmentEnds(m: number, widthEnd: Float64Array, countEnd: Float64Array): Float64Array {
  const ends: number[] = [];
  for (let e = 16; e < BLOCK && e < m; e *= 2) ends.push(e);
  for (let e = BLOCK; e < m; e += BLOCK) ends.push(e);
  for (const e of widthEnd) ends.push(e);
  for (const e of countEnd) ends.push(e);
  ends.push(m);
  const sorted = Float64Array.from(ends).sort();
  // Duplicates stay: a zero-length segment is harmless, and each bin end maps to its own segment.
  return sorted;
}

