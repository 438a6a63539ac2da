// "Map columns…" (issue 17, point 1) in the real VS Code: the pick offers each role's columns from
// the core's column roles (the proposed one first, each with its role and why; never a prediction
// or a score as the gold label), the report and the background scoring use the choice, and the
// choice is in the workspace setting evalLens.columnMappings. Tables in the field's shapes, copied
// from test/fixtures/roles/ (made by make_fixtures.py, whose AUC is scikit-learn's).
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensApi } from '../../src/extension/activate';
import { api, until, workspaceRoot } from './evalLensSupport';

const ROLES = () => path.join(workspaceRoot(), '..', 'roles');

type Mappings = Record<string, Record<string, string>>;
const mappings = () => vscode.workspace.getConfiguration('evalLens').inspect<Mappings>('columnMappings')?.workspaceValue ?? {};

/**
 * Waits for the pick of `field` (failing when the command `run` ends first), checks it with
 * `check`, makes `label` active and accepts it.
 */
async function answer(
  a: EvalLensApi, run: PromiseLike<unknown>, field: string, label: string,
  check?: (labels: string[], shown: NonNullable<ReturnType<EvalLensApi['columnPick']>>) => void,
): Promise<void> {
  let ended: unknown = 'running';
  void Promise.resolve(run).then((v) => { ended = v; }, (e) => { ended = e instanceof Error ? e.message : e; });
  const shown = await until(() => ({ pick: a.columnPick(), ended }), (p) => p.pick?.field === field || p.ended !== 'running', `the pick of ${field}`);
  assert.ok(shown.pick?.field === field, `the command ended (${JSON.stringify(shown.ended)}) before the pick of ${field}`);
  check?.(shown.pick.items.map((i) => i.label), shown.pick);
  shown.pick.activate(label);
  await until(async () => {
    if (a.columnPick() === shown.pick) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return a.columnPick() !== shown.pick;
  }, (gone) => gone, `the pick of ${field} answered`);
}

