// Bootstrap resamples in O(n) without sorting: the columns are sorted once, and a resample is a
// vector of multiplicities w (w[i] = how often row i was drawn, see ./bootstrap.ts). Every metric
// of the resample is then one pass over the rows in sorted order with weights:
//
// - AUC by weighted tie groups (positives and negatives of a group are sums of weights);
// - equal-width bins: the runs of the sorted values between the bin edges, weighted sums;
// - equal-count bins (numpy.array_split of the n resampled values, sorted): a row of weight c
//   occupies c consecutive places of the expanded sequence, and one that straddles a bin end
//   gives each bin its share of those places;
// - KS over the expanded sequence: within one row's c places the running difference moves
//   monotonically, so its largest |value| is reached at the ends of the run;
// - Brier, log loss, accuracy, the HMR sums: weighted sums.
//
// Rows not drawn add nothing, so the pass goes over the drawn rows only (gathered in sorted order
// with their counts first), and spreads them onto smECE's grid as it goes.
//
// A resample taken this way is the multiset of drawn rows in file order (ties keep file order, as
// docs/metrics.md#binning asks of every binned metric), which is what the naive path (gather the drawn rows in
// ascending row order, sort, compute) computes; the results agree to rounding (~1e-15).
import { lowerBound, sortWithOrder } from './sort';
import { fMeasure, widthEdges } from './calibration';
import type { Counts } from './bootstrap';
import { addCell, SmoothGrid, SPREAD_CHUNK, type SmoothBand } from './smoothCalibration';

const LOG_LOSS_EPS = 1e-15;
const KL_EPS = 1e-6;

export type ResampleMetrics = Record<string, number | null>;

export interface CalibrationResampleOptions {
  bins: number;
  hmrBeta: number;
  /**
   * 'binary': value = risk score, target = label, HMR of the top label (c = max(s, 1 - s),
   * correct = (s >= threshold) == label), accuracy = mean(correct), plus AUC.
   * 'topLabel': value = top-label confidence, target = correctness (c = value, correct = target).
   */
  mode: 'binary' | 'topLabel';
  /** pred = score >= threshold ('binary' only). */
  threshold?: number;
  /** Keep each resample's smoothed reliability curve at band.sigma (the report's bootstrap band). */
  band?: SmoothBand;
}

/**
 * The metrics of a (value, target) set under resampling, as a function of the multiplicities:
 * accuracy, brier, nbr, log_loss, ece, ece_quantile, mce, mce_quantile, ks, hmr, r_o, r_u,
 * hmr_beta, smece, smece_sigma, and auc for 'binary' (confidence_auroc and confidence_brier for
 * 'topLabel', where the target is correctness). Targets are 0/1. Values must not be NaN (use
 * the naive path). smECE: the resample's rows spread onto the grid (by the weighted pass itself), then
 * the same search as the whole set's (./smoothCalibration.ts).
 */
/**
 * A resampler of calibrationResampler; `confusionAt(t)`, for pred = value >= t when t is an inner
 * edge of the equal-width bins (0.5 with an even number of bins: the default), gives the last
 * resample's confusion counts [tn, fn, fp, tp] from its bins' sums (the bins at and above that
 * edge hold exactly the values >= t), without another pass over the rows; null for another t.
 */
export type CalibrationResampler = ((w: Counts) => ResampleMetrics) & {
  confusionAt(threshold: number): (() => [number, number, number, number]) | null;
};

