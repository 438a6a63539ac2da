// Diagnostics on the file with known bad rows (lines and codes), for an unopened file; edits
// re-score the unsaved buffer; the percent quick fix applies and undoes as one edit; deleting a
// file clears its diagnostics.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { api, BAD_ROWS, fixture, until } from './evalLensSupport';

/** [line (1-based), code] of every known bad row of the fixture, in file order. */
const EXPECTED: [number, string][] = [
  [3, 'percent-probability'],
  [5, 'not-a-number'],
  [6, 'out-of-range'],
  [7, 'bad-label'],
  [8, 'column-count'],
  [9, 'not-finite'],
  [11, 'missing-field'],
  [13, 'percent-probability'],
];

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Eval Lens');
}

function summary(uri: vscode.Uri): [number, string][] {
  return ours(uri).map((d) => [d.range.start.line + 1, String(d.code)] as [number, string]).sort((a, b) => a[0] - b[0]);
}

suite('diagnostics', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('every bad row of an unopened file is a diagnostic on its exact line, with its code', async () => {
    await api();
    const uri = vscode.Uri.file(fixture(BAD_ROWS));
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()), 'the file is not open');
    const got = await until(() => summary(uri), (s) => s.length === EXPECTED.length, 'diagnostics');
    assert.deepEqual(got, EXPECTED);
    for (const d of ours(uri)) {
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
      assert.ok(d.message.length > 10, d.message);
    }
  });

  test('diagnostics carry the column span of the bad field', async () => {
    const uri = vscode.Uri.file(fixture(BAD_ROWS));
    const pct = ours(uri).find((d) => d.range.start.line === 2)!;
    // Line 3 is `1,73%,1`: the field "73%" spans characters 2..5.
    assert.deepEqual([pct.range.start.character, pct.range.end.character], [2, 5]);
    const label = ours(uri).find((d) => d.range.start.line === 6)!;
    // Line 7 is `5,0.31,2`: the label "2" is character 7.
    assert.deepEqual([label.range.start.character, label.range.end.character], [7, 8]);
  });

  test('the percent quick fix rewrites 73% as 0.73 in one undoable edit', async () => {
    const uri = vscode.Uri.file(fixture(BAD_ROWS));
    const onDisk = readFileSync(uri.fsPath, 'utf8');
    const editor = await vscode.window.showTextDocument(uri);
    try {
      const diag = ours(uri).find((d) => d.range.start.line === 2)!;
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range, vscode.CodeActionKind.QuickFix.value);
      const fix = actions.find((a) => a.title === 'Write 73% as the probability 0.73');
      assert.ok(fix?.edit, `quick fix offered among ${JSON.stringify(actions.map((a) => a.title))}`);
      assert.ok(actions.some((a) => a.title === 'Write all 2 percentages in this file as probabilities'));
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.equal(editor.document.lineAt(2).text, '1,0.73,1');
      assert.equal(readFileSync(uri.fsPath, 'utf8'), onDisk, 'nothing is written to disk');
      // The edited buffer is re-scored (debounced): line 3 is no longer a problem.
      await until(() => summary(uri), (s) => s.length === EXPECTED.length - 1 && !s.some(([l]) => l === 3), 'diagnostics after the fix');

      await vscode.commands.executeCommand('undo');
      assert.equal(editor.document.lineAt(2).text, '1,73%,1');
      assert.equal(editor.document.isDirty, false, 'one undo restores the saved content');
      await until(() => summary(uri), (s) => JSON.stringify(s) === JSON.stringify(EXPECTED), 'diagnostics after undo');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  test('typing in the buffer re-scores it (debounced) and updates diagnostics', async () => {
    const uri = vscode.Uri.file(fixture(BAD_ROWS));
    const editor = await vscode.window.showTextDocument(uri);
    try {
      // Line 2 `0,0.12,0` becomes `0,oops,0`, one character at a time.
      await editor.edit((e) => e.delete(new vscode.Range(1, 2, 1, 6)));
      for (const ch of 'oops') {
        await editor.edit((e) => e.insert(editor.document.lineAt(1).range.end.translate(0, -2), ch));
      }
      assert.equal(editor.document.lineAt(1).text, '0,oops,0');
      const got = await until(() => summary(uri), (s) => s.length === EXPECTED.length + 1, 'diagnostics after typing');
      assert.deepEqual(got[0], [2, 'not-a-number']);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await until(() => summary(uri), (s) => s.length === EXPECTED.length, 'diagnostics after revert');
  });

  test('a problem in a companion file (RAFT train.csv) is shown on that file', async () => {
    const a = await api();
    const dir = fixture('scratch-companion');
    const task = `${dir}/run/gamma_scratch`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(task, { recursive: true });
    const train = vscode.Uri.file(`${task}/train.csv`);
    try {
      writeFileSync(`${task}/task.json`, JSON.stringify({ name: 'gamma_scratch', data_columns: ['Text', 'ID'], label_columns: { Label: ['no', 'yes'] } }));
      // Line 4 repeats ID 1.
      writeFileSync(train.fsPath, 'Text,Label,ID\nfirst,yes,0\nsecond,no,1\nagain,yes,1\n');
      writeFileSync(`${task}/predictions.csv`, 'ID,Label\n0,yes\n1,yes\n');
      const got = await until(() => ours(train).map((d) => [d.range.start.line + 1, String(d.code)]), (l) => l.length > 0, 'diagnostics on train.csv');
      assert.deepEqual(got, [[4, 'duplicate-id']]);
      assert.equal(ours(vscode.Uri.file(`${task}/predictions.csv`)).filter((d) => d.code === 'duplicate-id').length, 0, 'not on the predictions file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await until(() => ours(train).length, (n) => n === 0, 'companion diagnostics after the run is deleted');
    await until(() => a.files.all().some((e) => e.path.startsWith(dir)), (v) => !v, 'the scratch run is forgotten');
  });

  test('deleting a file clears its diagnostics', async () => {
    const a = await api();
    const dir = fixture('scratch-diagnostics');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const copy = vscode.Uri.file(`${dir}/doomed.test_predictions.csv`);
    try {
      copyFileSync(fixture(BAD_ROWS), copy.fsPath);
      await until(() => ours(copy).length, (n) => n === EXPECTED.length, 'diagnostics of the new file');
      await vscode.workspace.fs.delete(copy);
      await until(() => ours(copy).length, (n) => n === 0, 'diagnostics after deletion');
      assert.equal(a.files.get(copy), undefined, 'no longer tracked');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
