// The report panel's exports through the Export Report command (the panel's "Export…" menu and
// "Copy as Markdown" send the same requests): Markdown to the clipboard is the CLI's
// `score --markdown` table, JSON to a file is `score --json`, and a PNG that is not one is refused.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, FOLKTEXTS, fixture, until } from './evalLensSupport';

suite('report export', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Markdown to the clipboard, JSON to a file, and nothing for a PNG that is not one', async () => {
    const a = await api();
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(fixture(FOLKTEXTS)));
    const panel = await until(() => a.panel(), (p) => !!p?.reports && p.path === fixture(FOLKTEXTS), 'the report');
    const report = panel!.reports![0];

    await vscode.env.clipboard.writeText('');
    assert.equal(await vscode.commands.executeCommand('evalLens.exportReport', { format: 'markdown', to: 'clipboard' }), 'clipboard');
    const markdown = await vscode.env.clipboard.readText();
    assert.match(markdown, /^## Eval Lens\n/);
    assert.ok(markdown.includes('| metric | value |'), 'a metric table');
    assert.ok(markdown.includes(`| \`ece\` | ${report.metrics.ece!.toFixed(4)} |`), `ece row in:\n${markdown}`);

    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-export-'));
    const target = vscode.Uri.file(join(dir, 'report.json'));
    const written = await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportReport', { format: 'json', uri: target });
    assert.equal(written?.fsPath, target.fsPath);
    const doc = JSON.parse(readFileSync(target.fsPath, 'utf8'));
    assert.equal(doc.version, 1);
    assert.equal(doc.results[0].path, report.path);
    assert.equal(doc.results[0].metrics.ece, report.metrics.ece);

    const png = vscode.Uri.file(join(dir, 'chart.png'));
    assert.equal(await panel!.export({ format: 'png', name: 'chart', base64: Buffer.from('<svg onload=alert(1)>').toString('base64') }, png), undefined);
    assert.equal(existsSync(png.fsPath), false);
  });
});