export function calibrationResampler(
  value: Float64Array,
  target: Uint8Array,
  opts: CalibrationResampleOptions,
): CalibrationResampler {
  // First: the warm-up's columns (confK -Infinity) make confK a double field of SortedColumns, so the
  // ones below (confK 1, a small integer) do not change its layout after the kernels were compiled.
  warmUpKernels();
  const n = value.length;
  const nb = Math.floor(opts.bins);
  const { order, sorted } = sortWithOrder(value);
  const binary = opts.mode === 'binary';
  // Per sorted position, what does not change between resamples: the target and whether the top
  // label is correct (flags: bit 0 and bit 1), and the log-loss term (Math.log is the one costly
  // operation). 'binary': pred = s >= threshold; 'topLabel': correct = target.
  const threshold = opts.threshold ?? 0.5;
  const flags = new Uint8Array(n);
  const logTerm = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const s = sorted[p];
    const y = target[order[p]] !== 0 ? 1 : 0;
    const h = binary ? ((s >= threshold ? 1 : 0) === y ? 1 : 0) : y;
    flags[p] = y | (h << 1);
    const sc = s < LOG_LOSS_EPS ? LOG_LOSS_EPS : s > 1 - LOG_LOSS_EPS ? 1 - LOG_LOSS_EPS : s;
    logTerm[p] = y ? Math.log(sc) : Math.log(1 - sc);
  }
  // Equal-width bin b = sorted positions [widthEnd[b - 1], widthEnd[b]) (see binaryMetrics).
  const edges = widthEdges(nb);
  const widthEnd = new Float64Array(nb);
  for (let b = 0; b < nb - 1; b++) widthEnd[b] = lowerBound(sorted, n, edges[b + 1]);
  widthEnd[nb - 1] = n;
  // Equal-count bin ends in the expanded sequence of n resampled values (numpy.array_split).
  const countEnd = new Float64Array(nb + 1);
  const base = Math.floor(n / nb);
  const extra = n % nb;
  for (let b = 0, end = 0; b < nb; b++) countEnd[b] = end += base + (b < extra ? 1 : 0);
  countEnd[nb] = Infinity; // past the last bin: never reached
  // Top-label confidence c = max(s, k - s): k = 1 gives max(s, 1 - s) ('binary'), k = -Infinity s.
  const cols: SortedColumns = { sorted, flags, logTerm, widthEnd, countEnd, confK: binary ? 1 : -Infinity };
  // The drawn rows are gathered per equal-width bin (one run of all rows when there is no bin).
  const runEnd = nb >= 1 ? widthEnd : Float64Array.of(n);
  const out: PassSums = newPassSums(runEnd.length);
  const drawn: DrawnRows = { rows: new Int32Array(n), counts: new Int32Array(n), binEnd: new Int32Array(runEnd.length) };
  const grid = new SmoothGrid();
  const band = opts.band;
  // The resample's rows onto the smECE grid: the first time by the weighted pass itself, again (a
  // finer grid, when σ* is small) by a spread of the drawn rows alone.
  let passed = false;
  const spreadInto = (acc: Float64Array, fine: number): number => {
    if (passed) return spreadDrawn(cols, drawn, acc, fine);
    passed = true;
    weightedPass(cols, drawn, out, acc, fine);
    return out.s[S_E];
  };
  let hint: number | null | undefined;
  const confusionAt = (t: number): (() => [number, number, number, number]) | null => {
    const b = edges.indexOf(t);
    if (!(b >= 1 && b < nb)) return null;
    return () => {
      let n0 = 0, pos0 = 0, n1 = 0, pos1 = 0;
      for (let k = 0; k < b; k++) { n0 += out.wCount[k]; pos0 += out.wT[k]; }
      for (let k = b; k < nb; k++) { n1 += out.wCount[k]; pos1 += out.wT[k]; }
      return [n0 - pos0, pos0, n1 - pos1, pos1];
    };
  };
  const resample = (w: Counts): ResampleMetrics => {
    // The rows drawn (count > 0) and their counts, in sorted order, by a tight gather loop: reading
    // w through the order from the pass itself costs ~35 ns a row on 1M rows (cache misses the busy
    // loop cannot overlap), this ~3 ns. The pass then skips the rows not drawn (a third of them).
    if (w instanceof Uint8Array) gatherDrawn8(w, order, runEnd, drawn);
    else gatherDrawn32(w, order, runEnd, drawn);
    // The search starts at the whole set's σ* (the band's, or found once here), near the resample's;
    // the same hint for every resample, so a resample's value does not depend on the ones before.
    if (hint === undefined) {
      hint = band ? band.sigma : (new SmoothGrid().fill(sorted, Uint8Array.from(flags, (f) => f & 1)).fixedPoint()?.sigma ?? null);
    }
    passed = false;
    const smooth = grid.fillBy(spreadInto).fixedPoint(hint ?? undefined);
    const m = calibrationFromSums(out, n, nb, opts.hmrBeta, binary);
    m.smece = smooth ? smooth.smece : null;
    m.smece_sigma = smooth ? smooth.sigma : null;
    if (band) band.add(grid.curveAt(band.sigma).curve);
    return m;
  };
  return Object.assign(resample, { confusionAt });
}

interface SortedColumns {
  sorted: Float64Array;
  flags: Uint8Array;
  logTerm: Float64Array;
  widthEnd: Float64Array;
  countEnd: Float64Array;
  confK: number;
}

/** A resample's drawn rows in sorted order: rows[k] (a sorted position) drawn counts[k] > 0 times. */
interface DrawnRows {
  rows: Int32Array;
  counts: Int32Array;
  /** Equal-width bin b holds drawn rows [binEnd[b - 1], binEnd[b]). */
  binEnd: Int32Array;
}

interface PassSums {
  /** Per equal-width bin: weight, sum of weight * value, of weight * target. */
  wCount: Float64Array;
  wV: Float64Array;
  wT: Float64Array;
  /** Per equal-count bin: sum of value, of target over its places. */
  qV: Float64Array;
  qT: Float64Array;
  /** The running state of the pass (the S_* slots). */
  s: Float64Array;
}

