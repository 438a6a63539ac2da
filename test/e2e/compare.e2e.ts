// End-to-end: the compare and leaderboard panels in a real workbench (code-server + Chromium), on
// the examples folder (two folktexts models on the same rows, two RAFT runs of three tasks).
// "Compare with…" runs from the palette on the open predictions file; the webview's DOM is read:
// significance in words, charts with ink, an agreement cell filtering the table, the stepper. The
// leaderboard is opened from the palette, sorted, and two of its rows compared. Screenshots in dark
// and light themes; with EVAL_LENS_UPDATE_SCREENSHOTS=1 they are copied to docs/screenshots/.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { startWorkbench, type Workbench } from './workbench';

const DOCS = join(PROJECT_ROOT, 'docs', 'screenshots');
const BASELINE = 'folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv';

async function docsShot(wb: Workbench, name: string): Promise<string> {
  await wb.webview().locator('body').evaluate(() => window.scrollTo(0, 0));
  const path = await wb.screenshot(name, wb.page.locator('iframe.webview.ready >> visible=true').first());
  if (process.env.EVAL_LENS_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(path, join(DOCS, `${name}.png`));
  }
  return path;
}

async function pick(wb: Workbench, label: RegExp): Promise<void> {
  // Filter first: a long list renders rows that are scrolled out of view and cannot be clicked.
  const text = label.source.replace(/^\^|\$$/g, '').replace(/\\(.)/g, '$1');
  await wb.page.locator('.quick-input-widget .quick-input-box input').fill(text);
  const row = wb.page.locator('.quick-input-widget .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: label }) }).first();
  try {
    await row.click({ timeout: 20_000 });
  } catch (error) {
    const listed = await wb.page.locator('.quick-input-widget .monaco-list-row .label-name').allTextContents();
    await wb.screenshot(`pick-failed-${label.source}`);
    throw new Error(`no quick pick row ${label} (listed: ${JSON.stringify(listed.slice(0, 12))}): ${String(error)}`);
  }
}

async function selectTheme(wb: Workbench, search: string, label: RegExp): Promise<void> {
  await wb.runCommand('Preferences: Color Theme');
  await wb.page.locator('.quick-input-widget .quick-input-box input').fill(search);
  await pick(wb, label);
  await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

async function canvasColours(canvas: Locator): Promise<number> {
  return canvas.evaluate((node) => {
    const c = node as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < data.length && seen.size < 200; i += 4 * 7) seen.add(((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]) * 256 + data[i + 3]);
    return seen.size;
  });
}

async function rendered(wb: Workbench, what: 'comparison' | 'board'): Promise<FrameLocator> {
  const view = wb.webview();
  await view.locator(`body[data-rendered="${what}"]`).waitFor({ state: 'attached', timeout: 90_000 });
  return view;
}

describe('the compare and leaderboard panels in the workbench', () => {
  let wb: Workbench;

  beforeAll(async () => {
    wb = await startWorkbench({
      workspace: 'examples', theme: 'dark', settings: { 'evalLens.raftDataFolder': 'raft/data' }, viewport: { width: 1400, height: 1300 },
    });
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('compares two folktexts runs: tests in words, charts, agreement filtering the table, the stepper', async () => {
    await wb.openFile(BASELINE);
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await pick(wb, /Llama-3-8B-sim/);
    const view = await rendered(wb, 'comparison');
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) await wb.runCommand(title, { timeoutMs: 10_000 }).catch(() => undefined);

    // Significance is written out, and each metric names its test.
    const accuracy = view.locator('#metric-table tr[data-metric="accuracy"]');
    expect(await accuracy.locator('td.test').textContent()).toBe('exact McNemar');
    expect(await accuracy.locator('td.significance').textContent()).toMatch(/^(✱ )?(significant|n\.s\.) \(p = [\d.e+-]+\)$/);
    expect(await view.locator('#metric-table tr[data-metric="auc"] td.test').textContent()).toBe("DeLong's test");

    for (const id of ['chart-reliability-width', 'chart-reliability-count', 'chart-roc', 'chart-histogram-0', 'chart-histogram-1']) {
      expect(await canvasColours(view.locator(`#${id}`)), `${id} has drawn content`).toBeGreaterThan(8);
    }

    // A discordant cell filters the aligned-instances table to its rows; a second click clears it.
    const cell = view.locator('#agree-baseline_only');
    const count = Number(await cell.getAttribute('data-count'));
    expect(count).toBeGreaterThan(0);
    await cell.click();
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-cell')).toBe('baseline_only');
    expect(Number(await view.locator('#pair-table').getAttribute('data-rows'))).toBe(Math.min(count, 2000));
    expect(await view.locator('#pair-table tbody tr').first().getAttribute('data-cell')).toBe('baseline_only');

    // The stepper walks "baseline right, candidate wrong", then the reverse.
    const stepper = view.locator('#pair-stepper');
    expect(await stepper.getAttribute('data-total')).toBe(String(Math.min(count, 2000)));
    const first = await stepper.getAttribute('data-id');
    await view.locator('#pair-next').click();
    await expect.poll(() => stepper.getAttribute('data-index')).toBe('1');
    expect(await stepper.getAttribute('data-id')).not.toBe(first);
    expect(await stepper.locator('[data-side="baseline"] .verdict').textContent()).toBe('✓ right');
    expect(await stepper.locator('[data-side="candidate"] .verdict').textContent()).toBe('✗ wrong');
    await view.locator('#step-candidate_only').click();
    await expect.poll(() => stepper.getAttribute('data-cell')).toBe('candidate_only');
    expect(await stepper.locator('[data-side="candidate"] .verdict').textContent()).toBe('✓ right');
    await cell.click();
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-cell')).toBe('all');

    // "Export…" in the header: the CLI's documents, built by the host.
    expect(await view.locator('#export-select option').allTextContents()).toEqual([
      'Export…', 'Markdown summary to a file…', 'Markdown summary to the clipboard', 'JSON (as eval-lens compare --json)…', 'CSV of the metrics (as eval-lens compare --csv)…',
    ]);

    await docsShot(wb, 'compare-dark');
    await selectTheme(wb, 'Light Modern', /Light Modern/);
    await view.locator('body.vscode-light').waitFor({ state: 'attached', timeout: 20_000 });
    await docsShot(wb, 'compare-light');
  });

  it('shows the leaderboard of the RAFT runs: shaded cells with values, intervals on hover, sorting, comparing two rows', async () => {
    await wb.runCommand('Eval Lens: Show Leaderboard');
    await pick(wb, /^raft$/);
    const view = await rendered(wb, 'board');
    const cells = view.locator('#board-table td.cell');
    expect(await cells.count()).toBe(2 * 4); // two runs × (three tasks + mean)
    for (const text of await cells.allTextContents()) expect(text).toMatch(/^\d\.\d{3}$/);
    expect(await cells.first().getAttribute('title')).toMatch(/95% interval \[\d\.\d{3}, \d\.\d{3}\]/);
    expect(await view.locator('#board-legend').textContent()).toMatch(/worse.*better/);

    // Sorting by a task puts its best run first (macro-F1: higher is better).
    await view.locator('button.sort-head[data-column="bank_intents"]').click();
    const values = (await view.locator('#board-table td.cell[data-task="bank_intents"]').evaluateAll((tds) => tds.map((td) => Number((td as HTMLElement).dataset.value))));
    expect(values).toEqual([...values].sort((a, b) => b - a));

    await docsShot(wb, 'leaderboard-light');
    await selectTheme(wb, 'Dark Modern', /Dark Modern/);
    await view.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: 20_000 });
    await docsShot(wb, 'leaderboard-dark');

    // Two rows ticked, a task chosen: their comparison opens (per-class F1 side by side).
    await view.locator('input[data-run="run-1"]').check();
    await view.locator('input[data-run="run-2"]').check();
    await view.locator('#board-task').selectOption('bank_intents');
    await view.locator('#board-compare-button').click();
    const compare = await rendered(wb, 'comparison');
    expect(await compare.locator('#runs li').count()).toBe(2);
    expect(await canvasColours(compare.locator('#chart-f1'))).toBeGreaterThan(8);
    expect(await compare.locator('#pair-stepper .text-field-value').count()).toBeGreaterThan(0);
  });

  it('opens a cell\'s report from the leaderboard, and "Compare with…" in that report\'s header compares it', async () => {
    await wb.runCommand('Eval Lens: Show Leaderboard');
    await pick(wb, /^raft$/);
    const board = await rendered(wb, 'board');
    await board.locator('td.cell[data-run="run-2"][data-task="support_tweets"]').click();
    // The report opens beside the board: find the visible webview that holds it.
    let report: FrameLocator | undefined;
    for (let attempt = 0; attempt < 60 && !report; attempt++) {
      for (let i = 0; i < 3 && !report; i++) {
        const view = wb.webview({ index: i });
        if ((await view.locator('#compare-with').count().catch(() => 0)) > 0) report = view;
      }
      if (!report) await new Promise((r) => setTimeout(r, 500));
    }
    expect(report, 'a report panel with "Compare with…"').toBeDefined();
    expect(await report!.locator('#report-title').textContent()).toBe('support_tweets');
    await report!.locator('#compare-with').click();
    await pick(wb, /^support_tweets$/);
    const deadline = Date.now() + 90_000;
    let runs = 0;
    while (Date.now() < deadline && runs !== 2) {
      for (let i = 0; i < 3; i++) {
        const view = wb.webview({ index: i });
        if ((await view.locator('body[data-rendered="comparison"] #runs li').count().catch(() => 0)) === 2
          && /run-2\/support_tweets.*run-1\/support_tweets/s.test((await view.locator('#runs').textContent().catch(() => '')) ?? '')) runs = 2;
      }
      if (runs !== 2) await new Promise((r) => setTimeout(r, 500));
    }
    expect(runs).toBe(2);
  });
});
