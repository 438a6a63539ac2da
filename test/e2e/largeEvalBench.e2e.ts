// Measures, not a test: bench/large-eval.bench.mjs --workbench runs this with EVAL_LENS_LARGE_EVAL
// set to a ~300 MB Inspect .eval (bench/make-large-eval.mjs). In a real VS Code it opens the file's
// report, then clicks rows of the instance table and prints the time from each click (the first of
// the session first) to the sample's messages on the page (the sample peek's data-shown-at, the
// page's wall clock), then the first opening of the sample's own tab, and the extension host's peak
// RSS (VmHWM: the host and its scoring workers, one process). Without the variable it is skipped.
import { copyFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkbench, type Workbench } from './workbench';
import { viewWith } from './sampleHelpers';

const FILE = process.env.EVAL_LENS_LARGE_EVAL;
if (!FILE) console.log('[skipped] largeEvalBench: set EVAL_LENS_LARGE_EVAL (bench/large-eval.bench.mjs --workbench does)');

/** The newest extension host process and its peak RSS in MB (Linux /proc). */
function extensionHostPeak(): { pid: number; peakMb: number; rssMb: number } | null {
  let best: { pid: number; start: number } | null = null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('--type=extensionHost')) continue;
      const start = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[19]);
      if (!best || start > best.start) best = { pid: Number(entry), start };
    } catch {
      /* gone meanwhile */
    }
  }
  if (!best) return null;
  const status = readFileSync(`/proc/${best.pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { pid: best.pid, peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

describe.skipIf(!FILE)('a 300 MB Inspect .eval in VS Code (benchmark)', () => {
  let wb: Workbench;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-large-eval-'));
    copyFileSync(FILE!, join(dir, 'large-agent.eval'));
    // EVAL_LENS_DEBUG: the host's log lines (the sample peek's read and drawing times) come to the console.
    wb = await startWorkbench({ workspace: dir, theme: 'dark', viewport: { width: 1500, height: 1000 }, env: { EVAL_LENS_DEBUG: '1' } });
  }, 180_000);

  afterAll(async () => {
    await wb?.close();
  });

  it('opens the report, then each clicked row shows its sample', async () => {
    let before = extensionHostPeak();
    for (let k = 0; k < 60 && !before; k++) {
      await wb.page.waitForTimeout(500); // the extension host starts with the workbench: polled for, no event says so
      before = extensionHostPeak();
    }
    console.log(`[large-eval] extension host (pid ${before?.pid}) before the report: RSS ${before?.rssMb} MB, peak ${before?.peakMb} MB`);
    const opened = Date.now();
    // A click in the explorer opens the .eval in the Eval Lens Report editor, as a user opens it.
    const row = wb.page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'large-agent.eval' }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const report = await viewWith(wb, 'body[data-rendered][data-instances] #instances', 600_000);
    console.log(`[large-eval] report with every instance: ${((Date.now() - opened) / 1000).toFixed(1)} s after the click on the file`);
    const loaded = extensionHostPeak();
    console.log(`[large-eval] extension host (pid ${loaded?.pid}) with the report: peak RSS ${loaded?.peakMb} MB, RSS now ${loaded?.rssMb} MB`);
    const rows = report.locator('.vtable-rows .vtable-row:not([hidden])');
    // The first click of the session comes first: the sample peek in the report's own page.
    const times: number[] = [];
    const handled: number[] = [];
    const input: number[] = [];
    for (const k of [0, 3, 7, 12, 5]) {
      const row = rows.nth(k);
      const id = await row.locator('.vtable-cell').nth(2).textContent();
      const clicked = Date.now();
      await row.click();
      const peek = report.locator('#sample-peek');
      await expect.poll(() => peek.locator('#sample-peek-title').textContent(), { timeout: 60_000 }).toBe(`Sample ${id}`);
      await report.locator('#sample-peek[data-shown-at]').waitFor({ state: 'attached', timeout: 60_000 });
      const shownAt = Number(await peek.getAttribute('data-shown-at'));
      times.push(shownAt - clicked);
      handled.push(shownAt - Number(await peek.getAttribute('data-asked-at')));
      input.push(shownAt - Number(await peek.getAttribute('data-input-at')));
      expect(Number(await peek.getAttribute('data-messages'))).toBeGreaterThan(0);
    }
    console.log(`[large-eval] click to the sample's messages on the page, the first click first (ms): ${times.join(', ')}`);
    console.log(`[large-eval] the same from the click's input event (its time stamp in the page) (ms): ${input.join(', ')}`);
    console.log(`[large-eval] the same from the page's click handler (ms): ${handled.join(', ')}`);
    for (const line of wb.logs.filter((l) => l.includes('sample peek:'))) console.log(`[large-eval] host: ${line.replace(/^.*sample peek: /, '')}`);
    // For comparison: the sample in a tab of its own, whose webview is created and booted on its first opening.
    const tabClicked = Date.now();
    await report.locator('#sample-peek-tab').click();
    const tab = await viewWith(wb, 'body[data-shown-at] .sample-header h1', 60_000);
    const tabShown = Number(await tab.locator('body').getAttribute('data-shown-at'));
    console.log(`[large-eval] "Open in its own tab", the tab's first opening: ${tabShown - tabClicked} ms to its messages`);
    const after = extensionHostPeak();
    console.log(`[large-eval] extension host (with its scoring workers): peak RSS ${after?.peakMb} MB, RSS now ${after?.rssMb} MB`);
    expect(times.length).toBe(5);
  }, 900_000);
});
