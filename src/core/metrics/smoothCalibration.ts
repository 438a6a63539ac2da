// Smooth ECE and the smoothed reliability diagram (docs/metrics.md#smece; Błasiok & Nakkiran 2023,
// "Smooth ECE: Principled Reliability Diagrams via Kernel Smoothing", and Apple's relplot).
//
// With values f_i in [0, 1], targets y_i and residuals r_i = f_i - y_i, and K_σ the Gaussian kernel
// reflected at 0 and 1 (every mirror image: the heat kernel of [0, 1] with reflecting ends),
//
//   smECE_σ = ∫_0^1 |Σ_i K_σ(t, f_i) r_i| dt / ∫_0^1 Σ_i K_σ(t, f_i) dt,
//
// and smECE = smECE_σ* at the fixed point smECE_σ* = σ*, searched in [0.001, 1]. The denominator is
// exactly the number of rows (each reflected kernel integrates to 1 over [0, 1]). smECE_σ never
// increases with σ (a reflected heat flow contracts L1), so the fixed point is unique.
//
// How it is computed (O(n) over the rows, then work that does not grow with n):
// - the rows are spread onto a grid of 2^13 + 1 points by linear interpolation (a row at f between
//   nodes j/G and (j+1)/G gives them weights 1 - a and a): one pass, two sums a node (weight and
//   weight * residual); coarser grids are exact restrictions of it (weights 1/2, 1, 1/2). When σ*
//   comes out below 96 / 2^13 (large, well-calibrated sets) the rows are spread again onto 2^15;
// - the reflected kernel is diagonal in the cosine basis: K_σ(t, x) = 1 + 2 Σ_k exp(-π²k²σ²/2)
//   cos(πkt) cos(πkx), so on a grid of M + 1 nodes the smoothed residual is a cosine transform of
//   the grid weights, damped, transformed back (FFTs of length 2M, or direct sums over the first
//   3 / σ coefficients when that is cheaper: a resample of a few hundred rows, see dampedInverse);
// - M is the power of two with M σ >= 96 (at least 256, at most 2^15): the grid is a 96th of σ or
//   finer, so spreading the rows onto it changes the result by ~(1/96)² / 8 of the high-frequency
//   part, and the integral of |g| (the piecewise-linear g between nodes, its zero crossings taken
//   exactly) is as close. Against the exact definition (test/reference/calibration_reference.py),
//   smECE comes out 4e-7 to 3e-6 (relative) low for σ* of 0.02 to 0.09; smECE_σ up to 1e-4 at σ = 0.3.
// - the fixed point: halve (or double) σ from 1/8 until the fixed point is bracketed, then the Illinois method on that bracket
//   (on one grid), to |Δσ| < 1e-12 σ; then settled on the grid σ* asks for. A bootstrap resample
//   starts from a σ near its σ* instead (fixedPoint's hint): σ0 and smECE_σ0 bracket σ*.
import type { SmoothReliability } from '../types';
import type { Counts } from './bootstrap';
import { percentile } from './bootstrap';

export const SIGMA_MIN = 0.001;
export const SIGMA_MAX = 1;
const SIGMA_START = 1 / 8;
/** The rows are spread onto 2^13 intervals first, and again onto 2^15 when σ* needs it (σ* < 96 / 2^13). */
const FIRST_LOG2 = 13;
const FINE_LOG2 = 15;
const FINE = 1 << FINE_LOG2;
/**
 * Rows per call of the spreading loop. A cell's sums are added to the grid at each chunk's end, so
 * a caller that spreads rows itself (fillBy) ends its cells there too to get the same sums.
 */
export const SPREAD_CHUNK = 4096;
/** The first grid's intervals (see fillBy). */
export const FIRST_FINE = 1 << FIRST_LOG2;
const COARSE_LOG2 = 8;
/** Grid nodes per σ at least. */
const NODES_PER_SIGMA = 96;
/** The smoothed reliability curve is given at t = m / CURVE_INTERVALS, m = 0..CURVE_INTERVALS. */
export const CURVE_INTERVALS = 256;

export interface SmoothEce {
  smece: number;
  sigma: number;
}

// ------------------------------------------------------------------------------------ the grid

