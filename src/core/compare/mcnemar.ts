// Exact McNemar test on the discordant pairs (docs/metrics.md#mcnemar): b = baseline right only, c = candidate
// right only; under the null each discordant instance goes either way with probability 1/2, so
// p = min(1, 2 * P[X <= min(b, c)]) with X ~ Binomial(b + c, 1/2), and p = 1 when b + c = 0.
// The tail is summed in log space from its largest term (at min(b, c) <= (b + c) / 2) down, so it
// neither overflows nor underflows for b + c in the millions.

/** Two-sided exact McNemar p-value for discordant counts b and c (whole numbers >= 0). */
export function mcnemarExact(b: number, c: number): number {
  if (!(Number.isInteger(b) && Number.isInteger(c) && b >= 0 && c >= 0)) throw new RangeError(`McNemar counts must be whole numbers >= 0, got ${b} and ${c}`);
  const total = b + c;
  if (total === 0) return 1;
  const k = Math.min(b, c);
  if (2 * k === total) return 1;
  const logTail = logBinomialHalfCdf(k, total);
  return Math.min(1, 2 * Math.exp(logTail));
}

/** log P[X <= k] for X ~ Binomial(N, 1/2), k < N / 2. */
export function logBinomialHalfCdf(k: number, total: number): number {
  // The largest term, log C(N, k), from log factorials (Stirling series for large arguments).
  const top = logChoose(total, k);
  // Terms C(N, i) / C(N, k) for i = k, k - 1, ...: each is the previous times i / (N - i + 1).
  let sum = 1;
  let term = 1;
  for (let i = k; i > 0; i--) {
    term *= i / (total - i + 1);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return top + Math.log(sum) - total * Math.LN2;
}

/** log C(n, k) via logGamma. */
export function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

const SMALL_LOG_FACTORIALS: number[] = (() => {
  const out = [0];
  for (let i = 1; i <= 256; i++) out.push(out[i - 1] + Math.log(i));
  return out;
})();

/** log(n!) exactly summed for n <= 256, else Stirling's series (error < 1e-17 relative there). */
export function logFactorial(n: number): number {
  if (n <= 256) return SMALL_LOG_FACTORIALS[n];
  const x = n + 1; // log Gamma(x)
  const inv = 1 / x;
  const inv2 = inv * inv;
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680))));
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series;
}
