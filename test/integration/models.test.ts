// A file with several models' columns (Prob_LogReg, Pred_LogReg, Prob_SVM, Pred_SVM, label): the
// report panel's "Model" choice re-scores the file with the model picked (checked against the
// accuracy counted here from the file's own Pred_SVM and label columns), and "Compare models"
// opens the comparison of the file's models.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, near, until } from './evalLensSupport';

/** 60 rows; each model's Pred_ is its Prob_ thresholded at 0.5, and the two models err on different rows. */
function writeModelsFile(file: string): void {
  const lines = ['id,Prob_LogReg,Pred_LogReg,Prob_SVM,Pred_SVM,label'];
  let seed = 7;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < 60; i++) {
    const label = rand() < 0.5 ? 1 : 0;
    // LogReg is right on 4 rows in 5, SVM on 2 in 3 (by position), with probabilities away from 0.5.
    const probFor = (right: boolean) => {
      const p = 0.55 + 0.4 * rand();
      return Number((right === (label === 1) ? p : 1 - p).toFixed(4));
    };
    const lr = probFor(i % 5 !== 0);
    const svm = probFor(i % 3 !== 0);
    lines.push(`r${i},${lr},${lr >= 0.5 ? 1 : 0},${svm},${svm >= 0.5 ? 1 : 0},${label}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

/** Accuracy of `pred` against `label`, counted from the file's text. */
function accuracyOf(file: string, pred: string): number {
  const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
  const p = head.indexOf(pred);
  const y = head.indexOf('label');
  return rows.filter((r) => r[p] === r[y]).length / rows.length;
}

suite('several models in one file', () => {
  let scratch: string;
  suiteSetup(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'eval-lens-models-'));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(scratch, { recursive: true, force: true });
  });

  test('the panel\'s Model choice re-scores the file with that model, and Compare models compares them', async () => {
    const a = await api();
    const file = path.join(scratch, 'classifiers.csv');
    writeModelsFile(file);
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(file));
    const first = await until(() => a.panel()?.reports, (r) => !!r && a.panel()?.path === file && r[0].model !== undefined, 'the first model\'s report', 30_000);
    assert.deepEqual(first![0].models, ['LogReg', 'SVM']);
    assert.equal(first![0].model, 'LogReg');
    near(first![0].metrics.accuracy as number, accuracyOf(file, 'Pred_LogReg'), 'LogReg accuracy');

    // What the webview's "Model" select posts.
    a.panel()!.receiveFromWebview({ type: 'chooseModel', model: 'SVM' });
    const svm = await until(() => a.panel()?.reports, (r) => r?.[0].model === 'SVM', 'the SVM report', 30_000);
    const expected = accuracyOf(file, 'Pred_SVM');
    assert.notEqual(expected, accuracyOf(file, 'Pred_LogReg'), 'the models differ in accuracy');
    near(svm![0].metrics.accuracy as number, expected, 'SVM accuracy');
    assert.equal(svm![0].n, 60);

    // What "Compare models" posts: the comparison of the file's two models.
    a.panel()!.receiveFromWebview({ type: 'compareModels' });
    const compare = await until(() => a.comparePanel(), (p) => !!p?.comparison, 'the models\' comparison', 60_000);
    const c = compare!.comparison!.comparison;
    assert.deepEqual(compare!.comparison!.runs.map((r) => r.label), ['LogReg', 'SVM']);
    assert.equal(c.aligned, 60);
    near(c.metrics.accuracy!.values[1] as number, expected, 'SVM accuracy in the comparison');
  });
});
