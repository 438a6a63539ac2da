// Settings reach the scores: the bin count changes ECE everywhere, and a file above
// evalLens.maxFileSizeMB is listed with a clear message instead of being scored.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, binaryReference, FOLKTEXTS, fixture, until } from './evalLensSupport';

async function set(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('evalLens').update(key, value, vscode.ConfigurationTarget.Global);
}

suite('settings', () => {
  suiteTeardown(async () => {
    await set('bins', undefined);
    await set('maxFileSizeMB', undefined);
    await (await api()).whenIdle();
  });

  test('evalLens.bins re-scores every file with that many bins', async () => {
    const a = await api();
    const uri = vscode.Uri.file(fixture(FOLKTEXTS));
    await set('bins', 5);
    const five = binaryReference(FOLKTEXTS, 5).ece;
    await until(() => a.lensTitle(uri), (t) => !!t?.startsWith(`Eval Lens · ECE ${five.toFixed(3)} ·`), 'the CodeLens with 5 bins');
    await set('bins', undefined);
    const ten = binaryReference(FOLKTEXTS).ece;
    await until(() => a.lensTitle(uri), (t) => !!t?.startsWith(`Eval Lens · ECE ${ten.toFixed(3)} ·`), 'the CodeLens with 10 bins again');
  });

  test('a file above evalLens.maxFileSizeMB is listed but not scored, with a message', async () => {
    const a = await api();
    const uri = vscode.Uri.file(fixture(FOLKTEXTS));
    await set('maxFileSizeMB', 0.001); // about 1 KB; the fixture is about 3 KB
    await until(() => a.files.get(uri)?.error, (e) => !!e && e.includes('evalLens.maxFileSizeMB'), 'the size guard');
    assert.match(a.lensTitle(uri) ?? '', /^Eval Lens · not scored: .*above the evalLens\.maxFileSizeMB limit/);
    const diag = vscode.languages.getDiagnostics(uri).find((d) => d.source === 'Eval Lens');
    assert.equal(diag?.code, 'not-scored');
    assert.equal(diag?.severity, vscode.DiagnosticSeverity.Information);
    const folk = a.treeSnapshot().find((g) => g.label === 'folktexts')!.children.find((c) => c.label === 'Mistral-7B.ACSIncome');
    assert.equal(folk?.description, 'not scored');
    await set('maxFileSizeMB', undefined);
    await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 200, 'scored again');
  });
});
