// Edge cases of the metric functions: absent classes, degenerate HMR, empty bins, tiny inputs,
// bin edges, and the bootstrap's determinism.
import { describe, expect, it } from 'vitest';
import { binaryMetrics, BINARY_METRICS } from '../../../src/core/metrics/binary';
import { bootstrapIntervals, mulberry32, percentile } from '../../../src/core/metrics/bootstrap';
import { gather } from '../../../src/core/metrics/sort';
import {
  binIndexEqualCount,
  binIndexEqualWidth,
  ece,
  eceQuantile,
  equalCountBins,
  equalWidthBins,
  hmr,
  ks,
  mce,
} from '../../../src/core/metrics/calibration';
import { accuracy, classStats, macroF1 } from '../../../src/core/metrics/classification';
import { auc, rocCurve } from '../../../src/core/metrics/ranking';
import { spearman } from '../../../src/core/metrics/regression';
import { brierBinary, brierMulticlass, logLossBinary } from '../../../src/core/metrics/scoring';
import { statedConfidenceMetrics } from '../../../src/core/metrics/statedConfidence';

const f64 = (...v: number[]) => Float64Array.from(v);
const u8 = (...v: number[]) => Uint8Array.from(v);

describe('one class absent', () => {
  it('auc and roc are null, the rest still defined', () => {
    const s = f64(0.2, 0.7, 0.9);
    for (const y of [u8(1, 1, 1), u8(0, 0, 0)]) {
      expect(auc(s, y)).toBeNull();
      expect(rocCurve(s, y)).toBeNull();
      const r = binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1 });
      expect(r.metrics.auc).toBeNull();
      expect(r.roc).toBeNull();
      expect(r.metrics.brier).not.toBeNull();
      expect(r.metrics.ece).not.toBeNull();
    }
  });

  it('all scores tied: auc 1/2, roc from (0,0) to (1,1)', () => {
    const s = f64(0.5, 0.5, 0.5, 0.5);
    const y = u8(1, 0, 1, 0);
    expect(auc(s, y)).toBe(0.5);
    expect(rocCurve(s, y)).toEqual({ fpr: [0, 1], tpr: [0, 1], thresholds: [1.5, 0.5] });
  });

  it('perfect and inverted rankings', () => {
    expect(auc(f64(0.1, 0.2, 0.8, 0.9), u8(0, 0, 1, 1))).toBe(1);
    expect(auc(f64(0.1, 0.2, 0.8, 0.9), u8(1, 1, 0, 0))).toBe(0);
  });
});

describe('HMR edge cases', () => {
  it('all correct: r_o = 1', () => {
    const h = hmr(f64(0.9, 0.6, 1), u8(1, 1, 1));
    expect(h.r_o).toBe(1);
    expect(h.r_u).toBeCloseTo(1 - (0.1 + 0.4 + 0) / 3, 14);
    expect(h.hmr).toBeCloseTo((2 * h.r_u) / (1 + h.r_u), 14);
  });

  it('all wrong: r_u = 1', () => {
    const h = hmr(f64(0.9, 0.6), u8(0, 0));
    expect(h.r_u).toBe(1);
    expect(h.r_o).toBeCloseTo(0.25, 14);
  });

  it('hmr is 0 when both rewards are 0 (certain and wrong, zero confidence and right)', () => {
    const h = hmr(f64(1, 0), u8(0, 1), 2);
    expect(h.r_o).toBe(0);
    expect(h.r_u).toBe(0);
    expect(h.hmr).toBe(0);
    expect(h.hmr_beta).toBe(0);
  });

  it('a perfectly calibrated-at-the-extremes system scores 1', () => {
    const h = hmr(f64(1, 1, 0), u8(1, 1, 0));
    expect(h).toEqual({ r_o: 1, r_u: 1, hmr: 1, hmr_beta: 1 });
  });

  it('hmr_beta: beta 1 equals hmr, beta 0 gives r_o, large beta tends to r_u', () => {
    const c = f64(0.9, 0.3, 0.7, 0.55);
    const y = u8(1, 0, 0, 1);
    const h1 = hmr(c, y, 1);
    expect(h1.hmr_beta).toBe(h1.hmr);
    expect(hmr(c, y, 0).hmr_beta).toBeCloseTo(h1.r_o, 14);
    expect(hmr(c, y, 1e4).hmr_beta).toBeCloseTo(h1.r_u, 6);
  });

  it('binaryMetrics: top-label confidence max(s, 1 - s) and pred = s >= threshold', () => {
    // s = 0.2 with label 0 is a correct prediction at confidence 0.8.
    const r = binaryMetrics(f64(0.2, 0.9, 0.6), u8(0, 1, 0), { bins: 10, threshold: 0.5, hmrBeta: 1 });
    expect(r.metrics.accuracy).toBeCloseTo(2 / 3, 14);
    expect(r.metrics.r_u).toBeCloseTo(1 - (0.2 + 0.1) / 2, 14);
    expect(r.metrics.r_o).toBeCloseTo(0.4, 14);
    // A threshold of 0.95 makes 0.9 a "0" prediction: wrong, at confidence 0.9.
    const t = binaryMetrics(f64(0.2, 0.9, 0.6), u8(0, 1, 0), { bins: 10, threshold: 0.95, hmrBeta: 1 });
    expect(t.metrics.accuracy).toBeCloseTo(2 / 3, 14);
    expect(t.metrics.r_o).toBeCloseTo(0.1, 14);
  });
});

