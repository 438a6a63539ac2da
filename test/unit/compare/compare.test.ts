// The comparison core: paired-bootstrap properties, alignment, the tests chosen per metric, errors.
import { describe, expect, it } from 'vitest';
import { compareRuns, compareRunsDetailed, CompareError, type Comparison, type MetricComparison } from '../../../src/core/compare/compare';
import { percentile, mulberry32 } from '../../../src/core/metrics/bootstrap';
import { binaryRun, multiclassRun, pick, probabilityRun, shuffled, twoBinaryRuns } from './fixtures';

const OPTS = { bootstrap: 300, seed: 5 };
const [A, B] = twoBinaryRuns(400);

function metric(c: Comparison, name: string): MetricComparison {
  const m = c.metrics[name as keyof Comparison['metrics']];
  expect(m, name).toBeDefined();
  return m!;
}

describe('paired bootstrap properties', () => {
  it('a run compared with itself: deltas 0, intervals [0, 0], p = 1 for every test', () => {
    const c = compareRuns([binaryRun('a.csv', A), binaryRun('a-again.csv', A)], OPTS);
    expect(Object.keys(c.metrics).length).toBe(16); // the 16 metrics of a binary set, smece and smece_sigma among them
    for (const [name, m] of Object.entries(c.metrics)) {
      expect(m!.deltas, name).toEqual([null, 0]);
      expect(m!.intervals, name).toEqual([null, [0, 0]]);
      expect(m!.p_values, name).toEqual([null, 1]);
    }
    expect(metric(c, 'auc').test).toBe('delong');
    expect(metric(c, 'accuracy').test).toBe('mcnemar');
    expect(metric(c, 'ece').test).toBe('bootstrap');
    expect(c.agreement[1]).toMatchObject({ baseline_only: 0, candidate_only: 0 });
  });

  it('swapping the runs negates the deltas, flips the intervals and keeps the p-values', () => {
    const ab = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', B)], OPTS);
    const ba = compareRuns([binaryRun('b.csv', B), binaryRun('a.csv', A)], OPTS);
    for (const name of Object.keys(ab.metrics)) {
      const x = metric(ab, name);
      const y = metric(ba, name);
      expect(y.values, name).toEqual([x.values[1], x.values[0]]);
      if (x.deltas[1] === null) continue;
      expect(y.deltas[1], name).toBeCloseTo(-x.deltas[1], 14);
      expect(y.intervals[1]![0], name).toBeCloseTo(-x.intervals[1]![1], 12);
      expect(y.intervals[1]![1], name).toBeCloseTo(-x.intervals[1]![0], 12);
      expect(y.p_values[1], name).toBeCloseTo(x.p_values[1]!, 12);
      if (x.statistics[1] !== null) expect(y.statistics[1], name).toBeCloseTo(-x.statistics[1]!, 10);
    }
    const a1 = ab.agreement[1] as { baseline_only: number; candidate_only: number };
    const a2 = ba.agreement[1] as { baseline_only: number; candidate_only: number };
    expect([a2.baseline_only, a2.candidate_only]).toEqual([a1.candidate_only, a1.baseline_only]);
  });

  it('row order does not matter: shuffled files give the identical comparison', () => {
    const ab = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', B)], OPTS);
    const shuffledRuns = compareRuns([
      binaryRun('a.csv', pick(A, shuffled(400, 1))), binaryRun('b.csv', pick(B, shuffled(400, 2))),
    ], OPTS);
    expect(shuffledRuns.metrics).toEqual(ab.metrics);
    expect(shuffledRuns.agreement).toEqual(ab.agreement);
  });

  it('matches a naive paired bootstrap (draw indices, gather both runs, delta, percentile)', () => {
    const c = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', B)], OPTS);
    const n = A.id.length;
    const rand = mulberry32(OPTS.seed);
    const brierD: number[] = [];
    const accD: number[] = [];
    for (let r = 0; r < OPTS.bootstrap; r++) {
      let ba = 0; let bb = 0; let ca = 0; let cb = 0;
      for (let k = 0; k < n; k++) {
        const i = Math.floor(rand() * n);
        const y = A.label[i];
        ba += (A.score[i] - y) ** 2;
        bb += (B.score[i] - y) ** 2;
        ca += (A.score[i] >= 0.5 ? 1 : 0) === y ? 1 : 0;
        cb += (B.score[i] >= 0.5 ? 1 : 0) === y ? 1 : 0;
      }
      brierD.push((bb - ba) / n);
      accD.push((cb - ca) / n);
    }
    for (const [name, d] of [['brier', brierD], ['accuracy', accD]] as const) {
      const sorted = Float64Array.from(d).sort();
      const m = metric(c, name);
      expect(m.intervals[1]![0], name).toBeCloseTo(percentile(sorted, 0.025), 12);
      expect(m.intervals[1]![1], name).toBeCloseTo(percentile(sorted, 0.975), 12);
    }
    const below = brierD.filter((x) => x <= 0).length / brierD.length;
    const above = brierD.filter((x) => x >= 0).length / brierD.length;
    expect(metric(c, 'brier').p_values[1]).toBeCloseTo(Math.min(1, 2 * Math.min(below, above)), 12);
  });
});

