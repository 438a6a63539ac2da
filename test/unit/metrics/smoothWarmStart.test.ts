// A bootstrap resample's smECE search starts at the whole set's σ* (fixedPoint's hint): the same σ*
// as the search from 1/8, in fewer evaluations of smECE_σ (bench/README.md, "smECE under the bootstrap").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CountDraws, mulberry32 } from '../../../src/core/metrics/bootstrap';
import { SmoothGrid } from '../../../src/core/metrics/smoothCalibration';

function sample(n: number, seed: number) {
  const rand = mulberry32(seed);
  const f = new Float64Array(n);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    f[i] = rand();
    y[i] = rand() < 0.5 + 1.2 * (f[i] - 0.5) ? 1 : 0;
  }
  f.sort();
  return { f, y };
}

afterEach(() => vi.restoreAllMocks());

describe('smECE of a resample from a hint', () => {
  for (const n of [30, 100, 400, 5000]) {
    it(`${n} rows: the same σ* as from 1/8, in fewer evaluations`, () => {
      const { f, y } = sample(n, n);
      const whole = new SmoothGrid().fill(f, y).fixedPoint()!;
      const draws = new CountDraws(n, 7);
      const calls = vi.spyOn(SmoothGrid.prototype, 'smeceAt');
      let cold = 0;
      let warm = 0;
      for (let r = 0; r < 20; r++) {
        const w = draws.next().slice();
        calls.mockClear();
        const a = new SmoothGrid().fill(f, y, w).fixedPoint()!;
        cold += calls.mock.calls.length;
        calls.mockClear();
        const b = new SmoothGrid().fill(f, y, w).fixedPoint(whole.sigma)!;
        warm += calls.mock.calls.length;
        expect(Math.abs(b.sigma - a.sigma), `resample ${r}`).toBeLessThan(1e-11 * a.sigma);
        expect(Math.abs(b.smece - a.smece)).toBeLessThan(1e-11 * a.smece);
        // A hint far off (or at the bounds) still finds it.
        const far = new SmoothGrid().fill(f, y, w).fixedPoint(Math.min(0.9, whole.sigma * 4))!;
        expect(Math.abs(far.sigma - a.sigma)).toBeLessThan(1e-11 * a.sigma);
      }
      // (30 rows: σ* near 1/8, where the search from 1/8 is already short.)
      if (n >= 100) expect(warm).toBeLessThan(0.8 * cold);
    });
  }
});