describe('bins', () => {
  it('equal-width: decimal edges land in the bin they open, 1.0 in the last, outside values clamp', () => {
    const v = f64(0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, -0.5, 1.5, 0.0999999);
    expect(Array.from(binIndexEqualWidth(v, 10))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 0, 9, 0]);
  });

  it('equal-width: k / n is in bin k for every bin count up to 60 (floor(v * n) alone is not)', () => {
    for (let n = 1; n <= 60; n++) {
      const v = Float64Array.from({ length: n }, (_, k) => k / n);
      expect(Array.from(binIndexEqualWidth(v, n)), `n=${n}`).toEqual(Array.from({ length: n }, (_, k) => k));
    }
  });

  it('equal-width: empty bins have count 0 and null means; ece/mce ignore them', () => {
    const v = f64(0.05, 0.05, 0.95);
    const y = u8(0, 1, 1);
    const bins = equalWidthBins(v, y, 10);
    expect(bins.map((b) => b.count)).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(bins[3]).toEqual({ lo: 0.3, hi: 0.4, count: 0, meanValue: null, meanTarget: null, gap: null });
    expect(bins[9].hi).toBe(1);
    expect(ece(v, y, 10)).toBeCloseTo((2 / 3) * 0.45 + (1 / 3) * 0.05, 14);
    expect(mce(v, y, 10)).toBeCloseTo(0.45, 14);
  });

  it('equal-count: array_split sizes, ties kept in file order, empty trailing bins', () => {
    const v = f64(0.5, 0.1, 0.5, 0.5, 0.9, 0.1, 0.5);
    expect(equalCountBins(v, u8(0, 0, 0, 0, 0, 0, 0), 3).map((b) => b.count)).toEqual([3, 2, 2]);
    // sorted stable: 1(0.1) 5(0.1) 0(0.5) | 2 3 | 6 4(0.9)
    expect(Array.from(binIndexEqualCount(v, 3))).toEqual([0, 0, 1, 1, 2, 0, 2]);
    const small = equalCountBins(f64(0.3, 0.8), u8(1, 0), 4);
    expect(small.map((b) => b.count)).toEqual([1, 1, 0, 0]);
    expect(small[2]).toEqual({ lo: 0.8, hi: 0.8, count: 0, meanValue: null, meanTarget: null, gap: null });
    expect(eceQuantile(f64(0.3, 0.8), u8(1, 0), 4)).toBeCloseTo((0.7 + 0.8) / 2, 14);
  });

  it('rejects a bin count outside 1..32767', () => {
    expect(() => equalWidthBins(f64(0.1), u8(1), 0)).toThrow(RangeError);
    expect(() => binIndexEqualCount(f64(0.1), 40000)).toThrow(RangeError);
  });

  it('NaN values (never expected) are left out of the binning instead of crashing', () => {
    const v = f64(0.2, NaN, 0.8);
    const y = u8(0, 1, 1);
    expect(Array.from(binIndexEqualWidth(v, 10))).toEqual([2, -1, 8]);
    expect(Array.from(binIndexEqualCount(v, 2))).toEqual([0, -1, 1]);
    expect(ece(v, y, 10)).toBeCloseTo(0.2, 14);
    expect(ks(v, y)).toBeCloseTo(0.1, 14);
  });
});