// Slots of the pass state.
const S_PREV = 0;
const S_POS = 1; // weight of positives so far (an exact integer)
const S_NEG = 2;
const S_GPOS = 3; // S_POS, S_NEG where the current tie group began
const S_GNEG = 4;
const S_BELOW = 5; // AUC: sum over positives of the negatives below their tie group
const S_PAIRS = 6; // positive-negative pairs within tie groups
const S_DIFF = 7; // KS running difference
const S_KS = 8;
const S_BRIER = 9;
const S_LOG = 10;
const S_HITS = 11;
const S_WRONG = 12;
const S_UNDER = 13;
const S_E = 14; // places of the expanded sequence before the next row
const S_QB = 15; // the open equal-count bin
const S_QV = 16; // its sum of values
const S_QPOS = 17; // S_POS where it began (its sum of targets = S_POS - this, plus shares)
const S_SV = 18; // the equal-width bin's sum of values, from the kernel
const S_CELL = 19; // smECE grid: the open cell (-1: none), where its chunk ends, its four sums
const S_CHUNK_END = 20;
const S_C0 = 21;
const S_C1 = 22;
const S_C2 = 23;
const S_C3 = 24;
const S_CONFK = 25; // inputs: the top-label confidence's k (SortedColumns.confK), the grid's intervals
const S_FINE = 26;
const STATE = 27;

/**
 * The drawn rows of w in sorted order, per equal-width bin (see DrawnRows): row order[p] at sorted
 * position p. Each row is written, and the next one overwrites it when its count is 0: no branch on
 * the counts (as unpredictable as the draws). Four rows a turn: V8 checks the arrays and moves its
 * loop state once per turn, which halves this loop's time.
 */
function gatherDrawn8(w: Uint8Array, order: Uint32Array, runEnd: Float64Array, d: DrawnRows): void {
  const { rows, counts, binEnd } = d;
  let k = 0;
  for (let b = 0, p = 0; b < runEnd.length; b++) {
    const to = runEnd[b];
    for (; p + 4 <= to; p += 4) {
      const c0 = w[order[p]];
      const c1 = w[order[p + 1]];
      const c2 = w[order[p + 2]];
      const c3 = w[order[p + 3]];
      rows[k] = p;
      counts[k] = c0;
      k += (c0 + 255) >>> 8; // 1 when drawn (c0 in 0..255)
      rows[k] = p + 1;
      counts[k] = c1;
      k += (c1 + 255) >>> 8;
      rows[k] = p + 2;
      counts[k] = c2;
      k += (c2 + 255) >>> 8;
      rows[k] = p + 3;
      counts[k] = c3;
      k += (c3 + 255) >>> 8;
    }
    for (; p < to; p++) {
      const c = w[order[p]];
      rows[k] = p;
      counts[k] = c;
      k += (c + 255) >>> 8;
    }
    binEnd[b] = k;
  }
}

/** gatherDrawn8 for 32-bit counts (a function of its own, so that each stays monomorphic). */
function gatherDrawn32(w: Uint32Array, order: Uint32Array, runEnd: Float64Array, d: DrawnRows): void {
  const { rows, counts, binEnd } = d;
  let k = 0;
  for (let b = 0, p = 0; b < runEnd.length; b++) {
    const to = runEnd[b];
    for (; p < to; p++) {
      const c = w[order[p]];
      rows[k] = p;
      counts[k] = c;
      k += (c | -c) >>> 31; // 1 when drawn (c < 2^31)
    }
    binEnd[b] = k;
  }
}

function newPassSums(nb: number): PassSums {
  return {
    wCount: new Float64Array(nb), wV: new Float64Array(nb), wT: new Float64Array(nb),
    qV: new Float64Array(nb), qT: new Float64Array(nb), s: new Float64Array(STATE),
  };
}

/**
 * Run the kernels on a small made-up set once per process, with weights that make rows straddle
 * equal-count bins and cells of the grid, before they meet real data. Without it V8 may compile a
 * kernel (on-stack, during its first million-row pass) before the rare branches have run,
 * deoptimise when they do, and after a few rounds of that keep a slower version for the rest of
 * the process: measured, 1 run in 4 of a two-run comparison stayed at ~40 ms a resample, 3 in 4 at ~85 ms.
 */
let warmedUp = false;
function warmUpKernels(): void {
  if (warmedUp) return;
  warmedUp = true;
  const n = 97;
  const nb = 7;
  const sorted = new Float64Array(n);
  const flags = new Uint8Array(n);
  const logTerm = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    sorted[p] = Math.floor((p * 13) / 12) / 104; // ties every 12 rows, values in [0, 1)
    flags[p] = (p * 7) % 4;
    logTerm[p] = -((p % 5) + 1) / 7;
  }
  const widthEnd = new Float64Array(nb);
  for (let b = 0; b < nb - 1; b++) widthEnd[b] = lowerBound(sorted, n, (b + 1) / nb);
  widthEnd[nb - 1] = n;
  const countEnd = new Float64Array(nb + 1);
  for (let b = 0; b < nb; b++) countEnd[b] = Math.round(((b + 1) * n) / nb);
  countEnd[nb] = Infinity;
  const out = newPassSums(nb);
  const order = Uint32Array.from({ length: n }, (_, p) => (p * 41) % n);
  const w8 = new Uint8Array(n);
  const w32 = new Uint32Array(n);
  const drawn: DrawnRows = { rows: new Int32Array(n), counts: new Int32Array(n), binEnd: new Int32Array(nb) };
  const acc = new Float64Array(2 * (64 + 2));
  // 100 rounds: every kernel is optimised by then with every branch seen (--trace-opt), and they
  // cost ~30 ms of CPU once per process (400 rounds: ~100 ms).
  for (let round = 0; round < 100; round++) {
    for (let p = 0; p < n; p++) w8[p] = w32[p] = (p * 31 + round * 17) % 5; // 0 to 4: some rows straddle bin ends
    const cols: SortedColumns = { sorted, flags, logTerm, widthEnd, countEnd, confK: round % 2 ? 1 : -Infinity }; // -Infinity first
    if (round % 2) gatherDrawn8(w8, order, widthEnd, drawn);
    else gatherDrawn32(w32, order, widthEnd, drawn);
    acc.fill(0);
    weightedPass(cols, drawn, out, acc, 64);
    spreadDrawn(cols, drawn, acc, 64);
  }
}

