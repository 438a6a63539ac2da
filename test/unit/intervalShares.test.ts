// How the parts of a report's intervals pass not made yet are shared between the workers
// (src/extension/worker/scoring.ts sharesOf, issue 28.11): runs of neighbouring parts, the longest
// halved until every worker has one; together they are every part not made, each once.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sharesOf } from '../../src/extension/worker/shares';

describe('sharesOf', () => {
  it('nothing made: the pass in halves (two workers), whole (one), one part each (more workers than parts)', () => {
    expect(sharesOf(2, [], 2)).toEqual([{ index: 0, span: 1 }, { index: 1, span: 1 }]);
    expect(sharesOf(4, [], 2)).toEqual([{ index: 0, span: 2 }, { index: 2, span: 2 }]);
    expect(sharesOf(4, [], 1)).toEqual([{ index: 0, span: 4 }]);
    expect(sharesOf(2, [], 3)).toEqual([{ index: 0, span: 1 }, { index: 1, span: 1 }]);
  });

  it('parts made ahead are left out; the rest is shared', () => {
    expect(sharesOf(4, [true], 2)).toEqual([{ index: 1, span: 2 }, { index: 3, span: 1 }]);
    expect(sharesOf(4, [true, true], 2)).toEqual([{ index: 2, span: 1 }, { index: 3, span: 1 }]);
    expect(sharesOf(4, [true, true, true], 2)).toEqual([{ index: 3, span: 1 }]);
    expect(sharesOf(4, [true, true, true, true], 2)).toEqual([]);
    // Made out of order: two runs, each a share.
    expect(sharesOf(4, [undefined, true, undefined, undefined], 2)).toEqual([{ index: 0, span: 1 }, { index: 2, span: 2 }]);
  });

  it('every part not made is in exactly one share, shares are runs in order, at most one per worker', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 16 }), fc.array(fc.boolean(), { maxLength: 16 }), fc.integer({ min: 1, max: 6 }), (count, made, workers) => {
      const done = made.slice(0, count);
      const shares = sharesOf(count, done, workers);
      const covered: number[] = [];
      for (const s of shares) for (let k = s.index; k < s.index + s.span; k++) covered.push(k);
      const missing = Array.from({ length: count }, (_, k) => k).filter((k) => !done[k]);
      expect(covered).toEqual(missing);
      const runs = missing.filter((k, i) => i === 0 || missing[i - 1] !== k - 1).length;
      expect(shares.length).toBeLessThanOrEqual(Math.max(workers, runs));
      if (missing.length >= workers) expect(shares.length).toBeGreaterThanOrEqual(Math.min(workers, missing.length));
    }));
  });
});
