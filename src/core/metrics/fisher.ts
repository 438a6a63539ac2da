// Fisher's exact test of a 2x2 table, two-sided as scipy.stats.fisher_exact computes it: the sum of
// the hypergeometric probabilities of every table with the same margins that is no more likely
// than the observed one (with scipy's relative tolerance of 1e-7 for ties in probability).

/** ln(n!) : exact sums below 256, Stirling's series (to 1/n^7, relative error < 1e-16) above. */
export function logFactorial(n: number): number {
  if (n < 256) {
    let s = 0;
    for (let k = 2; k <= n; k++) s += Math.log(k);
    return s;
  }
  const x = n + 1;
  const inv = 1 / x, inv2 = inv * inv;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI)
    + inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)));
}

const small = new Float64Array(256);
for (let k = 2; k < 256; k++) small[k] = small[k - 1] + Math.log(k);
const lf = (n: number) => (n < 256 ? small[n] : logFactorial(n));

/** Two-sided p of the table [[a, b], [c, d]]. */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  const r1 = a + b, r2 = c + d, c1 = a + c, n = r1 + r2;
  if (n === 0) return 1;
  const base = lf(r1) + lf(r2) + lf(c1) + lf(n - c1) - lf(n);
  const logP = (x: number) => base - lf(x) - lf(r1 - x) - lf(c1 - x) - lf(r2 - c1 + x);
  const lo = Math.max(0, c1 - r2), hi = Math.min(r1, c1);
  const observed = logP(a);
  const bound = observed + Math.log1p(1e-7);
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const lp = logP(x);
    if (lp <= bound) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
