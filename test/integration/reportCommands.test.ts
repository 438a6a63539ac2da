// The commands that drive the report panel: Open Report on a file (the panel scores it, then its
// bootstrap intervals are added in place), the misclassified-example stepper commands, and
// Reveal in Data File. Speed on large files: largeFiles.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, FOLKTEXTS, fixture, RAFT_DATA, RAFT_RUN, until } from './evalLensSupport';

suite('report commands', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Open Report scores the file, then replaces the report with its bootstrap intervals', async () => {
    const a = await api();
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(fixture(FOLKTEXTS)));
    const panel = await until(() => a.panel(), (p) => !!p, 'a report panel');
    assert.equal(panel!.path, fixture(FOLKTEXTS));
    const reports = await until(() => a.panel()?.reports, (r) => !!r && r[0].options.bootstrap === 200, 'the report with intervals', 30_000);
    assert.ok(reports![0].intervals.ece, 'an ece interval');
  });

  test('Next/Previous Misclassified Example step the panel\'s stepper', async () => {
    const a = await api();
    const run = fixture(RAFT_RUN);
    await vscode.commands.executeCommand('evalLens.scoreBenchmark', { path: `${run}/beta_tickets`, format: 'raft' });
    const panel = await until(() => a.panel(), (p) => p?.path === `${run}/beta_tickets` && !!p.reports, 'the RAFT report');
    await panel!.whenRendered(undefined, 30_000);
    const start = await until(() => panel!.stepPosition, (s) => s !== undefined && s.total > 0, 'the stepper position', 30_000);
    // beta_tickets has 5 misclassified labelled examples in the fixture.
    assert.equal(start!.total, 5);
    await vscode.commands.executeCommand('evalLens.nextMisclassified');
    await until(() => panel!.stepPosition?.index, (i) => i === (start!.index + 1) % 5, 'one step forward');
    await vscode.commands.executeCommand('evalLens.previousMisclassified');
    await until(() => panel!.stepPosition?.index, (i) => i === start!.index, 'one step back');
  });

  test('Reveal in Data File opens the train.csv row of the instance under the cursor', async () => {
    await api();
    const uri = vscode.Uri.file(fixture(`${RAFT_RUN}/beta_tickets/predictions.csv`));
    const editor = await vscode.window.showTextDocument(uri);
    // Line 3 is ID 1; in train.csv ID 1 is on line 3 (header on line 1).
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    const revealed = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('evalLens.revealInData');
    assert.ok(revealed, 'an editor opened');
    assert.equal(revealed.document.uri.fsPath, fixture(`${RAFT_DATA}/beta_tickets/train.csv`));
    assert.equal(revealed.selection.start.line, 2);
    assert.ok(revealed.document.lineAt(2).text.startsWith('App crashes on start,'));
  });
});
