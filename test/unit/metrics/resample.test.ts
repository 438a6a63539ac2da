// The O(n) weighted bootstrap (one sort, then a pass with multiplicities per resample) against the
// naive path: gather the drawn rows (in ascending row order, so that ties keep file order) and
// recompute every metric from scratch. Random data with many ties, several seeds, bin counts from
// 1 to more than the rows.
import { describe, expect, it } from 'vitest';
import { binaryMetrics, BINARY_METRICS } from '../../../src/core/metrics/binary';
import {
  bootstrapCountIntervals, bootstrapIntervals, CountDraws, drawCounts, mulberry32, type Counts,
} from '../../../src/core/metrics/bootstrap';
import { ece, eceQuantile, hmr, ks, mce, mceQuantile } from '../../../src/core/metrics/calibration';
import { accuracy, macroF1 } from '../../../src/core/metrics/classification';
import { klBernoulli, mse, spearman, tvd } from '../../../src/core/metrics/regression';
import {
  calibrationResampler, expandCounts, multiclassResampler, probabilityResampler,
} from '../../../src/core/metrics/resample';
import { brierBinary, brierMulticlass, logLossBinary, logLossMulticlass } from '../../../src/core/metrics/scoring';
import { gather } from '../../../src/core/metrics/sort';

const TOL = 1e-12;

function near(a: number | null | undefined, b: number | null | undefined, what: string): void {
  if (a === null || b === null || a === undefined || b === undefined) {
    expect(a ?? null, what).toBe(b ?? null);
    return;
  }
  if (!Number.isFinite(b)) {
    expect(Number.isFinite(a), `${what}: ${a} vs ${b}`).toBe(false);
    return;
  }
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThan(TOL * Math.max(1, Math.abs(b)));
}

/** Scores with few distinct values (ties everywhere, straddling bin ends) or many. */
function binaryData(n: number, seed: number, decimals: number) {
  const rand = mulberry32(seed);
  const score = new Float64Array(n);
  const label = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = rand();
    score[i] = decimals ? Math.round(r * 10 ** decimals) / 10 ** decimals : r;
    label[i] = rand() < r ? 1 : 0;
  }
  return { score, label };
}

/** The resamples bootstrapCountIntervals makes for this seed, and the naive index lists. */
function resamples(n: number, seed: number, count: number): { w: Counts; idx: Uint32Array }[] {
  const draws = new CountDraws(n, seed);
  const rand = mulberry32(seed);
  const out: { w: Counts; idx: Uint32Array }[] = [];
  for (let r = 0; r < count; r++) {
    const w = draws.next().slice();
    // The same draws as bootstrapIntervals makes, as indices, sorted: the resample in file order.
    const drawn = Uint32Array.from({ length: n }, () => Math.floor(rand() * n)).sort();
    expect(Array.from(expandCounts(w))).toEqual(Array.from(drawn));
    out.push({ w, idx: drawn });
  }
  return out;
}

const CASES: [n: number, decimals: number, bins: number][] = [
  [1, 1, 10], [2, 0, 3], [7, 1, 10], [13, 1, 1], [50, 1, 10], [200, 2, 7], [1000, 1, 10], [1000, 0, 40],
  [3000, 2, 10], [3000, 3, 300],
];

