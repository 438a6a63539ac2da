// Property-based tests (fast-check): ranges, symmetries and invariances every implementation of
// docs/metrics.md must have, and the HMR axioms. Runs are bounded (numRuns 100-200).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryMetrics, BINARY_METRICS } from '../../../src/core/metrics/binary';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import {
  binIndexEqualWidth,
  ece,
  eceQuantile,
  equalCountBins,
  equalWidthBins,
  hmr,
  ks,
  mce,
  mceQuantile,
} from '../../../src/core/metrics/calibration';
import { accuracy, classStats, macroF1 } from '../../../src/core/metrics/classification';
import { auc } from '../../../src/core/metrics/ranking';
import { klBernoulli, mse, spearman, tvd } from '../../../src/core/metrics/regression';
import { brierBinary, brierMulticlass, logLossBinary } from '../../../src/core/metrics/scoring';

const RUNS = { numRuns: 150 };
const EPS = 1e-12;

/** Scores with plenty of ties (a 1/20 grid, edges included) and arbitrary doubles in [0, 1]. */
const score = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: 0, max: 20 }).map((k) => k / 20),
);
const row = fc.tuple(score, fc.integer({ min: 0, max: 1 }));
const rows = fc.array(row, { minLength: 1, maxLength: 150 });
/** Distinct scores on a fine grid: no ties, and 1 - s is exact enough to keep the order. */
const distinctRows = fc
  .uniqueArray(fc.integer({ min: 0, max: 100000 }), { minLength: 1, maxLength: 150 })
  .chain((ks) => fc.tuple(fc.constant(ks.map((k) => k / 100000)), fc.array(fc.integer({ min: 0, max: 1 }), { minLength: ks.length, maxLength: ks.length })))
  .map(([s, y]) => s.map((v, i) => [v, y[i]] as [number, number]));

