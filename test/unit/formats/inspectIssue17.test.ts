// Inspect logs of issue 17 (test/fixtures/inspect/issue17, written by make_issue17.py; its
// expected.json is computed there with Python's statistics module): free-text answers get no
// macro-F1 (point 7), a board has one row per model (point 10), a cancelled log's figures have no
// scorer prefix and epochs are said with their reducer (point 11), and a file without confidences
// is told which charts it can give (point 9).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { boardPaths } from '../../../src/core/boardFiles';
import { availableCharts, chartUnavailableMessage } from '../../../src/core/availableCharts';

const DIR = resolve(__dirname, '../../fixtures/inspect/issue17');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));

describe('free-text answers (point 7)', () => {
  const r = scoreFile(join(DIR, 'model_graded.json'), { bootstrap: 0 });

  it('keeps the graded accuracy and drops macro-F1 and the per-class table', () => {
    expect(r.n).toBe(expected.model_graded.n);
    expect(r.metrics.accuracy).toBeCloseTo(expected.model_graded.accuracy, 12);
    expect(r.metrics.macro_f1).toBeUndefined();
    expect(r.classStats).toBeNull();
    expect(r.problems.some((p) => /model_graded_fact grades free-text answers with a model/.test(p.message))).toBe(true);
  });

  it('a multiple-choice log keeps its macro-F1', () => {
    const mc = scoreFile(join(DIR, 'board/arc.json'), { bootstrap: 0 });
    expect(mc.metrics.macro_f1).toBeTypeOf('number');
    expect(mc.classStats).not.toBeNull();
  });
});

describe('board: one row per model, a column per task (point 10)', () => {
  const { board } = boardPaths([join(DIR, 'board')], { bootstrap: 0 }, { metric: 'accuracy' });

  it('three logs of one model are one row with three tasks, each as the logs report it', () => {
    expect(board.rows.map((row) => row.run)).toEqual([expected.board.model]);
    const row = board.rows[0];
    for (const [task, value] of Object.entries(expected.board.tasks as Record<string, number>)) expect(row.values[task]).toBeCloseTo(value, 12);
    expect(row.cells).toBe(3);
  });
});

describe('cancelled logs and epochs (point 11)', () => {
  it('a cancelled log with one scorer reports accuracy, not match/accuracy', () => {
    const r = scoreFile(join(DIR, 'cancelled.json'), { bootstrap: 0 });
    expect(Object.keys(r.reported).sort()).toEqual(['accuracy', 'stderr']);
    expect(r.reported.accuracy).toBeCloseTo(expected.cancelled.accuracy, 12);
  });

  it('1 sample x 10 epochs: n counts sample-epochs, and the report says 10 epochs reduced by mean', () => {
    const r = scoreFile(join(DIR, 'epochs10.json'), { bootstrap: 0 });
    expect(r.n).toBe(expected.epochs10.n);
    expect(r.epochs).toEqual({ count: expected.epochs10.epochs, reducer: 'mean', samples: 1 });
    expect(r.metrics.accuracy).toBeCloseTo(expected.epochs10.reduced, 12);
  });
});

describe('which charts a file can give (point 9)', () => {
  it('an Inspect log without confidences: no reliability diagram or histogram, said in plain words, with what it can give', () => {
    const r = scoreFile(join(DIR, 'board/gsm.json'), { bootstrap: 0 });
    const charts = Object.fromEntries(availableCharts(r).map((c) => [c.chart, c.available]));
    expect(charts).toEqual({ reliability: false, roc: false, histogram: false, scatter: false, groups: false, 'smooth-reliability': false });
    const message = chartUnavailableMessage('histogram', r)!;
    expect(message).toBe('the confidence histogram needs a confidence for each answer, and gsm.json holds class predictions without one; this file gives no chart, only its metrics.');
    expect(message).not.toMatch(/internal|finite/);
  });

  it('a binary table can give the reliability diagram, ROC and histogram', () => {
    const r = scoreFile(resolve(__dirname, '../../fixtures/roles/x.test_predictions.csv'), { bootstrap: 0 });
    expect(availableCharts(r).filter((c) => c.available).map((c) => c.chart)).toEqual(['reliability', 'roc', 'histogram', 'smooth-reliability']);
    expect(chartUnavailableMessage('scatter', r)).toBe('the scatter plots predicted against true probabilities (ALMANACS); x.test_predictions.csv holds risk scores with 0/1 labels; this file can give: reliability, roc, histogram.');
  });
});

describe('real logs of inspect_ai (tests/analysis/test_logs): one model, one run, three tasks', () => {
  const REAL = resolve(__dirname, '../../fixtures/real/inspect-ai');
  const real = expected.real as Record<string, { task: string; model: string; n: number; accuracy: number | null; reported: Record<string, number> }>;
  const scored = ['2025-05-12T20-27-36-04-00_browser.json', '2025-05-12T20-28-26-04-00_security-guide.json', '2025-05-12T20-28-13-04-00_popularity.json'];

  it('board: one row for openai/gpt-4o-mini, a column per task, each the mean of its scores (Python)', () => {
    const { board } = boardPaths(scored.map((f) => join(REAL, f)), { bootstrap: 0 }, { metric: 'accuracy' });
    expect(board.rows.map((row) => row.run)).toEqual(['openai/gpt-4o-mini']);
    expect(board.columns).toEqual(scored.map((f) => real[f].task).sort());
    for (const f of scored) expect(board.rows[0].values[real[f].task]).toBeCloseTo(real[f].accuracy!, 12);
  });

  it('security_guide, graded by model_graded_fact: accuracy as the log reports it, no macro-F1', () => {
    const f = '2025-05-12T20-28-26-04-00_security-guide.json';
    const r = scoreFile(join(REAL, f), { bootstrap: 0 });
    expect(r.n).toBe(real[f].n);
    expect(r.metrics.accuracy).toBeCloseTo(real[f].accuracy!, 12);
    expect(r.reported.accuracy).toBe(real[f].reported.accuracy);
    expect(r.metrics.macro_f1).toBeUndefined();
  });

  it('the cancelled log without samples reports accuracy and stderr under their own names', () => {
    const f = '2025-05-12T20-28-13-04-00_no-samples.json';
    const r = scoreFile(join(REAL, f), { bootstrap: 0 });
    expect(r.fatal).toMatch(/holds no samples/);
    expect(r.reported).toEqual(real[f].reported);
  });

  it('popularity, 3 one-word answers: labels, so macro-F1 stays', () => {
    const r = scoreFile(join(REAL, '2025-05-12T20-28-13-04-00_popularity.json'), { bootstrap: 0 });
    expect(r.metrics.macro_f1).toBeTypeOf('number');
  });
});
