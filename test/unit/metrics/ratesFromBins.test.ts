// The rates at the threshold under resampling (tpr, fpr, precision, ...), taken from the
// calibration pass's bin sums when the threshold is an edge of the equal-width bins
// (metrics/resample.ts confusionAt, issue 28.11), are the rates of a walk over the rows
// (slices/rates.ts rateResampler), to the last bit: the same integer counts, the same divisions.
import { describe, expect, it } from 'vitest';
import { calibrationResampler } from '../../../src/core/metrics/resample';
import { CountDraws, mulberry32 } from '../../../src/core/metrics/bootstrap';
import { confusionRates, rateResampler } from '../../../src/core/slices/rates';

function set(n: number, seed: number, decimals?: number) {
  const r = mulberry32(seed);
  const value = new Float64Array(n);
  const target = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = r();
    // Rounded: ties, and rows exactly at 0.5 (they count as predicted positive).
    value[i] = decimals === undefined ? v : Math.round(v * 10 ** decimals) / 10 ** decimals;
    target[i] = r() < value[i] ? 1 : 0;
  }
  return { value, target };
}

describe('rates from the bins', () => {
  for (const [n, bins, threshold, decimals] of [[5000, 10, 0.5, undefined], [3001, 10, 0.5, 1], [2000, 4, 0.25, 2], [2000, 15, 0.2, 1]] as const) {
    it(`${n} rows, ${bins} bins, threshold ${threshold}${decimals !== undefined ? `, ${decimals} decimals` : ''}: equal to the walk over the rows`, () => {
      const { value, target } = set(n, n + bins, decimals);
      const cal = calibrationResampler(value, target, { bins, hmrBeta: 1, mode: 'binary', threshold });
      const confusion = cal.confusionAt(threshold);
      expect(confusion).not.toBeNull();
      const walk = rateResampler(value, target, threshold);
      const draws = new CountDraws(n, 7);
      let atEdge = 0;
      for (let i = 0; i < n; i++) atEdge += value[i] === threshold ? 1 : 0;
      if (decimals === 1) expect(atEdge).toBeGreaterThan(0);
      for (let k = 0; k < 20; k++) {
        const w = draws.next();
        cal(w);
        expect(confusionRates(...confusion!())).toEqual(walk(w));
      }
    });
  }

  it('a threshold that is no inner edge of the bins: none (the walk is used)', () => {
    const { value, target } = set(100, 1);
    const cal = calibrationResampler(value, target, { bins: 10, hmrBeta: 1, mode: 'binary', threshold: 0.37 });
    expect(cal.confusionAt(0.37)).toBeNull();
    expect(cal.confusionAt(0)).toBeNull();
    expect(cal.confusionAt(1)).toBeNull();
    expect(calibrationResampler(value, target, { bins: 7, hmrBeta: 1, mode: 'binary' }).confusionAt(0.5)).toBeNull();
  });
});
