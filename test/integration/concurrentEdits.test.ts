// Concurrent edits in the real VS Code: a file changed while it is being scored ends with the score
// of its latest content and never a mix of two versions; rapid edits (typing, or a file rewritten
// many times in a row) are debounced into one or two runs; a file deleted while it is being scored
// leaves no diagnostics, tree entry or CodeLens behind; the report panel never shows the intervals
// of one version on the charts of another.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TreeSnapshot } from '../../src/extension/activate';
import type { FileEntry } from '../../src/extension/discovery/evalFiles';
import { api, fixture, inputGap, until, watcherBarrier } from './evalLensSupport';
import { writeFolktexts } from './largeSupport';

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Eval Lens');
}

function labels(nodes: TreeSnapshot[]): string[] {
  return nodes.flatMap((n) => [n.label, ...labels(n.children)]);
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '').filter((t) => t.startsWith('Eval Lens'));
}

/** A small folktexts file of `rows` rows (different content for different `rows`). */
function small(rows: number): string {
  const lines = [',risk_score,label'];
  for (let i = 0; i < rows; i++) lines.push(`${i},${((i * 37) % 100) / 100},${i % 2}`);
  return `${lines.join('\n')}\n`;
}

suite('concurrent edits', () => {
  const dir = () => fixture('scratch-concurrent');

  suiteSetup(async () => {
    rmSync(dir(), { recursive: true, force: true });
    mkdirSync(dir(), { recursive: true });
    // The watcher knows the folder (its first file is seen) before the tests' files appear in it.
    await watcherBarrier(await api(), dir());
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir(), { recursive: true, force: true });
    const a = await api();
    await until(() => a.files.all().some((e) => e.path.startsWith(dir())), (v) => !v, 'the scratch files are forgotten');
  });

  test('a buffer edited while its file is scored ends with the buffer\'s score, never a mix', async function () {
    this.timeout(120_000);
    const a = await api();
    const file = join(dir(), 'edited.test_predictions.csv');
    const uri = vscode.Uri.file(file);
    await writeFolktexts(file, 400_000, 7);
    await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 400_000, 'the file scored from disk', 60_000);
    // A late watcher event for the write above (under load it can come after the first score) may
    // start one more run of the disk content: let it finish before counting the runs this test causes.
    await watcherBarrier(a, dir());
    // Every result the file ever shows must be one whole version: 400,000 rows (disk) or 3 (buffer).
    const seen: number[] = [];
    const started: string[] = []; // what each run scored (its key), for the message when too many ran
    const runsBefore = a.files.get(uri)!.runs;
    const sub = a.files.onDidChange((ev) => {
      if (ev.entry.uri.toString() !== uri.toString()) return;
      const n = ev.entry.result?.reports[0]?.n;
      if (n !== undefined) seen.push(n);
      const key = ev.entry.pending?.key.split('|')[0];
      if (key && started.at(-1) !== key) started.push(key);
    });
    try {
      // Opening asks for the full per-instance result: a scoring run of the disk content starts.
      // (Opening a 7 MB document can take long enough for that run to finish first; then the edit
      // below supersedes a finished result instead of a running one: the log line says which.)
      const editor = await vscode.window.showTextDocument(uri);
      const midScore = !!a.files.get(uri)?.pending;
      const doc = editor.document;
      await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), small(3)));
      console.log(`    [eval-lens] buffer edited ${midScore ? 'while the opened file was being scored' : 'after the opened file was scored'}`);
      await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 3, 'the buffer\'s score', 30_000);
      await watcherBarrier(a, dir());
      assert.equal(a.files.get(uri)?.result?.reports[0]?.n, 3, 'no older result came in after');
      assert.ok(seen.every((n) => n === 400_000 || n === 3), `only whole versions were shown: ${seen.join(', ')}`);
      assert.ok(a.files.get(uri)!.runs - runsBefore <= 2, `${a.files.get(uri)!.runs - runsBefore} runs for opening and one edit (${started.join(', ')})`);
    } finally {
      sub.dispose();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  test('typing is debounced: one run after the last keystroke, for the latest text', async () => {
    const a = await api();
    const file = join(dir(), 'typed.test_predictions.csv');
    const uri = vscode.Uri.file(file);
    writeFileSync(file, small(10));
    await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 10, 'the new file scored', 20_000);
    const editor = await vscode.window.showTextDocument(uri);
    try {
      await a.whenIdle();
      const entry = a.files.get(uri) as FileEntry;
      const runsBefore = entry.runs;
      // 15 rows typed one keystroke group at a time, 40 ms apart (faster than the 300 ms debounce).
      for (let i = 10; i < 25; i++) {
        await editor.edit((e) => e.insert(new vscode.Position(editor.document.lineCount - 1, 0), `${i},0.${i},${i % 2}\n`));
        await inputGap(40);
      }
      await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 25, 'the typed rows scored', 20_000);
      await a.whenIdle();
      const runs = a.files.get(uri)!.runs - runsBefore;
      console.log(`    [eval-lens] 15 edits 40 ms apart -> ${runs} scoring run(s)`);
      assert.ok(runs >= 1 && runs <= 2, `${runs} scoring runs for 15 rapid edits`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  test('a file rewritten many times in a row is scored once or twice, ending with its last content', async () => {
    const a = await api();
    const file = join(dir(), 'rewritten.test_predictions.csv');
    const uri = vscode.Uri.file(file);
    writeFileSync(file, small(5));
    await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 5, 'the new file scored', 20_000);
    await a.whenIdle();
    const runsBefore = a.files.get(uri)!.runs;
    for (let rows = 6; rows <= 20; rows++) {
      writeFileSync(file, small(rows));
      await inputGap(30);
    }
    await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 20, 'the last version\'s score', 20_000);
    await watcherBarrier(a, dir());
    const runs = a.files.get(uri)!.runs - runsBefore;
    console.log(`    [eval-lens] 15 rewrites 30 ms apart -> ${runs} scoring run(s)`);
    assert.equal(a.files.get(uri)?.result?.reports[0]?.n, 20);
    assert.ok(runs >= 1 && runs <= 3, `${runs} scoring runs for 15 rapid rewrites`);
  });

  test('a file deleted while it is scored leaves no diagnostics, tree entry or CodeLens', async function () {
    this.timeout(120_000);
    const a = await api();
    const file = join(dir(), 'doomed.test_predictions.csv');
    const uri = vscode.Uri.file(file);
    // A million-row file with one bad row at the end: scoring it takes a while, and it has a diagnostic.
    await writeFolktexts(file, 1_000_000, 3, ['1000000,73%,1']);
    await until(() => ours(uri).length, (n) => n === 1, 'the bad row\'s diagnostic', 60_000);
    assert.ok(labels(a.treeSnapshot()).includes('doomed'), 'in the tree');
    await vscode.window.showTextDocument(uri, { preview: false });
    await until(() => lensTitles(uri), (t) => t.length === 1, 'its CodeLens', 30_000);
    // Rewritten (a new version to score), and deleted while that scoring runs.
    await writeFolktexts(file, 1_000_000, 4, ['1000000,oops,1']);
    await until(() => a.files.get(uri)?.pending, (p) => !!p, 'scoring the new version', 30_000);
    rmSync(file);
    await until(() => a.files.get(uri), (e) => e === undefined, 'the file is forgotten', 20_000);
    // Whatever was in flight comes back to nothing.
    await watcherBarrier(a, dir());
    assert.equal(a.files.get(uri), undefined, 'not tracked');
    assert.deepEqual(ours(uri), [], 'no diagnostics');
    assert.ok(!labels(a.treeSnapshot()).includes('doomed'), 'no tree entry');
    assert.equal(a.lensTitle(uri), undefined);
    assert.deepEqual(await lensTitles(uri), [], 'no CodeLens on the editor still open');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('the report panel never shows one version\'s intervals on another version\'s charts', async function () {
    this.timeout(120_000);
    const a = await api();
    const outside = mkdtempSync(join(tmpdir(), 'eval-lens-panel-edit-'));
    const file = join(outside, 'moving.test_predictions.csv');
    try {
      await writeFolktexts(file, 300_000, 11);
      await vscode.commands.executeCommand('evalLens.scoreBenchmark', { path: file, format: 'folktexts' });
      const panel = await until(() => a.panel(), (p) => p?.path === file && p.reports?.[0].n === 300_000, 'the first pass in the panel');
      // The file changes while the bootstrap pass runs: its intervals are for other numbers.
      writeFileSync(file, small(40));
      const shown = () => {
        const r = a.panel()?.reports?.[0];
        return r && { n: r.n, bootstrap: r.options.bootstrap, ece: r.metrics.ece };
      };
      await until(shown, (r) => r?.n === 40 && r.bootstrap === 200, 'the new content, with its own intervals', 60_000);
      await panel!.whenRendered(file, 30_000);
      const r = a.panel()!.reports![0];
      assert.equal(r.n, 40);
      assert.ok(r.intervals.ece, 'intervals of the new content');
    } finally {
      a.panel()?.panel.dispose();
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