/**
 * The rows spread onto the fine grid, and the coarser grids and their cosine transforms as they are
 * needed. `acc` interleaves weight and weight * residual per node of the fine grid.
 */
export class SmoothGrid {
  /** Total weight (rows, or the resample's draws). */
  total = 0;
  private readonly acc = new Float64Array(2 * (FINE + 2));
  private readonly levels: (Level | undefined)[] = [];
  /** The grid the rows are spread on: 2^fineLog2 intervals. */
  private fineLog2 = FIRST_LOG2;
  private spreadInto: ((acc: Float64Array, fine: number) => number) | null = null;

  /**
   * Spread rows (value, 0/1 target) with multiplicities w (all 1 when absent); resets the grid. Rows in
   * ascending order of value are spread fastest (any order is right).
   */
  fill(value: Float64Array, target: Uint8Array, w?: Counts): this {
    return this.fillBy((acc, fine) => {
      // In runs of SPREAD_CHUNK rows: V8 compiles a function called many times before the rest of a long
      // loop has run slowly (a fresh CLI process spreads a million rows once).
      let total = 0;
      for (let from = 0; from < value.length; from += SPREAD_CHUNK) {
        const to = Math.min(value.length, from + SPREAD_CHUNK);
        total += w ? spreadCounts(acc, fine, value, target, w, from, to) : spread(acc, fine, value, target, from, to);
      }
      return total;
    });
  }

  /**
   * Resets the grid to rows spread by the caller: spreadInto(acc, fine) adds them, as spread() does,
   * onto `fine` intervals (acc zeroed, weight and weight * residual per node) and returns their total
   * weight. It is called with the first grid now, and again with a finer one if σ* asks for it.
   */
  fillBy(spreadInto: (acc: Float64Array, fine: number) => number): this {
    this.spreadInto = spreadInto;
    this.spreadAt(FIRST_LOG2);
    return this;
  }

  /** Spread the rows onto 2^log2 intervals (the fine grid); every coarser grid is stale. */
  private spreadAt(log2: number): void {
    const fine = 1 << log2;
    const acc = this.acc;
    acc.fill(0, 0, 2 * (fine + 2));
    this.fineLog2 = log2;
    for (const l of this.levels) if (l) l.stale = !(l.weightsFresh = false);
    this.total = this.spreadInto!(acc, fine);
  }

  /** The grid level (log2 of its intervals) for σ: M σ >= NODES_PER_SIGMA, within [2^8, the fine grid]. */
  private levelFor(sigma: number): number {
    return Math.min(this.fineLog2, wantedLevel(sigma));
  }

  /** smECE_σ: ∫ |Σ K_σ r| / total, on the grid for σ (or the given level). */
  smeceAt(sigma: number, level = this.levelFor(sigma)): number {
    if (this.total === 0) return NaN;
    const l = this.level(level);
    const g = l.work;
    dampedInverse(l, 'r', sigma, g);
    return absIntegral(g, l.m) / this.total;
  }

  /**
   * smECE at the fixed point smECE_σ = σ in [SIGMA_MIN, SIGMA_MAX]. `hint`, a σ near σ* (a bootstrap
   * resample's: the whole set's σ*, or the previous resample's), starts the search there: fewer
   * evaluations, the same result (σ* is always settled on the grid σ* itself asks for).
   */
  fixedPoint(hint?: number): SmoothEce | null {
    const r = this.search(hint);
    if (r && wantedLevel(r.sigma) > this.fineLog2 && this.fineLog2 < FINE_LOG2) {
      // σ* is small (a large, well-calibrated set): the rows again onto the finest grid.
      this.spreadAt(FINE_LOG2);
      return this.search(r.sigma);
    }
    return r;
  }

  /**
   * The fixed point, settled on the grid levelFor(σ*): the search runs on the grid of its bracket's
   * lower end (or of the hint), and when σ* asks for another grid it is searched again there, from
   * where it was (a bracket of width |σ - smECE_σ|, a few evaluations). So a set gives the same σ*
   * whatever the search started from.
   */
  private search(hint?: number): SmoothEce | null {
    if (this.total === 0) return null;
    let r: (SmoothEce & { level: number }) | null = null;
    if (hint !== undefined && hint > SIGMA_MIN && hint < SIGMA_MAX) r = this.warm(hint, this.levelFor(hint));
    r ??= this.cold();
    if (r.sigma <= SIGMA_MIN || r.sigma >= SIGMA_MAX) return { smece: r.smece, sigma: r.sigma };
    for (let i = 0; i < 2; i++) {
      const level = this.levelFor(r.sigma);
      if (level === r.level) break;
      r = this.warm(r.sigma, level) ?? { ...r, level };
    }
    return { smece: r.smece, sigma: r.sigma };
  }

