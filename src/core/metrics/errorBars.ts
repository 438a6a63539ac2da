// Error bars (docs/metrics.md, "Error bars"; Miller 2024, "Adding Error Bars to Evals", and
// Inspect's stderr() as the anchor): standard errors of a mean over instances, clustered
// standard errors, t and Wilson intervals, the quantiles they need (normal and Student t, to full
// double precision), pass@k / pass^k of repeated attempts, and the power of a paired comparison.
// Pure functions over typed arrays.
import { erfc } from '../compare/erfc';
import type { RepeatsResult } from '../types';

/** z_0.975 and z_0.8, the normal quantiles of a two-sided 5% test at 80% power. */
export const Z_975 = 1.959963984540054;
export const Z_80 = 0.8416212335729143;

// ------------------------------------------------------------------------------- quantiles

/** The standard normal CDF, accurate in both tails (erfc to full precision). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/**
 * The standard normal quantile: Acklam's rational approximation (relative error < 1.2e-9), then
 * two Halley steps on normalCdf, which erfc computes to full precision: the result is exact to a
 * few ulps (z_0.975 = 1.959963984540054).
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  let x: number;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - lo) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  for (let k = 0; k < 2; k++) {
    // Halley on F(x) - p, with F taken in the tail nearer to x so that the difference keeps its digits.
    const e = x < 0 ? 0.5 * erfc(-x / Math.SQRT2) - p : (1 - p) - 0.5 * erfc(x / Math.SQRT2);
    const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
    x -= u / (1 + (x * u) / 2);
  }
  return x;
}

/** ln Γ(x) for x > 0: Lanczos (g = 7, 9 terms), reflection below 0.5; ~1e-15 relative. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const g = 7;
  const coef = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let s = coef[0];
  for (let i = 1; i < 9; i++) s += coef[i] / (z + i);
  const t = z + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

/** ln B(a, b), with Stirling's series for the large arguments where ln Γ differences lose digits. */
function logBeta(a: number, b: number): number {
  // ln Γ(a) - ln Γ(a + b) for a large against b, by the asymptotic series of ln Γ differences.
  if (a > 1e3 && b < 10) return logGamma(b) + lgammaRatio(a, b);
  if (b > 1e3 && a < 10) return logGamma(a) + lgammaRatio(b, a);
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** ln Γ(a) - ln Γ(a + b) for large a (Stirling: the 1/(12x) ... terms differenced). */
function lgammaRatio(a: number, b: number): number {
  const st = (x: number) => {
    const x2 = x * x;
    return 1 / (12 * x) - 1 / (360 * x * x2) + 1 / (1260 * x2 * x2 * x) - 1 / (1680 * x2 * x2 * x2 * x);
  };
  // ln Γ(x) = (x - 1/2) ln x - x + ln(2π)/2 + st(x); the large terms cancel exactly in this form.
  const ab = a + b;
  return -(a - 0.5) * Math.log1p(b / a) - b * Math.log(ab) + b + st(a) - st(ab);
}

/** The continued fraction of the incomplete beta (modified Lentz; Numerical Recipes' betacf). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 100000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return h;
}

/** The regularized incomplete beta I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T > t) for t >= 0 under Student's t with df degrees of freedom. */
function studentTail(t: number, df: number): number {
  const x = df / (df + t * t);
  // For small t, 1 - x loses digits; I_{1-x}(1/2, df/2) is the complement, computed directly.
  if (x > 0.9) return 0.5 - 0.5 * regularizedBeta((t * t) / (df + t * t), 0.5, df / 2);
  return 0.5 * regularizedBeta(x, df / 2, 0.5);
}

/** Student's t CDF. */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return NaN;
  return t >= 0 ? 1 - studentTail(t, df) : studentTail(-t, df);
}

