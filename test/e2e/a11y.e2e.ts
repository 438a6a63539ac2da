// End-to-end accessibility (issue 23): axe-core's WCAG 2.0/2.1 A and AA rules run inside the real
// webview (two iframes deep in the workbench) on every page: a report of each kind (folktexts,
// RAFT, lm-eval, ALMANACS, a generic confidence file), the groups view, the report editor tab,
// the comparison and the leaderboard, each in the dark, light and high-contrast themes. No serious
// or critical violation may remain. Each page's findings are written to test-results/e2e/axe/.
// Then the keyboard: menus act on an explicit choice, focus stays on its control after a
// re-render, the instance grid is an ARIA grid with a roving tabindex, the charts' data tables.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { writeAdultFiles } from '../unit/slices/adultFixture';
import { axeViolations, seriousLines, webviewFrame, type AxeFinding } from './axe';
import { SCREENSHOT_DIR, startWorkbench, type Workbench } from './workbench';

const AXE_DIR = join(SCREENSHOT_DIR, 'axe');
type Theme = 'dark' | 'light' | 'hc';
const THEME_PICK: Record<Theme, [string, RegExp, string]> = {
  dark: ['Dark Modern', /^(Default )?Dark Modern$/, 'vscode-dark'],
  light: ['Light Modern', /^(Default )?Light Modern$/, 'vscode-light'],
  hc: ['High Contrast', /^(Default High Contrast|Dark High Contrast)$/, 'vscode-high-contrast'],
};

async function pick(wb: Workbench, label: RegExp, filter?: string): Promise<void> {
  const input = wb.page.locator('.quick-input-widget .quick-input-box input');
  if (filter !== undefined) await input.fill(filter);
  await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: label }) }).first().click({ timeout: 20_000 });
}

let theme: Theme = 'dark';
async function setTheme(wb: Workbench, wanted: Theme): Promise<void> {
  const [search, label, bodyClass] = THEME_PICK[wanted];
  if (theme !== wanted) {
    await wb.runCommand('Preferences: Color Theme');
    await pick(wb, label, search);
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    theme = wanted;
  }
  await wb.webview().locator(`body.${bodyClass}`).waitFor({ state: 'attached', timeout: 20_000 });
}

/** Leaves one editor group with nothing open, so the next page is the one visible webview. */
async function closeAll(wb: Workbench): Promise<void> {
  await wb.runCommand('View: Close All Editors', { timeoutMs: 10_000 }).catch(() => undefined);
  // A report opened from the leaderboard opens beside it: back to one editor group.
  await wb.runCommand('View: Single Column Editor Layout', { timeoutMs: 10_000 }).catch(() => undefined);
}

async function openReport(wb: Workbench, relPath: string): Promise<FrameLocator> {
  await closeAll(wb);
  await wb.openFile(relPath);
  // An Inspect .eval (a zip) opens in the report editor itself; a text file gets its report from "Open Report".
  if (!/\.(eval|parquet)$/i.test(relPath)) await wb.runCommand('Eval Lens: Open Report');
  const view = wb.webview();
  await view.locator('body[data-rendered][data-instances]').waitFor({ state: 'attached', timeout: 90_000 });
  return view;
}

/** axe in each theme; returns the serious and critical findings, per theme. `frame`: the visible webview to audit (default the first). */
async function auditThemes(wb: Workbench, name: string, frame = 0): Promise<Record<Theme, string[]>> {
  mkdirSync(AXE_DIR, { recursive: true });
  const order: Theme[] = theme === 'dark' ? ['dark', 'light', 'hc'] : theme === 'light' ? ['light', 'hc', 'dark'] : ['hc', 'light', 'dark'];
  const out = {} as Record<Theme, string[]>;
  for (const t of order) {
    await setTheme(wb, t);
    const findings: AxeFinding[] = await axeViolations(await webviewFrame(wb.page, frame));
    writeFileSync(join(AXE_DIR, `${name}-${t}.json`), JSON.stringify(findings, null, 1));
    out[t] = seriousLines(findings);
  }
  return out;
}