  /**
   * The fixed point on one grid from σ0: smECE_σ falls with σ, so σ0 and s = smECE_σ0 bracket σ*
   * (σ0 < σ* gives s >= σ* and the other way round). Null when they do not (rounding, the bounds).
   */
  private warm(sigma0: number, level: number): (SmoothEce & { level: number }) | null {
    const s = this.smeceAt(sigma0, level);
    if (s === sigma0) return { smece: s, sigma: sigma0, level };
    const lo = Math.max(SIGMA_MIN, Math.min(s, sigma0));
    const hi = Math.min(SIGMA_MAX, Math.max(s, sigma0));
    const sa = lo === sigma0 ? s : this.smeceAt(lo, level);
    const sb = hi === sigma0 ? s : this.smeceAt(hi, level);
    if (!(lo - sa < 0 && hi - sb >= 0)) return null;
    return { ...this.illinois(lo, hi, sa, sb, level), level };
  }

  /** The search from σ = 1/8, on the grid of its bracket's lower end. */
  private cold(): SmoothEce & { level: number } {
    // Every evaluation remembered (per grid): the bracket's ends are not computed twice.
    const seen = new Map<number, number>();
    const at = (s: number, level = this.levelFor(s)) => {
      const key = s * 64 + level; // level < 64, s > 0: distinct keys for distinct (s, level) in practice
      let v = seen.get(key);
      if (v === undefined) seen.set(key, (v = this.smeceAt(s, level)));
      return v;
    };
    const h = (s: number, level?: number) => s - at(s, level);
    // A bracket lo < σ* <= hi: h(lo) < 0 <= h(hi) (h increases with σ).
    // From σ = 1/8 (σ* is below it for all but grossly miscalibrated sets), by halving or doubling.
    let lo = SIGMA_START;
    let hi = SIGMA_START;
    const start = at(SIGMA_START);
    if (start <= SIGMA_START) {
      // smECE_σ falls with σ, so σ* >= smECE_1/8 =: s, and σ* <= smECE_s when s <= σ*: a bracket
      // [s, smECE_s], usually narrow (smECE_σ moves slowly with σ). Both ends on the grid for s.
      lo = Math.max(SIGMA_MIN, start);
      const level = this.levelFor(lo);
      const atLo = at(lo, level);
      if (atLo <= lo) return lo === SIGMA_MIN ? { smece: atLo, sigma: SIGMA_MIN, level } : this.bisect(SIGMA_MIN, lo, this.levelFor(SIGMA_MIN));
      hi = Math.min(SIGMA_START, atLo);
      if (h(hi, level) < 0) hi = SIGMA_START; // rounding between the two grids
    } else {
      hi = SIGMA_START * 2;
      while (hi < SIGMA_MAX && h(hi) < 0) {
        lo = hi;
        hi *= 2;
      }
      if (hi >= SIGMA_MAX) {
        hi = SIGMA_MAX;
        const top = at(SIGMA_MAX);
        if (top >= SIGMA_MAX) return { smece: top, sigma: SIGMA_MAX, level: this.levelFor(SIGMA_MAX) };
      }
    }
    // Illinois (regula falsi that halves the stale end's value) on one grid, fine enough for lo.
    const level = this.levelFor(lo);
    const sa = at(lo, level);
    const sb = at(hi, level);
    if (!(lo - sa < 0 && hi - sb >= 0)) {
      // The two grids disagree at an end by rounding: fall back to bisection on this grid.
      return this.bisect(lo, hi, level);
    }
    return { ...this.illinois(lo, hi, sa, sb, level), level };
  }

