// A report opened before the tree knows its file (issue 28 point 11): clicked at once after a
// window reload, or a file outside the workspace. The report's first pass is lent to the tree
// (ReportScoring.firstPassFor, WorkerPool borrow): the file is scored once, not a second time on
// the report's kept parse while the intervals wait for that worker. In the real extension host, on
// a real Parquet table copied outside the workspace (discovery never tracks it; the report editor
// does, and scores it for the tree).
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { api, until, workspaceRoot } from './evalLensSupport';

suite('a report opened before the tree scored its file', () => {
  let dir: string;
  suiteSetup(() => { dir = mkdtempSync(join(tmpdir(), 'eval-lens-before-tree-')); });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the tree takes the report\'s first pass: the same figures, the file not scored again', async () => {
    const path = join(dir, 'outside.parquet');
    copyFileSync(resolve(workspaceRoot(), '../../..', 'test/fixtures/parquet/generic_predictions.parquet'), path);
    const a = await api();
    const uri = vscode.Uri.file(path);
    assert.equal(a.files.get(uri), undefined, 'a file outside the workspace is not in the tree before it is opened');
    const borrowedBefore = a.files.borrowedScores;
    await vscode.commands.executeCommand('vscode.openWith', uri, 'evalLens.reportEditor');
    const panel = await until(() => a.panel(), (p) => p?.path === path && !!p.reports, 'the report editor', 60_000);
    const entry = await until(() => a.files.get(uri), (e) => e?.result !== undefined && e.pending === undefined, 'the tree\'s score of the file', 60_000);
    assert.equal(a.files.borrowedScores, borrowedBefore + 1, 'the tree\'s score was taken from the report\'s pass');
    // The figures the tree shows are the report's, and the file's: a fresh summary pass agrees.
    const fresh = await a.scoring.score(path, { ...a.scoring.optionsFor(path), bootstrap: 0, listColumns: undefined }, undefined, undefined, undefined, 'summary');
    assert.deepEqual(entry!.result!.reports.map((r) => r.metrics), fresh.reports.map((r) => r.metrics));
    assert.deepEqual(entry!.result!.reports.map((r) => r.metrics), panel!.reports!.map((r) => r.metrics));
    assert.equal(entry!.result!.reports[0].instances, null, 'a summary: no per-instance data kept for the tree');
  });
});
