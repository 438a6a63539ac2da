// Calibration beyond binned ECE (issue 19): smooth ECE against an independent computation of its
// definition (test/reference/calibration_reference.py: every row's reflected Gaussian summed
// directly, no grid, brentq for the fixed point), relplot's published behaviour (a constant
// predictor, a calibrated sample), Wilson intervals of the bins and classwise ECE against numpy.
import { describe, expect, it } from 'vitest';
import expected from '../../reference/calibration_expected.json';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import { wilsonInterval } from '../../../src/core/metrics/calibration';
import { classwiseEce } from '../../../src/core/metrics/classwise';
import { SIGMA_MAX, SIGMA_MIN, smoothCalibration, smoothEce, smoothEceAt } from '../../../src/core/metrics/smoothCalibration';
import { buildReport, resolveOptions } from '../../../src/core/report';
import type { ParseResult, PredictionSet, Report } from '../../../src/core/types';

function report(set: PredictionSet, bootstrap = 0, bins = 10): Report {
  const parsed: ParseResult = { format: 'generic', set, problems: [], skipped: 0, unlabeled: 0 };
  return buildReport('test', parsed, resolveOptions({ bootstrap, seed: 3, bins, instances: false }));
}

function binarySet(score: Float64Array, label: Uint8Array): PredictionSet {
  return { kind: 'binary', n: score.length, lines: Uint32Array.from(score, (_, i) => i + 2), score, label };
}

/** n rows with y ~ Bernoulli(q(f)), f uniform. */
function sample(n: number, seed: number, q: (f: number) => number = (f) => f) {
  const rand = mulberry32(seed);
  const f = new Float64Array(n);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    f[i] = rand();
    y[i] = rand() < q(f[i]) ? 1 : 0;
  }
  return { f, y };
}

describe('smECE against the exact definition (calibration_reference.py)', () => {
  for (const c of expected.smooth) {
    const f = Float64Array.from(c.value);
    const y = Uint8Array.from(c.target);

    it(`${c.name}: smECE and σ* within 2e-5 relative`, () => {
      const r = smoothEce(f, y)!;
      // The grid (σ / 96 or finer) makes it 1e-7 to 1e-5 low: measured 4e-7 to 2.6e-6 on these cases.
      expect(Math.abs(r.smece - c.smece) / c.smece, `${r.smece} vs ${c.smece}`).toBeLessThan(2e-5);
      expect(Math.abs(r.sigma - c.sigma) / c.sigma, `${r.sigma} vs ${c.sigma}`).toBeLessThan(2e-5);
      // The fixed point: smECE_σ* = σ*.
      expect(Math.abs(r.smece - r.sigma)).toBeLessThan(1e-12);
      // The reference's own quadrature error is far below that.
      expect(Math.abs(c.smece_finer_quadrature - c.smece) / c.smece).toBeLessThan(1e-7);
    });

    it(`${c.name}: smECE_σ at fixed σ`, () => {
      for (const [s, want] of Object.entries(c.fixed)) {
        const got = smoothEceAt(f, y, Number(s));
        expect(Math.abs(got - want), `σ ${s}: ${got} vs ${want}`).toBeLessThan(2e-5 * want + 2e-7);
      }
    });
  }

  it('the row order does not matter, and smECE_σ never increases with σ', () => {
    const { f, y } = expected.smooth[0].value.length ? { f: Float64Array.from(expected.smooth[0].value), y: Uint8Array.from(expected.smooth[0].target) } : sample(10, 1);
    const rev = Float64Array.from(f).reverse();
    const revY = Uint8Array.from(y).reverse();
    const a = smoothEce(f, y)!;
    const b = smoothEce(rev, revY)!;
    expect(Math.abs(a.smece - b.smece)).toBeLessThan(1e-13);
    let prev = Infinity;
    for (const s of [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]) {
      const v = smoothEceAt(f, y, s);
      expect(v).toBeLessThanOrEqual(prev + 1e-12);
      prev = v;
    }
  });
});