/**
 * The one weighted pass in sorted order over the drawn rows (see the head of this file), one
 * equal-width bin per kernel call. It also spreads the rows onto the smECE grid of `fine` intervals
 * (into acc, see SmoothGrid.fillBy), as spreadDrawn does. The kernel is a function of its own with
 * its state in a typed array: V8 optimises it once and keeps it, over thousands of calls.
 */
function weightedPass(cols: SortedColumns, d: DrawnRows, out: PassSums, acc: Float64Array, fine: number): void {
  const { countEnd } = cols;
  const nb = d.binEnd.length;
  const st = out.s;
  st.fill(0);
  st[S_PREV] = cols.sorted.length > 0 ? cols.sorted[0] : 0;
  st[S_CELL] = -1;
  st[S_CONFK] = cols.confK;
  st[S_FINE] = fine;
  for (let b = 0, from = 0; b < nb; b++) {
    const to = d.binEnd[b];
    const e0 = st[S_E];
    const pos0 = st[S_POS];
    weightedRun(
      cols.sorted, cols.flags, cols.logTerm, countEnd, d.rows, d.counts, out.qV, out.qT, from, to, st, acc,
    );
    // The bin's weight and positives are differences of exact integer counts.
    out.wCount[b] = st[S_E] - e0;
    out.wV[b] = st[S_SV];
    out.wT[b] = st[S_POS] - pos0;
    from = to;
  }
  if (st[S_CELL] >= 0) addCell(acc, st[S_CELL] | 0, st[S_C0], st[S_C1], st[S_C2], st[S_C3]);
  // The bin the last row ended in, and any left empty (fewer places than bins).
  for (let qb = st[S_QB], qV = st[S_QV], qT = st[S_POS] - st[S_QPOS]; qb < nb; qb++, qV = 0, qT = 0) {
    out.qV[qb] = qV;
    out.qT[qb] = qT;
  }
}

/**
 * Drawn rows [from, to) of the weighted pass (one equal-width bin); state in and out through st.
 * A row not drawn adds exact zeros to every sum and cannot end a tie group that a later drawn
 * row continues, so skipping it changes nothing; the grid's cells end where SmoothGrid.fill ends
 * them (a new cell, or the end of a chunk of SPREAD_CHUNK sorted positions), so the grid gets the
 * same sums as spreading all rows.
 */