describe('n = 1 and n = 0', () => {
  it('n = 1', () => {
    const s = f64(0.7);
    const y = u8(0);
    expect(auc(s, y)).toBeNull();
    expect(ece(s, y, 10)).toBeCloseTo(0.7, 14);
    expect(eceQuantile(s, y, 10)).toBeCloseTo(0.7, 14);
    expect(ks(s, y)).toBeCloseTo(0.7, 14);
    expect(spearman(s, s)).toBeNull();
    const r = binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1 });
    expect(r.metrics.accuracy).toBe(0);
    expect(r.metrics.brier).toBeCloseTo(0.49, 14);
    expect(r.bins.equalCount.map((b) => b.count)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('n = 0: binaryMetrics reports every metric as undefined', () => {
    const r = binaryMetrics(new Float64Array(0), new Uint8Array(0), { bins: 10, threshold: 0.5, hmrBeta: 1 });
    for (const name of BINARY_METRICS) expect(r.metrics[name], name).toBeNull();
    expect(r.roc).toBeNull();
    expect(r.bins.equalWidth).toHaveLength(10);
    expect(Number.isNaN(brierBinary(new Float64Array(0), new Uint8Array(0)))).toBe(true);
  });
});

describe('scoring and classification corners', () => {
  it('log loss clips certain mistakes at 1e-15', () => {
    // 1 - (1 - 1e-15) is 1.11e-15 in double precision (scikit-learn computes the same).
    const want = (-Math.log(1e-15) - Math.log(1 - (1 - 1e-15))) / 2;
    expect(logLossBinary(f64(0, 1), u8(1, 0))).toBeCloseTo(want, 10);
    expect(want).toBeCloseTo(34.539, 2);
    expect(logLossBinary(f64(1, 0), u8(1, 0))).toBeLessThan(1e-14);
  });

  it('multiclass Brier: certain right 0, certain wrong 2', () => {
    expect(brierMulticlass(f64(1, 0, 0, 0, 0, 1), 3, Int32Array.from([0, 2]))).toBe(0);
    expect(brierMulticlass(f64(0, 1, 0), 3, Int32Array.from([0]))).toBe(2);
  });

  it('F1 of a class never gold and never predicted is 0 and counts in the RAFT mean', () => {
    const gold = Int32Array.from([0, 0, 1, 1]);
    const pred = Int32Array.from([0, 1, 1, 1]);
    const s = classStats(gold, pred, 3, ['a', 'b', 'c']);
    expect(s.f1[2]).toBe(0);
    expect(s.precision[2]).toBe(0);
    expect(s.support).toEqual([2, 2, 0]);
    expect(s.confusion).toEqual([[1, 1, 0], [0, 2, 0], [0, 0, 0]]);
    const f1a = 2 / 3; // tp 1, fn 1
    const f1b = 0.8; // tp 2, fp 1
    expect(macroF1(gold, pred, 3)).toBeCloseTo((f1a + f1b) / 3, 14);
    expect(macroF1(gold, pred, 3, [0, 1])).toBeCloseTo((f1a + f1b) / 2, 14);
    expect(accuracy(pred, gold)).toBe(0.75);
  });

  it('spearman: constant input is undefined, monotone is 1, ties average', () => {
    expect(spearman(f64(1, 2, 3), f64(5, 5, 5))).toBeNull();
    expect(spearman(f64(1, 2, 3, 4), f64(0.1, 0.5, 0.7, 100))).toBeCloseTo(1, 14);
    expect(spearman(f64(1, 2, 3, 4), f64(4, 3, 2, 1))).toBeCloseTo(-1, 14);
  });
});

describe('bootstrap', () => {
  const rand = mulberry32(7);
  const n = 600;
  const score = Float64Array.from({ length: n }, () => rand());
  const label = Uint8Array.from(score, (s) => (rand() < s ? 1 : 0));
  const compute = (idx: Uint32Array) => {
    const s = gather(score, idx);
    const y = gather(label, idx);
    return { auc: auc(s, y), brier: brierBinary(s, y), ece: ece(s, y, 10) };
  };

  it('the PRNG is deterministic and uniform-looking', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
  });

  it('same seed, same intervals; another seed, other intervals', () => {
    const a = bootstrapIntervals(n, 200, 1, compute);
    const b = bootstrapIntervals(n, 200, 1, compute);
    const c = bootstrapIntervals(n, 200, 2, compute);
    expect(a).toEqual(b);
    expect(a.auc).not.toEqual(c.auc);
  });

  it('the 95% interval contains the point estimate and is ordered', () => {
    const point = compute(Uint32Array.from({ length: n }, (_, i) => i));
    const ci = bootstrapIntervals(n, 400, 3, compute);
    for (const key of ['auc', 'brier', 'ece'] as const) {
      const [lo, hi] = ci[key];
      expect(lo, key).toBeLessThan(hi);
      if (key !== 'ece') {
        // ECE is biased upward under resampling; the unbiased ones must be bracketed.
        expect(point[key]!, key).toBeGreaterThan(lo);
        expect(point[key]!, key).toBeLessThan(hi);
      }
    }
    // A 50% interval sits inside the 95% one.
    const narrow = bootstrapIntervals(n, 400, 3, compute, 0.5);
    expect(narrow.auc[0]).toBeGreaterThanOrEqual(ci.auc[0]);
    expect(narrow.auc[1]).toBeLessThanOrEqual(ci.auc[1]);
  });

  it('null results are skipped; a metric never defined is left out', () => {
    let calls = 0;
    const ci = bootstrapIntervals(10, 50, 0, () => ({ a: calls++ % 2 ? null : 1, never: null }));
    expect(ci).toEqual({ a: [1, 1] });
    expect(bootstrapIntervals(0, 50, 0, () => ({ a: 1 }))).toEqual({});
  });

  it('percentile interpolates like numpy', () => {
    expect(percentile(f64(1, 2, 3, 4), 0.25)).toBeCloseTo(1.75, 14);
    expect(percentile(f64(1, 2, 3, 4), 0.975)).toBeCloseTo(3.925, 14);
    expect(percentile(f64(5), 0.5)).toBe(5);
  });
});

