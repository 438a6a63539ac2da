// Generic tables as published projects write them (issue 9): per-class probability columns, the
// names people use (Actual, Probability_<class>, ...), several models side by side, and the error
// that says which --map to write. Figures are compared with scikit-learn on the same files
// (test/reference/generic_layouts_reference.py).
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { resolveColumns } from '../../../src/core/formats/generic';
import { runCli } from '../../../src/cli/main';

const DIR = resolve(__dirname, '../../fixtures/generic-field');
const ref = JSON.parse(execFileSync('/usr/bin/python3', [resolve(__dirname, '../../reference/generic_layouts_reference.py')], { encoding: 'utf8' }));
const close = (a: number | null | undefined, b: number, tol = 1e-9) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(tol);

describe('per-class probability columns (p_ai, p_human, p_post_edited_ai)', () => {
  for (const file of ['detector.csv', 'detector.jsonl']) {
    it(`${file}: multiclass with probabilities: Brier, log loss and calibration, as sklearn computes them`, () => {
      const r = scoreFile(join(DIR, file));
      expect(r.fatal).toBeUndefined();
      expect(r.kind).toBe('multiclass');
      expect(r.classes).toEqual(['ai', 'human', 'post_edited_ai']);
      expect(r.n).toBe(ref.detector.n);
      close(r.metrics.accuracy, ref.detector.accuracy);
      close(r.metrics.brier, ref.detector.brier, 1e-9);
      close(r.metrics.log_loss, ref.detector.log_loss, 1e-9);
      expect(typeof r.metrics.ece).toBe('number');
      expect(r.problems.filter((p) => p.severity !== 'info')).toEqual([]);
    });
  }
});

describe('common column names', () => {
  it('matches Actual/Predicted, y_true/y_pred/y_prob/y_score, target/prediction, proba, is_correct, ignoring case', () => {
    const role = (names: string[]) => resolveColumns(names).columns;
    expect(role(['Actual', 'Predicted'])).toEqual({ label: 'Actual', pred: 'Predicted' });
    expect(role(['Y_TRUE', 'y_pred', 'Y_Prob'])).toEqual({ label: 'Y_TRUE', pred: 'y_pred', score: 'Y_Prob' });
    expect(role(['y_true', 'y_score'])).toEqual({ label: 'y_true', score: 'y_score' });
    expect(role(['Target', 'Prediction'])).toEqual({ label: 'Target', pred: 'Prediction' });
    expect(role(['label', 'proba'])).toEqual({ label: 'label', score: 'proba' });
    expect(role(['confidence', 'IS_CORRECT'])).toEqual({ confidence: 'confidence', correct: 'IS_CORRECT' });
  });
  it('Probability_<positive class> beside a 0/1 label is the binary score', () => {
    const r = scoreFile(join(DIR, 'cancer.csv'));
    expect(r.kind).toBe('binary');
    close(r.metrics.auc, ref.cancer.auc);
  });
});

describe('several models in one file (Prob_LogReg, Pred_LogReg, Prob_SVM, Pred_SVM)', () => {
  it('scores the first model and lists them all', () => {
    const r = scoreFile(join(DIR, 'models.csv'));
    expect(r.models).toEqual(['LogReg', 'SVM']);
    expect(r.model).toBe('LogReg');
    close(r.metrics.auc, ref.models.LogReg.auc);
    close(r.metrics.brier, ref.models.LogReg.brier);
  });
  it('options.model (any case) picks another; an unknown name is a warning and the first is scored', () => {
    const svm = scoreFile(join(DIR, 'models.csv'), { model: 'svm' });
    expect(svm.model).toBe('SVM');
    close(svm.metrics.auc, ref.models.SVM.auc);
    const none = scoreFile(join(DIR, 'models.csv'), { model: 'forest' });
    expect(none.model).toBe('LogReg');
    expect(none.problems[0].message).toMatch(/no model "forest"; its models are LogReg, SVM/);
  });
  it('the CLI takes --model and prints the list', async () => {
    const out = await runCli(['score', join(DIR, 'models.csv'), '--model', 'SVM']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/models in this file: LogReg, SVM; scored: SVM/);
    const json = JSON.parse((await runCli(['score', '--json', join(DIR, 'models.csv')])).stdout);
    expect(json.results[0]).toMatchObject({ models: ['LogReg', 'SVM'], model: 'LogReg' });
  });
});

describe('an ambiguous table', () => {
  it('lists its columns and the exact --map to write, which then scores it', async () => {
    const r = scoreFile(join(DIR, 'ambiguous.csv'));
    expect(r.fatal).toMatch(/Diagnosis/);
    expect(r.fatal).toMatch(/--map label=Diagnosis --map score=Risk$/);
    const out = await runCli(['score', join(DIR, 'ambiguous.csv'), '--map', 'label=Diagnosis', '--map', 'score=Risk']);
    expect(out.code).toBe(0);
  });
});