const clean = { dark: [], light: [], hc: [] };

describe('accessibility of every page (axe-core, WCAG 2.1 AA) in three themes', () => {
  let wb: Workbench;

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-a11y-'));
    cpSync(join(PROJECT_ROOT, 'examples'), workspace, { recursive: true });
    cpSync(join(PROJECT_ROOT, 'test/fixtures/workspace/almanacs'), join(workspace, 'almanacs'), { recursive: true });
    // The sample view (issue 29): an agent's tool calls, and a model-graded score's Markdown and grader.
    mkdirSync(join(workspace, 'inspect'));
    for (const f of ['log_message_deduplication.eval', '2025-05-12T20-28-26-04-00_security-guide.json']) cpSync(join(PROJECT_ROOT, 'test/fixtures/real/inspect-ai', f), join(workspace, 'inspect', f));
    mkdirSync(join(workspace, 'adult'));
    const adult = writeAdultFiles(join(workspace, 'adult'));
    wb = await startWorkbench({
      workspace, theme: 'dark', viewport: { width: 1400, height: 1000 },
      settings: { 'evalLens.raftDataFolder': 'raft/data', 'evalLens.dataFiles': { '**/adult/*.test_predictions.csv': adult.data }, 'evalLens.bootstrap': 200 },
    });
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) await wb.runCommand(title, { timeoutMs: 20_000 }).catch(() => undefined);
  });

  afterAll(async () => {
    await wb?.close();
  });

  const reports: [string, string][] = [
    ['report-folktexts', 'folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv'],
    ['report-raft', 'raft/run-1/bank_intents/predictions.csv'],
    ['report-lm-eval', 'lm-eval/sim-model/samples_prime_mc_2026-11-30T09-00-00.000000.jsonl'],
    ['report-almanacs', 'almanacs/advanced_ai_risk.predictions.jsonl'],
    ['report-generic', 'generic/qa_confidence.csv'],
  ];
  for (const [name, file] of reports) {
    it(`${name}: no serious or critical violation`, async () => {
      await openReport(wb, file);
      expect(await auditThemes(wb, name)).toEqual(clean);
    });
  }

  it('the groups view: no serious or critical violation', async () => {
    const view = await openReport(wb, 'adult/ACSIncome_adult.test_predictions.csv');
    const select = view.locator('#group-by');
    await expect.poll(() => select.locator('option').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['race']));
    await select.selectOption('d:race');
    await expect.poll(() => view.locator('#group-table tbody tr').count(), { timeout: 90_000 }).toBeGreaterThan(2);
    await expect.poll(() => view.locator('#group-table .forest-ci').count(), { timeout: 90_000 }).toBeGreaterThan(2);
    expect(await auditThemes(wb, 'report-groups')).toEqual(clean);
  });

  // A row's sample shows in the report itself (the sample peek, issue 29): audited there, then in
  // its own tab ("Open in its own tab"), the visible webview that holds the sample page's header.
  for (const [name, file, row] of [['sample-agent', 'inspect/log_message_deduplication.eval', 0], ['sample-graded', 'inspect/2025-05-12T20-28-26-04-00_security-guide.json', 0]] as const) {
    it(`${name}: the sample view, no serious or critical violation`, async () => {
      const view = await openReport(wb, file);
      await view.locator('.vtable-rows .vtable-row:not([hidden])').nth(row).click();
      await view.locator('#sample-peek[data-shown-at]').waitFor({ state: 'attached', timeout: 60_000 });
      // Folded parts open, so that what they hold is audited too.
      await view.locator('#sample-peek details > summary').evaluateAll((s) => s.forEach((x) => (x as HTMLElement).click()));
      expect(await auditThemes(wb, `${name}-peek`)).toEqual(clean);
      await view.locator('#sample-peek-tab').click();
      let index = -1;
      await expect.poll(async () => {
        for (let k = 0; k < 3; k++) if ((await wb.webview({ index: k }).locator('body[data-shown-at] .sample-header').count().catch(() => 0)) > 0) index = k;
        return index;
      }, { timeout: 60_000 }).toBeGreaterThanOrEqual(0);
      await wb.webview({ index }).locator('details > summary').evaluateAll((s) => s.forEach((x) => (x as HTMLElement).click()));
      expect(await auditThemes(wb, name, index)).toEqual(clean);
    });
  }

  it('the report editor tab: no serious or critical violation', async () => {
    await closeAll(wb);
    await wb.openFile('raft/run-2/support_tweets/predictions.csv');
    await wb.runCommand('View: Reopen Editor With...');
    await pick(wb, /^Eval Lens Report/);
    await wb.webview().locator('body[data-rendered][data-instances]').waitFor({ state: 'attached', timeout: 90_000 });
    expect(await auditThemes(wb, 'report-editor')).toEqual(clean);
  });

  it('the comparison: no serious or critical violation', async () => {
    await closeAll(wb);
    await wb.openFile('folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await pick(wb, /Llama-3-8B-sim/, 'Llama-3-8B-sim');
    await wb.webview().locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    expect(await auditThemes(wb, 'compare')).toEqual(clean);
  });

  it('the leaderboard: no serious or critical violation', async () => {
    await closeAll(wb);
    await wb.runCommand('Eval Lens: Show Leaderboard');
    await pick(wb, /^raft$/, 'raft');
    await wb.webview().locator('body[data-rendered="board"]').waitFor({ state: 'attached', timeout: 90_000 });
    expect(await auditThemes(wb, 'leaderboard')).toEqual(clean);
  });

  // ---- the keyboard (each of these failed on the pages before issue 23) ----

  /** The focused element of the webview's document: its id, role, and what the tests need. */
  const focused = (view: FrameLocator) => view.locator('body').evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { id: a?.id ?? '', tag: a?.tagName.toLowerCase() ?? '', role: a?.getAttribute('role') ?? '', key: a?.dataset.focusKey ?? '', column: a?.dataset.column ?? '', position: a?.dataset.position ?? '', selected: a?.getAttribute('aria-selected') ?? '', label: a?.getAttribute('aria-label') ?? '', text: a?.textContent ?? '' };
  });
  /** Keyboard modality for :focus-visible after a programmatic focus. */
  const keyboardFocus = async (wb: Workbench, target: import('playwright-core').Locator) => {
    await target.focus();
    await wb.page.keyboard.press('Shift');
  };

  it('report: Export… and the filters act on an explicit choice, and focus stays on them', async () => {
    await setTheme(wb, 'dark');
    const view = await openReport(wb, 'folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
    await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: wb.origin });
    await wb.page.evaluate(() => navigator.clipboard.writeText(''));
    const exportSelect = view.locator('#export-select');
    await exportSelect.focus();
    // Arrow Down browses: the first entry is shown, nothing runs (it opened a save dialog).
    await wb.page.keyboard.press('ArrowDown');
    await expect.poll(() => exportSelect.inputValue()).toBe('md-file');
    await wb.page.keyboard.press('ArrowDown');
    await expect.poll(() => exportSelect.inputValue()).toBe('md-clipboard');
    expect((await focused(view)).id).toBe('export-select');
    // Enter runs the entry shown: the summary is on the clipboard, and no save dialog was opened.
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => wb.page.evaluate(() => navigator.clipboard.readText()), { timeout: 20_000 }).toMatch(/^#|\|/);
    expect(await wb.page.locator('.quick-input-widget').isVisible()).toBe(false);
    await expect.poll(() => exportSelect.inputValue()).toBe('');
    expect((await focused(view)).id).toBe('export-select');
    // A save dialog, cancelled: focus comes back to the menu, and the keys work there again.
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: 20_000 });
    await wb.page.keyboard.press('Escape');
    await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await expect.poll(() => view.locator('body').evaluate(() => document.hasFocus() && document.activeElement?.id)).toBe('export-select');
    await wb.page.keyboard.press('ArrowDown');
    await expect.poll(() => exportSelect.inputValue()).toBe('md-file');
    await wb.page.keyboard.press('Escape'); // back to "Export…", nothing run
    await expect.poll(() => exportSelect.inputValue()).toBe('');

    // A table filter by keyboard: the rows change, focus stays on the filter (it fell to the body).
    const count = view.locator('.table-count');
    const all = await count.getAttribute('data-rows');
    await view.locator('#filter-correctness').focus();
    await wb.page.keyboard.press('ArrowDown');
    await expect.poll(() => count.getAttribute('data-rows')).not.toBe(all);
    expect((await focused(view)).id).toBe('filter-correctness');
    await wb.page.keyboard.press('ArrowDown');
    await expect.poll(() => view.locator('#filter-correctness').inputValue()).toBe('incorrect');
    expect((await focused(view)).id).toBe('filter-correctness');
    // "Clear filters" by keyboard: it goes away with the filter, focus moves to the first filter.
    await view.locator('#clear-filters').focus();
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => count.getAttribute('data-rows')).toBe(all);
    expect((await focused(view)).tag).toBe('select');
    // The count is a polite live region: screen readers hear "N of M rows".
    expect(await count.getAttribute('aria-live')).toBe('polite');
  });

  it('report: the instance grid follows the ARIA grid pattern (headers with buttons, roving tabindex, selection)', async () => {
    const view = wb.webview();
    const grid = view.locator('[role="grid"]');
    expect(await grid.getAttribute('aria-label')).toBe('Instances');
    // Real column headers, each holding its sort button; aria-sort on the header.
    const headers = grid.locator('[role="columnheader"]');
    expect(await headers.count()).toBeGreaterThan(3);
    expect(await headers.locator('button').count()).toBe(await headers.count());
    const lastHead = headers.last().locator('button');
    await keyboardFocus(wb, lastHead);
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => headers.last().getAttribute('aria-sort')).toBe('ascending');
    expect((await focused(view)).column).toBe(await lastHead.getAttribute('data-column'));
    // Tab from the last header lands on a row (one tab stop), which becomes the selected one.
    await wb.page.keyboard.press('Tab');
    let f = await focused(view);
    expect(f.role).toBe('row');
    expect(f.position).toBe('0');
    await expect.poll(() => focused(view).then((x) => x.selected)).toBe('true');
    expect(await grid.locator('[role="row"][tabindex="0"]').count()).toBe(1);
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(view).then((x) => x.position)).toBe('2');
    f = await focused(view);
    expect(f.role).toBe('row');
    expect(f.selected).toBe('true');
    expect(await grid.locator('[role="row"][aria-selected="true"]').count()).toBe(1);
    await wb.screenshot('focus-grid-row-dark', view.locator('#instances').first());
    await wb.page.keyboard.press('End');
    await expect.poll(async () => Number((await focused(view)).position)).toBeGreaterThan(20);
    expect((await focused(view)).role).toBe('row');
    await wb.page.keyboard.press('Home');
    await expect.poll(() => focused(view).then((x) => x.position)).toBe('0');
  });

  it('report: every chart has a description and a data table one Enter away; the histogram says correct/incorrect in words', async () => {
    const view = wb.webview();
    const canvases = await view.locator('canvas[id^="chart-"]').evaluateAll((cs) => cs.map((c) => ({ id: c.id, described: c.getAttribute('aria-describedby') ?? '' })));
    expect(canvases.length).toBeGreaterThanOrEqual(3);
    for (const c of canvases) {
      expect(c.described, c.id).toMatch(/^chart-desc-/);
      expect(await view.locator(`#${c.described}`).textContent(), c.id).toMatch(/data table/);
    }
    const summary = view.locator('#chart-data-histogram summary');
    await keyboardFocus(wb, summary);
    await wb.page.keyboard.press('Enter');
    const table = view.locator('#chart-data-histogram table');
    await expect.poll(() => table.count()).toBe(1);
    expect(await table.locator('thead th').allTextContents()).toEqual(['Top-label confidence', '✓ correct (plain)', '✗ incorrect (hatched)']);
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(4);
    expect(await view.locator('#chart-desc-histogram').textContent()).toMatch(/✓ correct \(plain\) [\d,]+ in all; ✗ incorrect \(hatched\) [\d,]+ in all/);
    // The ROC curve's points, at the table's resolution.
    await view.locator('#chart-data-roc summary').focus();
    await wb.page.keyboard.press('Enter');
    const rocRows = view.locator('#chart-data-roc table').first().locator('tbody tr');
    await expect.poll(() => rocRows.count()).toBeGreaterThan(10);
    expect(await rocRows.count()).toBeLessThanOrEqual(101);
    await wb.screenshot('chart-data-histogram-dark', view.locator('#section-histogram'));
  });

  it('focus states are visible (dark and light): pressed segment, grid row, sort header', async () => {
    const view = wb.webview();
    for (const t of ['dark', 'light'] as const) {
      await setTheme(wb, t);
      const pressed = view.locator('.segment.on').first();
      await keyboardFocus(wb, pressed);
      const ring = await pressed.evaluate((b) => { const s = getComputedStyle(b); return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor, bg: s.backgroundColor }; });
      expect(ring.style, 'a focused pressed segment has a ring').toBe('solid');
      // Drawn (before: the pressed state's transparent outline won over the focus ring).
      expect(ring.color).not.toMatch(/^(transparent|rgba\(\d+, \d+, \d+, 0\))$/);
      expect(ring.color).not.toBe(ring.bg);
      await wb.screenshot(`focus-segment-${t}`, view.locator('#section-reliability .chart-head'));
      await keyboardFocus(wb, view.locator('.vtable-rows .vtable-row[tabindex="0"]'));
      await wb.screenshot(`focus-grid-row-${t}`, view.locator('#instances'));
      await keyboardFocus(wb, view.locator('#export-select'));
      await wb.screenshot(`focus-export-${t}`, view.locator('.export-actions'));
    }
    await setTheme(wb, 'dark');
  });

  it('compare: the agreement cells, the stepper and the pager keep focus and announce what changed', async () => {
    await closeAll(wb);
    await wb.openFile('folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await pick(wb, /Llama-3-8B-sim/, 'Llama-3-8B-sim');
    const view = wb.webview();
    await view.locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    const live = view.locator('#pairs-announce');
    expect(await live.getAttribute('aria-live')).toBe('polite');

    const cell = view.locator('#agree-baseline_only');
    await keyboardFocus(wb, cell);
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-cell')).toBe('baseline_only');
    expect((await focused(view)).id).toBe('agree-baseline_only');
    await expect.poll(() => live.textContent()).toMatch(/baseline right, candidate wrong, [\d,]+ rows/);
    await wb.screenshot(`focus-agreement-${theme}`, view.locator('#agreement'));
    await wb.page.keyboard.press('Space');
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-cell')).toBe('all');
    expect((await focused(view)).id).toBe('agree-baseline_only');

    const stepper = view.locator('#pair-stepper');
    await view.locator('#pair-next').focus();
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => stepper.getAttribute('data-index')).toBe('1');
    expect((await focused(view)).id).toBe('pair-next');
    await expect.poll(() => live.textContent()).toMatch(/: 2 of [\d,]+, ID /);
    await view.locator('#step-candidate_only').focus();
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => stepper.getAttribute('data-cell')).toBe('candidate_only');
    expect((await focused(view)).id).toBe('step-candidate_only');

    const next = view.locator('#pair-page-next');
    await next.focus();
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => view.locator('.pager span').textContent()).toMatch(/^page 2 of/);
    expect((await focused(view)).id).toBe('pair-page-next');
    await expect.poll(() => live.textContent()).toMatch(/page 2 of/);
    // A row reveals its line by keyboard too (its ID is a button).
    expect(await view.locator('#pair-table tbody tr').first().locator('button.row-reveal').count()).toBe(1);
    // The scroll box of the table is a focusable, named region.
    expect(await view.locator('.pair-table-wrap').getAttribute('tabindex')).toBe('0');

    // What a screen reader meets on this page, from the accessibility tree.
    writeFileSync(join(AXE_DIR, 'tree-compare.yml'), await view.locator('body').ariaSnapshot());
  });

  it('leaderboard: sort and pick by keyboard keep focus; a cell opens its report with Enter', async () => {
    await closeAll(wb);
    await wb.runCommand('Eval Lens: Show Leaderboard');
    await pick(wb, /^raft$/, 'raft');
    const view = wb.webview();
    await view.locator('body[data-rendered="board"]').waitFor({ state: 'attached', timeout: 90_000 });
    const sort = view.locator('button.sort-head[data-column="bank_intents"]');
    await keyboardFocus(wb, sort);
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => view.locator('th[aria-sort="descending"] button.sort-head').getAttribute('data-column')).toBe('bank_intents');
    expect((await focused(view)).column).toBe('bank_intents');
    await view.locator('input[data-run="run-1"]').focus();
    await wb.page.keyboard.press('Space');
    await expect.poll(() => view.locator('input[data-run="run-1"]').isChecked()).toBe(true);
    expect((await focused(view)).key).toBe('pick-run-1');
    await wb.screenshot(`focus-board-${theme}`, view.locator('#board-table'));
    // The second run, then Tab to the task and Compare: a few presses (the cells are one tab stop).
    await view.locator('input[data-run="run-2"]').focus();
    await wb.page.keyboard.press('Space');
    await expect.poll(() => view.locator('#board-task').count()).toBe(1);
    let presses = 0;
    while ((await focused(view)).id !== 'board-task' && presses < 10) {
      await wb.page.keyboard.press('Tab');
      presses++;
    }
    expect((await focused(view)).id).toBe('board-task');
    expect(presses).toBeLessThanOrEqual(3);
    // Arrows move between the cells that open reports.
    await view.locator('td.cell[data-run="run-2"][data-task="bank_intents"] button').focus();
    await wb.page.keyboard.press('ArrowRight');
    await expect.poll(() => focused(view).then((f) => f.key)).toBe('open-run-2-paper_safety_relevance');
    expect(await view.locator('button.cell-open[tabindex="0"]').count()).toBe(1);
    const open = view.locator('td.cell[data-run="run-2"][data-task="support_tweets"] button');
    expect(await open.getAttribute('title')).toMatch(/95% interval/);
    await open.focus();
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => wb.page.locator('.tabs-container .tab').allTextContents(), { timeout: 60_000 }).toEqual(expect.arrayContaining([expect.stringContaining('support_tweets')]));
  });

  it('report: what a screen reader meets (accessibility tree of a RAFT report)', async () => {
    const view = await openReport(wb, 'raft/run-1/bank_intents/predictions.csv');
    writeFileSync(join(AXE_DIR, 'tree-report.yml'), await view.locator('body').ariaSnapshot());
    // The stepper's text fields scroll: focusable named regions.
    const field = view.locator('#stepper .text-field-value').first();
    expect(await field.getAttribute('tabindex')).toBe('0');
    expect(await field.getAttribute('role')).toBe('region');
    // The confusion matrix is one tab stop; arrows move between cells, Enter filters the table.
    const stop = view.locator('#confusion-matrix td[tabindex="0"]');
    expect(await stop.count()).toBe(1);
    await keyboardFocus(wb, stop);
    await wb.page.keyboard.press('ArrowRight');
    await expect.poll(() => focused(view).then((f) => f.tag)).toBe('td');
    const target = await view.locator('body').evaluate(() => { const a = document.activeElement as HTMLElement; return { gold: a.dataset.gold, pred: a.dataset.pred, count: Number(a.dataset.count) }; });
    expect(target).toMatchObject({ gold: '0', pred: '1' });
    expect(target.count).toBeGreaterThan(0);
    await wb.page.keyboard.press('Enter');
    await expect.poll(() => view.locator('#filter-pred').inputValue()).toBe('1');
    expect(await view.locator('#filter-gold').inputValue()).toBe('0');
    await expect.poll(() => view.locator('.table-count').getAttribute('data-rows')).toBe(String(target.count));
  });
});