function weightedRun(
  sorted: Float64Array, flags: Uint8Array, logTerm: Float64Array,
  countEnd: Float64Array, rows: Int32Array, counts: Int32Array, qVs: Float64Array, qTs: Float64Array,
  from: number, to: number, st: Float64Array, acc: Float64Array,
): void {
  // Numbers the loop needs, read from a typed array: V8 keeps a plain double in a register (a
  // number passed as an argument is checked and unboxed again on every row). The counts that are
  // whole numbers below 2^31 (places, hits, the grid's cell and chunk end) as int32: general
  // registers, where the doubles compete for 16.
  const confK = st[S_CONFK];
  const fine = st[S_FINE] | 0;
  let prev = st[S_PREV];
  let posC = st[S_POS];
  let negC = st[S_NEG];
  let gPos = st[S_GPOS];
  let gNeg = st[S_GNEG];
  let below = st[S_BELOW];
  let pairs = st[S_PAIRS];
  let diff = st[S_DIFF];
  let ksMax = st[S_KS];
  let brier = st[S_BRIER];
  let log = st[S_LOG];
  let hits = st[S_HITS] | 0;
  let wrong = st[S_WRONG];
  let under = st[S_UNDER];
  let e = st[S_E] | 0;
  let qb = st[S_QB];
  let qV = st[S_QV];
  let qPos = st[S_QPOS];
  let qEnd = countEnd[qb];
  let cell = st[S_CELL] | 0;
  let chunkEnd = st[S_CHUNK_END] | 0;
  let c0 = st[S_C0];
  let c1 = st[S_C1];
  let c2 = st[S_C2];
  let c3 = st[S_C3];
  let sV = 0;
  // Two rows a turn (the second block is the first one's code for row k + 1): V8 checks the
  // arrays and moves the loop's state, much of it spilled to the stack, once per turn.
  //
  // Per row: AUC by tie groups, branch-free (the counts where the group began are picked, not
  // computed); c * y and c * h as bit masks (an integer multiply checks for -0 on every row, a
  // branch as unpredictable as the labels); KS, the equal-width bin's sum of values, the
  // equal-count bin's places (straddle() when the row's c places run past its end); Brier, log
  // loss, the HMR sums; and the smECE grid (spreadCounts in ./smoothCalibration.ts: the row's
  // weight between the two nearest nodes, summed per cell).
  let k = from;
  for (; k + 2 <= to; k += 2) {
    {
      const p = rows[k];
      const c = counts[k];
      const s = sorted[p];
      const f = flags[p];
      const y = f & 1;
      const fresh = s !== prev;
      gPos = fresh ? posC : gPos;
      gNeg = fresh ? negC : gNeg;
      prev = s;
      const cy = c & -y;
      const cn = c - cy;
      below += cy * gNeg;
      pairs += cy * (negC - gNeg) + cn * (posC - gPos);
      const dv = s - y;
      diff += c * dv;
      const ad = diff < 0 ? -diff : diff;
      if (ad > ksMax) ksMax = ad;
      const cs = c * s;
      sV += cs;
      if (e + c > qEnd) {
        st[S_E] = e;
        st[S_QB] = qb;
        st[S_QV] = qV;
        st[S_QPOS] = qPos;
        straddle(st, countEnd, qVs, qTs, c, s, y, posC);
        e = st[S_E] | 0;
        qb = st[S_QB];
        qV = st[S_QV];
        qPos = st[S_QPOS];
        qEnd = countEnd[qb];
      } else {
        qV += cs;
        e += c;
      }
      posC += cy;
      negC += cn;
      brier += c * (dv * dv);
      log += c * logTerm[p];
      const cf = s > confK - s ? s : confK - s;
      const ch = c & -(f >>> 1);
      hits += ch;
      under += ch * (1 - cf);
      wrong += (c - ch) * cf;
      const x = (s < 0 ? 0 : s > 1 ? 1 : s) * fine;
      const j = Math.min(fine - 1, x | 0);
      if (j !== cell || p >= chunkEnd) {
        if (cell >= 0) addCell(acc, cell, c0, c1, c2, c3);
        cell = j;
        chunkEnd = p - (p % SPREAD_CHUNK) + SPREAD_CHUNK;
        c0 = c1 = c2 = c3 = 0;
      }
      const ca = c * (x - j);
      const cb = c - ca;
      c0 += cb;
      c1 += cb * dv;
      c2 += ca;
      c3 += ca * dv;
    }
    {
      const p = rows[k + 1];
      const c = counts[k + 1];
      const s = sorted[p];
      const f = flags[p];
      const y = f & 1;
      const fresh = s !== prev;
      gPos = fresh ? posC : gPos;
      gNeg = fresh ? negC : gNeg;
      prev = s;
      const cy = c & -y;
      const cn = c - cy;
      below += cy * gNeg;
      pairs += cy * (negC - gNeg) + cn * (posC - gPos);
      const dv = s - y;
      diff += c * dv;
      const ad = diff < 0 ? -diff : diff;
      if (ad > ksMax) ksMax = ad;
      const cs = c * s;
      sV += cs;
      if (e + c > qEnd) {
        st[S_E] = e;
        st[S_QB] = qb;
        st[S_QV] = qV;
        st[S_QPOS] = qPos;
        straddle(st, countEnd, qVs, qTs, c, s, y, posC);
        e = st[S_E] | 0;
        qb = st[S_QB];
        qV = st[S_QV];
        qPos = st[S_QPOS];
        qEnd = countEnd[qb];
      } else {
        qV += cs;
        e += c;
      }
      posC += cy;
      negC += cn;
      brier += c * (dv * dv);
      log += c * logTerm[p];
      const cf = s > confK - s ? s : confK - s;
      const ch = c & -(f >>> 1);
      hits += ch;
      under += ch * (1 - cf);
      wrong += (c - ch) * cf;
      const x = (s < 0 ? 0 : s > 1 ? 1 : s) * fine;
      const j = Math.min(fine - 1, x | 0);
      if (j !== cell || p >= chunkEnd) {
        if (cell >= 0) addCell(acc, cell, c0, c1, c2, c3);
        cell = j;
        chunkEnd = p - (p % SPREAD_CHUNK) + SPREAD_CHUNK;
        c0 = c1 = c2 = c3 = 0;
      }
      const ca = c * (x - j);
      const cb = c - ca;
      c0 += cb;
      c1 += cb * dv;
      c2 += ca;
      c3 += ca * dv;
    }
  }
  for (; k < to; k++) {
    {
      const p = rows[k];
      const c = counts[k];
      const s = sorted[p];
      const f = flags[p];
      const y = f & 1;
      const fresh = s !== prev;
      gPos = fresh ? posC : gPos;
      gNeg = fresh ? negC : gNeg;
      prev = s;
      const cy = c & -y;
      const cn = c - cy;
      below += cy * gNeg;
      pairs += cy * (negC - gNeg) + cn * (posC - gPos);
      const dv = s - y;
      diff += c * dv;
      const ad = diff < 0 ? -diff : diff;
      if (ad > ksMax) ksMax = ad;
      const cs = c * s;
      sV += cs;
      if (e + c > qEnd) {
        st[S_E] = e;
        st[S_QB] = qb;
        st[S_QV] = qV;
        st[S_QPOS] = qPos;
        straddle(st, countEnd, qVs, qTs, c, s, y, posC);
        e = st[S_E] | 0;
        qb = st[S_QB];
        qV = st[S_QV];
        qPos = st[S_QPOS];
        qEnd = countEnd[qb];
      } else {
        qV += cs;
        e += c;
      }
      posC += cy;
      negC += cn;
      brier += c * (dv * dv);
      log += c * logTerm[p];
      const cf = s > confK - s ? s : confK - s;
      const ch = c & -(f >>> 1);
      hits += ch;
      under += ch * (1 - cf);
      wrong += (c - ch) * cf;
      const x = (s < 0 ? 0 : s > 1 ? 1 : s) * fine;
      const j = Math.min(fine - 1, x | 0);
      if (j !== cell || p >= chunkEnd) {
        if (cell >= 0) addCell(acc, cell, c0, c1, c2, c3);
        cell = j;
        chunkEnd = p - (p % SPREAD_CHUNK) + SPREAD_CHUNK;
        c0 = c1 = c2 = c3 = 0;
      }
      const ca = c * (x - j);
      const cb = c - ca;
      c0 += cb;
      c1 += cb * dv;
      c2 += ca;
      c3 += ca * dv;
    }
  }
  st[S_PREV] = prev;
  st[S_POS] = posC;
  st[S_NEG] = negC;
  st[S_GPOS] = gPos;
  st[S_GNEG] = gNeg;
  st[S_BELOW] = below;
  st[S_PAIRS] = pairs;
  st[S_DIFF] = diff;
  st[S_KS] = ksMax;
  st[S_BRIER] = brier;
  st[S_LOG] = log;
  st[S_HITS] = hits;
  st[S_WRONG] = wrong;
  st[S_UNDER] = under;
  st[S_E] = e;
  st[S_QB] = qb;
  st[S_QV] = qV;
  st[S_QPOS] = qPos;
  st[S_SV] = sV;
  st[S_CELL] = cell;
  st[S_CHUNK_END] = chunkEnd;
  st[S_C0] = c0;
  st[S_C1] = c1;
  st[S_C2] = c2;
  st[S_C3] = c3;
}

