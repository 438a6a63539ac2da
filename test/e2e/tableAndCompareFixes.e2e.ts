// End-to-end, in the real workbench (issue 28, points 8 and 12): a filter that leaves fewer rows than
// the table is high shows those rows only (no stale rows under them); a bin's button that filters
// keeps the keyboard focus; "Copy as Markdown" says it copied, on the report and the compare page;
// the compare page of two runs that agree on most instances passes axe in the dark theme (the "both
// right" cell's texts) and its scrolling tables are focusable named regions. The report's histogram
// and smoothed diagram are photographed for a look (test-results/e2e/).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { axeViolations, seriousLines, webviewFrame } from './axe';
import { startWorkbench, type Workbench } from './workbench';

const BASELINE = 'runs/baseline/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv';
const CANDIDATE = 'runs/candidate/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv';

/** The example's rows, and a candidate that moves one score in twenty across the threshold. */
function writeRuns(workspace: string): { ids: string[] } {
  const source = readFileSync(join(PROJECT_ROOT, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv'), 'utf8');
  const lines = source.trimEnd().split('\n');
  for (const run of ['baseline', 'candidate']) mkdirSync(join(workspace, 'runs', run), { recursive: true });
  writeFileSync(join(workspace, BASELINE), source);
  const moved = lines.map((line, k) => {
    if (k === 0 || k % 20) return line;
    const [id, score, label] = line.split(',');
    return `${id},${(1 - Number(score)).toFixed(7)},${label}`;
  });
  writeFileSync(join(workspace, CANDIDATE), moved.join('\n') + '\n');
  return { ids: lines.slice(1).map((l) => l.split(',')[0]) };
}

async function pick(wb: Workbench, label: RegExp, filter: string): Promise<void> {
  await wb.page.locator('.quick-input-widget .quick-input-box input').fill(filter);
  await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ has: wb.page.locator('.label-description, .label-name', { hasText: label }) }).first().click({ timeout: 20_000 });
}

/** What has focus inside the webview: its id, focus key and text. */
function focused(view: FrameLocator): Promise<{ id: string; key: string; text: string; tag: string }> {
  return view.locator('body').evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { id: a?.id ?? '', key: a?.dataset.focusKey ?? '', text: (a?.textContent ?? '').trim(), tag: a?.tagName ?? '' };
  });
}

describe('the instance table, the bins, Copy as Markdown and the compare page (issue 28)', () => {
  let wb: Workbench;
  let ids: string[];

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-issue28-'));
    ({ ids } = writeRuns(workspace));
    cpSync(join(PROJECT_ROOT, 'examples', 'folktexts', 'Llama-3-8B-sim__ACSIncome__-1'), join(workspace, 'llama'), { recursive: true });
    wb = await startWorkbench({ workspace, theme: 'dark', viewport: { width: 1400, height: 1000 }, settings: { 'evalLens.bootstrap': 0 } });
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) await wb.runCommand(title, { timeoutMs: 20_000 }).catch(() => undefined);
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('a search that keeps one row shows that row only (point 8), by the id the file gives it (point 7)', async () => {
    await wb.openFile(BASELINE);
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator('body[data-rendered][data-instances]').waitFor({ state: 'attached', timeout: 90_000 });
    const visibleRows = () => view.locator('.vtable-rows .vtable-row').evaluateAll((rows) => rows.filter((r) => getComputedStyle(r).display !== 'none' && (r as HTMLElement).offsetHeight > 0).map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    await expect.poll(async () => (await visibleRows()).length, { timeout: 30_000 }).toBeGreaterThan(5);
    const id = ids[1234];
    const box = view.locator('#instance-search');
    await box.fill(`id = ${id}`);
    await box.press('Enter');
    await expect.poll(() => view.locator('.table-count').getAttribute('data-rows'), { timeout: 20_000 }).toBe('1');
    const shown = await visibleRows();
    expect(shown, shown.join(' | ')).toHaveLength(1);
    // Row 1235 of the file, line 1236, with its own ID.
    expect(shown[0]).toMatch(new RegExp(`^1235 1236 ${id} `));
    await wb.screenshot('issue28-one-row');
    await box.fill('');
    await box.press('Enter');
    await expect.poll(() => view.locator('.table-count').getAttribute('data-rows'), { timeout: 20_000 }).toBe(String(ids.length));
  });

  it('a bin\'s button keeps the keyboard focus when it filters, and when it clears the filter (point 12)', async () => {
    const view = wb.webview();
    const button = view.locator('[data-focus-key="bin-8"]');
    await button.scrollIntoViewIfNeeded();
    await button.focus();
    await button.press('Enter');
    await expect.poll(() => view.locator('.table-count').getAttribute('data-rows'), { timeout: 20_000 }).not.toBe(String(ids.length));
    await expect.poll(() => focused(view).then((f) => f.key)).toBe('bin-8');
    expect(await view.locator('[data-focus-key="bin-8"]').getAttribute('aria-pressed')).toBe('true');
    await view.locator('body').press('Enter');
    await expect.poll(() => view.locator('.table-count').getAttribute('data-rows'), { timeout: 20_000 }).toBe(String(ids.length));
    expect((await focused(view)).key).toBe('bin-8');
    // The histogram (wrong answers hatched) and the smoothed diagram, for a look.
    for (const id of ['section-histogram', 'section-smooth-reliability']) {
      const section = view.locator(`#${id}`);
      if (await section.count()) {
        await section.scrollIntoViewIfNeeded();
        await wb.screenshot(`issue28-${id}`, section);
      }
    }
  });

  it('Copy as Markdown says it copied (point 12)', async () => {
    const view = wb.webview();
    const status = view.locator('#copy-status');
    await expect(status.textContent()).resolves.toBe('');
    await view.locator('#copy-markdown').click();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('✓ Copied to the clipboard');
    await expect(status.getAttribute('role')).resolves.toBe('status');
  });

  it('the compare page of two runs agreeing on 95%: no serious axe finding in the dark theme, scrolling tables are named regions, Copy as Markdown says it copied (point 12)', async () => {
    await wb.runCommand('View: Close All Editors', { timeoutMs: 10_000 }).catch(() => undefined);
    await wb.openFile(BASELINE);
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await pick(wb, /candidate/, 'candidate');
    const view = wb.webview();
    await view.locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    // The "both right" cell holds most instances (its shading was darkest).
    const share = await view.locator('.agree-cell.both_right .agree-share').textContent();
    expect(Number.parseFloat(share ?? '0')).toBeGreaterThan(60);
    const scrolls = await view.locator('.table-scroll').evaluateAll((boxes) => boxes.map((b) => [b.getAttribute('tabindex'), b.getAttribute('role'), b.getAttribute('aria-label') ?? '']));
    expect(scrolls.length).toBeGreaterThan(0);
    for (const [tabindex, role, label] of scrolls) {
      expect(tabindex).toBe('0');
      expect(role).toBe('region');
      expect(label).not.toBe('');
    }
    const findings = seriousLines(await axeViolations(await webviewFrame(wb.page)));
    expect(findings).toEqual([]);
    await wb.screenshot('issue28-compare-agreement', view.locator('#agreement'));
    await view.locator('#copy-markdown').click();
    await expect.poll(() => view.locator('#copy-status').textContent(), { timeout: 20_000 }).toBe('✓ Copied to the clipboard');
  });
});
