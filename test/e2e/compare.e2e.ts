// End-to-end: the compare and leaderboard panels in a real workbench (code-server + Chromium), on
// the examples folder (two folktexts models on the same rows, two RAFT runs of three tasks).
// "Compare with…" runs from the palette on the open predictions file; the webview's DOM is read:
// significance in words, charts with ink, an agreement cell filtering the table, the stepper. The
// leaderboard is opened from the palette, sorted, and two of its rows compared. The Export menu
// saves the filtered instances (CSV) and the ROC overlay (SVG, also rendered and screenshotted as
// compare-roc-export) through the real save dialog; "Copy as Markdown" fills the clipboard. Screenshots in dark
// and light themes; with EVAL_LENS_UPDATE_SCREENSHOTS=1 they are copied to docs/screenshots/.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { parseCsv } from '../../src/core/formats/csv';
import { parseSvg } from '../support/svg';
import { chooseExport, exportChoices, saveDialog, startWorkbench, svgShot, type Workbench } from './workbench';
import { viewWith } from './sampleHelpers';

const DOCS = join(PROJECT_ROOT, 'docs', 'screenshots');
const BASELINE = 'folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv';
const CANDIDATE = 'folktexts/Llama-3-8B-sim__ACSIncome__-1/Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv';
const written = (path: string) => expect.poll(() => existsSync(path) && statSync(path).size, { timeout: 20_000 }).toBeGreaterThan(0);

async function docsShot(wb: Workbench, name: string): Promise<string> {
  await wb.webview().locator('body').evaluate(() => window.scrollTo(0, 0));
  return publish(await wb.screenshot(name, wb.page.locator('iframe.webview.ready >> visible=true').first()), name);
}

