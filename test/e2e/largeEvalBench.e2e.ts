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

/**
 * The newest extension host process of this workbench's code-server (its process group: another
 * session's workbench may run beside it) and its RSS and peak RSS in MB (Linux /proc).
 */
function extensionHostPeak(group: number): { pid: number; peakMb: number; rssMb: number } | null {
  let best: { pid: number; start: number } | null = null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.includes('--type=extensionHost')) continue;
      // stat after the command's closing parenthesis: state, ppid, pgrp, ..., starttime (field 22).
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[2]) !== group) continue;
      const start = Number(fields[19]);
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

/** The host's memory lines (EVAL_LENS_DEBUG=memory, src/extension/worker/memoryLog.ts): time and each part's MB. */
function memoryLines(logs: string[]): { at: number; parts: Record<string, number> }[] {
  const out: { at: number; parts: Record<string, number> }[] = [];
  for (const line of logs) {
    const m = /@(\d+)\] memory: (.*)$/.exec(line);
    if (!m) continue;
    const parts: Record<string, number> = {};
    for (const part of m[2].split('; ')) {
      // "rss 412 MB", "host heap 80/120 MB (...)", "scoring worker 0 150/190 MB": the total (committed) heap.
      const p = /^(.*?) (?:(\d+)\/)?(\d+) MB(?: \(external (\d+))?/.exec(part);
      if (!p) continue;
      const name = p[1].replace(/ \(niced\)$/, '');
      parts[name] = Number(p[3]);
      if (p[4] !== undefined) parts[`${name} external`] = Number(p[4]);
    }
    out.push({ at: Number(m[1]), parts });
  }
  return out;
}

/** Per phase (from..to, the test's clock): the largest value of each part and the largest sum of the heaps. */
function memoryByPhase(lines: ReturnType<typeof memoryLines>, phases: { name: string; from: number; to: number }[]): string[] {
  return phases.map(({ name, from, to }) => {
    const within = lines.filter((l) => l.at >= from && l.at <= to);
    if (!within.length) return `${name}: no memory lines`;
    const max: Record<string, number> = {};
    let heaps = 0;
    for (const l of within) {
      let sum = 0;
      for (const [k, v] of Object.entries(l.parts)) {
        max[k] = Math.max(max[k] ?? 0, v);
        if (k !== 'rss') sum += v;
      }
      heaps = Math.max(heaps, sum);
    }
    return `${name}: ${Object.entries(max).map(([k, v]) => `${k} ${v}`).join(', ')}; the heaps and their external memory together at most ${heaps} (MB)`;
  });
}

/** The extension host's RSS every 200 ms, read by the test itself (the peak between two memory lines too). */
function rssSampler(pid: () => number | undefined): { samples: { at: number; mb: number }[]; stop(): void } {
  const samples: { at: number; mb: number }[] = [];
  const timer = setInterval(() => {
    const p = pid();
    if (!p) return;
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? NaN);
      if (Number.isFinite(kb)) samples.push({ at: Date.now(), mb: Math.round(kb / 1024) });
    } catch {
      /* gone */
    }
  }, 200);
  return { samples, stop: () => clearInterval(timer) };
}

