// Inspect AI's arithmetic on score values, written from its definitions (docs/metrics.md,
// "lm-eval and Inspect conventions"): value_to_float, the accuracy and stderr metrics, and the
// epoch reducers (mean, median, mode, max, at_least_k, pass_at_k, pass_k) that turn several
// epochs of one sample into one score.

/** A scalar score value as a log stores it. NaN (or null) is Inspect's "unscored". */
export type ScoreValue = string | number | boolean | null;

/**
 * Inspect's value_to_float(): "C" 1, "P" 0.5, "I" and "N" 0, yes/true 1, no/false 0 (any case),
 * numeric strings and numbers as numbers, booleans 0/1. Anything else is 0, as Inspect does
 * (it logs a warning); `known` tells the caller whether the value was understood.
 */
export function valueToFloat(value: ScoreValue): { value: number; known: boolean } {
  if (typeof value === 'number') return { value, known: true };
  if (typeof value === 'boolean') return { value: value ? 1 : 0, known: true };
  if (value === 'C') return { value: 1, known: true };
  if (value === 'P') return { value: 0.5, known: true };
  if (value === 'I' || value === 'N') return { value: 0, known: true };
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'yes' || lower === 'true') return { value: 1, known: true };
    if (lower === 'no' || lower === 'false') return { value: 0, known: true };
    const t = value.trim();
    // Python's float() takes surrounding spaces, underscores aside; is_finite_number wants finite.
    if (t !== '' && /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { value: Number(t), known: true };
  }
  return { value: 0, known: false };
}

/** Whether a value is Inspect's unscored sentinel (NaN at the root; JSON null is how NaN often arrives). */
export function isUnscored(value: ScoreValue): boolean {
  return value === null || (typeof value === 'number' && Number.isNaN(value));
}

/** Inspect's accuracy(): the mean of the values (0 for none, as Inspect returns). */
export function inspectAccuracy(values: ArrayLike<number>): number {
  if (!values.length) return 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/** Inspect's stderr(): sample standard deviation (ddof 1) / sqrt(n); 0 when n < 2. */
export function inspectStderr(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = inspectAccuracy(values);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - m) ** 2;
  return Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
}

/** A reducer: the epochs' values of one sample (unscored ones already dropped) to one number, NaN if undefined. */
export type Reducer = (values: ScoreValue[]) => number;

const toFloat = (v: ScoreValue) => valueToFloat(v).value;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Python's Counter.most_common(1)[0][0]: the most frequent value, the first seen on ties. */
function mostCommon(values: ScoreValue[]): ScoreValue {
  const counts = new Map<ScoreValue, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: ScoreValue = values[0];
  let bestCount = 0;
  for (const [v, c] of counts) if (c > bestCount) { best = v; bestCount = c; }
  return best;
}

/** Chen et al. (2021) unbiased pass@k from `correct` of `total` attempts. */
function passAtK(total: number, correct: number, k: number): number {
  if (total < k) return NaN;
  if (total - correct < k) return 1;
  let prod = 1;
  for (let i = total - correct + 1; i <= total; i++) prod *= 1 - k / i;
  return 1 - prod;
}

function comb(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/**
 * The reducer Inspect logs under `name` ("mean", "median", "mode", "max", "at_least_2",
 * "pass_at_3", "pass_k_2"; "pass_k" style names carry their k after the last underscore), or
 * undefined for one we do not know (a custom reducer).
 */
export function reducerNamed(name: string): Reducer | undefined {
  const bare = name.replace(/^inspect_ai\//, '');
  if (bare === 'mean') return (vs) => (vs.length ? inspectAccuracy(vs.map(toFloat)) : NaN);
  if (bare === 'median') return (vs) => (vs.length ? median(vs.map(toFloat)) : NaN);
  if (bare === 'mode') return (vs) => (vs.length ? toFloat(mostCommon(vs)) : NaN);
  if (bare === 'max') return (vs) => (vs.length ? Math.max(...vs.map(toFloat)) : NaN);
  const m = /^(at_least|pass_at|pass_k|pass)_(\d+)$/.exec(bare);
  if (!m) return undefined;
  const k = Number(m[2]);
  if (m[1] === 'at_least') return (vs) => (vs.length ? (vs.filter((v) => toFloat(v) >= 1).length >= k ? 1 : 0) : NaN);
  if (m[1] === 'pass_at') return (vs) => passAtK(vs.length, vs.filter((v) => toFloat(v) >= 1).length, k);
  return (vs) => (vs.length < k ? NaN : comb(vs.filter((v) => toFloat(v) >= 1).length, k) / comb(vs.length, k));
}
