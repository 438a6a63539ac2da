// The bootstrap's resample kernel on large sets (where it skips the rows not drawn and spreads the
// drawn ones onto the smECE grid inside the weighted pass) against a straightforward reference of
// the same draws: the resample's rows gathered in file order and scored from scratch
// (binaryMetrics), and the smECE grid filled by SmoothGrid.fill with every row's count in sorted
// order, searched from the same hint. The grid must be the same to the last bit: the kernel ends
// its cells where SmoothGrid.fill does, so σ*, smECE and the band's curve are equal, not just close.
import { describe, expect, it } from 'vitest';
import { binaryMetrics, BINARY_METRICS } from '../../../src/core/metrics/binary';
import { CountDraws, mulberry32, type Counts } from '../../../src/core/metrics/bootstrap';
import { brierBinary, logLossBinary } from '../../../src/core/metrics/scoring';
import { ece, eceQuantile, hmr, ks, mce, mceQuantile } from '../../../src/core/metrics/calibration';
import { calibrationResampler, expandCounts } from '../../../src/core/metrics/resample';
import { SmoothBand, SmoothGrid, smoothCalibration } from '../../../src/core/metrics/smoothCalibration';
import { gather } from '../../../src/core/metrics/sort';

const TOL = 1e-12;

function near(a: number | null | undefined, b: number | null | undefined, what: string, tol = TOL): void {
  if (a === null || b === null || a === undefined || b === undefined) {
    expect(a ?? null, what).toBe(b ?? null);
    return;
  }
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));
}

/** Folktexts-like risk scores (7 decimals), scores with two decimals (ties everywhere), or calibrated ones (small σ*). */
function makeSet(n: number, seed: number, kind: 'folk' | 'ties' | 'calibrated') {
  const rand = mulberry32(seed);
  const score = new Float64Array(n);
  const label = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const risk = rand();
    if (kind === 'folk') {
      const logit = Math.log(risk / (1 - risk));
      score[i] = Number((1 / (1 + Math.exp(-(1.4 * logit + 0.8 * (rand() - 0.5))))).toFixed(7));
    } else score[i] = kind === 'ties' ? Math.round(risk * 100) / 100 : risk;
    label[i] = rand() < risk ? 1 : 0;
  }
  return { score, label };
}

/** Rows in ascending score, ties in file order (a plain comparison sort, not the one the kernel uses). */
function sortedOrder(score: Float64Array): Uint32Array {
  return Uint32Array.from(Array.from({ length: score.length }, (_, i) => i).sort((a, b) => score[a] - score[b] || a - b));
}

/** The same draws with one row drawn 300 more times (others once less): 32-bit counts. */
function withLargeCount(w: Counts): Uint32Array {
  const big = Uint32Array.from(w);
  let moved = 0;
  for (let i = 1; i < big.length && moved < 300; i++) {
    if (big[i] > 0) {
      big[i]--;
      moved++;
    }
  }
  big[0] += moved;
  return big;
}

describe('the resample kernel on large sets equals gathering and recomputing the same draws', () => {
  const CASES = [
    { name: 'folktexts-like scores, binary', kind: 'folk', mode: 'binary', bins: 10 },
    { name: 'two-decimal scores (ties, rows straddling bin ends; σ* small), top label', kind: 'ties', mode: 'topLabel', bins: 15 },
    { name: 'calibrated scores (σ* small: the rows spread again onto the finest grid), binary', kind: 'calibrated', mode: 'binary', bins: 10 },
  ] as const;
  for (const c of CASES) {
    it(c.name, () => {
      const n = 200_000;
      const { score, label } = makeSet(n, c.bins * 7 + c.kind.length, c.kind);
      const threshold = 0.45;
      const hmrBeta = 2;
      const whole = smoothCalibration(score, label)!;
      const band = new SmoothBand(whole.result.sigma);
      const kernel = calibrationResampler(score, label, { bins: c.bins, hmrBeta, mode: c.mode, threshold, band });
      // The reference's own sorted columns.
      const order = sortedOrder(score);
      const sorted = gather(score, order);
      const sortedLabel = gather(label, order);
      const draws = new CountDraws(n, 20240611, 5);
      const ws: Counts[] = [draws.next().slice(), draws.next().slice()];
      ws.push(withLargeCount(ws[1]));
      let smallSigma = 0;
      for (const [r, w] of ws.entries()) {
        const got = kernel(w);
        const idx = expandCounts(w); // the drawn rows, ascending: the resample in file order
        const v = gather(score, idx);
        const y = gather(label, idx);
        if (c.mode === 'binary') {
          const want = binaryMetrics(v, y, { bins: c.bins, threshold, hmrBeta }).metrics;
          for (const key of BINARY_METRICS) {
            // smECE: searched here from 1/8, there from the whole set's σ* (equal to ~1e-12, see below for the exact check).
            near(got[key], want[key], `resample ${r} ${key}`, key === 'smece' || key === 'smece_sigma' ? 1e-9 : TOL);
          }
        } else {
          // Top label: the value is the confidence and the target its correctness.
          const h = hmr(v, y, hmrBeta);
          near(got.accuracy, y.reduce((a, b) => a + b, 0) / n, 'accuracy');
          near(got.brier, brierBinary(v, y), 'brier');
          near(got.log_loss, logLossBinary(v, y), 'log_loss');
          near(got.ece, ece(v, y, c.bins), 'ece');
          near(got.ece_quantile, eceQuantile(v, y, c.bins), 'ece_quantile');
          near(got.mce, mce(v, y, c.bins), 'mce');
          near(got.mce_quantile, mceQuantile(v, y, c.bins), 'mce_quantile');
          near(got.ks, ks(v, y), 'ks');
          for (const key of ['hmr', 'r_o', 'r_u', 'hmr_beta'] as const) near(got[key], h[key], key);
        }
        // smECE and the band: every row's count in sorted order onto the grid, the same search.
        const counts = Uint32Array.from(order, (i) => w[i]);
        const grid = new SmoothGrid().fill(sorted, sortedLabel, counts);
        const ref = grid.fixedPoint(band.sigma)!;
        expect(got.smece, `resample ${r} smece`).toBe(ref.smece);
        expect(got.smece_sigma, `resample ${r} smece_sigma`).toBe(ref.sigma);
        expect(band.kept[r], `resample ${r} band curve`).toEqual(grid.curveAt(band.sigma).curve);
        if (ref.sigma < 96 / 8192) smallSigma++;
      }
      expect(band.count).toBe(ws.length);
      // The calibrated sets take the finer grid's path (σ* < 96 / 2^13), the folktexts-like one not.
      expect(smallSigma).toBe(c.kind === 'folk' ? 0 : ws.length);
    });
  }
});