  /**
   * Illinois (regula falsi that halves the stale end's value) on [a, b] where smECE is sa and sb,
   * h = σ - smECE_σ: h(a) < 0 <= h(b); to |Δσ| < 1e-12 σ.
   */
  private illinois(a: number, b: number, sa: number, sb: number, level: number): SmoothEce {
    let fa = a - sa;
    let fb = b - sb;
    let side = 0;
    for (let it = 0; it < 100 && b - a > 1e-12 * b; it++) {
      const c = (a * fb - b * fa) / (fb - fa);
      const sc = this.smeceAt(c, level);
      const fc = c - sc;
      if (fc >= 0) {
        b = c;
        fb = fc;
        sb = sc;
        if (side === -1) fa /= 2;
        side = -1;
      } else {
        a = c;
        fa = fc;
        if (side === 1) fb /= 2;
        side = 1;
      }
      if (fc === 0) break;
    }
    return { smece: sb, sigma: b };
  }

  private bisect(lo: number, hi: number, level: number): SmoothEce & { level: number } {
    for (let it = 0; it < 80 && hi - lo > 1e-12 * hi; it++) {
      const mid = (lo + hi) / 2;
      if (mid - this.smeceAt(mid, level) >= 0) hi = mid;
      else lo = mid;
    }
    return { smece: this.smeceAt(hi, level), sigma: hi, level };
  }

  /**
   * The smoothed reliability curve and the density at σ, at t = m / 256: the curve t - g / d
   * clipped to [0, 1] and d / total, null where d σ √(2π) < 1.
   */
  curveAt(sigma: number): { curve: (number | null)[]; density: number[] } {
    const l = this.level(this.levelFor(sigma));
    const m = l.m;
    const g = new Float64Array(m + 1);
    const d = new Float64Array(m + 1);
    // The weights' transform (coefD): only the curve's density needs it.
    dampedInverse(l, 'r', sigma, g);
    dampedInverse(l, 'd', sigma, d);
    const step = m / CURVE_INTERVALS;
    const curve: (number | null)[] = [];
    const density: number[] = [];
    const enough = 1 / (sigma * Math.sqrt(2 * Math.PI));
    for (let q = 0; q <= CURVE_INTERVALS; q++) {
      const t = q / CURVE_INTERVALS;
      const dv = d[q * step];
      density.push(this.total > 0 ? Math.max(0, dv) / this.total : 0);
      // A mean of targets in [0, 1]: the reflected kernel's estimate can overshoot by a few
      // thousandths at the ends (−0.003 at t = 0); clipped, as the band (made of these curves) is.
      curve.push(dv >= enough ? Math.min(1, Math.max(0, t - g[q * step] / dv)) : null);
    }
    return { curve, density };
  }

  /** The grid of 2^log2 intervals (restricted from the fine one) and its cosine transforms. */
  private level(log2: number): Level {
    let l = this.levels[log2];
    if (!l) this.levels[log2] = l = newLevel(1 << log2);
    if (l.stale) {
      this.weights(log2, l);
      l.knownR = l.knownD = 0;
      l.nonzero = null;
      l.stale = false;
    }
    return l;
  }

  /** Fill l.d and l.r, from the fine grid or by halving the next finer grid's. */
  private weights(log2: number, l: Level): void {
    if (l.weightsFresh) return;
    if (log2 === this.fineLog2) {
      const acc = this.acc;
      for (let j = 0; j <= l.m; j++) {
        l.d[j] = acc[2 * j];
        l.r[j] = acc[2 * j + 1];
      }
    } else {
      let finer = this.levels[log2 + 1];
      if (!finer) this.levels[log2 + 1] = finer = newLevel(1 << (log2 + 1));
      this.weights(log2 + 1, finer);
      halve(finer.d, l.d, l.m);
      halve(finer.r, l.r, l.m);
    }
    l.weightsFresh = true;
  }
}

interface Level {
  /** Made when the level is first transformed (a level may only pass its weights on). */
  fft?: Fft;
  m: number;
  /** The transforms (and the weights) are of an earlier fill. */
  stale: boolean;
  weightsFresh: boolean;
  /** coefR[0..knownR) and coefD[0..knownD) are of the current weights (computed as far as a σ needs them). */
  knownR: number;
  knownD: number;
  /** The nodes of nonzero weight (for the transform by direct sums), when listed. */
  nonzero: Int32Array | null;
  /** cos(πi / M), i = 0..2M - 1 (for the direct sums). */
  cosTable?: Float64Array;
  /** The damped coefficients (direct sums). */
  u?: Float64Array;
  /** Grid weights and weighted residuals, M + 1 nodes. */
  d: Float64Array;
  r: Float64Array;
  /** Their cosine transforms C_k = Σ_j x_j cos(πjk / M), k = 0..M. */
  coefD: Float64Array;
  coefR: Float64Array;
  work: Float64Array;
}

