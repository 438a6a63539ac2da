// "Compare with…" from the report editor's tab (the baseline is the tab's file), and the compare
// panel's "Export…": the Markdown table's rows carry the posted comparison's values, and the
// accuracies are also recomputed here from the files.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { acrossThePlot, api, dashedPaths, EXTENSION_ID, fixture, FOLKTEXTS, parseSvg, pngSize, strokedPaths, until } from './evalLensSupport';

const REPORT_EDITOR = 'evalLens.reportEditor';

/** The candidate: every fourth score mirrored (1 - s flips its answer). Returns both accuracies. */
function writeCandidate(baseline: string, candidate: string): { base: number; cand: number } {
  const [header, ...lines] = readFileSync(baseline, 'utf8').trim().split('\n');
  let base = 0;
  let cand = 0;
  const out = lines.map((line, k) => {
    const [id, s, label] = line.split(',');
    const score = k % 4 === 0 ? Number((1 - Number(s)).toFixed(4)) : Number(s);
    base += (Number(s) >= 0.5 ? 1 : 0) === Number(label) ? 1 : 0;
    cand += (score >= 0.5 ? 1 : 0) === Number(label) ? 1 : 0;
    return `${id},${score},${label}`;
  });
  mkdirSync(path.dirname(candidate), { recursive: true });
  writeFileSync(candidate, [header, ...out].join('\n') + '\n');
  return { base: base / lines.length, cand: cand / lines.length };
}

/** The Markdown's first table as rows of trimmed cells, keyed by its header. */
function firstTable(markdown: string): Record<string, string>[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| metric |'));
  assert.ok(start >= 0, `a metric table in:\n${markdown}`);
  const cells = (l: string) => l.slice(1, -1).split('|').map((c) => c.trim());
  const head = cells(lines[start]);
  const rows: Record<string, string>[] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    const c = cells(l);
    rows.push(Object.fromEntries(head.map((h, i) => [h, c[i]])));
  }
  return rows;
}

const fixed = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(4));