/** Student's t density. */
function studentTPdf(t: number, df: number): number {
  return Math.exp(logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/**
 * The Student t quantile (scipy.stats.t.ppf): closed forms for 1 and 2 degrees of freedom, else
 * Newton on the tail probability (the regularized incomplete beta) from a Cornish-Fisher start.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1) || !(df > 0)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  const tail = 1 - p;
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  if (df > 1e10) return normalQuantile(p);
  // Cornish-Fisher expansion around the normal quantile (Abramowitz & Stegun 26.7.5).
  const z = normalQuantile(p);
  const z2 = z * z;
  let t = z + (z * (z2 + 1)) / (4 * df) + (z * ((5 * z2 + 16) * z2 + 3)) / (96 * df * df)
    + (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / (384 * df * df * df);
  if (!(t > 0) || !Number.isFinite(t)) t = z;
  for (let k = 0; k < 60; k++) {
    const f = studentTail(t, df) - tail;
    const step = f / studentTPdf(t, df);
    let next = t + step;
    if (!(next > 0)) next = t / 2;
    if (Math.abs(next - t) <= 1e-15 * Math.abs(next)) { t = next; break; }
    t = next;
  }
  return t;
}

// ----------------------------------------------------------------------- standard errors

/** Mean and standard error of the mean (sd with ddof 1 / sqrt n; 0 when n = 1), as Inspect's stderr(). */
export function meanStderr(x: ArrayLike<number>): { mean: number; se: number } {
  const n = x.length;
  if (n === 0) return { mean: NaN, se: NaN };
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i];
  const mean = s / n;
  if (n < 2) return { mean, se: 0 };
  let ss = 0;
  for (let i = 0; i < n; i++) { const d = x[i] - mean; ss += d * d; }
  return { mean, se: Math.sqrt(ss / (n - 1)) / Math.sqrt(n) };
}

/** Sample standard deviation (ddof 1); NaN below two values. */
export function sampleSd(x: ArrayLike<number>): number {
  const n = x.length;
  if (n < 2) return NaN;
  const { se } = meanStderr(x);
  return se * Math.sqrt(n);
}

/** Rows grouped into clusters: code[i] in [0, count) is row i's cluster. */
export interface ClusterCodes {
  code: Int32Array;
  count: number;
}

/** Cluster codes of per-row values: one code per distinct value, in order of first appearance. */
export function clusterCodes(values: ArrayLike<string | undefined>): ClusterCodes & { missing: number } {
  const code = new Int32Array(values.length);
  const seen = new Map<string, number>();
  let missing = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) {
      // A row without a value is a cluster of its own (it is independent of every other row).
      missing++;
      code[i] = seen.size + missing - 1;
      seen.set(`\u0000missing ${i}`, code[i]);
      continue;
    }
    let c = seen.get(v);
    if (c === undefined) { c = seen.size; seen.set(v, c); }
    code[i] = c;
  }
  return { code, count: seen.size, missing };
}

/**
 * Clustered standard error of the mean, as Inspect's stderr(cluster=): with C clusters,
 * sqrt(sum_c (sum_{i in c} (x_i - mean))^2 * C / (C - 1)) / n. null with one cluster.
 */
export function clusteredStderr(x: ArrayLike<number>, clusters: ClusterCodes): number | null {
  const n = x.length;
  const C = clusters.count;
  if (n === 0 || C < 2) return null;
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i];
  const mean = s / n;
  const sums = new Float64Array(C);
  for (let i = 0; i < n; i++) sums[clusters.code[i]] += x[i] - mean;
  let v = 0;
  for (let c = 0; c < C; c++) v += sums[c] * sums[c];
  return Math.sqrt((v * C) / (C - 1)) / n;
}

// ------------------------------------------------------------------------------ intervals

/** mean -/+ t(1 - (1 - level)/2, df) * se; null when df < 1 or se is not finite. */
export function tInterval(mean: number, se: number, df: number, level = 0.95): [number, number] | null {
  if (!(df >= 1) || !Number.isFinite(se) || !Number.isFinite(mean)) return null;
  const q = studentTQuantile(1 - (1 - level) / 2, df);
  return [mean - q * se, mean + q * se];
}