/**
 * A row whose c places run past the open equal-count bin's end (st: S_E, S_QB, S_QV, S_QPOS in and
 * out): it gets its share, and so does every bin the row reaches into. Rare (at most once per bin).
 */
function straddle(
  st: Float64Array, countEnd: Float64Array, qVs: Float64Array, qTs: Float64Array,
  c: number, s: number, y: number, posC: number,
): void {
  let e = st[S_E];
  let qb = st[S_QB];
  let qV = st[S_QV];
  let qPos = st[S_QPOS];
  let qEnd = countEnd[qb];
  let left = c;
  let pos = posC;
  while (e + left > qEnd) {
    const part = qEnd - e;
    qVs[qb] = qV + part * s;
    qTs[qb] = pos + part * y - qPos;
    pos += part * y;
    qPos = pos;
    qb++;
    left -= part;
    e = qEnd;
    qEnd = countEnd[qb];
    qV = 0;
  }
  st[S_E] = e + left;
  st[S_QB] = qb;
  st[S_QV] = left * s;
  st[S_QPOS] = qPos;
}

/** The drawn rows onto the smECE grid alone (a finer grid than the pass spread them on). Returns the total weight. */
function spreadDrawn(cols: SortedColumns, d: DrawnRows, acc: Float64Array, fine: number): number {
  const { sorted, flags } = cols;
  const { rows, counts } = d;
  const to = d.binEnd.length ? d.binEnd[d.binEnd.length - 1] : 0;
  let total = 0;
  let cell = -1;
  let chunkEnd = 0;
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  for (let k = 0; k < to; k++) {
    const p = rows[k];
    const c = counts[k];
    const s = sorted[p];
    const x = (s < 0 ? 0 : s > 1 ? 1 : s) * fine;
    const j = Math.min(fine - 1, x | 0);
    if (j !== cell || p >= chunkEnd) {
      if (cell >= 0) addCell(acc, cell, c0, c1, c2, c3);
      cell = j;
      chunkEnd = p - (p % SPREAD_CHUNK) + SPREAD_CHUNK;
      c0 = c1 = c2 = c3 = 0;
    }
    const dv = s - (flags[p] & 1);
    const ca = c * (x - j);
    const cb = c - ca;
    total += c;
    c0 += cb;
    c1 += cb * dv;
    c2 += ca;
    c3 += ca * dv;
  }
  if (cell >= 0) addCell(acc, cell, c0, c1, c2, c3);
  return total;
}

