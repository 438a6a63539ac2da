// Restricted mode (an untrusted workspace). Runs only in the run that test/e2e/restricted.e2e.ts
// starts: code-server with workspace trust enabled (the usual harness disables it), the folder not
// trusted, and EVAL_LENS_EXPECT_UNTRUSTED=1. Elsewhere these tests are skipped (pending).
//
// The workspace there is a copy of the fixture workspace whose .vscode/settings.json sets
// evalLens.maxFileSizeMB to 0.001 and evalLens.raftDataFolder to a folder that does not exist:
// both are restrictedConfigurations, so in Restricted Mode VS Code ignores those workspace values.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ScoreResult } from '../../src/extension/worker/workerProtocol';
import { api, BAD_ROWS, binaryReference, FOLKTEXTS, fixture, RAFT_RUN, raftMacroF1, until } from './evalLensSupport';

const expectUntrusted = process.env.EVAL_LENS_EXPECT_UNTRUSTED === '1';

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Eval Lens');
}

suite('restricted mode (untrusted workspace)', function () {
  suiteSetup(function () {
    if (!expectUntrusted) this.skip();
  });

  test('the workspace is not trusted, and the extension runs', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'Restricted Mode');
    const a = await api();
    assert.ok(a.activationMs >= 0);
  });

  test('it still reads and scores: tree, CodeLens and diagnostics', async () => {
    const a = await api();
    const ref = binaryReference(FOLKTEXTS);
    const uri = vscode.Uri.file(fixture(FOLKTEXTS));
    // The workspace's maxFileSizeMB (0.001) would refuse this 3 KB file: it is ignored here.
    await until(() => a.files.get(uri)?.result?.reports[0]?.metrics.ece, (e) => e !== undefined, 'the folktexts file scored');
    assert.equal(a.files.get(uri)?.error, undefined);
    assert.ok(Math.abs(a.files.get(uri)!.result!.reports[0].metrics.ece! - ref.ece) < 1e-9);
    const bad = vscode.Uri.file(fixture(BAD_ROWS));
    await until(() => ours(bad).length, (n) => n === 8, 'diagnostics on the bad rows');
  });

  test('it offers no quick fix (no edits in Restricted Mode)', async () => {
    await api();
    const bad = vscode.Uri.file(fixture(BAD_ROWS));
    await vscode.window.showTextDocument(bad);
    const pct = ours(bad).find((d) => d.code === 'percent-probability');
    assert.ok(pct, 'the percent diagnostic is there');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', bad, pct.range, vscode.CodeActionKind.QuickFix.value);
    assert.deepEqual((actions ?? []).filter((x) => /probabilit/i.test(x.title)).map((x) => x.title), []);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Score Benchmark works, and ignores the workspace\'s RAFT data folder', async () => {
    await api();
    // evalLens.raftDataFolder from the workspace would point nowhere: ignored, so the gold labels
    // are found beside the predictions' run only if passed explicitly; here they are passed.
    const r = await vscode.commands.executeCommand<ScoreResult>('evalLens.scoreBenchmark', { path: fixture(RAFT_RUN), format: 'raft', raftData: fixture('raft-data'), show: false });
    assert.ok(r);
    for (const rep of r.reports) {
      const task = rep.path.includes('alpha_reviews') ? 'alpha_reviews' : 'beta_tickets';
      assert.ok(Math.abs(rep.metrics.macro_f1! - raftMacroF1(task)) < 1e-9);
    }
    const settings = vscode.workspace.getConfiguration('evalLens');
    assert.equal(settings.get('raftDataFolder'), '', 'the workspace value is not in force');
    assert.equal(settings.get('maxFileSizeMB'), 2048);
    const workspaceFile = JSON.parse(readFileSync(fixture('.vscode/settings.json'), 'utf8'));
    assert.equal(workspaceFile['evalLens.maxFileSizeMB'], 0.001, 'though the workspace sets it');
  });
});