/** Wilson score interval of a proportion k/n at z (default z_0.975). */
export function wilsonInterval(k: number, n: number, z = Z_975): [number, number] | null {
  if (!(n > 0)) return null;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = p + z2 / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [(centre - half) / denom, (centre + half) / denom];
}

// ------------------------------------------------------------------------------- repeats

/** C(n, k) / C(m, k) as a product (no overflow): prod_{j<k} (n - j) / (m - j). 0 when n < k. */
function chooseRatio(n: number, m: number, k: number): number {
  if (n < k) return 0;
  let r = 1;
  for (let j = 0; j < k; j++) r *= (n - j) / (m - j);
  return r;
}

/** The repeats figures are Report.repeats (docs/metrics.md#repeats): one definition, in types.ts. */
export type RepeatFigures = RepeatsResult;

/**
 * Repeated attempts: `item[i]` is row i's item (0..items-1), `score[i]` its score, right when 1.
 * pass@k (Chen et al. 2021) and pass^k for k = 1 .. the smallest attempt count; variances with ddof 1.
 */
export function repeatFigures(item: Int32Array, items: number, score: ArrayLike<number>): RepeatFigures {
  const n = item.length;
  const count = new Float64Array(items);
  const right = new Float64Array(items);
  const sum = new Float64Array(items);
  for (let i = 0; i < n; i++) {
    const it = item[i];
    count[it]++;
    sum[it] += score[i];
    if (score[i] === 1) right[it]++;
  }
  const ss = new Float64Array(items);
  for (let i = 0; i < n; i++) { const d = score[i] - sum[item[i]] / count[item[i]]; ss[item[i]] += d * d; }
  const attempts: Record<string, number> = {};
  let minAttempts = Infinity;
  let flaky = 0;
  let within = 0;
  let withinItems = 0;
  const means = new Float64Array(items);
  for (let it = 0; it < items; it++) {
    const m = count[it];
    attempts[String(m)] = (attempts[String(m)] ?? 0) + 1;
    if (m < minAttempts) minAttempts = m;
    if (right[it] > 0 && right[it] < m) flaky++;
    if (m > 1) { within += ss[it] / (m - 1); withinItems++; }
    means[it] = sum[it] / m;
  }
  const passAt: Record<string, number> = {};
  const passHat: Record<string, number> = {};
  for (let k = 1; k <= minAttempts; k++) {
    let a = 0;
    let h = 0;
    for (let it = 0; it < items; it++) {
      a += 1 - chooseRatio(count[it] - right[it], count[it], k);
      h += chooseRatio(right[it], count[it], k);
    }
    passAt[String(k)] = a / items;
    passHat[String(k)] = h / items;
  }
  const between = items > 1 ? sampleSd(means) ** 2 : null;
  return {
    items, attempts, pass_at_k: passAt, pass_hat_k: passHat,
    within_item_variance: withinItems ? within / withinItems : null,
    between_item_variance: between, flaky_items: flaky,
  };
}

// --------------------------------------------------------------------------------- power

/**
 * Power of a paired comparison (alpha 0.05 two-sided, power 0.8), from the per-item differences d:
 * mde = (z_0.975 + z_0.8) * se (se = sd(d)/sqrt(n), or the clustered one when given), and
 * n_needed = ceil(((z_0.975 + z_0.8) * sd / |mean d|)^2) with sd = se * sqrt(n) (sd(d) unclustered),
 * null when mean d = 0.
 */
export function pairedPower(d: ArrayLike<number>, clusters?: ClusterCodes): { mde: number | null; n_needed: number | null } {
  const n = d.length;
  if (n < 2) return { mde: null, n_needed: null };
  const { mean, se: plain } = meanStderr(d);
  const se = clusters ? clusteredStderr(d, clusters) : plain;
  if (se === null || !Number.isFinite(se)) return { mde: null, n_needed: null };
  const zz = Z_975 + Z_80;
  const sd = se * Math.sqrt(n);
  return {
    mde: zz * se,
    n_needed: mean === 0 ? null : Math.ceil(((zz * sd) / Math.abs(mean)) ** 2),
  };
}