suite('compare from the report editor and compare export', () => {
  let scratch: string;
  suiteSetup(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'eval-lens-compare-export-'));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(scratch, { recursive: true, force: true });
  });

  test('Compare with… in the report editor tab compares its file, and the compare panel exports the CLI\'s Markdown, JSON and CSV, and its charts as SVG and PNG', async () => {
    const a = await api();
    const baseline = fixture(FOLKTEXTS);
    const candidate = path.join(scratch, 'cand', 'Flipped-7B.ACSIncome.test_predictions.csv');
    const accuracy = writeCandidate(baseline, candidate);

    // The menus offer it in that tab.
    const menus = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.menus;
    const when = (list: { command: string; when?: string }[]) => list.filter((m) => m.command === 'evalLens.compareWith').map((m) => m.when ?? '').join(' ; ');
    assert.match(when(menus.commandPalette), /activeCustomEditorId == 'evalLens\.reportEditor'/);
    assert.match(when(menus['editor/title']), /activeCustomEditorId == 'evalLens\.reportEditor'/);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(baseline), REPORT_EDITOR);
    await until(() => a.panel(), (p) => p?.path === baseline && !!p.reports, 'the report editor on the baseline', 60_000);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputCustom && input.viewType === REPORT_EDITOR && input.uri.fsPath === baseline, 'the report editor is the active tab');
    assert.equal(vscode.window.activeTextEditor, undefined, 'no text editor to take the file from');

    // No uri: the baseline is the active tab's file; `with` names the candidate (no pick).
    await vscode.commands.executeCommand('evalLens.compareWith', { with: vscode.Uri.file(candidate) });
    const panel = await until(() => a.comparePanel(), (p) => p?.comparison?.comparison.runs[1]?.path === candidate, 'the comparison', 60_000);
    const c = panel!.comparison!.comparison;
    assert.deepEqual(c.runs.map((r) => r.path), [baseline, candidate]);
    assert.equal(c.kind, 'binary');

    // Markdown to a file: one row per metric with the posted values, to 4 decimals.
    const md = vscode.Uri.file(path.join(scratch, 'out', 'comparison.md'));
    mkdirSync(path.dirname(md.fsPath), { recursive: true });
    assert.equal((await panel!.export({ format: 'markdown', to: 'file' }, md) as vscode.Uri | undefined)?.fsPath, md.fsPath);
    const markdown = readFileSync(md.fsPath, 'utf8');
    assert.match(markdown, /^## Eval Lens: compare\n/);
    assert.ok(markdown.includes(path.basename(candidate)), 'the candidate is named');
    const rows = firstTable(markdown);
    const metrics = Object.entries(c.metrics).filter(([, m]) => !!m);
    assert.ok(metrics.length >= 4, `several metrics compared: ${metrics.map(([k]) => k)}`);
    assert.deepEqual(rows.map((r) => r.metric), metrics.map(([k]) => `\`${k}\``));
    for (const [name, m] of metrics) {
      const row = rows.find((r) => r.metric === `\`${name}\``)!;
      assert.equal(row.baseline, fixed(m!.values[0]), `${name} baseline`);
      assert.equal(row['candidate value'], fixed(m!.values[1]), `${name} candidate`);
      const d = m!.deltas[1];
      assert.equal(row['Δ'], d === null ? '—' : `${d > 0 ? '+' : ''}${fixed(d)}`, `${name} delta`);
      assert.equal(row.test, m!.test, `${name} test`);
    }
    // The accuracies, recomputed from the files.
    const acc = rows.find((r) => r.metric === '`accuracy`')!;
    assert.equal(acc.baseline, accuracy.base.toFixed(4));
    assert.equal(acc['candidate value'], accuracy.cand.toFixed(4));

    // Markdown to the clipboard is the same document; JSON is `compare --json`'s.
    await vscode.env.clipboard.writeText('');
    assert.equal(await panel!.export({ format: 'markdown', to: 'clipboard' }), 'clipboard');
    assert.equal(await vscode.env.clipboard.readText(), markdown);
    const json = vscode.Uri.file(path.join(scratch, 'out', 'comparison.json'));
    await panel!.export({ format: 'json' }, json);
    const doc = JSON.parse(readFileSync(json.fsPath, 'utf8'));
    assert.equal(doc.version, 1);
    assert.deepEqual(doc.comparison, JSON.parse(JSON.stringify(c)));

    // The Export Comparison command: the CSV of the metrics as the menu gives it, and the overlaid
    // charts drawn by the webview as SVG and PNG.
    const csv = vscode.Uri.file(path.join(scratch, 'out', 'comparison.csv'));
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportComparison', { format: 'csv', uri: csv }))?.fsPath, csv.fsPath);
    const [head, ...csvRows] = readFileSync(csv.fsPath, 'utf8').trim().split(/\r?\n/).map((l) => l.split(','));
    const col = (name: string) => head.indexOf(name);
    const candAccuracy = csvRows.find((r) => r[col('metric')] === 'accuracy' && r[col('path')] === candidate);
    assert.ok(candAccuracy, `the candidate's accuracy row in ${head}`);
    assert.ok(Math.abs(Number(candAccuracy[col('value')]) - accuracy.cand) < 1e-12, `candidate accuracy ${candAccuracy[col('value')]} vs ${accuracy.cand}`);
    await panel!.whenRendered();
    const roc = vscode.Uri.file(path.join(scratch, 'out', 'roc.svg'));
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportComparison', { format: 'svg', chart: 'roc', uri: roc }))?.fsPath, roc.fsPath);
    const svg = parseSvg(roc.fsPath);
    assert.equal(svg.tag, 'svg');
    const words = svg.texts.join(' ');
    for (const label of panel!.comparison!.runs.map((r) => r.label)) assert.ok(words.includes(label), `run "${label}" in the legend: ${words}`);
    for (const w of ['False positive rate', 'True positive rate']) assert.ok(words.includes(w), `"${w}" in ${words}`);
    // Across the plot: the baseline's curve solid, the candidate's curve and the chance line dashed
    // (many points for a curve; the grid lines are solid and straight).
    const dashed = acrossThePlot(svg, dashedPaths(svg));
    assert.ok(dashed.length >= 2 && dashed.some((p) => p.d > 400), `dashed paths across the plot: ${JSON.stringify(dashed)}`);
    assert.ok(acrossThePlot(svg, strokedPaths(svg)).some((p) => p.dash === '' && p.d > 400), 'a solid curve across the plot');
    const png = vscode.Uri.file(path.join(scratch, 'out', 'reliability.png'));
    assert.equal((await vscode.commands.executeCommand<vscode.Uri>('evalLens.exportComparison', { format: 'png', chart: 'reliability-width', uri: png }))?.fsPath, png.fsPath);
    assert.ok(pngSize(readFileSync(png.fsPath)).width >= 200);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('evalLens.exportComparison', { format: 'png', chart: 'nope' })),
      /no chart "nope" on the page; it shows reliability-width, reliability-count, smooth-reliability, roc, histogram-0, histogram-1/,
    );
  });
});
