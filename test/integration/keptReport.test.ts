// A report tab closed and its file opened again (issue 28 point 11): the report, its intervals and
// its instances are the ones kept from the closed tab (src/extension/report/keptReport.ts), shown
// without scoring the file for the first chart, then confirmed by the file scored again; a changed
// file or changed scoring options are scored anew. In the real extension host.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ReportPanel } from '../../src/extension/report/reportPanel';
import { api, until } from './evalLensSupport';
import { writeFolktexts } from './largeSupport';

const REPORT_EDITOR = 'evalLens.reportEditor';

suite('a closed report tab, its file opened again', () => {
  let dir: string;
  let path: string;
  suiteSetup(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-kept-'));
    path = join(dir, 'kept.test_predictions.csv');
    await writeFolktexts(path, 20_000, 7);
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('evalLens').update('bins', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('evalLens').update('dataFiles', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the file in the report editor; resolves with its panel once the first chart is painted. */
  async function open(): Promise<ReportPanel> {
    const a = await api();
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(path), REPORT_EDITOR);
    const panel = await until(() => a.panel(), (p) => p?.path === path && !!p.reports, 'the report editor', 60_000);
    await panel!.whenRendered(path, 60_000);
    return panel!;
  }

  /** The report's intervals have arrived (its bootstrap count is the setting's). */
  const withIntervals = (p: ReportPanel) => (p.reports?.[0]?.options.bootstrap ?? 0) > 0 && Object.keys(p.reports![0].intervals ?? {}).length > 0;

  async function closeAll(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const a = await api();
    await until(() => a.panel(), (p) => p === undefined, 'the report tab closed');
  }

  test('the same file again: the kept report with its intervals at the first chart, then confirmed; its table complete', async () => {
    const first = await open();
    assert.equal(first.keptState, undefined, 'the first open scores the file');
    // What the intervals pass waits for (activate.ts): the page has the report.
    assert.equal(await first.whenPosted(path, 30_000), true);
    assert.equal(await first.whenPosted(join(dir, 'another.csv'), 100), false);
    await until(() => first, withIntervals, 'the intervals of the first open', 60_000);
    await first.whenInstancesReady(path, 60_000);
    const before = first.reports![0];
    await closeAll();

    const again = await open();
    assert.equal(again.keptState === 'shown' || again.keptState === 'confirmed', true, `kept report shown (state ${again.keptState})`);
    // Posted to the new webview before it said 'ready' (VS Code holds it for the page's first
    // document), not after the 'ready' round trip; and once: the page painted it once (issue 28.11).
    const facts = again.snapshot();
    assert.ok(facts.reportsPostedAt !== undefined && facts.readyAt !== undefined && facts.reportsPostedAt < facts.readyAt,
      `the kept report posted before the page was ready (posted ${facts.reportsPostedAt! - facts.createdAt} ms, ready ${facts.readyAt! - facts.createdAt} ms after the panel was created)`);
    // The intervals are there with the first chart: no pass was waited for.
    assert.ok(withIntervals(again), 'intervals with the first chart');
    assert.deepEqual(again.reports![0].metrics, before.metrics);
    assert.deepEqual(again.reports![0].intervals, before.intervals);
    const table = await again.whenInstancesReady(path, 60_000);
    assert.equal(table.rows, 20_000);
    await until(() => again.keptState, (s) => s === 'confirmed', 'the kept report checked against the file', 60_000);
    assert.equal(again.snapshot().renders, 1, 'the page painted the kept report once');
    await closeAll();
  });

  test('a changed file is scored again (one more row)', async () => {
    // Kept from the previous test's last open; the file then changes.
    appendFileSync(path, '20000,0.9000000,1\n');
    const panel = await open();
    assert.equal(panel.keptState, undefined);
    assert.equal(panel.reports![0].n, 20_001);
    await until(() => panel, withIntervals, 'the intervals', 60_000);
    await closeAll();
  });

  test('other scoring options (evalLens.bins) score the file again', async () => {
    await vscode.workspace.getConfiguration('evalLens').update('bins', 7, vscode.ConfigurationTarget.Global);
    const panel = await open();
    assert.equal(panel.keptState, undefined);
    assert.equal(panel.reports![0].n, 20_001);
    await until(() => panel, withIntervals, 'the intervals', 60_000);
    await closeAll();
  });

  test('with a joined data file nothing is kept (its groups could change while the checked figures do not)', async () => {
    const data = join(dir, 'people.csv');
    writeFileSync(data, `id,region\n${Array.from({ length: 100 }, (_, i) => `${i},${i % 2 ? 'north' : 'south'}`).join('\n')}\n`);
    await vscode.workspace.getConfiguration('evalLens').update('dataFiles', { '**/kept.test_predictions.csv': data }, vscode.ConfigurationTarget.Global);
    // Once with the data file: scored (the previous test's report was kept under other options).
    const first = await open();
    assert.equal(first.keptState, undefined);
    await until(() => first, withIntervals, 'the intervals', 60_000);
    await closeAll();
    const again = await open();
    assert.equal(again.keptState, undefined, 'not kept with a data file joined');
    await closeAll();
  });
});
