// stableArgsort against a plain comparator sort, on every size regime (insertion sort < 64,
// 11-bit radix < 256, the bucket sort above, and the radix sorts it falls back on: NaN, infinite
// ranges, deep re-bucketing) and on awkward values: ties, negatives, -0/0, infinities,
// subnormals, NaN.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import { gather, sortWithOrder, stableArgsort } from '../../../src/core/metrics/sort';

/** Reference: numeric order, NaN last, ties (and -0 vs 0) by index. */
function referenceArgsort(v: Float64Array): number[] {
  const idx = Array.from({ length: v.length }, (_, i) => i);
  return idx.sort((a, b) => {
    const x = v[a];
    const y = v[b];
    const xn = x !== x;
    const yn = y !== y;
    if (xn || yn) return xn && yn ? a - b : xn ? 1 : -1;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}

const AWKWARD = [0, -0, 1, -1, 0.5, -0.5, 0.1, 0.3, 1e-300, -1e-300, 5e-324, -5e-324, 1e300, -1e300,
  Infinity, -Infinity, 2 ** 53, -(2 ** 53), 0.30000000000000004, 1 - 2 ** -53];

function randomValues(n: number, seed: number, distinct: number): Float64Array {
  const rand = mulberry32(seed);
  const pool = Float64Array.from({ length: distinct }, (_, i) =>
    i < AWKWARD.length ? AWKWARD[i] : (rand() - 0.5) * 10 ** Math.floor(rand() * 12 - 6));
  return Float64Array.from({ length: n }, () => pool[Math.floor(rand() * distinct)]);
}

describe('stableArgsort', () => {
  for (const n of [0, 1, 2, 63, 64, 65, 1000, 20000, 65535, 65536, 70000, 200000]) {
    for (const distinct of [3, 40, 100000]) {
      it(`n=${n}, ${distinct} distinct values`, () => {
        const v = randomValues(n, n * 7 + distinct, distinct);
        expect(Array.from(stableArgsort(v))).toEqual(referenceArgsort(v));
      });
    }
  }

  it('uniform random doubles (every radix digit in play), both radix sizes', () => {
    for (const n of [5000, 100000]) {
      const rand = mulberry32(n);
      const v = Float64Array.from({ length: n }, () => rand());
      expect(Array.from(stableArgsort(v))).toEqual(referenceArgsort(v));
    }
  });

  it('all equal and integer-valued inputs (skipped passes) stay stable', () => {
    for (const n of [10, 1000, 100000]) {
      const same = new Float64Array(n).fill(0.25);
      expect(Array.from(stableArgsort(same))).toEqual(Array.from({ length: n }, (_, i) => i));
      const ints = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 97); // low word all zero
      expect(Array.from(stableArgsort(ints))).toEqual(referenceArgsort(ints));
    }
  });

  it('-0 and 0 tie (index order)', () => {
    for (const n of [10, 1000, 100000]) {
      const v = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -0 : i % 3 === 1 ? 0 : -1));
      expect(Array.from(stableArgsort(v))).toEqual(referenceArgsort(v));
    }
  });

  it('NaN does not crash and sorts last in index order', () => {
    for (const n of [10, 1000, 100000]) {
      const v = randomValues(n, 3, 50);
      for (let i = 0; i < n; i += 7) v[i] = i % 2 ? NaN : -NaN;
      expect(Array.from(stableArgsort(v))).toEqual(referenceArgsort(v));
    }
  });

  it('respects the byteOffset of a subarray view', () => {
    for (const n of [10, 1000, 100000]) {
      const base = randomValues(n + 5, 11, 1000);
      const view = base.subarray(3, n + 3);
      expect(Array.from(stableArgsort(view))).toEqual(referenceArgsort(view));
    }
  });

  it('property: matches the reference on arbitrary doubles with ties', () => {
    const value = fc.oneof(
      fc.double(),
      fc.constantFrom(...AWKWARD),
      fc.integer({ min: -5, max: 5 }).map((k) => k / 4),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300 }), fc.nat(40), (xs, repeat) => {
        // Repeating the array pushes it past the insertion-sort size into the radix path.
        const v = Float64Array.from(Array.from({ length: repeat + 1 }, () => xs).flat());
        expect(Array.from(stableArgsort(v))).toEqual(referenceArgsort(v));
      }),
      { numRuns: 150 },
    );
  });

  it('the bucket sort on skewed, clustered, geometric and subnormal-range values (re-bucketing, radix fallback)', () => {
    const rand = mulberry32(99);
    const cases: Record<string, (i: number) => number> = {
      skewed: () => Math.pow(2, -rand() * 60),
      clustered: () => 0.5 + rand() * 1e-9,
      bimodal: () => (rand() < 0.5 ? rand() * 1e-6 : 1 - rand() * 1e-6),
      geometric: (i) => Math.pow(2, -(i % 1000)),
      subnormal: (i) => (i % 7) * 5e-324,
      nearOne: () => 1 - Math.floor(rand() * 50) * 2 ** -53,
      withInfinity: (i) => (i % 97 === 0 ? (i % 2 ? Infinity : -Infinity) : rand()),
      hugeRange: (i) => (i % 2 ? 1.7e308 : -1.7e308) * rand(),
      probabilities7: () => Math.round(rand() * 1e7) / 1e7,
      unitWithEnds: (i) => (i % 5 === 0 ? i % 2 : i % 7 === 0 ? -0 : rand()),
      narrowUnit: () => 0.2 + rand() * 0.4,
      justAboveOne: (i) => (i === 3 ? 1 + 2 ** -52 : rand()),
      justBelowZero: (i) => (i === 3 ? -(2 ** -1074) : rand()),
    };
    for (const [name, f] of Object.entries(cases)) {
      for (const n of [256, 5000, 70000]) {
        const v = Float64Array.from({ length: n }, (_, i) => f(i));
        expect(Array.from(stableArgsort(v)), `${name} n=${n}`).toEqual(referenceArgsort(v));
      }
    }
  });

  it('sortWithOrder gives the values in that order', () => {
    for (const n of [0, 5, 300, 100000]) {
      const v = randomValues(n, 5, 5000);
      for (let i = 0; i < n; i += 11) v[i] = -v[i];
      const { order, sorted } = sortWithOrder(v);
      expect(Array.from(order)).toEqual(referenceArgsort(v));
      expect(Array.from(sorted)).toEqual(Array.from(gather(v, order)));
    }
  });
});