function calibrationFromSums(out: PassSums, n: number, nb: number, hmrBeta: number, binary: boolean): ResampleMetrics {
  const st = out.s;
  const below = st[S_BELOW];
  const pairs = st[S_PAIRS];
  const posC = st[S_POS];
  const negC = st[S_NEG];
  const ksMax = st[S_KS];
  const brier = st[S_BRIER];
  const log = st[S_LOG];
  const hits = st[S_HITS];
  const wrong = st[S_WRONG];
  const under = st[S_UNDER];
  let ece = 0;
  let mce = -Infinity;
  for (let b = 0; b < nb; b++) {
    const cnt = out.wCount[b];
    if (cnt === 0) continue;
    const gap = Math.abs(out.wV[b] / cnt - out.wT[b] / cnt);
    ece += (cnt / n) * gap;
    if (gap > mce) mce = gap;
  }
  let eceQ = 0;
  let mceQ = -Infinity;
  let nonEmpty = 0;
  const base = Math.floor(n / nb);
  const extra = n % nb;
  for (let b = 0; b < nb; b++) {
    const cnt = base + (b < extra ? 1 : 0);
    if (cnt === 0) continue;
    const gap = Math.abs(out.qV[b] / cnt - out.qT[b] / cnt);
    eceQ += gap;
    nonEmpty++;
    if (gap > mceQ) mceQ = gap;
  }
  const nWrong = n - hits;
  const r_o = nWrong === 0 ? 1 : 1 - wrong / nWrong;
  const r_u = hits === 0 ? 1 : 1 - under / hits;
  const brierMean = brier / n;
  const m: ResampleMetrics = {
    accuracy: hits / n,
    brier: brierMean,
    nbr: brierMean,
    log_loss: -log / n,
    ece,
    ece_quantile: nonEmpty ? eceQ / nonEmpty : null,
    mce: mce === -Infinity ? null : mce,
    mce_quantile: mceQ === -Infinity ? null : mceQ,
    ks: ksMax / n,
    hmr: fMeasure(r_o, r_u, 1),
    r_o,
    r_u,
    hmr_beta: fMeasure(r_o, r_u, hmrBeta),
  };
  const rankAuc = posC === 0 || negC === 0 ? null : (below + 0.5 * pairs) / (posC * negC);
  if (binary) m.auc = rankAuc;
  else {
    // Top label: the target is correctness, so the same sums give the confidence's own AUROC and Brier.
    m.confidence_auroc = rankAuc;
    m.confidence_brier = brierMean;
  }
  return m;
}

export interface MulticlassResampleInput {
  gold: Int32Array;
  pred: Int32Array;
  k: number;
  /** Classes the macro F1 averages over (undefined: all k). */
  include?: number[];
  /** n x k class probabilities, row-major, when the file has them. */
  probs?: Float64Array;
}

/**
 * accuracy, macro_f1 (weighted confusion counts: exact integers, so identical to the naive path)
 * and, with probabilities, brier, nbr and log_loss of a multiclass set under resampling.
 */
export function multiclassResampler(input: MulticlassResampleInput): (w: Counts) => ResampleMetrics {
  const { gold, pred, k, include, probs } = input;
  const n = gold.length;
  const classes = include ?? Array.from({ length: k }, (_, c) => c);
  // Per row: its cell of the confusion matrix (-1: outside), Brier and log-loss terms.
  const cell = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g = gold[i];
    const q = pred[i];
    cell[i] = g >= 0 && g < k && q >= 0 && q < k ? g * k + q : -1;
  }
  let brierTerm: Float64Array | null = null;
  let logTerm: Float64Array | null = null;
  if (probs) {
    brierTerm = new Float64Array(n);
    logTerm = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const row = i * k;
      const g = gold[i];
      let sum = 0;
      for (let c = 0; c < k; c++) {
        const d = probs[row + c] - (c === g ? 1 : 0);
        sum += d * d;
      }
      brierTerm[i] = sum;
      const pg = g >= 0 && g < k ? probs[row + g] : 0;
      logTerm[i] = Math.log(pg < LOG_LOSS_EPS ? LOG_LOSS_EPS : pg > 1 - LOG_LOSS_EPS ? 1 - LOG_LOSS_EPS : pg);
    }
  }
  const confusion = new Float64Array(k * k);
  return (w) => {
    confusion.fill(0);
    let hits = 0;
    let brier = 0;
    let log = 0;
    for (let i = 0; i < n; i++) {
      const c = w[i];
      const cl = cell[i];
      if (cl >= 0) confusion[cl] += c;
      if (gold[i] === pred[i]) hits += c;
    }
    if (brierTerm && logTerm) {
      for (let i = 0; i < n; i++) {
        const c = w[i];
        brier += c * brierTerm[i];
        log += c * logTerm[i];
      }
    }
    let f1Sum = 0;
    for (const c of classes) {
      if (c < 0 || c >= k) continue;
      const tp = confusion[c * k + c];
      let goldCount = 0;
      let predCount = 0;
      for (let j = 0; j < k; j++) {
        goldCount += confusion[c * k + j];
        predCount += confusion[j * k + c];
      }
      const den = 2 * tp + (predCount - tp) + (goldCount - tp);
      f1Sum += den === 0 ? 0 : (2 * tp) / den;
    }
    const out: ResampleMetrics = {
      accuracy: hits / n,
      macro_f1: classes.length ? f1Sum / classes.length : null,
    };
    if (brierTerm) {
      out.brier = brier / n;
      out.nbr = brier / n / 2;
      out.log_loss = -log / n;
    }
    return out;
  };
}

