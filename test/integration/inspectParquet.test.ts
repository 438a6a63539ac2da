// Inspect logs, Parquet tables and files above the text editor's limit in the real extension host.
// The files are copied to a temp folder outside the workspace (the tree's groups stay those of the
// fixture workspace). References: test/reference/inspect_reference.py (Python's zipfile/json) for
// the Inspect logs, the same rows as CSV / JSONL scored through the text path for Parquet.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { Report } from '../../src/core/types';
import type { ScoreResult } from '../../src/extension/worker/workerProtocol';
import { api, until, workspaceRoot } from './evalLensSupport';
import { writeFolktexts } from './largeSupport';

const REPORT_EDITOR = 'evalLens.reportEditor';

function repo(rel: string): string {
  return resolve(workspaceRoot(), '../../..', rel);
}

async function scored(path: string): Promise<Report> {
  const result = await vscode.commands.executeCommand<ScoreResult>('evalLens.scoreBenchmark', { path });
  assert.ok(result, `scored ${path}`);
  return result.reports[0];
}

/** Opens `path` in the report editor and waits for its report to be painted. */
async function openAsReport(path: string): Promise<Report> {
  const a = await api();
  await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(path), REPORT_EDITOR);
  const panel = await until(() => a.panel(), (p) => p?.path === path && !!p.reports, `the report editor on ${basename(path)}`, 60_000);
  await panel!.whenRendered(path, 60_000);
  return panel!.reports![0];
}

function activeTabIsReportEditor(path: string): boolean {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom && input.viewType === REPORT_EDITOR && input.uri.fsPath === path;
}

function textTabOpen(path: string): boolean {
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === path));
}

suite('Inspect logs and Parquet', () => {
  let dir: string;
  suiteSetup(() => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-inspect-'));
    // The logs at the folder's top (its subfolders hold other repositories' logs, read by the unit tests).
    for (const f of readdirSync(repo('test/fixtures/real/inspect-ai'), { withFileTypes: true })) if (f.isFile()) copyFileSync(repo(`test/fixtures/real/inspect-ai/${f.name}`), join(dir, f.name));
    for (const f of readdirSync(repo('test/fixtures/parquet'), { withFileTypes: true })) if (f.isFile()) copyFileSync(repo(`test/fixtures/parquet/${f.name}`), join(dir, f.name));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['2025-05-12T20-28-13-04-00_popularity.json', 'log_read_sample.json', 'mmlu-summary-choices.eval']) {
    test(`Inspect log ${name}: Inspect's accuracy and stderr, as the Python reference computes them`, async function () {
      if (!existsSync('/usr/bin/python3')) this.skip();
      const path = join(dir, name);
      const ref = JSON.parse(execFileSync('/usr/bin/python3', [repo('test/reference/inspect_reference.py'), path], { encoding: 'utf8' }));
      const report = await scored(path);
      assert.equal(report.format, 'inspect');
      const first = ref.scorers[ref.order[0]].reduced;
      assert.equal(report.n, first.n);
      assert.ok(Math.abs(report.metrics.accuracy! - first.accuracy) < 1e-12);
      assert.ok(Math.abs(report.metrics.stderr! - first.stderr) < 1e-12);
      // The log's own results.scores[0].metrics, shown as reported, agree with the reference too.
      assert.ok(Math.abs(report.reported.accuracy! - first.accuracy) < 1e-12);
      const incomplete = report.problems.filter((p) => p.code === 'incomplete-log');
      assert.equal(incomplete.length, ref.status === 'success' ? 0 : 1, 'a cancelled log says so, as info');
    });
  }

  test('the .eval log opens in the report editor with its sample in the stepper', async () => {
    const a = await api();
    const path = join(dir, 'mmlu-summary-choices.eval');
    const report = await openAsReport(path);
    assert.ok(activeTabIsReportEditor(path));
    assert.equal(report.format, 'inspect');
    const position = await until(() => a.panel()?.stepPosition, (s) => s !== undefined && s.total === 1, 'the stepper with the one wrong sample', 30_000);
    assert.equal(position!.index, 0);
  });

  test('a generic Parquet table scores like its CSV twin; its problem names the row', async () => {
    const pq = await scored(join(dir, 'generic_predictions.parquet'));
    const csv = await scored(join(dir, 'generic_predictions.csv'));
    assert.equal(pq.n, csv.n);
    for (const [k, v] of Object.entries(csv.metrics)) assert.equal(pq.metrics[k as keyof Report['metrics']], v, k);
    assert.deepEqual(pq.problems.map((p) => [p.line, p.message.slice(0, 7)]), [[1, 'row 7: ']]);
    // The Problems panel has it against the Parquet file, line 1.
    const diags = await until(() => vscode.languages.getDiagnostics(vscode.Uri.file(join(dir, 'generic_predictions.parquet'))), () => true, 'diagnostics');
    assert.ok(diags.every((d) => d.range.start.line === 0));
  });

  test('lm-eval samples as Parquet (nested doc / arguments / resps) score like the real JSONL', async () => {
    const lmDir = repo('test/fixtures/real/lm-eval/Qwen__Qwen3-8B');
    const jsonl = join(lmDir, readdirSync(lmDir).find((f) => f.startsWith('samples_negotiationtom_belief_'))!);
    const pq = await openAsReport(join(dir, basename(jsonl).replace(/\.jsonl$/, '.parquet')));
    const text = await scored(jsonl);
    assert.equal(pq.format, 'lm-eval');
    assert.equal(pq.n, text.n);
    assert.equal(pq.metrics.accuracy, text.metrics.accuracy);
    assert.equal(pq.metrics.log_loss, text.metrics.log_loss);
  });

  test('a Parquet file with a corrupt footer is a clear error, and the extension carries on', async () => {
    const path = join(dir, 'corrupt_footer.parquet');
    const report = await scored(path);
    assert.match(report.fatal ?? '', /corrupt_footer\.parquet is not a readable Parquet file .*metadata length/);
    // Still alive: the next file scores.
    assert.equal((await scored(join(dir, 'log_read_sample.json'))).n, 1);
  });
});