/** The grid level (log2 of its intervals) σ asks for: M σ >= NODES_PER_SIGMA, within [2^8, 2^15]. */
function wantedLevel(sigma: number): number {
  const want = Math.ceil(Math.log2(NODES_PER_SIGMA / sigma));
  return Math.min(FINE_LOG2, Math.max(COARSE_LOG2, want));
}

function newLevel(m: number): Level {
  return {
    m, stale: true, weightsFresh: false, knownR: 0, knownD: 0, nonzero: null,
    d: new Float64Array(m + 1), r: new Float64Array(m + 1),
    coefD: new Float64Array(m + 1), coefR: new Float64Array(m + 1), work: new Float64Array(m + 1),
  };
}

/**
 * Rows onto the fine grid (linear interpolation between the two nearest nodes). Any row order gives
 * the same sums up to rounding; in ascending order (as the callers pass them) the rows of one grid
 * cell come together and are added once, and the grid is walked in order. Returns the rows.
 */
function spread(acc: Float64Array, fine: number, value: Float64Array, target: Uint8Array, from: number, to: number): number {
  let cell = -1;
  let s0 = 0; // the open cell's sums: weight at its left node, weight * residual there, and at its right node
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = from; i < to; i++) {
    const f = value[i];
    const x = (f < 0 ? 0 : f > 1 ? 1 : f) * fine;
    const j = Math.min(fine - 1, x | 0);
    if (j !== cell) {
      if (cell >= 0) addCell(acc, cell, s0, s1, s2, s3);
      cell = j;
      s0 = s1 = s2 = s3 = 0;
    }
    const a = x - j;
    const r = f - target[i];
    s0 += 1 - a;
    s1 += (1 - a) * r;
    s2 += a;
    s3 += a * r;
  }
  if (cell >= 0) addCell(acc, cell, s0, s1, s2, s3);
  return to - from;
}

/** spread() with multiplicities: row i counts w[i] times. Returns the total weight. */
function spreadCounts(acc: Float64Array, fine: number, value: Float64Array, target: Uint8Array, w: Counts, from: number, to: number): number {
  let total = 0;
  let cell = -1;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = from; i < to; i++) {
    const c = w[i];
    const f = value[i];
    const x = (f < 0 ? 0 : f > 1 ? 1 : f) * fine;
    const j = Math.min(fine - 1, x | 0);
    if (j !== cell) {
      if (cell >= 0) addCell(acc, cell, s0, s1, s2, s3);
      cell = j;
      s0 = s1 = s2 = s3 = 0;
    }
    const ca = c * (x - j);
    const cb = c - ca;
    const r = f - target[i];
    total += c;
    s0 += cb;
    s1 += cb * r;
    s2 += ca;
    s3 += ca * r;
  }
  if (cell >= 0) addCell(acc, cell, s0, s1, s2, s3);
  return total;
}

/** A cell's sums onto its two nodes: s0, s1 (weight, weight * residual) at the left, s2, s3 at the right. */
export function addCell(acc: Float64Array, cell: number, s0: number, s1: number, s2: number, s3: number): void {
  const k = 2 * cell;
  acc[k] += s0;
  acc[k + 1] += s1;
  acc[k + 2] += s2;
  acc[k + 3] += s3;
}

/**
 * A grid's weights from those of the grid twice as fine: a coarse node takes its own fine node's
 * weight and half of each fine neighbour's. That is exactly the linear spread onto the coarse grid
 * (a coarse hat function is linear between fine nodes, 1 at its node and 1/2 at the neighbours).
 */
function halve(fine: Float64Array, coarse: Float64Array, m: number): void {
  coarse[0] = fine[0] + fine[1] / 2;
  for (let j = 1; j < m; j++) coarse[j] = fine[2 * j] + (fine[2 * j - 1] + fine[2 * j + 1]) / 2;
  coarse[m] = fine[2 * m] + fine[2 * m - 1] / 2;
}