/**
 * mse, tvd, kl and spearman of a probability set under resampling. Spearman's average ranks over
 * the expanded sequence come from each column sorted once: a tie group of total weight W after E
 * places has ranks E + 1 .. E + W, mean E + (W + 1) / 2 (exact: half-integers).
 */
export function probabilityResampler(predProb: Float64Array, goldProb: Float64Array): (w: Counts) => ResampleMetrics {
  const n = predProb.length;
  const sq = new Float64Array(n);
  const abs = new Float64Array(n);
  const kl = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = predProb[i] - goldProb[i];
    sq[i] = d * d;
    abs[i] = Math.abs(d);
    const p = clip(predProb[i], KL_EPS, 1 - KL_EPS);
    const g = clip(goldProb[i], KL_EPS, 1 - KL_EPS);
    kl[i] = g * Math.log(g / p) + (1 - g) * Math.log((1 - g) / (1 - p));
  }
  const a = tieGroups(predProb);
  const b = tieGroups(goldProb);
  const rankA = new Float64Array(a.groups);
  const rankB = new Float64Array(b.groups);
  return (w) => {
    let sSq = 0;
    let sAbs = 0;
    let sKl = 0;
    for (let i = 0; i < n; i++) {
      const c = w[i];
      sSq += c * sq[i];
      sAbs += c * abs[i];
      sKl += c * kl[i];
    }
    groupRanks(a, w, rankA);
    groupRanks(b, w, rankB);
    // Pearson correlation of the ranks, whose mean over the n places is (n + 1) / 2 exactly.
    const mean = (n + 1) / 2;
    let sab = 0;
    let saa = 0;
    let sbb = 0;
    for (let i = 0; i < n; i++) {
      const c = w[i];
      const da = rankA[a.groupOf[i]] - mean;
      const db = rankB[b.groupOf[i]] - mean;
      sab += c * (da * db);
      saa += c * (da * da);
      sbb += c * (db * db);
    }
    let rho: number | null = null;
    if (n >= 2 && saa !== 0 && sbb !== 0) {
      const r = sab / Math.sqrt(saa * sbb);
      rho = r > 1 ? 1 : r < -1 ? -1 : r;
    }
    return { mse: sSq / n, tvd: sAbs / n, kl: sKl / n, spearman: rho };
  };
}

interface TieGroups {
  /** Rows in ascending value order. */
  order: Uint32Array;
  /** Tie group of each row, numbered in ascending value order; and where each group ends in order. */
  groupOf: Uint32Array;
  groupEnd: Uint32Array;
  groups: number;
}

function tieGroups(values: Float64Array): TieGroups {
  const n = values.length;
  const { order, sorted } = sortWithOrder(values);
  const groupOf = new Uint32Array(n);
  const ends: number[] = [];
  let g = 0;
  for (let p = 0; p < n; p++) {
    // NaN never equals itself: each NaN is a group of its own, as averageRanks() ranks them.
    if (p > 0 && sorted[p] !== sorted[p - 1]) {
      ends.push(p);
      g++;
    }
    groupOf[order[p]] = g;
  }
  if (n > 0) ends.push(n);
  return { order, groupOf, groupEnd: Uint32Array.from(ends), groups: ends.length };
}

/** Mean rank of each tie group over the expanded sequence of the resample. */
function groupRanks(t: TieGroups, w: Counts, rank: Float64Array): void {
  let e = 0;
  let p = 0;
  for (let g = 0; g < t.groups; g++) {
    const end = t.groupEnd[g];
    let weight = 0;
    for (; p < end; p++) weight += w[t.order[p]];
    rank[g] = e + (weight + 1) / 2;
    e += weight;
  }
}

function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Row indices of a resample, ascending, each repeated w[i] times: the naive path's resample. */
export function expandCounts(w: Counts): Uint32Array {
  let n = 0;
  for (let i = 0; i < w.length; i++) n += w[i];
  const idx = new Uint32Array(n);
  for (let i = 0, q = 0; i < w.length; i++) for (let c = w[i]; c > 0; c--) idx[q++] = i;
  return idx;
}
