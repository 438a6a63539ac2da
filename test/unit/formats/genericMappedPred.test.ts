// A mapped prediction decides (issue 28, point 3): with --map pred=predicted_class (or the same
// mapping remembered in VS Code) accuracy, the rates at the threshold, the error groups and each
// instance's correctness follow the column the user named, while calibration (AUC, Brier, log loss,
// ECE, the bins) keeps the score. churn_decisions.csv's bank decides at 0.35, so its own decision
// differs from churn_probability >= 0.5 on many rows; figures are numpy / scikit-learn's on the raw
// file (test/reference/generic_tables_reference.py).
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { scoreFileAsync } from '../../../src/core/scoreAsync';
import { runCli } from '../../../src/cli/main';

const DIR = resolve(__dirname, '../../fixtures/generic-tables');
const ref = JSON.parse(execFileSync('/usr/bin/python3', [resolve(__dirname, '../../reference/generic_tables_reference.py')], { encoding: 'utf8', maxBuffer: 1 << 24 }));
const close = (a: number | null | undefined, b: number) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(1e-6);
const path = join(DIR, 'churn_decisions.csv');
const mapping = { label: 'churned', score: 'churn_probability', pred: 'predicted_class' };

describe('--map pred=predicted_class decides accuracy; calibration keeps the score', () => {
  it('the two readings differ on this table (else the test would prove nothing)', () => {
    expect(ref.churn_pred.accuracy).not.toBeCloseTo(ref.churn_threshold.accuracy, 2);
  });

  it('accuracy, tpr, fpr, precision and balanced accuracy are the named column\'s', () => {
    const r = scoreFile(path, { mapping, bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('binary');
    for (const m of ['accuracy', 'tpr', 'fpr', 'precision', 'balanced_accuracy'] as const) close(r.metrics[m], ref.churn_pred[m]);
    // Calibration and ranking: the score's, the same with or without the mapped prediction.
    for (const m of ['auc', 'brier', 'log_loss', 'ece'] as const) close(r.metrics[m], ref.churn_pred[m]);
  });

  it('each instance\'s correctness and prediction, and the error groups, follow the column', () => {
    const r = scoreFile(path, { mapping, bootstrap: 0 });
    expect(Array.from(r.instances!.correct)).toEqual(ref.churn_pred.correct);
    const wrong = ref.churn_pred.correct.filter((c: number) => c === 0).length;
    expect(r.errorGroups!.reduce((s, g) => s + g.count, 0)).toBe(wrong);
  });

  it('the bootstrap interval of accuracy is about the named column\'s accuracy', () => {
    const r = scoreFile(path, { mapping, bootstrap: 300, seed: 1 });
    const [lo, hi] = r.intervals.accuracy!;
    expect(lo).toBeLessThan(ref.churn_pred.accuracy);
    expect(hi).toBeGreaterThan(ref.churn_pred.accuracy);
    expect(hi).toBeLessThan(ref.churn_threshold.accuracy);
  });

  it('--group-by: each group\'s rates are the named column\'s', () => {
    const r = scoreFile(path, { mapping, bootstrap: 0, groupBy: { column: 'geography' } });
    for (const g of r.groups!.groups) close(g.metrics.tpr, ref.churn_pred_by_geography[g.value]);
  });

  it('--where keeps the decisions of the rows it keeps', async () => {
    const out = await runCli(['score', path, '--map', 'label=churned', '--map', 'score=churn_probability', '--map', 'pred=predicted_class', '--where', 'geography=France', '--json']);
    const r = JSON.parse(out.stdout).results[0];
    const py = execFileSync('/usr/bin/python3', ['-c', `import pandas as pd; d=pd.read_csv(${JSON.stringify(path)}); d=d[d.geography=='France']; print((d.predicted_class==d.churned).mean())`], { encoding: 'utf8' });
    close(r.metrics.accuracy, Number(py));
  });

  it('the CLI with only --map pred=predicted_class (the gold and score found by the roles) as VS Code\'s remembered mapping gives', async () => {
    const out = await runCli(['score', path, '--map', 'label=churned', '--map', 'pred=predicted_class', '--json']);
    expect(out.code).toBe(0);
    close(JSON.parse(out.stdout).results[0].metrics.accuracy, ref.churn_pred.accuracy);
    // The worker's path (scoreFileAsync with the setting's mapping) is the same.
    close((await scoreFileAsync(path, { mapping: { label: 'churned', pred: 'predicted_class' }, bootstrap: 0 })).metrics.accuracy, ref.churn_pred.accuracy);
  });

  it('without the mapped prediction, score >= 0.5 decides as before', () => {
    const r = scoreFile(path, { mapping: { label: 'churned', score: 'churn_probability' }, bootstrap: 0 });
    close(r.metrics.accuracy, ref.churn_threshold.accuracy);
    close(r.metrics.tpr, ref.churn_threshold.tpr);
  });
});
