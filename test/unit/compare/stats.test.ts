// The comparison statistics against independent references: 700-digit erfc values and numpy /
// scipy / scikit-learn results (test/reference/compare_reference.py -> compare_expected.json), and
// DeLong's test against an O(m n) TypeScript implementation written from its definition.
import { describe, expect, it } from 'vitest';
import expected from '../../reference/compare_expected.json';
import { erfc, normalTwoSidedP } from '../../../src/core/compare/erfc';
import { delongTest, placements } from '../../../src/core/compare/delong';
import { mcnemarExact } from '../../../src/core/compare/mcnemar';
import { holm } from '../../../src/core/compare/holm';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';

function relErr(got: number, want: number): number {
  return Math.abs(got - want) / Math.abs(want);
}

describe('erfc', () => {
  for (const point of expected.erfc) {
    it(`erfc(${point.x}) agrees with the 700-digit value to 1e-13 relative`, () => {
      const want = Number(point.decimal);
      expect(relErr(erfc(point.x), want)).toBeLessThan(1e-13);
    });
  }

  it('is 2 - erfc(-x) for negative x, and 1 at 0', () => {
    expect(erfc(0)).toBe(1);
    expect(erfc(-1)).toBeCloseTo(2 - Number(expected.erfc.find((p) => p.x === 1)!.decimal), 15);
  });

  it('gives p near 1e-30 where 2 (1 - Phi(|z|)) rounds to 0', () => {
    // z = 8.0 * sqrt(2): p = erfc(8.0) = 1.1224e-29 (700-digit value).
    const z = 8 * Math.SQRT2;
    const want = Number(expected.erfc.find((p) => p.x === 8)!.decimal);
    expect(relErr(normalTwoSidedP(z), want)).toBeLessThan(1e-6);
    expect(relErr(normalTwoSidedP(-z), want)).toBeLessThan(1e-6);
    // The naive form loses it all: 1 - Phi(11.3) is below the spacing of doubles near 1.
    const naive = 2 * (1 - (1 - 0.5 * erfc(z / Math.SQRT2)));
    expect(naive).toBe(0);
  });
});

/** DeLong from its definition: placement values as means of psi over the other class, O(m n). */
function delongNaive(a: number[], b: number[], y: number[]) {
  const pos = y.map((v, i) => (v ? i : -1)).filter((i) => i >= 0);
  const neg = y.map((v, i) => (v ? -1 : i)).filter((i) => i >= 0);
  const psi = (x: number, z: number) => (x > z ? 1 : x === z ? 0.5 : 0);
  const v10 = [a, b].map((s) => pos.map((i) => neg.reduce((t, j) => t + psi(s[i], s[j]), 0) / neg.length));
  const v01 = [a, b].map((s) => neg.map((j) => pos.reduce((t, i) => t + psi(s[i], s[j]), 0) / pos.length));
  const aucs = v10.map((v) => v.reduce((t, x) => t + x, 0) / v.length);
  const cov = (x: number[], w: number[]) => {
    const mx = x.reduce((t, v) => t + v, 0) / x.length;
    const mw = w.reduce((t, v) => t + v, 0) / w.length;
    return x.reduce((t, v, i) => t + (v - mx) * (w[i] - mw), 0) / (x.length - 1);
  };
  const m = pos.length;
  const n = neg.length;
  const variance = (cov(v10[0], v10[0]) + cov(v10[1], v10[1]) - 2 * cov(v10[0], v10[1])) / m
    + (cov(v01[0], v01[0]) + cov(v01[1], v01[1]) - 2 * cov(v01[0], v01[1])) / n;
  return { aucs, variance, z: (aucs[1] - aucs[0]) / Math.sqrt(variance) };
}

