// The generic judged-scores path, as another harness's reader would take it (promptfoo's `score`,
// Inspect's model-graded scores): rows built with JudgedRowsBuilder on a ScoresSet give the same
// Report.judge and per-model groups as the MT-Bench reader, computed here by hand; gathering the
// rows (--where, compare) keeps only the models that have rows.
import { describe, expect, it } from 'vitest';
import { recordsToParse } from '../../../src/core/samples/toParse';
import { JudgedRowsBuilder, gatherJudgeRows } from '../../../src/core/judges/rows';
import { judgedMean, judgedRowsOf } from '../../../src/core/judges/judged';
import { scoreParsed } from '../../../src/core/score';
import { resolveOptions } from '../../../src/core/report';
import type { SampleRecord } from '../../../src/core/samples/record';

describe('judged scores from any harness', () => {
  // model, question, turn, score (NaN: the judge's verdict could not be read)
  const grades: [string, string, number, number][] = [
    ['m1', 'q1', 1, 8], ['m1', 'q1', 2, 6], ['m1', 'q2', 1, 9], ['m1', 'q2', 2, NaN], ['m1', 'q3', 1, 4], ['m1', 'q3', 2, 5],
    ['m2', 'q1', 1, 7], ['m2', 'q1', 2, 7.5], ['m2', 'q2', 1, 0], ['m2', 'q2', 2, 3], ['m2', 'q3', 1, NaN], ['m2', 'q3', 2, NaN],
  ];

  function parsed() {
    const b = new JudgedRowsBuilder('an unreadable grade');
    const records: SampleRecord[] = [];
    grades.forEach(([model, q, turn, score], i) => {
      if (Number.isNaN(score)) { b.invalid(b.models.of(model), i + 1); return; }
      b.add(model, q, turn, score, 'grader');
      records.push({ sample_id: `${model}/${q}/${turn}`, line: i + 1, model_id: model, judgement: { judge: 'grader', score } });
    });
    const p = recordsToParse(records, { format: 'promptfoo', mode: 'scores' });
    if (p.set?.kind === 'scores') p.set.judge = b.build();
    return p;
  }

  it('per model: mean, clustered SE by question (by hand), turns; invalid grades counted apart', () => {
    const r = scoreParsed('x.json', parsed(), resolveOptions({}));
    expect(r.n).toBe(9);
    expect(r.judge!.invalid).toBe(3);
    const m1 = r.judge!.judged!.models.find((m) => m.model === 'm1')!;
    const x = [8, 6, 9, 4, 5];
    const mean = x.reduce((s, v) => s + v, 0) / 5;
    expect(m1.mean).toBeCloseTo(mean, 12);
    // Clusters q1 {8, 6}, q2 {9}, q3 {4, 5}: sqrt(sum_c (sum (x - mean))^2 * C / (C - 1)) / n.
    const sums = [8 + 6 - 2 * mean, 9 - mean, 4 + 5 - 2 * mean];
    const se = Math.sqrt(sums.reduce((s, v) => s + v * v, 0) * 3 / 2) / 5;
    expect(m1.se).toBeCloseTo(se, 12);
    expect(m1.invalid).toBe(1);
    expect(m1.turns.map((t) => [t.turn, t.n, t.mean])).toEqual([[1, 3, 7], [2, 2, 5.5]]);
    const m2 = r.groups!.groups.find((g) => g.value === 'm2')!;
    expect(m2.metrics.judge_score).toBeCloseTo((7 + 7.5 + 0 + 3) / 4, 12);
    expect(r.metrics.judge_score).toBeUndefined();
    expect(r.problems.find((p) => p.code === 'invalid-verdict')!.message).toContain('3 of 12 verdicts are an unreadable grade');
  });

  it('judgedRowsOf: the same rows from sample records, an unreadable grade counted apart', () => {
    const records: SampleRecord[] = grades.map(([model, q, turn, score], i) => ({
      sample_id: q, line: i + 1, model_id: model, metadata: { turn: String(turn) }, judgement: { judge: 'grader', score },
    }));
    const { rows, valid } = judgedRowsOf(records, { invalidWhat: 'an unreadable grade' });
    const p = recordsToParse(records.filter(valid), { format: 'promptfoo', mode: 'scores' });
    if (p.set?.kind === 'scores') p.set.judge = rows;
    const a = scoreParsed('x.json', p, resolveOptions({}));
    const b = scoreParsed('x.json', parsed(), resolveOptions({}));
    expect(a.n).toBe(9);
    expect(a.judge!.judged).toEqual(b.judge!.judged);
    expect(a.groups).toEqual(b.groups);
    expect(a.judge!.invalid_lines).toEqual([4, 11, 12]);
  });

  it('gathering rows keeps the models that have some, renumbered', () => {
    const rows = parsed().set!.kind === 'scores' ? (parsed().set as { judge: ReturnType<JudgedRowsBuilder['build']> }).judge : undefined;
    const only = gatherJudgeRows(rows!, Uint32Array.from([5, 6, 7]));
    expect(only.models).toEqual(['m2']);
    if (only.kind !== 'judged') throw new Error('judged rows expected');
    expect(Array.from(only.model)).toEqual([0, 0, 0]);
    expect(only.invalid.byModel).toEqual([2]);
    expect(judgedMean(only.score, only.question, [0, 1, 2]).mean).toBeCloseTo((7 + 7.5 + 0) / 3, 12);
  });
});