describe('weighted resamples equal the naive path', () => {
  for (const [n, decimals, bins] of CASES) {
    for (const seed of [1, 2, 3]) {
      it(`binary: n=${n}, ${decimals || 'full'} decimals, ${bins} bins, seed ${seed}`, () => {
        const { score, label } = binaryData(n, seed * 1000 + n, decimals);
        const threshold = 0.45;
        const weighted = calibrationResampler(score, label, { bins, hmrBeta: 2, mode: 'binary', threshold });
        for (const { w, idx } of resamples(n, seed, 8)) {
          const want = binaryMetrics(gather(score, idx), gather(label, idx), { bins, threshold, hmrBeta: 2 }).metrics;
          const got = weighted(w);
          for (const key of BINARY_METRICS) near(got[key], want[key], key);
          // 32-bit counters (a resample where a row was drawn 256 times or more) give the same.
          expect(weighted(Uint32Array.from(w))).toEqual(got);
        }
      });

      it(`top-label confidence: n=${n}, ${bins} bins, seed ${seed}`, () => {
        const { score: conf, label: correct } = binaryData(n, seed * 77 + n, decimals);
        const weighted = calibrationResampler(conf, correct, { bins, hmrBeta: 0.5, mode: 'topLabel' });
        for (const { w, idx } of resamples(n, seed + 10, 8)) {
          const c = gather(conf, idx);
          const y = gather(correct, idx);
          const h = hmr(c, y, 0.5);
          const got = weighted(w);
          near(got.accuracy, y.reduce((a, b) => a + b, 0) / n, 'accuracy');
          near(got.brier, brierBinary(c, y), 'brier');
          near(got.log_loss, logLossBinary(c, y), 'log_loss');
          near(got.ece, ece(c, y, bins), 'ece');
          near(got.ece_quantile, eceQuantile(c, y, bins), 'ece_quantile');
          near(got.mce, mce(c, y, bins), 'mce');
          near(got.mce_quantile, mceQuantile(c, y, bins), 'mce_quantile');
          near(got.ks, ks(c, y), 'ks');
          for (const key of ['hmr', 'r_o', 'r_u', 'hmr_beta'] as const) near(got[key], h[key], key);
        }
      });
    }
  }

  for (const seed of [4, 5, 6]) {
    it(`multiclass with probabilities: seed ${seed}`, () => {
      const n = 500;
      const k = 4;
      const rand = mulberry32(seed);
      const gold = Int32Array.from({ length: n }, () => Math.floor(rand() * k));
      const pred = Int32Array.from(gold, (g) => (rand() < 0.6 ? g : Math.floor(rand() * k)));
      const probs = new Float64Array(n * k);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let c = 0; c < k; c++) sum += probs[i * k + c] = Math.round(rand() * 10) / 10 + (c === pred[i] ? 1 : 0);
        for (let c = 0; c < k; c++) probs[i * k + c] /= sum;
      }
      for (const include of [undefined, [0, 1, 2]]) {
        const weighted = multiclassResampler({ gold, pred, k, include, probs });
        for (const { w, idx } of resamples(n, seed, 6)) {
          const g = gather(gold, idx);
          const p = gather(pred, idx);
          const rows = new Float64Array(n * k);
          idx.forEach((r, i) => rows.set(probs.subarray(r * k, r * k + k), i * k));
          const got = weighted(w);
          // Confusion counts are integers: accuracy and macro F1 are the same numbers.
          expect(got.accuracy).toBe(accuracy(p, g));
          expect(got.macro_f1).toBe(macroF1(g, p, k, include));
          near(got.brier, brierMulticlass(rows, k, g), 'brier');
          near(got.nbr, brierMulticlass(rows, k, g) / 2, 'nbr');
          near(got.log_loss, logLossMulticlass(rows, k, g), 'log_loss');
        }
      }
    });

    it(`probability (ALMANACS): mse, tvd, kl, spearman with tied ranks: seed ${seed}`, () => {
      const n = 400;
      const rand = mulberry32(seed);
      const predProb = Float64Array.from({ length: n }, () => Math.round(rand() * 20) / 20);
      const goldProb = Float64Array.from(predProb, (p) => Math.min(1, Math.max(0, Math.round((p + (rand() - 0.5) * 0.4) * 10) / 10)));
      const weighted = probabilityResampler(predProb, goldProb);
      for (const { w, idx } of resamples(n, seed, 6)) {
        const p = gather(predProb, idx);
        const g = gather(goldProb, idx);
        const got = weighted(w);
        near(got.mse, mse(p, g), 'mse');
        near(got.tvd, tvd(p, g), 'tvd');
        near(got.kl, klBernoulli(p, g), 'kl');
        near(got.spearman, spearman(p, g), 'spearman');
      }
    });
  }

  it('probability: constant resampled column gives spearman null', () => {
    const weighted = probabilityResampler(Float64Array.from([0.2, 0.2, 0.2]), Float64Array.from([0.1, 0.5, 0.9]));
    expect(weighted(Uint8Array.from([1, 1, 1])).spearman).toBeNull();
    expect(weighted(Uint8Array.from([0, 3, 0])).spearman).toBeNull();
  });

  it('binary: a resample holding one class has no AUC', () => {
    const weighted = calibrationResampler(Float64Array.from([0.1, 0.9, 0.4]), Uint8Array.from([0, 1, 0]), { bins: 10, hmrBeta: 1, mode: 'binary' });
    expect(weighted(Uint8Array.from([2, 0, 1])).auc).toBeNull();
    expect(weighted(Uint8Array.from([1, 1, 1])).auc).toBe(1);
  });
});

