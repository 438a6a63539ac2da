// CodeLens, status bar and hover on an open predictions file, checked against numbers computed from
// the fixture by hand.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, BAD_ROWS, binaryReference, FOLKTEXTS, fixture, RAFT_RUN, until } from './evalLensSupport';

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '').filter((t) => t.startsWith('Eval Lens'));
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
}

/** The hover's Markdown with CommonMark backslash escapes removed, for plain comparisons. */
function unescape(md: string): string {
  return md.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

suite('inline metrics', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('CodeLens on line 1 of the folktexts file shows the headline metrics', async () => {
    await api();
    const ref = binaryReference(FOLKTEXTS);
    const uri = vscode.Uri.file(fixture(FOLKTEXTS));
    await vscode.window.showTextDocument(uri);
    const expected = `Eval Lens · ECE ${ref.ece.toFixed(3)} · AUC ${ref.auc.toFixed(3)} · Brier ${ref.brier.toFixed(3)} · acc ${ref.accuracy.toFixed(3)} · n=${ref.n}`;
    const titles = await until(() => lensTitles(uri), (t) => t.length === 1 && !t[0].includes('scoring'), 'CodeLens');
    assert.equal(titles[0], expected);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const lens = lenses.find((l) => l.command?.title.startsWith('Eval Lens'))!;
    assert.equal(lens.range.start.line, 0);
    assert.equal(lens.command?.command, 'evalLens.openReport');
  });

  test('the status bar shows the active file\'s headline', async () => {
    const a = await api();
    const ref = binaryReference(FOLKTEXTS);
    await vscode.window.showTextDocument(vscode.Uri.file(fixture(FOLKTEXTS)));
    await until(() => a.statusBarText(), (t) => t === `$(graph) ECE ${ref.ece.toFixed(3)} · n=${ref.n}`, 'status bar');
  });

  test('CodeLens counts skipped rows', async () => {
    await api();
    const uri = vscode.Uri.file(fixture(BAD_ROWS));
    await vscode.window.showTextDocument(uri);
    const titles = await until(() => lensTitles(uri), (t) => t.length === 1 && !t[0].includes('scoring'), 'CodeLens');
    assert.match(titles[0], /· n=32 \(8 skipped\)$/);
  });

  test('hovering a data row shows that instance', async () => {
    await api();
    const ref = binaryReference(FOLKTEXTS);
    const uri = vscode.Uri.file(fixture(FOLKTEXTS));
    await vscode.window.showTextDocument(uri);
    // Data row 5 is line 6 of the file (line 1 is the header).
    const i = 4;
    const hovers = await until(
      () => vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(5, 3)),
      (h) => hoverText(h ?? []).includes('Eval Lens'), 'hover');
    const text = unescape(hoverText(hovers));
    const s = ref.scores[i];
    const y = ref.labels[i];
    const pred = s >= 0.5 ? 1 : 0;
    assert.ok(text.includes('line 6'), text);
    assert.ok(text.includes(`score **${s.toFixed(4)}**`), text);
    assert.ok(text.includes(`label **${y}**`), text);
    assert.ok(text.includes(`predicted **${pred}**`), text);
    assert.ok(text.includes(pred === y ? '✓ correct' : '✗ incorrect'), text);
    const bin = Math.min(Math.floor(s * 10), 9);
    assert.ok(text.includes(`reliability bin: ${bin + 1} of 10 [${(bin / 10).toFixed(2)}, ${((bin + 1) / 10).toFixed(2)}`), text);
    assert.ok(text.includes('equal-count'), text);
    assert.ok(text.includes(`Brier contribution ${((s - y) ** 2).toFixed(4)}`), text);
  });

  test('hovering the header shows nothing from Eval Lens', async () => {
    const uri = vscode.Uri.file(fixture(FOLKTEXTS));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 2));
    assert.ok(!hoverText(hovers ?? []).includes('Eval Lens'));
  });

  test('a RAFT row\'s hover names gold and predicted classes', async () => {
    await api();
    const uri = vscode.Uri.file(fixture(`${RAFT_RUN}/beta_tickets/predictions.csv`));
    await vscode.window.showTextDocument(uri);
    // ID 1 (line 3): gold "bug", predicted "billing".
    const hovers = await until(
      () => vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(2, 1)),
      (h) => hoverText(h ?? []).includes('Eval Lens'), 'hover');
    const text = unescape(hoverText(hovers));
    assert.ok(text.includes('gold **bug**'), text);
    assert.ok(text.includes('predicted **billing**'), text);
    assert.ok(text.includes('✗ incorrect'), text);
  });
});