describe('a stated confidence against correctness (confidence_auroc, confidence_brier)', () => {
  it('all right or all wrong: no AUROC (null, never 0.5), the Brier still defined', () => {
    const c = f64(0.9, 0.6, 0.3);
    for (const y of [u8(1, 1, 1), u8(0, 0, 0)]) {
      const m = statedConfidenceMetrics(c, y);
      expect(m.confidence_auroc).toBeNull();
      expect(m.confidence_brier).toBeCloseTo(y[0] ? (0.01 + 0.16 + 0.49) / 3 : (0.81 + 0.36 + 0.09) / 3, 12);
    }
  });

  it('ties count one half; a confidence that ranks every right answer first is 1, the reverse 0', () => {
    expect(statedConfidenceMetrics(f64(0.5, 0.5), u8(1, 0)).confidence_auroc).toBe(0.5);
    expect(statedConfidenceMetrics(f64(0.9, 0.8, 0.2), u8(1, 1, 0)).confidence_auroc).toBe(1);
    expect(statedConfidenceMetrics(f64(0.1, 0.8, 0.9), u8(1, 0, 0)).confidence_auroc).toBe(0);
  });

  it('rows without a confidence (NaN) are left out of both; none at all gives null', () => {
    const m = statedConfidenceMetrics(f64(0.9, NaN, 0.2), u8(1, 1, 0));
    expect(m.confidence_auroc).toBe(1);
    expect(m.confidence_brier).toBeCloseTo((0.01 + 0.04) / 2, 12);
    expect(statedConfidenceMetrics(f64(NaN), u8(1))).toEqual({ confidence_auroc: null, confidence_brier: null });
    expect(statedConfidenceMetrics(f64(), u8())).toEqual({ confidence_auroc: null, confidence_brier: null });
  });
});
