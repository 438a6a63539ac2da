// End-to-end (issue 29): the first click on a row of a freshly opened report shows the sample in the
// report page itself (the sample peek), with no other tab or editor opened: every message and tool
// call of the sample, as Python's zipfile and json read it from the file, is on the page as text.
// The peek is driven by the keyboard (focus moves in, Tab reaches its buttons, Escape closes it and
// focus goes back to the row) and axe finds no serious or critical violation in it. Timings are
// measured in bench/large-eval.bench.mjs --workbench, not asserted here (a busy 2-core machine).
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { axeViolations, seriousLines, webviewFrame } from './axe';
import { startWorkbench, type Workbench } from './workbench';
import { clickInExplorer, expectMessages, inspectMessages, samplePeek, viewWith } from './sampleHelpers';

const REL = 'inspect/log_message_deduplication.eval';

describe('the sample peek in a fresh report', () => {
  let wb: Workbench;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-peek-'));
    mkdirSync(join(dir, 'inspect'));
    copyFileSync(join(PROJECT_ROOT, 'test/fixtures/real/inspect-ai/log_message_deduplication.eval'), join(dir, REL));
    wb = await startWorkbench({ workspace: dir, theme: 'dark', viewport: { width: 1500, height: 1000 }, settings: { 'evalLens.bootstrap': 0 } });
  });

  afterAll(async () => {
    await wb?.close();
  });

  /** What has keyboard focus in the report page. */
  const focused = (view: Awaited<ReturnType<typeof viewWith>>) => view.locator('body').evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    return { id: a?.id ?? '', role: a?.getAttribute('role') ?? '', inPeek: !!a?.closest('#sample-peek') };
  });

  it('the first click shows every message of the sample in the page, and opens no tab', async () => {
    await clickInExplorer(wb, REL);
    const report = await viewWith(wb, 'body[data-rendered][data-instances] #instances');
    const tabs = () => wb.page.locator('.tabs-container .tab').count();
    expect(await tabs()).toBe(1);
    expect(await report.locator('#sample-peek').count()).toBe(0);
    await report.locator('.vtable-rows .vtable-row:not([hidden])').first().click();
    const peek = await samplePeek(report, '0');
    const want = inspectMessages(join(dir, REL), '0');
    expect(want.length).toBe(12);
    await expectMessages(peek, want);
    expect(await peek.getAttribute('data-messages')).toBe('12');
    expect(await peek.locator('.tool-call[data-tool="bash"]').count()).toBe(5);
    // In the report's own page: no tab, no editor, no other webview came.
    expect(await tabs()).toBe(1);
    expect(await wb.page.locator('iframe.webview.ready').count()).toBe(1);
    expect(await focused(report)).toMatchObject({ id: 'sample-peek', inPeek: true });
    await wb.runCommand('View: Close Primary Side Bar', { timeoutMs: 10_000 }).catch(() => undefined);
    await wb.screenshot('sample-peek-dark');
  });

  it('the keyboard: Tab reaches its buttons, Escape closes it and focus goes back to the row; Enter opens it again', async () => {
    const report = await viewWith(wb, '#sample-peek[data-shown-at]');
    await report.locator('#sample-peek').focus();
    await wb.page.keyboard.press('Tab');
    expect((await focused(report)).id).toBe('sample-peek-tab');
    await wb.page.keyboard.press('Tab');
    expect((await focused(report)).id).toBe('sample-peek-close');
    await wb.page.keyboard.press('Escape');
    await report.locator('#sample-peek').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await focused(report)).toMatchObject({ role: 'row', inPeek: false });
    await wb.page.keyboard.press('Enter');
    const peek = await samplePeek(report, '0');
    expect(await focused(report)).toMatchObject({ id: 'sample-peek', inPeek: true });
    // Close by its button, by the keyboard: focus back on the row again.
    await peek.locator('#sample-peek-close').focus();
    await wb.page.keyboard.press('Enter');
    await report.locator('#sample-peek').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await focused(report)).toMatchObject({ role: 'row', inPeek: false });
  });

  it('axe: no serious or critical violation with the peek open (its folded parts open too)', async () => {
    const report = await viewWith(wb, 'body[data-rendered][data-instances] #instances');
    await report.locator('.vtable-rows .vtable-row:not([hidden])').first().click();
    const peek = await samplePeek(report, '0');
    await peek.locator('details > summary').evaluateAll((s) => s.forEach((x) => (x as HTMLElement).click()));
    expect(seriousLines(await axeViolations(await webviewFrame(wb.page, 0)))).toEqual([]);
  });

  it('"Open in its own tab" opens the sample view beside the report, with the same messages', async () => {
    const report = await viewWith(wb, '#sample-peek[data-shown-at]');
    await report.locator('#sample-peek-tab').click();
    const tab = await viewWith(wb, 'body[data-sample-token] .sample-header h1');
    await expect.poll(() => tab.locator('.sample-header h1').textContent(), { timeout: 30_000 }).toBe('Sample 0');
    await expectMessages(tab, inspectMessages(join(dir, REL), '0'));
  });
});