describe("relplot's behaviour", () => {
  it('a constant predictor: smECE = |c - mean(y)| at every σ, so σ* = that gap', () => {
    const n = 400;
    const f = new Float64Array(n).fill(0.7);
    const y = Uint8Array.from({ length: n }, (_, i) => (i % 20 < 11 ? 1 : 0)); // mean 0.55
    for (const s of [0.01, 0.1, 0.7]) expect(smoothEceAt(f, y, s)).toBeCloseTo(0.15, 12);
    const r = smoothEce(f, y)!;
    expect(r.smece).toBeCloseTo(0.15, 12);
    expect(r.sigma).toBeCloseTo(0.15, 11);
  });

  it('a constant predictor at a reflecting end (0 or 1) and the search bounds', () => {
    const y = Uint8Array.from({ length: 100 }, (_, i) => (i < 30 ? 1 : 0));
    const r0 = smoothEce(new Float64Array(100).fill(0), y)!;
    expect(r0.smece).toBeCloseTo(0.3, 12);
    // Every row wrong with full confidence: smECE_σ = 1 for every σ, so σ* is the top of the range.
    const worst = smoothEce(new Float64Array(50).fill(1), new Uint8Array(50))!;
    expect(worst.smece).toBeCloseTo(1, 12);
    expect(worst.sigma).toBeCloseTo(SIGMA_MAX, 12);
    // Calibrated on average at a single value: smECE_σ = 0 < σ for every σ: the bottom of the range.
    const exact = smoothEce(new Float64Array(4).fill(0.5), Uint8Array.from([1, 0, 1, 0]))!;
    expect(exact.sigma).toBe(SIGMA_MIN);
    expect(exact.smece).toBeLessThan(1e-15);
  });

  it('a perfectly calibrated sample: smECE is small and shrinks as n grows (about n^(-1/3))', () => {
    const small = smoothEce(...Object.values(sample(2_000, 11)) as [Float64Array, Uint8Array])!;
    const large = smoothEce(...Object.values(sample(200_000, 12)) as [Float64Array, Uint8Array])!;
    expect(small.smece).toBeLessThan(0.05);
    expect(large.smece).toBeLessThan(0.012);
    expect(large.smece).toBeLessThan(small.smece / 2.5); // (100)^(1/3) = 4.6 in expectation
    // A miscalibrated one of the same size is far above: y ~ Bernoulli(f^2), E|f - f^2| = 1/6.
    const bad = smoothEce(...Object.values(sample(200_000, 13, (f) => f * f)) as [Float64Array, Uint8Array])!;
    expect(bad.smece).toBeGreaterThan(0.14);
    expect(bad.smece).toBeLessThan(1 / 6 + 0.005);
  });

  it('the smoothed curve integrates back to smECE: ∫ |curve(t) - t| density(t) dt', () => {
    const integral = (c: NonNullable<ReturnType<typeof smoothCalibration>>) => {
      let sum = 0;
      for (let q = 0; q < c.curve.t.length; q++) {
        const v = c.curve.curve[q];
        const w = q === 0 || q === 256 ? 0.5 : 1;
        if (v !== null) sum += w * Math.abs(v - c.curve.t[q]) * c.curve.density[q];
      }
      return sum / 256;
    };
    // A mean target inside (0.1, 0.9): the curve is nowhere clipped to [0, 1].
    const { f, y } = sample(5_000, 21, (v) => 0.1 + 0.8 * v);
    const c = smoothCalibration(f, y)!;
    expect(c.curve.t).toHaveLength(257);
    expect(c.curve.curve.every((v) => v === null || (v > 0 && v < 1))).toBe(true);
    expect(Math.abs(integral(c) - c.result.smece) / c.result.smece).toBeLessThan(2e-3);
    // Where the estimate passes 1 (the mean target is 1 above 0.83) the clipped curve moves towards
    // the diagonal, so its integral falls below smECE (computed unclipped).
    const high = sample(5_000, 21, (v) => Math.min(1, v * 1.2));
    const ch = smoothCalibration(high.f, high.y)!;
    expect(ch.curve.curve.some((v) => v === 1)).toBe(true);
    expect(integral(ch)).toBeLessThan(ch.result.smece);
    // The density integrates to 1.
    const mass = c.curve.density.reduce((a, d, q) => a + (q === 0 || q === 256 ? d / 2 : d), 0) / 256;
    expect(mass).toBeCloseTo(1, 6);
  });
});

describe('Wilson intervals of the bins', () => {
  it('equal the formula (scipy z) to 1e-12', () => {
    expect(Math.abs(expected.wilson.z - 1.959963984540054)).toBeLessThan(1e-15);
    for (const row of expected.wilson.rows) {
      const [lo, hi] = wilsonInterval(row.k / row.n, row.n);
      expect(Math.abs(lo - row.interval[0]), `${row.k}/${row.n} low`).toBeLessThan(1e-12);
      expect(Math.abs(hi - row.interval[1]), `${row.k}/${row.n} high`).toBeLessThan(1e-12);
    }
  });

  it("every non-empty bin of a report carries its fraction's interval; empty bins and probabilities none", () => {
    const { f, y } = sample(300, 5);
    const r = report(binarySet(f, y), 0, 7);
    for (const b of [...r.bins!.equalWidth, ...r.bins!.equalCount]) {
      if (b.count === 0) {
        expect(b.targetInterval).toBeUndefined();
        continue;
      }
      const k = Math.round(b.meanTarget! * b.count);
      expect(b.targetInterval).toEqual(wilsonInterval(k / b.count, b.count));
      expect(b.targetInterval![0]).toBeLessThanOrEqual(b.meanTarget!);
      expect(b.targetInterval![1]).toBeGreaterThanOrEqual(b.meanTarget!);
    }
    const prob = report({ kind: 'probability', n: 3, lines: Uint32Array.from([2, 3, 4]), predProb: Float64Array.from([0.1, 0.5, 0.9]), goldProb: Float64Array.from([0.2, 0.5, 0.7]) });
    for (const b of prob.bins!.equalWidth) expect(b.targetInterval).toBeUndefined();
  });
});