/** With EVAL_LENS_UPDATE_SCREENSHOTS=1, a screenshot is also copied to docs/screenshots/. */
function publish(path: string, name: string): string {
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

/**
 * Runs a command that asks for a pick, and picks `label`. A quick pick closes when a webview that is
 * still settling takes the focus (a busy 2-core machine; the journey retries the same way): when its
 * input does not show, or the pick fails, the command runs again, three times at most.
 */
async function runAndPick(wb: Workbench, command: string, label: RegExp): Promise<void> {
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  for (let attempt = 1; ; attempt++) {
    await wb.runCommand(command);
    const shown = await input.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
    try {
      if (!shown) {
        await wb.screenshot(`pick-not-shown-${attempt}`);
        throw new Error(`the pick of "${command}" did not show`);
      }
      await pick(wb, label);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await wb.page.keyboard.press('Escape');
    }
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

    // "Export…" in the header: the CLI's documents, built by the host; the aligned instances as
    // filtered and each chart (PNG, SVG), made by the page. Filtered to the discordant cell again.
    await cell.click();
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-cell')).toBe('baseline_only');
    const rows = Number(await view.locator('#pair-table').getAttribute('data-rows'));
    const charts = await view.locator('canvas[id^="chart-"]').evaluateAll((cs) => cs.map((c) => ({ id: c.id.replace(/^chart-/, ''), title: c.getAttribute('aria-label') ?? '' })));
    expect(charts.map((c) => c.id)).toEqual(['reliability-width', 'reliability-count', 'smooth-reliability', 'roc', 'histogram-0', 'histogram-1']);
    expect(await exportChoices(view)).toEqual([
      'Export…', 'Markdown summary to a file…', 'Markdown summary to the clipboard', 'JSON (as eval-lens compare --json)…', 'CSV of the metrics (as eval-lens compare --csv)…',
      `CSV of the aligned instances, as filtered (${rows.toLocaleString('en-US')} rows)…`,
      ...charts.flatMap((c) => [`PNG: ${c.title}…`, `SVG: ${c.title}…`]),
    ]);
    const out = mkdtempSync(join(tmpdir(), 'eval-lens-compare-export-'));

    // The aligned instances of the cell, through the real save dialog.
    const csvPath = join(out, 'baseline only.csv');
    await chooseExport(view, /^CSV of the aligned instances/);
    expect(await saveDialog(wb, csvPath)).toMatch(/\/comparison\.baseline_only\.instances\.csv$/);
    await written(csvPath);
    const csv = parseCsv(readFileSync(csvPath, 'utf8'));
    // The 'samples' column holds buttons (the sample view), not data: it is not exported.
    const heads = (await view.locator('#pair-table thead th').allTextContents()).filter((h) => h !== 'samples');
    const labels = await view.locator('#runs li strong').allTextContents();
    expect(labels).toHaveLength(2);
    expect(csv.header).toEqual([...heads, `${labels[0]}: line`, `${labels[1]}: line`]);
    expect(csv.records).toHaveLength(rows);
    const column = (name: string) => csv.records.map((r) => r.fields[csv.header.indexOf(name)]);
    const cellLabel = await view.locator('#agree-baseline_only .agree-label').textContent();
    expect(new Set(column('agreement'))).toEqual(new Set([cellLabel]));
    // "baseline right, candidate wrong", row by row.
    const gold = column('gold');
    column(`${labels[0]}: predicted`).forEach((p, i) => expect(p, `row ${i}`).toBe(gold[i]));
    column(`${labels[1]}: predicted`).forEach((p, i) => expect(p, `row ${i}`).not.toBe(gold[i]));
    const shownIds = await view.locator('#pair-table tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.id));
    expect(shownIds.length).toBeGreaterThan(0);
    expect(column('ID').slice(0, shownIds.length)).toEqual(shownIds);

    // The ROC overlay as SVG: XML, the runs named in the legend, told apart by dash.
    const svgPath = join(out, 'roc.svg');
    await chooseExport(view, /^SVG: ROC curves…$/);
    expect(await saveDialog(wb, svgPath)).toMatch(/\/comparison\.roc\.svg$/);
    await written(svgPath);
    const svg = parseSvg(svgPath);
    expect(svg.roots).toEqual(['svg']);
    for (const label of labels) expect(svg.texts.filter((t) => t.startsWith(`${label} (AUC `)), label).toHaveLength(1);
    const curves = svg.paths.filter((p) => p.stroke && p.stroke !== 'none' && p.d > 400);
    expect(curves.length).toBeGreaterThanOrEqual(2);
    expect(curves.some((p) => p.dash === ''), 'a solid curve (the baseline)').toBe(true);
    expect(curves.some((p) => /^\d+(\.\d+)?(,\s*\d+(\.\d+)?)+$/.test(p.dash)), 'a dashed curve (the candidate)').toBe(true);
    publish(await svgShot(wb, readFileSync(svgPath), 'compare-roc-export'), 'compare-roc-export');

    // "Copy as Markdown": the clipboard holds `eval-lens compare --markdown`'s document.
    await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: wb.origin });
    await wb.page.evaluate(() => navigator.clipboard.writeText(''));
    await view.locator('#copy-markdown').click();
    // The panel bootstraps as many times as its setting says (left at its default) and names the files by their paths.
    const resamples = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).contributes.configuration.properties['evalLens.bootstrap'].default;
    const files = [BASELINE, CANDIDATE].map((f) => join(wb.workspace, f));
    const expected = execFileSync(process.execPath, [join(PROJECT_ROOT, 'dist', 'cli.js'), 'compare', ...files, '--markdown', '--bootstrap', String(resamples)], { encoding: 'utf8' });
    await expect.poll(() => wb.page.evaluate(() => navigator.clipboard.readText()), { timeout: 20_000 }).toBe(expected);

    await cell.click();
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-cell')).toBe('all');

    await docsShot(wb, 'compare-dark');
    await selectTheme(wb, 'Light Modern', /Light Modern/);
    await view.locator('body.vscode-light').waitFor({ state: 'attached', timeout: 20_000 });
    await docsShot(wb, 'compare-light');
  });

  it('shows the leaderboard of the RAFT runs: shaded cells with values, intervals on hover, sorting, comparing two rows', async () => {
    await runAndPick(wb, 'Eval Lens: Show Leaderboard', /^raft$/);
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

    // Two rows ticked: the whole runs are compared by default (every task and raft_score, as
    // `eval-lens compare run-1 run-2`), even with the table sorted by one task (issue 21, point 5).
    await view.locator('input[data-run="run-1"]').check();
    await view.locator('input[data-run="run-2"]').check();
    expect(await view.locator('#board-task').inputValue()).toBe('*');
    expect(await view.locator('#board-task option').first().textContent()).toMatch(/^every task \(3\): the whole runs$/);
    await view.locator('#board-compare-button').click();
    const whole = await rendered(wb, 'comparison');
    await expect.poll(() => whole.locator('section[id^="metric-table-"]').count(), { timeout: 60_000 }).toBe(3);
    expect(await whole.locator('#runs').textContent()).toMatch(/run-1.*run-2/s);
    await wb.page.locator('.tabs-container .tab', { hasText: 'Compare: run-1 vs run-2' }).first().waitFor({ timeout: 20_000 });

    // A task chosen: their comparison on that task opens (per-class F1 side by side).
    await wb.runCommand('Eval Lens: Show Leaderboard');
    await pick(wb, /^raft$/);
    const again = await rendered(wb, 'board');
    await again.locator('input[data-run="run-1"]').check();
    await again.locator('input[data-run="run-2"]').check();
    await again.locator('#board-task').selectOption('bank_intents');
    await again.locator('#board-compare-button').click();
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
    const report: FrameLocator | undefined = await viewWith(wb, '#compare-with', 30_000);
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

  it('brings the comparison and the leaderboard back after a window reload, computed again from the files', async () => {
    await wb.runCommand('Developer: Reload Window');
    await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
    const tab = (title: RegExp) => wb.page.locator('.tabs-container .tab').filter({ hasText: title }).first();
    await tab(/^Compare/).waitFor({ timeout: 60_000 });
    await tab(/^Compare/).click();
    const compare = await viewWith(wb, 'body[data-rendered="comparison"]');
    expect(await compare.locator('#runs').textContent()).toMatch(/run-2\/support_tweets.*run-1\/support_tweets/s);
    expect(Number((await compare.locator('[data-chip="aligned"] .chip-value').textContent())?.replace(/\D/g, ''))).toBeGreaterThan(0);
    await tab(/^Leaderboard: /).click();
    const board = await viewWith(wb, 'body[data-rendered="board"]');
    expect(await board.locator('#board-table td.cell').count()).toBe(2 * 4);
  });
});
