// binaryMetrics' single sorted pass against the standalone functions on inputs large enough for
// its blocks and segments (bins closing mid-block, more bins than rows, ties across bin ends).
import { describe, expect, it } from 'vitest';
import { binaryMetrics } from '../../../src/core/metrics/binary';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import { equalCountBins, equalWidthBins, hmr, ks } from '../../../src/core/metrics/calibration';
import { accuracy } from '../../../src/core/metrics/classification';
import { auc, rocCurve } from '../../../src/core/metrics/ranking';
import { brierBinary, logLossBinary } from '../../../src/core/metrics/scoring';
import { gather, sortWithOrder, stableArgsort } from '../../../src/core/metrics/sort';
import type { ReliabilityBin } from '../../../src/core/types';

function data(n: number, seed: number, decimals: number) {
  const rand = mulberry32(seed);
  const s = new Float64Array(n);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = rand();
    s[i] = decimals ? Math.round(r * 10 ** decimals) / 10 ** decimals : r;
    y[i] = rand() < r ? 1 : 0;
  }
  return { s, y };
}

const near = (a: number | null, b: number | null, what: string) => {
  if (a === null || b === null) return expect(a, what).toBe(b);
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThan(1e-12);
};

function sameBins(a: ReliabilityBin[], b: ReliabilityBin[], what: string) {
  expect(a.length).toBe(b.length);
  a.forEach((bin, i) => {
    expect(bin.count, `${what}[${i}].count`).toBe(b[i].count);
    expect(bin.lo, `${what}[${i}].lo`).toBe(b[i].lo);
    expect(bin.hi, `${what}[${i}].hi`).toBe(b[i].hi);
    near(bin.meanValue, b[i].meanValue, `${what}[${i}].meanValue`);
    near(bin.meanTarget, b[i].meanTarget, `${what}[${i}].meanTarget`);
    near(bin.gap, b[i].gap, `${what}[${i}].gap`);
  });
}

describe('binaryMetrics: the fused sorted pass', () => {
  for (const [n, decimals] of [[5, 1], [9, 0], [700, 2], [20000, 0], [20000, 1], [50000, 3]] as const) {
    for (const bins of [1, 7, 10, 300]) {
      it(`n=${n}, ${decimals || 'all'} decimals, ${bins} bins`, () => {
        const { s, y } = data(n, n + bins + decimals, decimals);
        const threshold = 0.37;
        const r = binaryMetrics(s, y, { bins, threshold, hmrBeta: 2, rocPoints: 64 });
        const m = r.metrics;
        const pred = Uint8Array.from(s, (v) => (v >= threshold ? 1 : 0));
        const h = hmr(Float64Array.from(s, (v) => Math.max(v, 1 - v)), Uint8Array.from(pred, (p, i) => (p === y[i] ? 1 : 0)), 2);
        near(m.accuracy, accuracy(pred, y), 'accuracy');
        near(m.auc, auc(s, y), 'auc');
        near(m.brier, brierBinary(s, y), 'brier');
        near(m.log_loss, logLossBinary(s, y), 'log_loss');
        near(m.ks, ks(s, y), 'ks');
        for (const key of ['hmr', 'r_o', 'r_u', 'hmr_beta'] as const) near(m[key], h[key], key);
        sameBins(r.bins.equalWidth, equalWidthBins(s, y, bins), 'equalWidth');
        sameBins(r.bins.equalCount, equalCountBins(s, y, bins), 'equalCount');
        expect(r.roc).toEqual(rocCurve(s, y, undefined, 64));
        expect(Array.from(r.order)).toEqual(Array.from(stableArgsort(s)));
        expect(Array.from(r.sorted)).toEqual(Array.from(gather(s, r.order)));
        // The AUC counts are exact: the same number, not just a close one.
        if (m.auc !== null) expect(m.auc).toBe(auc(s, y));
      });
    }
  }

  it('the ROC curve from checkpoints equals the full walk (many groups, few groups, big groups)', () => {
    for (const [n, decimals, points] of [[200000, 0, 512], [200000, 4, 512], [200000, 2, 512], [5000, 3, 2], [5000, 3, 3000], [70000, 5, 100]] as const) {
      const { s, y } = data(n, n + decimals, decimals);
      const r = binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1, rocPoints: points });
      expect(r.roc, `n=${n} decimals=${decimals} points=${points}`).toEqual(rocCurve(s, y, undefined, points));
    }
  });

  it('takes a given order and sorted scores', () => {
    const { s, y } = data(10000, 3, 2);
    const { order, sorted } = sortWithOrder(s);
    const a = binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1 });
    expect(binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1, order })).toEqual(a);
    expect(binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1, order, sorted })).toEqual(a);
  });

  it('NaN scores: out of the bins and KS, AUC ranks them highest, Brier/log loss/HMR undefined', () => {
    const { s, y } = data(3000, 8, 2);
    for (let i = 0; i < s.length; i += 17) s[i] = NaN;
    const r = binaryMetrics(s, y, { bins: 10, threshold: 0.5, hmrBeta: 1 });
    const finite = Array.from(s).filter((v) => v === v).length;
    expect(r.bins.equalWidth.reduce((a, b) => a + b.count, 0)).toBe(finite);
    expect(r.bins.equalCount.reduce((a, b) => a + b.count, 0)).toBe(finite);
    near(r.metrics.ks, ks(s, y), 'ks');
    near(r.metrics.auc, auc(s, y), 'auc');
    expect(r.metrics.brier).toBeNull();
    expect(r.metrics.log_loss).toBeNull();
    expect(r.metrics.hmr).toBeNull();
  });
});