suite('files above the text editor\'s limit', () => {
  let dir: string;
  let big: string;
  suiteSetup(async function () {
    this.timeout(120_000);
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-big-'));
    big = join(dir, 'big.test_predictions.csv');
    await writeFolktexts(big, 1_000_000); // about 19 MB: above the 16 MB the browser text editor shows
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  test('opening it as text (explorer, Quick Open) shows its report in the report editor instead', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(big));
    await until(() => activeTabIsReportEditor(big), (ok) => ok, 'the report editor tab', 30_000);
    await until(() => textTabOpen(big), (open) => !open, 'the text tab closed', 10_000);
    const a = await api();
    const panel = await until(() => a.panel(), (p) => p?.path === big && !!p.reports, 'the report', 90_000);
    assert.equal(panel!.reports![0].n, 1_000_000);
  });

  test('Open Report and the status bar work on the report editor tab (no text editor)', async function () {
    this.timeout(120_000);
    assert.ok(activeTabIsReportEditor(big));
    assert.equal(vscode.window.activeTextEditor, undefined);
    const a = await api();
    const shown = await vscode.commands.executeCommand<{ path: string } | undefined>('evalLens.openReport');
    assert.equal(shown?.path, big, 'Open Report took the active tab\'s file');
    await until(() => a.statusBarText(), (t) => /ECE/.test(t ?? ''), 'the status bar headline', 90_000);
  });

  test('with evalLens.openLargeFilesAsReport off, the text tab stays', async function () {
    this.timeout(60_000);
    await vscode.workspace.getConfiguration('evalLens').update('openLargeFilesAsReport', false, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(big));
      await until(() => textTabOpen(big), (open) => open, 'the text tab', 10_000);
      // Tab events are handled in order: once a later file's tab is there, a redirect of the big
      // file would have started; none did.
      const small = join(dir, 'small.csv');
      writeFileSync(small, 'id,score,label\n1,0.9,1\n');
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(small), { preview: false });
      await until(() => textTabOpen(small), (open) => open, 'the small file\'s tab', 10_000);
      assert.ok(textTabOpen(big));
      assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.fsPath === big)));
    } finally {
      await vscode.workspace.getConfiguration('evalLens').update('openLargeFilesAsReport', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the Eval Lens view\'s click (evalLens.openFile) opens the report, not the large-file notice', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('evalLens.openFile', vscode.Uri.file(big));
    await until(() => activeTabIsReportEditor(big), (ok) => ok, 'the report editor tab', 30_000);
    assert.ok(!textTabOpen(big));
  });
});
