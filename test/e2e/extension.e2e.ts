// End-to-end: the extension in a real workbench (code-server + Chromium) on the fixture workspace.
// Reads what a user sees: the CodeLens text in the editor DOM, the Problems count in the status
// bar, and "Eval Lens: Score Benchmark" driven through the command palette and its quick picks.
// (Assertions on the report's own content belong to the webview's tests.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkbench, type Workbench } from './workbench';

const WORKSPACE = 'test/fixtures/workspace';
const FOLKTEXTS = 'folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv';
const BAD_ROWS = 'bad/bad_rows.test_predictions.csv';

/** ECE with 10 equal-width bins, from the fixture by hand (the number the CodeLens must show). */
function folktextsEce(root: string): number {
  const rows = readFileSync(join(root, WORKSPACE, FOLKTEXTS), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const sums = Array.from({ length: 10 }, () => ({ s: 0, y: 0, n: 0 }));
  for (const [, s, y] of rows) {
    const b = sums[Math.min(Math.floor(Number(s) * 10), 9)];
    b.s += Number(s);
    b.y += Number(y);
    b.n++;
  }
  return sums.reduce((acc, b) => (b.n ? acc + (b.n / rows.length) * Math.abs(b.s / b.n - b.y / b.n) : acc), 0);
}

/**
 * Opens a file through Quick Open and waits for its tab. (The harness's openFile matches the tab's
 * aria-label against the path, which fails for a file with problems: the label then ends with
 * "• 8 problems in this file".)
 */
async function openFile(wb: Workbench, relPath: string): Promise<void> {
  const name = relPath.split('/').pop()!;
  const quickInput = wb.page.locator('.quick-input-widget');
  await wb.dismiss();
  await wb.page.keyboard.press('Control+P');
  await quickInput.locator('.quick-input-box input').fill(relPath);
  await quickInput.locator('.monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: name }) }).first().click();
  await wb.page.locator(`.editor-group-container.active .tab.active[data-resource-name=${JSON.stringify(name)}]`).waitFor({ timeout: 15_000 });
}

describe('Eval Lens in the workbench', () => {
  let wb: Workbench;

  beforeAll(async () => {
    wb = await startWorkbench({ workspace: WORKSPACE, theme: 'dark' });
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('shows the headline metrics in a CodeLens on the folktexts file', async () => {
    await openFile(wb, FOLKTEXTS);
    const expected = `Eval Lens · ECE ${folktextsEce(process.cwd()).toFixed(3)}`;
    await expect.poll(async () => (await wb.codeLenses({ timeoutMs: 5_000 })).join('\n'), { timeout: 60_000, interval: 500 }).toContain(expected);
    const lens = (await wb.codeLenses()).find((t) => t.startsWith('Eval Lens'))!;
    expect(lens).toMatch(/· AUC \d\.\d{3} · Brier \d\.\d{3} · acc \d\.\d{3} · n=200$/);
    // The status bar carries the same headline.
    const headline = `ECE ${folktextsEce(process.cwd()).toFixed(3)} · n=200`;
    await expect.poll(() => wb.page.locator('.part.statusbar .statusbar-item').allTextContents(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining(headline)]));
    await wb.screenshot('extension-codelens');
  });

  it('counts the bad rows in the Problems status', async () => {
    await openFile(wb, BAD_ROWS);
    // 8 errors in the bad-rows file; the RAFT hidden-test notes are infos, nothing else is wrong.
    await expect.poll(async () => (await wb.problems()).errors, { timeout: 60_000, interval: 500 }).toBe(8);
    const lens = (await wb.codeLenses()).find((t) => t.startsWith('Eval Lens'));
    expect(lens).toContain('n=32 (8 skipped)');
    await wb.screenshot('extension-problems');
  });

  it('lists the prediction files in the Eval Lens view, grouped by benchmark', async () => {
    await wb.page.locator('.activitybar .action-item a[aria-label^="Eval Lens"]').first().click();
    const rows = wb.page.locator('.pane-body .monaco-list-row');
    await expect.poll(async () => (await rows.allTextContents()).join('\n'), { timeout: 30_000 }).toContain('qa_confidence.csv');
    const text = (await rows.allTextContents()).join('\n');
    for (const label of ['folktexts', 'RAFT', 'raft-run', 'alpha_reviews', 'ALMANACS', 'lm-eval', 'generic']) expect(text).toContain(label);
    expect(text).toMatch(/raft_score \d\.\d{3}/);
    expect(text).toContain('8 problems');
    await wb.screenshot('extension-tree');
  });

  it('runs "Eval Lens: Score Benchmark" from the command palette', async () => {
    await wb.runCommand('Eval Lens: Score Benchmark');
    const quickInput = wb.page.locator('.quick-input-widget');
    const row = (label: RegExp) => quickInput.locator('.monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: label }) }).first();
    await row(/^folktexts$/).click();
    await row(/Mistral-7B\.ACSIncome\.test_predictions\.csv/).click();
    // The report opens in a webview tab.
    await wb.page.locator('iframe.webview.ready').first().waitFor({ state: 'attached', timeout: 60_000 });
    await expect.poll(() => wb.page.locator('.tabs-container .tab').allTextContents(), { timeout: 30_000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/Mistral-7B|Eval Lens/)]));
    // Give the report a moment to draw for the screenshot; its content is the webview tests' business.
    await wb.webview().locator('canvas').first().waitFor({ timeout: 20_000 }).catch(() => {});
    await wb.screenshot('extension-score-benchmark');
  });
});
