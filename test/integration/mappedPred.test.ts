// A mapped prediction decides in VS Code too (issue 28, point 3): with evalLens.columnMappings naming
// a table's own prediction column, the report's accuracy, each instance's correctness and the tree's
// background score follow that column, not score >= 0.5, while the score keeps AUC and calibration.
// The expected figures are counted straight from the CSV text (never with the metric core).
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, until, workspaceRoot } from './evalLensSupport';

const SOURCE = () => path.join(workspaceRoot(), '..', 'generic-tables', 'churn_decisions.csv');

/** Share of rows whose predicted_class equals churned, and the share where churn_probability >= 0.5 does. */
function counted(): { byPred: number; byThreshold: number; n: number } {
  const rows = readFileSync(SOURCE(), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  let pred = 0, thr = 0;
  for (const [, , churned, predicted, p] of rows) {
    if (predicted === churned) pred++;
    if ((Number(p) >= 0.5 ? '1' : '0') === churned) thr++;
  }
  return { byPred: pred / rows.length, byThreshold: thr / rows.length, n: rows.length };
}

suite('a mapped prediction decides accuracy', () => {
  const dir = () => path.join(workspaceRoot(), `mapped-pred-${process.pid}`);
  const rel = `mapped-pred-${process.pid}/churn_decisions.csv`;

  suiteSetup(async () => {
    mkdirSync(dir(), { recursive: true });
    copyFileSync(SOURCE(), path.join(dir(), 'churn_decisions.csv'));
    await (await api()).whenIdle();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('evalLens').update('columnMappings', undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(dir(), { recursive: true, force: true });
    await (await api()).whenIdle();
  });

  test('evalLens.columnMappings with pred: the report and the background score use predicted_class', async () => {
    const a = await api();
    const want = counted();
    assert.ok(Math.abs(want.byPred - want.byThreshold) > 0.01, 'the two readings differ on this table');
    await vscode.workspace.getConfiguration('evalLens').update('columnMappings', { [rel]: { label: 'churned', score: 'churn_probability', pred: 'predicted_class' } }, vscode.ConfigurationTarget.Workspace);
    const file = path.join(dir(), 'churn_decisions.csv');
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('evalLens.openReport', uri);
    const reports = await until(() => a.panel()?.path === file ? a.panel()?.reports : undefined, (r) => typeof r?.[0]?.metrics.accuracy === 'number', 'the report with the mapping', 30_000);
    const r = reports![0];
    assert.equal(r.n, want.n);
    assert.ok(Math.abs((r.metrics.accuracy as number) - want.byPred) < 1e-9, `accuracy ${r.metrics.accuracy} is predicted_class's ${want.byPred}, not score >= 0.5's ${want.byThreshold}`);
    assert.equal(typeof r.metrics.auc, 'number');
    const bg = await until(() => a.files.get(uri)?.result?.reports[0]?.metrics.accuracy, (v) => typeof v === 'number', 'the background score', 30_000);
    assert.ok(Math.abs((bg as number) - want.byPred) < 1e-9, `the tree's accuracy ${bg} is predicted_class's`);
  });
});
