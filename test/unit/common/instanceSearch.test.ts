// The instance table's search and the filter's figures (issue 20.1): which rows a query keeps on a
// real RAFT report (texts, classes, IDs), and the kept rows' accuracy with its Wilson interval and
// Brier with mean ± z·SE, against scipy.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { scorePath } from '../../../src/core/score';
import { searchIndex, searchRows } from '../../../src/common/instanceSearch';
import { subsetFigures, wilson } from '../../../src/common/subsetMetrics';
import type { Report } from '../../../src/core/types';

const root = join(__dirname, '..', '..', '..');
const PY = '/usr/bin/python3';
const hasScipy = spawnSync(PY, ['-c', 'import scipy'], { stdio: 'ignore' }).status === 0;

describe('instance search', () => {
  let report: Report;
  beforeAll(() => {
    report = scorePath(join(root, 'examples', 'raft', 'run-1', 'bank_intents', 'predictions.csv'), { raftData: join(root, 'examples', 'raft', 'data') }).reports[0];
  });

  it('plain text, regex and column terms keep the rows a direct reading of the texts keeps', () => {
    const index = searchIndex(report)!;
    const fields = report.texts!.fields;
    const q = fields.indexOf('Query');
    const texts = report.texts!.values;
    const expectRows = (query: string, want: (i: number) => boolean) => {
      const r = searchRows(index, query);
      if ('error' in r) throw new Error(r.error);
      const got = Array.from(r.mask.entries()).filter(([, v]) => v).map(([i]) => i);
      const expected = texts.map((_, i) => i).filter(want);
      expect(got, query).toEqual(expected);
      expect(r.count).toBe(expected.length);
      return expected.length;
    };
    const cls = (k: number) => report.classes![k];
    const inst = report.instances!;
    expect(expectRows('CARD', (i) => texts[i].some((t) => t.toLowerCase().includes('card')) || [cls(inst.gold[i]), cls(inst.pred[i])].some((c) => c.includes('card')))).toBeGreaterThan(0);
    expect(expectRows('/^Tried/', (i) => /^Tried/.test(texts[i][q]))).toBeGreaterThan(0);
    expect(expectRows('gold = top_up_failed AND correct = 0', (i) => cls(inst.gold[i]) === 'top_up_failed' && inst.correct[i] === 0)).toBeGreaterThanOrEqual(0);
    expect(expectRows('Query ~ /stolen|lost/i', (i) => /stolen|lost/i.test(texts[i][q]))).toBeGreaterThan(0);
    expect(expectRows('pred != gold_never', () => true)).toBe(report.n);
  });

  it('a column the instances lack is said, with the ones they have', () => {
    const r = searchRows(searchIndex(report)!, 'SEX = 2');
    expect(r).toEqual({ error: expect.stringMatching(/^no column "SEX" here; the instances have "Query", "id", "gold", "predicted", "confidence", "correct"/) });
  });

  it('takes the table\'s header names (issue 28, point 12) and still the older ones', () => {
    const index = searchIndex(report)!;
    const rows = (q: string) => {
      const r = searchRows(index, q);
      if ('error' in r) throw new Error(r.error);
      return Array.from(r.mask);
    };
    // The multiclass table's "predicted" column is the search's pred.
    const some = report.classes![report.instances!.pred[0]];
    expect(rows(`predicted = ${some}`)).toEqual(rows(`pred = ${some}`));
    expect(rows(`predicted = ${some}`).some((v) => v)).toBe(true);
  });

  it('on a binary report: score and label, as the table heads them', () => {
    const bin = scorePath(join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv')).reports[0];
    const index = searchIndex(bin)!;
    const inst = bin.instances!;
    const kept = (q: string) => {
      const r = searchRows(index, q);
      if ('error' in r) throw new Error(r.error);
      return Array.from(r.mask.entries()).filter(([, v]) => v).map(([i]) => i);
    };
    const want = Array.from(inst.value.keys()).filter((i) => inst.value[i] > 0.9 && inst.target[i] === 0);
    expect(want.length).toBeGreaterThan(0);
    expect(kept('score > 0.9 AND label = 0')).toEqual(want);
    expect(kept('value > 0.9 AND gold = 0')).toEqual(want);
    const error = searchRows(index, 'sex = 1');
    expect(error).toEqual({ error: expect.stringMatching(/the instances have "id", "score", "label", "pred", "confidence", "correct", "line", "brier"$/) });
  });

  it('rows without IDs (a Ragas table): `id = 1` says there is no id, with the columns there are (it kept 0 rows in silence)', () => {
    const ragas = scorePath(join(root, 'test', 'fixtures', 'real', 'ragas', 'ragas_evaluation_results.csv')).reports[0];
    const r = searchRows(searchIndex(ragas)!, 'id = 1');
    // Its own columns only: a table of scores has no gold, prediction or correctness to name.
    expect(r).toEqual({ error: 'no column "id" here; the instances have "user_input", "retrieved_contexts", "response", "reference", "faithfulness", "answer_relevancy", "context_precision", "context_recall", "line"' });
    expect(searchRows(searchIndex(ragas)!, 'faithfulness > 0.5')).toMatchObject({ count: expect.any(Number) });
  });
});

describe('figures of the kept rows', () => {
  it.skipIf(!hasScipy)('Wilson intervals as scipy computes them', () => {
    const cases: [number, number][] = [[0, 10], [3, 10], [10, 10], [412, 1000], [15000, 16281], [1, 1]];
    const r = spawnSync(PY, ['-c', `
import json, sys
from scipy.stats import binomtest
print(json.dumps([list(binomtest(k, n).proportion_ci(method='wilson')) for k, n in json.loads(sys.argv[1])]))`, JSON.stringify(cases)], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const want = JSON.parse(r.stdout) as [number, number][];
    cases.forEach(([k, n], j) => {
      const got = wilson(k, n)!;
      expect(got[0]).toBeCloseTo(want[j][0], 12);
      expect(got[1]).toBeCloseTo(want[j][1], 12);
    });
  });

  it('accuracy and Brier of the rows a filter keeps, and of all rows', () => {
    const report = scorePath(join(root, 'examples', 'folktexts', 'Llama-3-8B-sim__ACSIncome__-1', 'Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv')).reports[0];
    const inst = report.instances!;
    const all = subsetFigures('binary', inst, null);
    expect(all[0]).toMatchObject({ metric: 'accuracy', n: report.n });
    expect(all[0].value).toBeCloseTo(report.metrics.accuracy!, 12);
    expect(all[1].value).toBeCloseTo(report.metrics.brier!, 12);
    const high = (i: number) => inst.value[i] >= 0.8;
    const kept = subsetFigures('binary', inst, high);
    let n = 0, right = 0, sq = 0;
    for (let i = 0; i < report.n; i++) if (high(i)) { n++; right += inst.correct[i]; sq += inst.brier[i]; }
    expect(kept[0]).toMatchObject({ n, value: right / n, interval: wilson(right, n) });
    expect(kept[1].value).toBeCloseTo(sq / n, 12);
    expect(kept[1].interval![0]).toBeLessThan(sq / n);
  });
});