suite('map columns', () => {
  const dir = () => path.join(workspaceRoot(), `map-columns-${process.pid}`);
  const rel = (name: string) => `map-columns-${process.pid}/${name}`;
  const expected = () => JSON.parse(readFileSync(path.join(ROLES(), 'expected.json'), 'utf8'));

  suiteSetup(async () => {
    mkdirSync(dir(), { recursive: true });
    copyFileSync(path.join(ROLES(), 'churn.parquet'), path.join(dir(), 'churn.parquet'));
    copyFileSync(path.join(ROLES(), 'ludwig.parquet'), path.join(dir(), 'ludwig.parquet'));
    // The churn table with its gold column named so that no name says it is the gold.
    writeFileSync(path.join(dir(), 'churned.csv'), readFileSync(path.join(ROLES(), 'churn.csv'), 'utf8').replace('actual_churn', 'churned'));
    await (await api()).whenIdle();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('evalLens').update('columnMappings', undefined, vscode.ConfigurationTarget.Workspace);
    rmSync(dir(), { recursive: true, force: true });
    await (await api()).whenIdle();
  });

  test('on the churn table (Parquet): the proposed columns with their roles, the AUC scikit-learn gives, the mapping in the setting', async () => {
    const a = await api();
    const file = path.join(dir(), 'churn.parquet');
    const run = vscode.commands.executeCommand<Record<string, string> | undefined>('evalLens.mapColumns', vscode.Uri.file(file));
    await answer(a, run, 'label', 'actual_churn', (labels, shown) => {
      assert.equal(labels[0], 'actual_churn', `the gold proposed first: ${labels}`);
      assert.match(shown.items[0].description ?? '', /proposed · gold label/);
      assert.equal(shown.items[0].detail, 'named like the gold label');
      for (const never of ['predicted_class', 'churn_probability']) assert.ok(!labels.includes(never), `${never} is not offered as the gold: ${labels}`);
    });
    await answer(a, run, 'score', 'churn_probability', (labels, shown) => {
      assert.equal(labels[0], 'churn_probability');
      assert.equal(shown.items[0].detail, 'the one probability column');
      assert.ok(labels.includes('None'), 'the score may be none');
    });
    await answer(a, run, 'pred', 'predicted_class', (labels) => assert.equal(labels[0], 'predicted_class'));
    assert.deepEqual(await run, { label: 'actual_churn', score: 'churn_probability', pred: 'predicted_class' });
    assert.deepEqual(mappings()[rel('churn.parquet')], { label: 'actual_churn', score: 'churn_probability', pred: 'predicted_class' });

    const reports = await until(() => a.panel()?.path === file ? a.panel()?.reports : undefined, (r) => typeof r?.[0]?.metrics.auc === 'number', 'the report of the mapped table', 30_000);
    const r = reports![0];
    assert.equal(r.n, expected().churn.n);
    assert.ok(Math.abs(r.metrics.auc! - expected().churn.auc) < 1e-9, `AUC ${r.metrics.auc} vs scikit-learn's ${expected().churn.auc}`);
    assert.ok(Math.abs(r.metrics.accuracy! - expected().churn.accuracy) < 1e-9, `accuracy ${r.metrics.accuracy}`);
  });

  test('a table whose gold no name gives: the report says so, its "Map columns…" scores it, and the tree and CodeLens follow', async () => {
    const a = await api();
    const file = path.join(dir(), 'churned.csv');
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('evalLens.openReport', uri);
    const before = await until(() => a.panel()?.path === file ? a.panel()?.reports : undefined, (r) => !!r?.[0], 'the report', 30_000);
    // The hint is printed only once it was tried and scored (issue 26, "hints that work").
    assert.match(before![0].fatal ?? '', /No column is named as the gold label\. .*To score it, write: --map label=churned --map score=churn_probability/);

    // The report's "Map columns…" button (the page's message), as the page sends it.
    // The page posts no answer: the command's end shows in the setting and the report.
    const run = new Promise<never>(() => {});
    a.panel()!.receiveFromWebview({ type: 'mapColumns' });
    await answer(a, run, 'label', 'churned', (labels, shown) => {
      // The pick proposes what the --map hint proposed.
      assert.equal(labels[0], 'churned', `${labels}`);
      assert.ok(!labels.includes('predicted_class') && !labels.includes('churn_probability'), `no prediction or score as the gold: ${labels}`);
      assert.match(shown.placeholder, /--map label=churned/);
    });
    await answer(a, run, 'score', 'churn_probability');
    await answer(a, run, 'pred', 'None');

    const reports = await until(() => a.panel()?.path === file ? a.panel()?.reports : undefined, (r) => !r?.[0]?.fatal && typeof r?.[0]?.metrics.auc === 'number', 'the report scored with the mapping', 30_000);
    assert.ok(Math.abs(reports![0].metrics.auc! - expected().churn.auc) < 1e-9, `AUC ${reports![0].metrics.auc} vs scikit-learn's ${expected().churn.auc}`);
    // The choice in the setting, under the file's path (beside any other file's).
    assert.deepEqual(mappings()[rel('churned.csv')], { label: 'churned', score: 'churn_probability' });
    // Discovery now takes it as predictions, and scores it in the background with the mapping.
    const bg = await until(() => a.files.get(uri)?.result?.reports[0]?.metrics.auc, (v) => typeof v === 'number', 'the background score', 30_000);
    assert.ok(Math.abs(bg! - expected().churn.auc) < 1e-9, `background AUC ${bg}`);
    assert.ok(!/not scored/.test(a.lensTitle(uri) ?? ''), `CodeLens: ${a.lensTitle(uri)}`);
    // The tree lists it among the scored files, no longer under "Not scored".
    const listed = (label: string) => a.treeSnapshot().filter((g) => g.label === label).flatMap((g) => g.children).some((c) => c.label.startsWith('churned'));
    await until(() => listed('Not scored'), (v) => !v, 'churned.csv out of "Not scored"', 30_000);
    assert.ok(a.treeSnapshot().some((g) => g.label !== 'Not scored' && JSON.stringify(g).includes('churned')), 'churned.csv in a group of the tree');
  });

  test('the title bar\'s button (uri, {groupId, editorIndex}) shows the pick and keeps the saved mapping (issue 28, point 2)', async () => {
    const a = await api();
    const file = path.join(dir(), 'churn.parquet');
    const saved = { label: 'actual_churn', score: 'churn_probability', pred: 'predicted_class' };
    await vscode.workspace.getConfiguration('evalLens').update('columnMappings', { ...mappings(), [rel('churn.parquet')]: saved }, vscode.ConfigurationTarget.Workspace);
    const before = mappings();
    // As VS Code calls an editor/title command: the editor's resource, then the editor's place.
    const run = vscode.commands.executeCommand<Record<string, string> | undefined>('evalLens.mapColumns', vscode.Uri.file(file), { groupId: 1, editorIndex: 0 });
    let ended: unknown = 'running';
    void Promise.resolve(run).then((v) => { ended = v; }, (e) => { ended = e instanceof Error ? e.message : e; });
    const shown = await until(() => ({ pick: a.columnPick(), ended }), (p) => p.pick?.field === 'label' || p.ended !== 'running', 'the pick of label');
    assert.equal(shown.pick?.field, 'label', `the command ended (${JSON.stringify(shown.ended)}) without asking`);
    // The pick proposes the saved column; the user dismisses it: nothing changes.
    assert.equal(shown.pick.items[0].label, 'actual_churn');
    await until(async () => {
      if (a.columnPick() === shown.pick) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return a.columnPick() !== shown.pick;
    }, (gone) => gone, 'the pick dismissed');
    assert.equal(await run, undefined);
    assert.deepEqual(mappings(), before, 'the setting is as it was');
    assert.deepEqual(mappings()[rel('churn.parquet')], saved);
  });

  test('from the report panel\'s title bar VS Code passes the panel\'s webview-panel: resource: the pick is for the report in front', async () => {
    const a = await api();
    const file = path.join(dir(), 'churn.parquet');
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(file));
    await until(() => a.panel()?.path === file ? a.panel()?.reports : undefined, (r) => !!r?.[0], 'the report', 30_000);
    // What a click on the report panel's Map Columns… button passes (seen in the workbench's log).
    const run = vscode.commands.executeCommand('evalLens.mapColumns', vscode.Uri.parse('webview-panel:webview-evalLens.report-0000'), { groupId: 2, editorIndex: 0 });
    let ended: unknown = 'running';
    void Promise.resolve(run).then((v) => { ended = v; }, (e) => { ended = e instanceof Error ? e.message : e; });
    const shown = await until(() => ({ pick: a.columnPick(), ended }), (p) => p.pick?.field === 'label' || p.ended !== 'running', 'the pick of label');
    assert.equal(shown.pick?.field, 'label', `the command ended (${JSON.stringify(shown.ended)}) without asking`);
    assert.match(shown.pick.title ?? '', /churn\.parquet/);
    await until(async () => {
      if (a.columnPick() === shown.pick) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return a.columnPick() !== shown.pick;
    }, (gone) => gone, 'the pick dismissed');
    await run;
  });

  test('the Ludwig table without gold: the report says so, and the pick offers no prediction or score as the gold', async () => {
    const a = await api();
    const file = path.join(dir(), 'ludwig.parquet');
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(file));
    const reports = await until(() => a.panel()?.path === file ? a.panel()?.reports : undefined, (r) => !!r?.[0], 'the report', 30_000);
    assert.match(reports![0].fatal ?? '', /^No column holds the gold label \(the true answer\): the columns are review_content, .* and recommended_predictions, recommended_probabilities_False, recommended_probabilities_True, recommended_probability are predictions or scores, not gold labels\./);

    const run = vscode.commands.executeCommand<Record<string, string> | undefined>('evalLens.mapColumns');
    await answer(a, run, 'label', 'None of these', (labels, shown) => {
      assert.deepEqual(labels, ['review_content', 'None of these']);
      assert.match(shown.placeholder, /^No column holds the gold label/);
    });
    assert.equal(await run, undefined);
    assert.equal(mappings()[rel('ludwig.parquet')], undefined, 'nothing remembered');
  });
});
