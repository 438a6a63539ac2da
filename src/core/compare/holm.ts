// Holm's step-down adjustment (Holm 1979) of the p-values of several candidates against one
// baseline, per metric: sort ascending, multiply the i-th smallest (0-based) by (m - i), keep the
// running maximum so adjusted values stay in the same order, cap at 1. Nulls are not tests.

export function holm(pValues: readonly (number | null)[]): (number | null)[] {
  const tested = pValues.map((p, i) => ({ p, i })).filter((t): t is { p: number; i: number } => t.p !== null && Number.isFinite(t.p));
  tested.sort((x, y) => x.p - y.p || x.i - y.i);
  const out: (number | null)[] = pValues.map(() => null);
  const m = tested.length;
  let running = 0;
  tested.forEach((t, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * t.p));
    out[t.i] = running;
  });
  return out;
}
