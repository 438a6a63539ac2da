// Curve thinning and bin lookup for the charts, in the panel and in the CLI's figures. Pure; no DOM.

/** Points a drawn ROC curve keeps (panel, compare page, `eval-lens plot`): a million-row curve draws at once. */
export const ROC_CHART_POINTS = 1500;

/**
 * Thins a monotone curve (ROC) to at most about `maxPoints` points: walk the curve and keep a point
 * whenever the path length since the last kept point reaches total / maxPoints. First and last
 * points are always kept, so the area is preserved up to the sampling step.
 */
export function decimateCurve(xs: ArrayLike<number>, ys: ArrayLike<number>, maxPoints: number): { x: number[]; y: number[] } {
  const n = Math.min(xs.length, ys.length);
  if (n <= maxPoints) return { x: Array.from(xs).slice(0, n), y: Array.from(ys).slice(0, n) };
  let total = 0;
  for (let i = 1; i < n; i++) total += Math.abs(xs[i] - xs[i - 1]) + Math.abs(ys[i] - ys[i - 1]);
  const step = total / Math.max(1, maxPoints - 2);
  const x = [xs[0]];
  const y = [ys[0]];
  let run = 0;
  for (let i = 1; i < n - 1; i++) {
    run += Math.abs(xs[i] - xs[i - 1]) + Math.abs(ys[i] - ys[i - 1]);
    if (run >= step) {
      x.push(xs[i]);
      y.push(ys[i]);
      run = 0;
    }
  }
  x.push(xs[n - 1]);
  y.push(ys[n - 1]);
  return { x, y };
}

/** Which bin of `bins` holds value x (for a click on the reliability diagram); nearest bin when between bins. */
export function binAt(bins: { lo: number; hi: number; count: number }[], x: number): number {
  let best = -1;
  let bestDistance = Infinity;
  for (let b = 0; b < bins.length; b++) {
    const { lo, hi, count } = bins[b];
    if (!count) continue;
    const distance = x < lo ? lo - x : x > hi ? x - hi : 0;
    if (distance < bestDistance) {
      best = b;
      bestDistance = distance;
    }
  }
  return best;
}