describe('bootstrapCountIntervals', () => {
  const n = 2000;
  const { score, label } = binaryData(n, 9, 2);
  const bins = 10;

  it('the same intervals as bootstrapIntervals over the naive path, resample rows in file order', () => {
    const naive = (idx: Uint32Array) => {
      const sorted = idx.slice().sort();
      return binaryMetrics(gather(score, sorted), gather(label, sorted), { bins, threshold: 0.5, hmrBeta: 1 }).metrics;
    };
    const a = bootstrapIntervals(n, 60, 11, naive);
    const b = bootstrapCountIntervals(n, 60, 11, calibrationResampler(score, label, { bins, hmrBeta: 1, mode: 'binary' }));
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    for (const key of Object.keys(a)) {
      near(b[key][0], a[key][0], `${key} low`);
      near(b[key][1], a[key][1], `${key} high`);
    }
  });

  it('and the same as before (draw order) for the metrics that do not depend on the order of ties', () => {
    const drawOrder = (idx: Uint32Array) => binaryMetrics(gather(score, idx), gather(label, idx), { bins, threshold: 0.5, hmrBeta: 1 }).metrics;
    const a = bootstrapIntervals(n, 60, 12, drawOrder);
    const b = bootstrapCountIntervals(n, 60, 12, calibrationResampler(score, label, { bins, hmrBeta: 1, mode: 'binary' }));
    for (const key of ['accuracy', 'auc', 'brier', 'log_loss', 'ece', 'mce', 'hmr', 'r_o', 'r_u']) {
      near(b[key][0], a[key][0], `${key} low`);
      near(b[key][1], a[key][1], `${key} high`);
    }
  });

  it('calls back after each resample (progress, cancellation)', () => {
    const done: number[] = [];
    bootstrapCountIntervals(10, 5, 0, () => ({ a: 1 }), 0.95, (r) => done.push(r));
    expect(done).toEqual([1, 2, 3, 4, 5]);
    expect(() => bootstrapCountIntervals(10, 5, 0, () => ({ a: 1 }), 0.95, () => { throw new Error('stop'); })).toThrow('stop');
    expect(bootstrapCountIntervals(0, 5, 0, () => ({ a: 1 }))).toEqual({});
  });

  it('byte counters: a count past 255 redraws the resample into 32-bit counters, same draws', () => {
    const w8 = new Uint8Array(50);
    const w32 = new Uint32Array(50);
    const a = drawCounts(w8, 50, 123);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(drawCounts(w32, 50, 123)).toBe(a);
    expect(Array.from(w8)).toEqual(Array.from(w32));
    // A counter that wraps is reported (-1 - state), and the state still advances the same way.
    const full = new Uint8Array(50).fill(255);
    expect(drawCounts(full, 50, 123)).toBe(-1 - a);
  });
});