/** ∫_0^1 |g| of the piecewise-linear g through g[0..m] at spacing 1/m, zero crossings exact. */
function absIntegral(g: Float64Array, m: number): number {
  let s = 0;
  let u = g[0];
  for (let j = 1; j <= m; j++) {
    const v = g[j];
    const au = u < 0 ? -u : u;
    const av = v < 0 ? -v : v;
    // Same sign: the trapezoid; opposite signs: two triangles meeting at the crossing.
    s += (u < 0) === (v < 0) || au + av === 0 ? (au + av) / 2 : (u * u + v * v) / (2 * (au + av));
    u = v;
  }
  return s / m;
}

/**
 * out[m'] = Σ_k u_k cos(πkm'/M) with u_0 = C_0 and u_k = 2 exp(-π²k²σ²/2) C_k: the grid weights
 * (l.r or l.d) smoothed by the reflected kernel, at the nodes.
 *
 * Only the first K coefficients count: past K = 3.06 / σ the damping is below 1e-20 (a change of
 * 1e-20 of the weights' total, far below rounding). So the coefficients are computed as far as σ
 * needs, and both transforms go by whichever is cheaper: an FFT of length 2M (all M + 1
 * coefficients, M log M), or direct sums (the forward one over the nodes of nonzero weight, at most
 * twice the rows: a bootstrap resample of a few hundred rows; the inverse one, K terms at each node,
 * when K is small against log M, i.e. σ large).
 */
function dampedInverse(l: Level, which: 'r' | 'd', sigma: number, out: Float64Array): void {
  const m = l.m;
  const c = (Math.PI * Math.PI * sigma * sigma) / 2;
  const kMax = Math.min(m, Math.ceil(DAMPING_CUTOFF / sigma));
  const coef = coefficients(l, which, kMax);
  const direct = (m / 2 + 1) * (kMax + 1) < fftCost(m);
  const u = direct ? (l.u ??= new Float64Array(m + 1)) : fftOf(l).scratch;
  u[0] = coef[0];
  for (let k = 1; k <= kMax; k++) u[k] = 2 * Math.exp(-c * k * k) * coef[k];
  if (direct) {
    directInverse(u, kMax, m, cosTableOf(l), out);
    return;
  }
  for (let k = kMax + 1; k <= m; k++) u[k] = 0;
  cosineTransform(u, m, fftOf(l), out);
}

/** σ k above this: exp(-π²k²σ²/2) < 1e-20 (π k σ > √(2 · 20 ln 10)). */
const DAMPING_CUTOFF = Math.sqrt(2 * 20 * Math.LN10) / Math.PI;
/** What an FFT of length 2M costs, in terms of a direct sum (one table look-up and multiply-add). */
const fftCost = (m: number) => 4 * m * Math.log2(2 * m);

function fftOf(l: Level): Fft {
  return (l.fft ??= newFft(l.m));
}

function cosTableOf(l: Level): Float64Array {
  if (!l.cosTable) {
    const n = 2 * l.m;
    l.cosTable = new Float64Array(n);
    for (let i = 0; i < n; i++) l.cosTable[i] = Math.cos((Math.PI * i) / l.m);
  }
  return l.cosTable;
}

/** The level's coefficients of l.r or l.d, C_0..C_kMax at least (all of them when by FFT). */
function coefficients(l: Level, which: 'r' | 'd', kMax: number): Float64Array {
  const coef = which === 'r' ? l.coefR : l.coefD;
  const known = which === 'r' ? l.knownR : l.knownD;
  if (known > kMax) return coef;
  const x = which === 'r' ? l.r : l.d;
  const m = l.m;
  if (!l.nonzero) {
    let count = 0;
    for (let j = 0; j <= m; j++) if (l.d[j] !== 0) count++;
    const nz = new Int32Array(count);
    for (let j = 0, q = 0; j <= m; j++) if (l.d[j] !== 0) nz[q++] = j;
    l.nonzero = nz;
  }
  const nz = l.nonzero;
  let upTo: number;
  if (nz.length * (kMax + 1 - known) < fftCost(m)) {
    directForward(x, nz, known, kMax, m, cosTableOf(l), coef);
    upTo = kMax + 1;
  } else {
    cosineTransform(x, m, fftOf(l), coef);
    upTo = m + 1;
  }
  if (which === 'r') l.knownR = upTo;
  else l.knownD = upTo;
  return coef;
}