function columns(data: [number, number][]): { s: Float64Array; y: Uint8Array } {
  return { s: Float64Array.from(data, (d) => d[0]), y: Uint8Array.from(data, (d) => d[1]) };
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const out = xs.slice();
  const rand = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function sameNumber(a: number | null, b: number | null, what: string) {
  if (a === null || b === null) {
    expect(a, what).toBe(b);
    return;
  }
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThan(EPS);
}

/** The order-insensitive binary metrics (no tie-order dependence). */
function orderFree(s: Float64Array, y: Uint8Array) {
  const h = hmr(Float64Array.from(s, (v) => Math.max(v, 1 - v)), Uint8Array.from(s, (v, i) => ((v >= 0.5 ? 1 : 0) === y[i] ? 1 : 0)));
  return {
    auc: auc(s, y),
    brier: brierBinary(s, y),
    log_loss: logLossBinary(s, y),
    ece: ece(s, y, 10),
    mce: mce(s, y, 10),
    hmr: h.hmr,
    r_o: h.r_o,
    r_u: h.r_u,
  };
}

describe('ranges', () => {
  it('every binary metric lies in its range', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 5, noNaN: true }), (data, bins, beta) => {
        const { s, y } = columns(data);
        const r = binaryMetrics(s, y, { bins, threshold: 0.5, hmrBeta: beta });
        const bothClasses = y.includes(0) && y.includes(1);
        expect(r.metrics.auc === null).toBe(!bothClasses);
        for (const name of BINARY_METRICS) {
          const v = r.metrics[name];
          if (name === 'auc' && !bothClasses) continue;
          expect(v, name).not.toBeNull();
          expect(v!, name).toBeGreaterThanOrEqual(0);
          if (name === 'log_loss') expect(v!).toBeLessThan(35);
          else expect(v!, name).toBeLessThanOrEqual(1 + EPS);
        }
        // KS is at least the overall gap |mean(s) - mean(y)| (its last cumulative term).
        const gap = Math.abs(s.reduce((a, b) => a + b, 0) - y.reduce((a, b) => a + b, 0)) / s.length;
        expect(r.metrics.ks!).toBeGreaterThanOrEqual(gap - EPS);
        // ECE never exceeds MCE.
        expect(r.metrics.ece!).toBeLessThanOrEqual(r.metrics.mce! + EPS);
        expect(r.metrics.ece_quantile!).toBeLessThanOrEqual(r.metrics.mce_quantile! + EPS);
      }),
      RUNS,
    );
  });

  it('binaryMetrics (one sort, fused pass) equals the standalone functions', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 25 }), fc.double({ min: 0, max: 1, noNaN: true }), (data, bins, threshold) => {
        const { s, y } = columns(data);
        const m = binaryMetrics(s, y, { bins, threshold, hmrBeta: 2 }).metrics;
        const pred = Uint8Array.from(s, (v) => (v >= threshold ? 1 : 0));
        const h = hmr(Float64Array.from(s, (v) => Math.max(v, 1 - v)), Uint8Array.from(pred, (p, i) => (p === y[i] ? 1 : 0)), 2);
        sameNumber(m.accuracy, accuracy(pred, y), 'accuracy');
        sameNumber(m.auc, auc(s, y), 'auc');
        sameNumber(m.brier, brierBinary(s, y), 'brier');
        sameNumber(m.log_loss, logLossBinary(s, y), 'log_loss');
        sameNumber(m.ece, ece(s, y, bins), 'ece');
        sameNumber(m.ece_quantile, eceQuantile(s, y, bins), 'ece_quantile');
        sameNumber(m.mce, mce(s, y, bins), 'mce');
        sameNumber(m.mce_quantile, mceQuantile(s, y, bins), 'mce_quantile');
        sameNumber(m.ks, ks(s, y), 'ks');
        for (const key of ['hmr', 'r_o', 'r_u', 'hmr_beta'] as const) sameNumber(m[key], h[key], key);
      }),
      RUNS,
    );
  });

  it('multiclass: confusion sums to n, macro F1 in [0, 1], all-classes mean <= seen-classes mean, nbr in [0, 1]', () => {
    const mc = fc.integer({ min: 2, max: 6 }).chain((k) =>
      fc.tuple(
        fc.constant(k),
        fc.array(fc.tuple(fc.integer({ min: 0, max: k - 1 }), fc.integer({ min: 0, max: k - 1 }), fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: k, maxLength: k })), { minLength: 1, maxLength: 100 }),
      ),
    );
    fc.assert(
      fc.property(mc, ([k, data]) => {
        const gold = Int32Array.from(data, (d) => d[0]);
        const pred = Int32Array.from(data, (d) => d[1]);
        const stats = classStats(gold, pred, k, Array.from({ length: k }, (_, c) => `c${c}`));
        const total = stats.confusion.flat().reduce((a, b) => a + b, 0);
        expect(total).toBe(data.length);
        const trace = stats.confusion.reduce((a, r, i) => a + r[i], 0);
        sameNumber(accuracy(pred, gold), trace / data.length, 'accuracy = trace / n');
        const all = macroF1(gold, pred, k);
        const seen = macroF1(gold, pred, k, [...new Set([...gold, ...pred])].sort((a, b) => a - b));
        expect(all).toBeGreaterThanOrEqual(0);
        expect(seen).toBeLessThanOrEqual(1);
        expect(all).toBeLessThanOrEqual(seen + EPS);
        sameNumber(all, stats.f1.reduce((a, b) => a + b, 0) / k, 'macro F1 = mean of per-class F1');
        const probs = Float64Array.from(data.flatMap((d) => {
          const sum = d[2].reduce((a, b) => a + b, 0);
          return d[2].map((p) => p / sum);
        }));
        const nbr = brierMulticlass(probs, k, gold) / 2;
        expect(nbr).toBeGreaterThanOrEqual(0);
        expect(nbr).toBeLessThanOrEqual(1 + EPS);
      }),
      RUNS,
    );
  });

  it('regression: mse <= tvd <= 1, kl >= 0, spearman in [-1, 1] and 1 against itself', () => {
    const pair = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }));
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 100 }), (data) => {
        const p = Float64Array.from(data, (d) => d[0]);
        const g = Float64Array.from(data, (d) => d[1]);
        expect(mse(p, g)).toBeLessThanOrEqual(tvd(p, g) + EPS);
        expect(tvd(p, g)).toBeLessThanOrEqual(1);
        expect(klBernoulli(p, g)).toBeGreaterThanOrEqual(-EPS);
        const rho = spearman(p, g);
        if (rho !== null) {
          expect(Math.abs(rho)).toBeLessThanOrEqual(1);
          expect(spearman(p, p)).toBeCloseTo(1, 12);
        }
      }),
      RUNS,
    );
  });
});

