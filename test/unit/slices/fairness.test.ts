// --group-by on binary files against test/reference/fairness_reference.py, a numpy/scikit-learn
// re-implementation of folktexts' evaluation.py, on the real Adult census rows.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreFile } from '../../../src/core/score';
import type { Report } from '../../../src/core/types';
import { writeAdultFiles, type AdultFiles } from './adultFixture';

const REFERENCE = join(__dirname, '..', '..', 'reference', 'fairness_reference.py');

interface Rates { accuracy: number; tpr: number; fnr: number; fpr: number; tnr: number; balanced_accuracy: number; precision: number; ppr: number }
interface Reference {
  threshold: number;
  roc_index?: number;
  whole: Rates & { ece: number; ece_scaled: number };
  unmatched: number;
  fairness: Record<string, number>;
  groups: Record<string, { n: number; rates: Rates; ece: number }>;
  ece_diff: number | null;
  quantile?: { edges: number[]; counts: number[] };
}

function reference(files: AdultFiles, column: string, threshold: string, quantile?: [string, number]): Reference {
  const args = [REFERENCE, files.predictions, files.data, column, threshold, ...(quantile ? [quantile[0], String(quantile[1])] : [])];
  return JSON.parse(execFileSync('/usr/bin/python3', args, { encoding: 'utf8' }));
}

let files: AdultFiles;
beforeAll(() => {
  files = writeAdultFiles(mkdtempSync(join(tmpdir(), 'slices-adult-')));
});

function grouped(column: string, threshold: number | 'best', extra: { bins?: number } = {}): Report {
  return scoreFile(files.predictions, {
    ...(threshold === 'best' ? { bestThreshold: true } : { threshold }),
    groupBy: { column, dataPath: files.data, ...extra },
  });
}

describe.each([
  ['sex', 0.5],
  ['sex', 'best'],
  ['race', 0.5],
  ['race', 'best'],
] as const)('group by %s at threshold %s, against folktexts\' definitions', (column, threshold) => {
  let r: Report;
  let ref: Reference;
  beforeAll(() => {
    r = grouped(column, threshold);
    ref = reference(files, column, String(threshold));
  });

  it('uses the same threshold', () => {
    expect(r.options.threshold).toBe(ref.threshold);
    if (threshold === 'best') expect(ref.threshold).not.toBe(0.5);
  });

  it('has the same whole-set rates and ece_scaled', () => {
    for (const [k, v] of Object.entries(ref.whole)) expect(r.metrics[k as keyof Report['metrics']], k).toBeCloseTo(v, 12);
  });

  it('joins the shuffled data file and counts the unmatched predictions', () => {
    expect(ref.unmatched).toBe(files.dropped.length);
    expect(r.groups!.unmatched).toBe(ref.unmatched);
    const problem = r.problems.find((p) => p.code === 'unmatched-id')!;
    expect(problem.message).toContain(`"${files.dropped[0]}"`);
    expect(problem.message).toMatch(new RegExp(`^${ref.unmatched} predictions have no row`));
  });

  it('has the same groups, each with its n, rates and ece', () => {
    const g = r.groups!;
    expect(g.groups.map((s) => s.value).sort()).toEqual(Object.keys(ref.groups).sort());
    for (const s of g.groups) {
      const want = ref.groups[s.value];
      expect(s.n, s.value).toBe(want.n);
      for (const [k, v] of Object.entries(want.rates)) expect(s.metrics[k as keyof typeof s.metrics], `${s.value} ${k}`).toBeCloseTo(v, 12);
      expect(s.metrics.ece, `${s.value} ece`).toBeCloseTo(want.ece, 12);
      expect(s.small ?? false).toBe(want.n < 30);
    }
  });

  it('has every fairness key of folktexts, with the same values', () => {
    const mine = r.groups!.fairness;
    const keys = Object.keys(ref.fairness);
    expect(keys.length).toBe(18);
    for (const k of keys) expect(mine[k], k).toBeCloseTo(ref.fairness[k], 12);
    expect(mine.ece_diff).toBeCloseTo(ref.ece_diff!, 12);
  });
});

describe('race groups below 4% of the rows', () => {
  it('are shown but left out of the fairness figures, as folktexts does', () => {
    const r = grouped('race', 0.5);
    const out = r.groups!.groups.filter((s) => s.excludedFromFairness).map((s) => s.value);
    const total = r.groups!.groups.reduce((a, s) => a + s.n, 0);
    expect(out.length).toBeGreaterThan(0);
    for (const s of r.groups!.groups) expect(s.excludedFromFairness ?? false, s.value).toBe(s.n < 0.04 * total);
  });
});

describe('threshold best', () => {
  it('is the first roc_curve point of scikit-learn minimising fpr + (1 - tpr)', () => {
    const ref = reference(files, 'sex', 'best');
    const r = scoreFile(files.predictions, { bestThreshold: true });
    expect(r.options.threshold).toBe(ref.threshold);
    // The threshold is fitted on every scored row, before the join: grouping does not move it.
    expect(grouped('sex', 'best').options.threshold).toBe(r.options.threshold);
    expect(ref.roc_index).toBeGreaterThan(0);
  });
});

describe('quantile groups of a numeric column', () => {
  it.each([4, 3, 7])('cuts age at numpy quantiles into K = %i groups', (k) => {
    const ref = reference(files, 'sex', '0.5', ['age', k]);
    const r = grouped('age', 0.5, { bins: k });
    const g = r.groups!;
    expect(g.edges).toEqual(ref.quantile!.edges);
    expect(g.groups.map((s) => s.n)).toEqual(ref.quantile!.counts);
    const e = ref.quantile!.edges;
    expect(g.groups[0].value).toBe(`[${e[0]}, ${e[1]})`);
    expect(g.groups[g.groups.length - 1].value).toBe(`[${e[e.length - 2]}, ${e[e.length - 1]}]`);
  });
});
