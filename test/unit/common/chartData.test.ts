// Chart data both the scoring worker and the webview compute (src/common/chartData.ts).
import { describe, expect, it } from 'vitest';
import { confidenceHistogram, decimateScatter, hasFinite } from '../../../src/common/chartData';

describe('finite values', () => {
  it('tells a column of NaN from a column with data', () => {
    expect(hasFinite(new Float64Array([NaN, NaN]))).toBe(false);
    expect(hasFinite(new Float64Array([NaN, 0.2]))).toBe(true);
  });
});

describe('confidence histogram', () => {
  it('splits counts by correctness and puts 1.0 in the last bin', () => {
    const conf = new Float64Array([0.5, 0.55, 0.99, 1, NaN]);
    const ok = new Uint8Array([1, 0, 1, 0, 1]);
    const h = confidenceHistogram(conf, ok, 5, 0.5);
    expect(h.edges).toHaveLength(6);
    expect(h.correct).toEqual([1, 0, 0, 0, 1]);
    expect(h.incorrect).toEqual([1, 0, 0, 0, 1]);
  });
  it('starts at the data minimum rounded down to 0.1 when no start is given', () => {
    const h = confidenceHistogram(new Float64Array([0.34, 0.9]), new Uint8Array([1, 1]), 7);
    expect(h.edges[0]).toBeCloseTo(0.3);
    expect(h.correct.reduce((a, b) => a + b)).toBe(2);
  });
});

describe('scatter decimation', () => {
  it('merges a large scatter into at most grid^2 weighted points that account for every instance', () => {
    const n = 200_000;
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) { xs[i] = (i % 997) / 996; ys[i] = (i % 991) / 990; }
    xs[5] = NaN;
    const d = decimateScatter(xs, ys, 64, 4000);
    expect(d.x.length).toBeLessThanOrEqual(64 * 64);
    expect(d.total).toBe(n - 1);
    expect(d.weight.reduce((a, b) => a + b, 0)).toBe(n - 1);
    expect(Math.min(...d.x)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...d.y)).toBeLessThanOrEqual(1);
  });

  it('keeps every point of a small scatter', () => {
    const d = decimateScatter(new Float64Array([0.1, 0.2, NaN]), new Float64Array([0.3, 0.4, 0.5]));
    expect(d.x).toEqual([0.1, 0.2]);
    expect(d.index).toEqual([0, 1]);
  });
});
