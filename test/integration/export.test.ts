// The report panel's exports through the Export Report command (the panel's "Export…" menu and
// "Copy as Markdown" send the same requests): Markdown to the clipboard is the CLI's
// `score --markdown` table, JSON to a file is `score --json`, a PNG that is not one is refused, and
// a chart drawn by the real webview comes back as an SVG and a PNG of the same figure.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { acrossThePlot, api, binaryReference, dashedPaths, FOLKTEXTS, fixture, parseSvg, pngSize, strokedPaths, until } from './evalLensSupport';

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

  test('a chart as SVG and PNG: drawn by the webview, the same figure, its bins those of the file', async () => {
    const a = await api();
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(fixture(FOLKTEXTS)));
    const panel = await until(() => a.panel(), (p) => !!p?.reports && p.path === fixture(FOLKTEXTS), 'the report');
    await panel!.whenRendered(fixture(FOLKTEXTS));
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-chart-'));

    const svgUri = vscode.Uri.file(join(dir, 'reliability.svg'));
    const written = await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportReport', { format: 'svg', chart: 'reliability', uri: svgUri });
    assert.equal(written?.fsPath, svgUri.fsPath);
    const svg = parseSvg(svgUri.fsPath);
    assert.equal(svg.tag, 'svg');
    assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
    const words = svg.texts.join(' ');
    for (const w of ['Mean risk score', 'Perfect calibration', '0.2', '0.8']) assert.ok(words.includes(w), `"${w}" in the SVG's text: ${words}`);
    // The dashed diagonal across the plot (a dashed legend box alone would not do).
    assert.ok(acrossThePlot(svg, dashedPaths(svg)).length >= 1, 'the dashed diagonal is drawn');
    assert.ok(strokedPaths(svg).length >= 10, `grid, bars and the curve are stroked paths (${strokedPaths(svg).length})`);
    assert.ok(!svg.tags.includes('script') && !svg.tags.includes('foreignobject'), `only drawing elements: ${svg.tags}`);
    // Each "n=" label is the count of an equal-width bin, counted here from the file's scores.
    const ref = binaryReference(FOLKTEXTS);
    const counts = new Array(10).fill(0);
    for (const s of ref.scores) counts[Math.min(Math.floor(s * 10), 9)]++;
    const labels = svg.texts.filter((t) => /^n=/.test(t)).map((t) => Number(t.replace(/\D/g, '')));
    const nonEmpty = counts.filter((c) => c > 0);
    assert.ok(labels.length >= Math.ceil(nonEmpty.length / 2), `bins labelled: ${labels} of ${nonEmpty}`);
    for (const n of labels) assert.ok(nonEmpty.includes(n), `n=${n} is a bin's count (${nonEmpty})`);

    const pngUri = vscode.Uri.file(join(dir, 'reliability.png'));
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportReport', { format: 'png', chart: 'reliability', uri: pngUri }))?.fsPath, pngUri.fsPath);
    const png = pngSize(readFileSync(pngUri.fsPath));
    // One figure at its size on screen: the SVG in CSS pixels, the PNG at three times the density.
    assert.ok(Number(svg.width) > 200, `SVG ${svg.width} wide`);
    assert.deepEqual(png, { width: 3 * Number(svg.width), height: 3 * Number(svg.height) }, `PNG ${png.width}×${png.height} vs SVG ${svg.width}×${svg.height}`);

    // A chart the page does not show: an error naming the ones it does.
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('evalLens.exportReport', { format: 'svg', chart: 'pie', uri: vscode.Uri.file(join(dir, 'pie.svg')) })),
      /no chart "pie" on the page; it shows reliability, smooth-reliability, histogram, roc/,
    );
    assert.equal(existsSync(join(dir, 'pie.svg')), false);

    // From the palette, without a chart: a quick pick of the charts the page shows (its first, the
    // reliability diagram, accepted here).
    const picked = vscode.Uri.file(join(dir, 'picked.svg'));
    const exported = vscode.commands.executeCommand<vscode.Uri>('evalLens.exportReport', { format: 'svg', uri: picked });
    await until(async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return existsSync(picked.fsPath);
    }, (done) => done, 'the picked chart written');
    assert.equal((await exported)?.fsPath, picked.fsPath);
    assert.ok(parseSvg(picked.fsPath).texts.includes('Mean risk score'), 'the reliability diagram, first in the pick');

    // Hidden behind another tab, the webview is gone with its charts: the command shows the panel
    // again and waits for its new page before asking for the chart.
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    await until(() => panel!.panel.visible, (visible) => !visible, 'the panel hidden');
    const afterHide = vscode.Uri.file(join(dir, 'after-hide.svg'));
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportReport', { format: 'svg', chart: 'roc', uri: afterHide }))?.fsPath, afterHide.fsPath);
    assert.ok(parseSvg(afterHide.fsPath).texts.includes('False positive rate'), 'the ROC curve, drawn by the new page');
  });
});