describe('symmetries and invariances', () => {
  it('auc(-score) = auc(1 - score) = 1 - auc(score)', () => {
    fc.assert(
      fc.property(rows, (data) => {
        const { s, y } = columns(data);
        const a = auc(s, y);
        if (a === null) return;
        sameNumber(auc(s.map((v) => -v), y), 1 - a, 'auc(-s)');
      }),
      RUNS,
    );
    fc.assert(
      fc.property(distinctRows, (data) => {
        const { s, y } = columns(data);
        const a = auc(s, y);
        if (a === null) return;
        sameNumber(auc(s.map((v) => 1 - v), y), 1 - a, 'auc(1 - s)');
      }),
      RUNS,
    );
  });

  it('permuting the rows changes nothing order-free (ties allowed)', () => {
    fc.assert(
      fc.property(rows, fc.integer(), (data, seed) => {
        const a = orderFree(columns(data).s, columns(data).y);
        const perm = columns(shuffled(data, seed));
        const b = orderFree(perm.s, perm.y);
        for (const key of Object.keys(a) as (keyof typeof a)[]) sameNumber(b[key], a[key], key);
      }),
      RUNS,
    );
  });

  it('permuting rows with distinct scores changes no binned metric either (ece_quantile, mce_quantile, ks)', () => {
    fc.assert(
      fc.property(distinctRows, fc.integer(), fc.integer({ min: 1, max: 12 }), (data, seed, bins) => {
        const { s, y } = columns(data);
        const p = columns(shuffled(data, seed));
        sameNumber(eceQuantile(p.s, p.y, bins), eceQuantile(s, y, bins), 'ece_quantile');
        sameNumber(mceQuantile(p.s, p.y, bins), mceQuantile(s, y, bins), 'mce_quantile');
        sameNumber(ks(p.s, p.y), ks(s, y), 'ks');
      }),
      RUNS,
    );
  });

  it('duplicating every row leaves ece, mce, brier, log loss, auc and hmr unchanged', () => {
    fc.assert(
      fc.property(rows, fc.boolean(), (data, interleave) => {
        const doubled = interleave ? data.flatMap((d) => [d, d]) : data.concat(data);
        const { s, y } = columns(data);
        const d = columns(doubled);
        const a = orderFree(s, y);
        const b = orderFree(d.s, d.y);
        for (const key of Object.keys(a) as (keyof typeof a)[]) sameNumber(b[key], a[key], key);
      }),
      RUNS,
    );
  });
});

describe('bins', () => {
  it('equal-width bins hold every value between their edges; equal-count bins have array_split sizes', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 40 }), (data, nb) => {
        const { s, y } = columns(data);
        const ew = equalWidthBins(s, y, nb);
        const idx = binIndexEqualWidth(s, nb);
        expect(ew.reduce((a, b) => a + b.count, 0)).toBe(s.length);
        s.forEach((v, i) => {
          const bin = ew[idx[i]];
          expect(v).toBeGreaterThanOrEqual(bin.lo);
          if (idx[i] < nb - 1) expect(v).toBeLessThan(bin.hi);
          else expect(v).toBeLessThanOrEqual(bin.hi);
        });
        const ec = equalCountBins(s, y, nb);
        const n = s.length;
        ec.forEach((b, i) => expect(b.count).toBe(Math.floor(n / nb) + (i < n % nb ? 1 : 0)));
        // Sorted bins: each bin's values are at least the previous bin's.
        for (let b = 1; b < nb; b++) if (ec[b].count > 0) expect(ec[b].lo).toBeGreaterThanOrEqual(ec[b - 1].hi);
      }),
      RUNS,
    );
  });
});

describe('HMR axioms', () => {
  const conf = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 10 }).map((k) => k / 10));
  const data = fc.array(fc.tuple(conf, fc.integer({ min: 0, max: 1 })), { minLength: 1, maxLength: 80 });

  it('lowering confidence on a correct answer, or raising it on a wrong one, never raises HMR', () => {
    fc.assert(
      fc.property(data, fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 4, noNaN: true }), (rs, pick, step, beta) => {
        const c = Float64Array.from(rs, (r) => r[0]);
        const ok = Uint8Array.from(rs, (r) => r[1]);
        const before = hmr(c, ok, beta);
        const i = pick % rs.length;
        const moved = c.slice();
        // Toward 0 if correct (more underconfident), toward 1 if wrong (more overconfident).
        moved[i] = ok[i] ? c[i] * (1 - step) : c[i] + (1 - c[i]) * step;
        const after = hmr(moved, ok, beta);
        expect(after.hmr).toBeLessThanOrEqual(before.hmr + EPS);
        expect(after.hmr_beta).toBeLessThanOrEqual(before.hmr_beta + EPS);
        expect(after.r_o).toBeLessThanOrEqual(before.r_o + EPS);
        expect(after.r_u).toBeLessThanOrEqual(before.r_u + EPS);
        for (const v of Object.values(after)) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1 + EPS);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('hmr lies between min(r_o, r_u) and max(r_o, r_u)', () => {
    fc.assert(
      fc.property(data, (rs) => {
        const h = hmr(Float64Array.from(rs, (r) => r[0]), Uint8Array.from(rs, (r) => r[1]));
        if (h.r_o + h.r_u === 0) return;
        expect(h.hmr).toBeGreaterThanOrEqual(Math.min(h.r_o, h.r_u) - EPS);
        expect(h.hmr).toBeLessThanOrEqual(Math.max(h.r_o, h.r_u) + EPS);
      }),
      RUNS,
    );
  });
});
