// The HMR paper's Example 1 (docs/metrics.md#hmr): nine instances, three
// equal-count bins. The table's ECE is the weighted ECE over equal-count bins, its MCE the maximum
// gap over the same bins.
import { describe, expect, it } from 'vitest';
import { equalCountBins, hmr, ks, mceQuantile, weightedGap } from '../../../src/core/metrics/calibration';

const X_CONF = [0.4, 0.4, 0.4, 0.6, 0.6, 0.6, 0.8, 0.8, 0.8];
const CORRECT = Uint8Array.from([1, 1, 0, 1, 1, 0, 1, 1, 1]);

/** Y lowers the last (correct) 0.8 to 0.7; Z raises the third (wrong) 0.4 to 0.6; W does both. */
const SYSTEMS: Record<'X' | 'Y' | 'Z' | 'W', Float64Array> = {
  X: Float64Array.from(X_CONF),
  Y: Float64Array.from(X_CONF.map((c, i) => (i === 8 ? 0.7 : c))),
  Z: Float64Array.from(X_CONF.map((c, i) => (i === 2 ? 0.6 : c))),
  W: Float64Array.from(X_CONF.map((c, i) => (i === 8 ? 0.7 : i === 2 ? 0.6 : c))),
};

// The paper's table (Y has no row there).
const TABLE = {
  X: { hmr: 0.557, r_o: 0.5, r_u: 0.629, ece: 0.178, mce: 0.267 },
  Z: { hmr: 0.489, r_o: 0.4, r_u: 0.629, ece: 0.156, mce: 0.2 },
  W: { hmr: 0.485, r_o: 0.4, r_u: 0.614, ece: 0.167, mce: 0.233 },
};

function figures(name: keyof typeof SYSTEMS) {
  const conf = SYSTEMS[name];
  const h = hmr(conf, CORRECT);
  return {
    ...h,
    ece: weightedGap(equalCountBins(conf, CORRECT, 3)),
    mce: mceQuantile(conf, CORRECT, 3),
    ks: ks(conf, CORRECT),
  };
}

describe('HMR paper, Example 1', () => {
  for (const [name, row] of Object.entries(TABLE)) {
    it(`system ${name} reproduces the table to 3 decimals`, () => {
      const got = figures(name as keyof typeof SYSTEMS);
      // toBeCloseTo(x, 3): |got - x| < 5e-4, i.e. equal after rounding to 3 decimals.
      expect(got.hmr).toBeCloseTo(row.hmr, 3);
      expect(got.r_o).toBeCloseTo(row.r_o, 3);
      expect(got.r_u).toBeCloseTo(row.r_u, 3);
      expect(got.ece).toBeCloseTo(row.ece, 3);
      expect(got.mce).toBeCloseTo(row.mce, 3);
    });
  }

  it('exact values for X follow from the definitions', () => {
    const x = figures('X');
    expect(x.r_o).toBeCloseTo(1 - (0.4 + 0.6) / 2, 12);
    expect(x.r_u).toBeCloseTo(1 - 2.6 / 7, 12);
    expect(x.ece).toBeCloseTo((0.8 / 3) / 3 + (0.2 / 3) / 3 + 0.2 / 3, 12);
    expect(x.mce).toBeCloseTo(0.8 / 3, 12);
  });

  it('ECE, MCE and KS call Z better than X although Z is more overconfident on a wrong answer', () => {
    const x = figures('X');
    const z = figures('Z');
    expect(z.ece).toBeLessThan(x.ece);
    expect(z.mce).toBeLessThan(x.mce);
    expect(z.ks).toBeLessThan(x.ks);
    expect(z.hmr).toBeLessThan(x.hmr);
  });

  it('HMR ranks X above Y, Z and W', () => {
    const x = figures('X').hmr;
    for (const other of ['Y', 'Z', 'W'] as const) expect(figures(other).hmr, other).toBeLessThan(x);
    // The changes only ever lower the rewards they target.
    expect(figures('Y').r_o).toBe(figures('X').r_o);
    expect(figures('Y').r_u).toBeLessThan(figures('X').r_u);
    expect(figures('Z').r_u).toBe(figures('X').r_u);
    expect(figures('Z').r_o).toBeLessThan(figures('X').r_o);
  });
});