describe('alignment', () => {
  const ab = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', B)], OPTS);

  it('a shuffled candidate aligns by ID: the same figures as in file order', () => {
    const c = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', pick(B, shuffled(400, 9)))], OPTS);
    expect(c.metrics).toEqual(ab.metrics);
    expect(c.aligned).toBe(400);
    expect(c.unmatched).toEqual([0, 0]);
    expect(c.aligned_by).toBe('id');
  });

  it('rows missing from the candidate are counted against the baseline and left out', () => {
    const keep = shuffled(400, 3).slice(0, 370);
    const c = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', pick(B, keep))], OPTS);
    expect(c.aligned).toBe(370);
    expect(c.unmatched).toEqual([30, 0]);
    const problem = c.problems.find((p) => p.path === 'a.csv');
    expect(problem?.message).toMatch(/^30 scored rows are left out/);
    // The same figures as comparing the 370 common instances directly.
    const sorted = keep.slice().sort((x, y) => x - y);
    const direct = compareRuns([binaryRun('a.csv', pick(A, sorted)), binaryRun('b.csv', pick(B, sorted))], OPTS);
    expect(c.metrics).toEqual(direct.metrics);
  });

  it('extra IDs in the candidate are counted against it and left out', () => {
    const extra = { id: [...B.id, 5, 6, 7], score: [...B.score, 0.9, 0.1, 0.5], label: [...B.label, 0, 1, 1] };
    const c = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', extra)], OPTS);
    expect(c.unmatched).toEqual([0, 3]);
    expect(c.metrics).toEqual(ab.metrics);
    expect(c.problems.find((p) => p.path === 'b.csv')?.message).toContain('"5" on line 402');
  });

  it('text IDs align like numbers, in numeric order', () => {
    const c = compareRuns([binaryRun('a.csv', A, 'text'), binaryRun('b.csv', pick(B, shuffled(400, 4)), 'text')], OPTS);
    expect(c.aligned).toBe(400);
    for (const name of Object.keys(ab.metrics)) expect(metric(c, name).values, name).toEqual(metric(ab, name).values);
  });

  it('no IDs anywhere and equal counts: row order, with a warning', () => {
    const c = compareRuns([binaryRun('a.csv', A, 'none'), binaryRun('b.csv', B, 'none')], OPTS);
    expect(c.aligned_by).toBe('row-order');
    expect(c.problems[0].severity).toBe('warning');
    expect(c.problems[0].message).toMatch(/paired by row order/);
    expect(c.metrics).toEqual(ab.metrics);
  });

  it('no IDs and different counts, IDs in one file only, or no ID in common: a clear error', () => {
    expect(() => compareRuns([binaryRun('a.csv', A, 'none'), binaryRun('b.csv', pick(B, [0, 1, 2]), 'none')])).toThrow(/row counts differ/);
    expect(() => compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', B, 'none')])).toThrow(/b\.csv has no instance IDs/);
    const other = { ...B, id: B.id.map((v) => v + 1) };
    expect(() => compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', other)])).toThrow(CompareError);
    expect(() => compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', other)])).toThrow(/No instance is in every run/);
  });
});

describe('compareRunsDetailed (for the compare panel)', () => {
  it('maps each aligned instance to its row in every run, and its correctness to the agreement cells', () => {
    const order = shuffled(400, 11);
    const cand = pick(B, order);
    const d = compareRunsDetailed([binaryRun('a.csv', A), binaryRun('b.csv', cand)], OPTS);
    for (let k = 0; k < d.alignment.n; k++) {
      const id = Number(d.alignment.ids![k]);
      expect(A.id[d.alignment.rows[0][k]]).toBe(id);
      expect(cand.id[d.alignment.rows[1][k]]).toBe(id);
    }
    const [ca, cb] = d.correct as Uint8Array[];
    let baselineOnly = 0;
    for (let k = 0; k < ca.length; k++) baselineOnly += ca[k] && !cb[k] ? 1 : 0;
    expect(d.comparison.agreement[1]).toMatchObject({ baseline_only: baselineOnly });
  });
});

describe('kinds and candidates', () => {
  it('different kinds: a clear error naming both', () => {
    const mc = multiclassRun('m.csv', ['x', 'y'], [0, 1], [0, 0], ['1', '2']);
    expect(() => compareRuns([binaryRun('a.csv', A), mc])).toThrow(/a\.csv is binary, m\.csv is multiclass/);
  });

  it('three runs: Holm-adjusted p-values over the two candidates', () => {
    const [, C] = twoBinaryRuns(400, 2);
    const c = compareRuns([binaryRun('a.csv', A), binaryRun('b.csv', B), binaryRun('c.csv', { ...C, id: A.id, label: A.label })], OPTS);
    for (const [name, m] of Object.entries(c.metrics)) {
      const [, p1, p2] = m!.p_values;
      const holm = m!.p_values_holm!;
      expect(holm[0], name).toBeNull();
      if (p1 === null || p2 === null) continue;
      const lo = Math.min(p1, p2);
      const hi = Math.max(p1, p2);
      const adjLo = Math.min(1, 2 * lo);
      const adjHi = Math.max(adjLo, Math.min(1, hi));
      expect(p1 <= p2 ? [holm[1], holm[2]] : [holm[2], holm[1]], name).toEqual([adjLo, adjHi]);
    }
  });

  it('multiclass: McNemar for accuracy, agreement, and a warning when class lists differ', () => {
    const gold = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0];
    const a = multiclassRun('a.csv', ['x', 'y', 'z'], gold, [0, 1, 2, 0, 1, 1, 1, 1, 2, 0], gold.map((_, i) => String(i)));
    const b = multiclassRun('b.csv', ['x', 'y', 'z', 'w'], gold, [0, 0, 2, 1, 1, 2, 0, 0, 2, 2], gold.map((_, i) => String(i)));
    const c = compareRuns([a, b], OPTS);
    // Right: a at 0-4, 7-9; b at 0, 2, 4, 5, 6, 8.
    expect(c.agreement[1]).toEqual({ both_right: 4, baseline_only: 4, candidate_only: 2, both_wrong: 0 });
    // b = 4, c = 2: p = 2 * P[X <= 2], X ~ Bin(6, 1/2) = 2 * (1 + 6 + 15) / 64.
    expect(metric(c, 'accuracy').p_values[1]).toBeCloseTo(44 / 64, 14);
    expect(c.problems.some((p) => p.path === 'b.csv' && /class list differs/.test(p.message))).toBe(true);
  });

  it('probability kind: who is closer to the truth, bootstrap tests throughout', () => {
    const gold = [0.1, 0.5, 0.9, 0.3, 0.7];
    const a = probabilityRun('a.jsonl', [0.2, 0.5, 0.5, 0.3, 0.6], gold, ['q1', 'q2', 'q3', 'q4', 'q5']);
    const b = probabilityRun('b.jsonl', [0.1, 0.6, 0.8, 0.3, 0.9], gold, ['q1', 'q2', 'q3', 'q4', 'q5']);
    const c = compareRuns([a, b], OPTS);
    expect(c.agreement[1]).toEqual({ baseline_closer: 2, candidate_closer: 2, equal: 1 });
    expect(Object.values(c.metrics).every((m) => m!.test === 'bootstrap')).toBe(true);
    expect(metric(c, 'mse').deltas[1]).toBeCloseTo((0 + 0.01 + 0.01 + 0 + 0.04) / 5 - (0.01 + 0 + 0.16 + 0 + 0.01) / 5, 14);
  });
});