describe.skipIf(!FILE)('a 300 MB Inspect .eval in VS Code (benchmark)', () => {
  let wb: Workbench;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-large-eval-'));
    copyFileSync(FILE!, join(dir, 'large-agent.eval'));
    // EVAL_LENS_DEBUG: the host's log lines (the sample peek's read and drawing times) come to the console.
    // EVAL_LENS_DEBUG=memory: and the host's memory, part by part, once a second.
    wb = await startWorkbench({ workspace: dir, theme: 'dark', viewport: { width: 1500, height: 1000 }, env: { EVAL_LENS_DEBUG: 'memory' } });
  }, 180_000);

  afterAll(async () => {
    await wb?.close();
  });

  it('opens the report, then each clicked row shows its sample', async () => {
    const group = wb.codeServer.pid;
    let before = extensionHostPeak(group);
    for (let k = 0; k < 60 && !before; k++) {
      await wb.page.waitForTimeout(500); // the extension host starts with the workbench: polled for, no event says so
      before = extensionHostPeak(group);
    }
    const rss = rssSampler(() => before?.pid);
    const started = Date.now();
    // As a user opens a folder and then the file: discovery has found it and the tree's score of it
    // has started (it starts right after this line of the host's log) before the click.
    await expect.poll(() => wb.logs.some((l) => /discovery: 1 prediction files/.test(l)), { timeout: 60_000 }).toBe(true);
    console.log(`[large-eval] discovery found the file ${((Date.now() - started) / 1000).toFixed(1)} s after the extension host was seen; the click follows`);
    console.log(`[large-eval] extension host (pid ${before?.pid}) before the report: RSS ${before?.rssMb} MB, peak ${before?.peakMb} MB`);
    const opened = Date.now();
    // A click in the explorer opens the .eval in the Eval Lens Report editor, as a user opens it.
    const row = wb.page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'large-agent.eval' }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const report = await viewWith(wb, 'body[data-rendered][data-instances] #instances', 600_000);
    console.log(`[large-eval] report with every instance: ${((Date.now() - opened) / 1000).toFixed(1)} s after the click on the file`);
    const reportIn = Date.now();
    const loaded = extensionHostPeak(group);
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
    const after = extensionHostPeak(group);
    rss.stop();
    const done = Date.now();
    console.log(`[large-eval] extension host (with its scoring workers): peak RSS ${after?.peakMb} MB, RSS now ${after?.rssMb} MB`);
    const phases = [
      { name: 'before the click on the file', from: started, to: opened },
      { name: 'the click to every instance in the table', from: opened, to: reportIn },
      { name: 'the sample clicks and the tab', from: reportIn, to: done },
    ];
    for (const p of phases) {
      const within = rss.samples.filter((x) => x.at >= p.from && x.at <= p.to);
      if (!within.length) continue;
      const top = within.reduce((a, b) => (b.mb > a.mb ? b : a));
      console.log(`[large-eval] RSS sampled every 200 ms, ${p.name}: at most ${top.mb} MB (${((top.at - opened) / 1000).toFixed(1)} s after the click on the file)`);
    }
    // The top of the sampled RSS, and each part there: the memory line nearest to it.
    const lines = memoryLines(wb.logs);
    console.log(`[large-eval] memory lines of the host: ${lines.length}${lines.length ? `, the first ${((lines[0].at - started) / 1000).toFixed(1)} s after the extension host was seen, the last ${((lines[lines.length - 1].at - started) / 1000).toFixed(1)} s` : ''}`);
    const top = rss.samples.reduce((a, b) => (b.mb > a.mb ? b : a), { at: 0, mb: 0 });
    const near = lines.reduce<(typeof lines)[number] | undefined>((a, b) => (!a || Math.abs(b.at - top.at) < Math.abs(a.at - top.at) ? b : a), undefined);
    if (near) console.log(`[large-eval] at the sampled top (${top.mb} MB, ${((top.at - opened) / 1000).toFixed(1)} s after the click on the file), the memory line ${near.at - top.at} ms from it: ${Object.entries(near.parts).map(([k, v]) => `${k} ${v}`).join(', ')} (MB)`);
    for (const line of memoryByPhase(lines, phases)) console.log(`[large-eval] memory by part, ${line}`);
    // The host's scoring timeline: which passes ran, in which worker, and whether they parsed or found a kept parse.
    for (const line of wb.logs.filter((l) => /scoring: |scored .* in \d+ ms/.test(l))) console.log(`[large-eval] host: ${line.replace(/^.*\] /, '')}`);
    expect(times.length).toBe(5);
  }, 900_000);
});