/** out[k] = Σ_{j in nz} x_j cos(πjk/M), k = from..kMax (nodes of zero weight add nothing). */
function directForward(x: Float64Array, nz: Int32Array, from: number, kMax: number, m: number, table: Float64Array, out: Float64Array): void {
  const period = 2 * m;
  for (let k = from; k <= kMax; k++) {
    let s = 0;
    for (let q = 0; q < nz.length; q++) {
      const j = nz[q];
      s += x[j] * table[(j * k) % period];
    }
    out[k] = s;
  }
}

/**
 * out[j] = Σ_{k=0..kMax} u_k cos(πkj/M), j = 0..M: the even and odd k apart for j <= M/2, since
 * cos(πk(M - j)/M) = (-1)^k cos(πkj/M) gives node M - j from the same two sums.
 */
function directInverse(u: Float64Array, kMax: number, m: number, table: Float64Array, out: Float64Array): void {
  const period = 2 * m;
  const half = m >> 1;
  for (let j = 0; j <= half; j++) {
    let even = u[0];
    let odd = 0;
    let idx = 0;
    let k = 1;
    for (; k + 1 <= kMax; k += 2) {
      idx += j;
      if (idx >= period) idx -= period;
      odd += u[k] * table[idx];
      idx += j;
      if (idx >= period) idx -= period;
      even += u[k + 1] * table[idx];
    }
    if (k <= kMax) {
      idx += j;
      if (idx >= period) idx -= period;
      odd += u[k] * table[idx];
    }
    out[j] = even + odd;
    out[m - j] = even - odd;
  }
}

// ------------------------------------------------------------------------ cosine transform (FFT)

interface Fft {
  /**
   * Length M of the complex FFT (half the even extension's 2M: the extension is real, so its
   * transform is one of length M, see cosineTransform), its bit reversal and twiddles.
   */
  size: number;
  rev: Uint32Array;
  cos: Float64Array;
  sin: Float64Array;
  /** cos(πk/M) and sin(πk/M), k = 0..M: the twiddles that split the half-length transform. */
  cosHalf: Float64Array;
  sinHalf: Float64Array;
  re: Float64Array;
  im: Float64Array;
  /** M + 1 values (the damped coefficients before their transform). */
  scratch: Float64Array;
}

function newFft(size: number): Fft {
  // Bit reversal, built incrementally: rev[i] from rev[i >> 1].
  const bits = Math.round(Math.log2(size));
  const rev = new Uint32Array(size);
  for (let i = 1; i < size; i++) rev[i] = (rev[i >> 1] >> 1) | ((i & 1) << (bits - 1));
  const half = size / 2;
  const cos = new Float64Array(half);
  const sin = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    cos[i] = Math.cos((2 * Math.PI * i) / size);
    sin[i] = Math.sin((2 * Math.PI * i) / size);
  }
  const cosHalf = new Float64Array(size + 1);
  const sinHalf = new Float64Array(size + 1);
  for (let k = 0; k <= size; k++) {
    cosHalf[k] = Math.cos((Math.PI * k) / size);
    sinHalf[k] = Math.sin((Math.PI * k) / size);
  }
  return { size, rev, cos, sin, cosHalf, sinHalf, re: new Float64Array(size), im: new Float64Array(size), scratch: new Float64Array(size + 1) };
}

/**
 * out[k] = Σ_{j=0..M} x_j cos(πjk/M), k = 0..M (every node with weight 1), from the transform of
 * the even extension y = x_0 .. x_M .. x_1 (length 2M), which is real:
 * Y_k = x_0 + (-1)^k x_M + 2 Σ_{0<j<M} x_j cos(πjk/M).
 * A real sequence of length 2M is transformed by one complex FFT of length M, of
 * z_j = y_2j + i y_2j+1: with Z that transform, Y_k = E_k + e^{-πik/M} O_k where
 * E_k = (Z_k + conj Z_{M-k}) / 2 and O_k = (Z_k - conj Z_{M-k}) / 2i (the even- and odd-indexed
 * halves' transforms); Y is real, so only its real part is formed. Half the work of a complex FFT
 * of the whole extension (issue 28.11: a large, well-calibrated set's smECE asks for the finest
 * grid, 2^15 intervals, and the search transforms it about ten times a resample).
 */