describe('classwise ECE', () => {
  const cw = expected.classwise;
  const probs = Float64Array.from(cw.probs);
  const gold = Int32Array.from(cw.gold);

  for (const [bins, want] of Object.entries(cw.bins)) {
    it(`per class and mean, ${bins} bins, against numpy to 1e-12`, () => {
      const got = classwiseEce(probs, cw.k, gold, Number(bins));
      got.perClass.forEach((v, c) => expect(Math.abs(v! - want.per_class[c]), `class ${c}`).toBeLessThan(1e-12));
      expect(Math.abs(got.mean! - want.ece_classwise)).toBeLessThan(1e-12);
    });
  }

  it('in a multiclass report: metrics.ece_classwise and classes.ece parallel to the classes', () => {
    const n = gold.length;
    const k = cw.k;
    const pred = Int32Array.from({ length: n }, (_, i) => {
      let best = 0;
      for (let c = 1; c < k; c++) if (probs[i * k + c] > probs[i * k + best]) best = c;
      return best;
    });
    const set: PredictionSet = {
      kind: 'multiclass', n, lines: Uint32Array.from({ length: n }, (_, i) => i + 2), classes: ['a', 'b', 'c', 'd'],
      classesKnown: true, gold, pred, probs,
    };
    const r = report(set, 30, 7);
    expect(Math.abs(r.metrics.ece_classwise! - cw.bins['7'].ece_classwise)).toBeLessThan(1e-12);
    expect(r.classStats!.ece).toHaveLength(4);
    expect(r.intervals.ece_classwise).toBeDefined();
    // Top-label smECE from probs[pred], with its interval and the curve's band.
    expect(r.metrics.smece).toBeGreaterThan(0);
    expect(r.intervals.smece).toBeDefined();
    expect(r.smoothReliability!.lower).toHaveLength(257);
    expect(r.smoothReliability!.resamples).toBe(30);
  });
});

describe('smECE in a report', () => {
  it('binary: metrics.smece, smece_sigma, an interval, the curve with its bootstrap band', () => {
    const { f, y } = sample(3_000, 8, (v) => Math.min(1, Math.max(0, 0.5 + 1.3 * (v - 0.5))));
    const r = report(binarySet(f, y), 50);
    const direct = smoothEce(f, y)!;
    expect(r.metrics.smece).toBe(direct.smece);
    expect(r.metrics.smece_sigma).toBe(direct.sigma);
    const [lo, hi] = r.intervals.smece!;
    expect(lo).toBeLessThan(hi);
    expect(r.intervals.smece_sigma).toBeDefined();
    const s = r.smoothReliability!;
    expect(s.sigma).toBe(direct.sigma);
    expect(s.resamples).toBe(50);
    for (let q = 0; q <= 256; q++) {
      if (s.curve[q] === null || s.lower![q] === null) continue;
      expect(s.lower![q]!).toBeLessThanOrEqual(s.upper![q]!);
    }
    // Without a bootstrap: the curve and no band.
    const plain = report(binarySet(f, y), 0);
    expect(plain.smoothReliability!.lower).toBeUndefined();
    expect(plain.smoothReliability!.curve).toEqual(s.curve);
  });

  it('the curve and its band stay in [0, 1] where the kernel overshoots at the ends (issue 28, point 12)', () => {
    // Half the rows at a score within 0.02 of 0, all negative; half within 0.02 of 1, all positive.
    // The reflected kernel's t − g/d then passes the ends (about −0.007 at t = 0 and 1.007 at t = 1).
    const rand = mulberry32(1);
    const n = 20_000;
    const f = new Float64Array(n);
    const y = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const high = rand() < 0.5;
      f[i] = high ? 1 - 0.02 * rand() : 0.02 * rand();
      y[i] = high ? 1 : 0;
    }
    const s = report(binarySet(f, y), 30).smoothReliability!;
    for (const values of [s.curve, s.lower!, s.upper!]) {
      for (const v of values) if (v !== null) expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1);
    }
    // The ends are where the clipping acts: the mean of all-0 targets near t = 0 is 0, of all-1 near 1 is 1.
    expect(s.curve[0]).toBe(0);
    expect(s.curve[256]).toBe(1);
    expect(s.lower![0]).toBe(0);
    expect(s.upper![256]).toBe(1);
  });

  it('probability sets (ALMANACS) have none', () => {
    const prob = report({ kind: 'probability', n: 3, lines: Uint32Array.from([2, 3, 4]), predProb: Float64Array.from([0.1, 0.5, 0.9]), goldProb: Float64Array.from([0.2, 0.5, 0.7]) });
    expect(prob.metrics.smece).toBeUndefined();
    expect(prob.smoothReliability).toBeUndefined();
  });
});