describe('DeLong', () => {
  for (const c of expected.delong) {
    it(`${c.name}: AUCs, variance, z and p agree with the numpy definition and scikit-learn`, () => {
      const r = delongTest(Float64Array.from(c.a), Float64Array.from(c.b), Uint8Array.from(c.y))!;
      expect(r).not.toBeNull();
      expect(r.aucs[0]).toBeCloseTo(c.aucs[0], 12);
      expect(r.aucs[1]).toBeCloseTo(c.aucs[1], 12);
      expect(r.aucs[0]).toBeCloseTo(c.sklearn_aucs[0], 12);
      expect(r.aucs[1]).toBeCloseTo(c.sklearn_aucs[1], 12);
      expect(relErr(r.variance, c.variance)).toBeLessThan(1e-9);
      expect(relErr(r.z!, c.z)).toBeLessThan(1e-9);
      expect(relErr(r.p, c.p)).toBeLessThan(1e-6);
    });
  }

  it('the tiny-p case really is tiny (the test above checks it to 1e-6 relative)', () => {
    const c = expected.delong.find((d) => d.name === 'tiny-p')!;
    expect(c.p).toBeLessThan(1e-30);
    expect(c.p).toBeGreaterThan(0);
  });

  for (const levels of [0, 3, 11]) {
    it(`agrees with the O(m n) definition on random scores (${levels ? `${levels} levels, tied` : 'untied'})`, () => {
      const rand = mulberry32(levels + 7);
      for (let trial = 0; trial < 20; trial++) {
        const n = 5 + Math.floor(rand() * 80);
        const y = Array.from({ length: n }, (_, i) => (i < 2 ? 1 : i < 4 ? 0 : rand() < 0.4 ? 1 : 0));
        const draw = () => (levels ? Math.floor(rand() * levels) / levels : rand());
        const a = y.map((v) => Math.min(1, draw() * 0.8 + 0.2 * v));
        const b = y.map((v, i) => (rand() < 0.5 ? a[i] : Math.min(1, draw() * 0.6 + 0.4 * v)));
        const want = delongNaive(a, b, y);
        const got = delongTest(Float64Array.from(a), Float64Array.from(b), Uint8Array.from(y));
        if (!(want.variance > 1e-15)) continue;
        expect(got).not.toBeNull();
        expect(got!.aucs[0]).toBeCloseTo(want.aucs[0], 12);
        expect(got!.aucs[1]).toBeCloseTo(want.aucs[1], 12);
        expect(relErr(got!.variance, want.variance)).toBeLessThan(1e-9);
        expect(Math.abs(got!.z! - want.z)).toBeLessThan(1e-8 * Math.max(1, Math.abs(want.z)));
      }
    });
  }

  it('identical runs: delta 0, variance 0, p = 1; one class absent: null', () => {
    const s = Float64Array.from([0.1, 0.4, 0.35, 0.8]);
    const y = Uint8Array.from([0, 0, 1, 1]);
    const r = delongTest(s, s, y)!;
    expect(r.delta).toBe(0);
    expect(r.z).toBeNull();
    expect(r.p).toBe(1);
    expect(r.aucs[0]).toBe(0.75);
    expect(delongTest(s, s, Uint8Array.from([1, 1, 1, 1]))).toBeNull();
    expect(placements(s, Uint8Array.from([0, 0, 0, 0]))).toBeNull();
  });
});

describe('exact McNemar', () => {
  for (const c of expected.mcnemar) {
    it(`b=${c.b}, c=${c.c}: scipy.stats.binomtest gives ${c.p}`, () => {
      const p = mcnemarExact(c.b, c.c);
      if (c.p < 1e-300) expect(p).toBeLessThan(1e-300);
      else expect(relErr(p, c.p)).toBeLessThan(1e-9);
      expect(mcnemarExact(c.c, c.b)).toBe(p);
    });
  }

  it('rejects counts that are not whole numbers', () => {
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
  });
});

describe('Holm', () => {
  it('steps down: sorted p times (m - rank), running maximum, capped at 1', () => {
    // Sorted 0.005, 0.01, 0.03, 0.04 -> 0.02, 0.03, 0.06, max(0.06, 0.04) = 0.06.
    expect(holm([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02].map((v, i) => expect.closeTo(v, 15) as unknown as number));
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([null, 0.02, 0.04])).toEqual([null, 0.04, 0.04]);
    expect(holm([0.3])).toEqual([0.3]);
  });
});