function cosineTransform(x: Float64Array, m: number, f: Fft, out: Float64Array): void {
  const n = 2 * m;
  const { re, im, rev, cosHalf, sinHalf } = f;
  for (let j = 0; j < m; j++) {
    const t = 2 * j;
    re[rev[j]] = x[t <= m ? t : n - t];
    im[rev[j]] = x[t + 1 <= m ? t + 1 : n - t - 1];
  }
  fftInPlace(re, im, f);
  const x0 = x[0];
  const xm = x[m];
  for (let k = 0; k <= m; k++) {
    const a = k === m ? 0 : k;
    const b = k === 0 ? 0 : m - k;
    const y = (re[a] + re[b]) / 2 + (cosHalf[k] * (im[a] + im[b]) - sinHalf[k] * (re[a] - re[b])) / 2;
    out[k] = (y + x0 + (k & 1 ? -xm : xm)) / 2;
  }
}

/** Radix-2 decimation-in-time FFT of bit-reversed input (e^{-2πi jk/N}). */
function fftInPlace(re: Float64Array, im: Float64Array, f: Fft): void {
  const n = f.size;
  const { cos, sin } = f;
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = n / len;
    for (let s = 0; s < n; s += len) {
      for (let k = 0, t = 0; k < half; k++, t += step) {
        const wr = cos[t];
        const wi = -sin[t];
        const a = s + k;
        const b = a + half;
        const xr = re[b] * wr - im[b] * wi;
        const xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
      }
    }
  }
}

// ------------------------------------------------------------------------------------ entry points

/** smECE and σ* of (value, target): null for no rows. */
export function smoothEce(value: Float64Array, target: Uint8Array): SmoothEce | null {
  if (value.length === 0) return null;
  return new SmoothGrid().fill(value, target).fixedPoint();
}

/** smECE_σ at a given σ (for tests and the docs' figures). */
export function smoothEceAt(value: Float64Array, target: Uint8Array, sigma: number): number {
  return new SmoothGrid().fill(value, target).smeceAt(sigma);
}

/** smECE, σ* and the smoothed reliability curve of (value, target); null for no rows. */
export function smoothCalibration(value: Float64Array, target: Uint8Array): { result: SmoothEce; curve: SmoothReliability } | null {
  if (value.length === 0) return null;
  const grid = new SmoothGrid().fill(value, target);
  const result = grid.fixedPoint();
  if (!result) return null;
  const { curve, density } = grid.curveAt(result.sigma);
  return { result, curve: { sigma: result.sigma, smece: result.smece, t: curveTs(), curve, density } };
}

function curveTs(): number[] {
  return Array.from({ length: CURVE_INTERVALS + 1 }, (_, q) => q / CURVE_INTERVALS);
}

/** The resampled curves of a bootstrap, at σ fixed, and their pointwise percentile band. */
export class SmoothBand {
  private readonly curves: (number | null)[][] = [];
  constructor(readonly sigma: number) {}

  add(curve: (number | null)[]): void {
    this.curves.push(curve);
  }

  /** Curves kept so far. */
  get count(): number {
    return this.curves.length;
  }

  /** The curves kept so far, in the order added (a split bootstrap's shares are joined: bootstrapParts.ts). */
  get kept(): readonly (number | null)[][] {
    return this.curves;
  }

  /** lower and upper at `level` per point, over the resamples where the curve is defined there. */
  finish(level = 0.95): { lower: (number | null)[]; upper: (number | null)[]; resamples: number } {
    const alpha = (1 - level) / 2;
    const lower: (number | null)[] = [];
    const upper: (number | null)[] = [];
    for (let q = 0; q <= CURVE_INTERVALS; q++) {
      const vals: number[] = [];
      for (const c of this.curves) if (c[q] !== null) vals.push(c[q] as number);
      if (vals.length === 0) {
        lower.push(null);
        upper.push(null);
        continue;
      }
      const sorted = Float64Array.from(vals).sort();
      lower.push(percentile(sorted, alpha));
      upper.push(percentile(sorted, 1 - alpha));
    }
    return { lower, upper, resamples: this.curves.length };
  }
}
