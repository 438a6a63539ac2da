// Large files in the real extension host: command -> first chart for 100,000 and 1,000,000 rows,
// the per-instance data arriving after the charts, the bootstrap intervals added in place, the
// extension host thread (its own CPU time bounded; its longest busy stretch reported for the
// benchmark) and its memory while a 1,000,000-row file is scored, progress reported through
// window.withProgress, and the size limit.
//
// The files are written by a worker thread before any measurement starts (writing a million rows
// on the extension host's own thread would itself block it for a second).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensApi } from '../../src/extension/activate';
import type { ScoreResult } from '../../src/extension/worker/workerProtocol';
import { api, fixture, until, watcherBarrier } from './evalLensSupport';
import { inWorker, startProbe, writeFolktexts } from './largeSupport';

async function closePanel(a: EvalLensApi): Promise<void> {
  const panel = a.panel();
  if (panel) {
    panel.panel.dispose();
    await until(() => a.workerJobs(), (n) => n === 0, 'no job left after closing the panel', 10_000);
  }
}

const f1 = (x: number) => x.toFixed(1);

/**
 * The extension host thread's own CPU time (process.threadCpuUsage deltas around the work) for a
 * file of `rows` rows: at most HOST_CPU_MS_PER_MILLION ms a million rows (with a floor). Measured on
 * the 2-core machine at a load of 6-13: 0.56 s for a million rows with the intervals pass, 0.31 s
 * without, 0.21 s for 100,000 rows, 0.04 s for the diagnostics of 500,000 bad rows; parsing or
 * scoring on the host's thread instead of the worker costs seconds. Without threadCpuUsage
 * (Node < 23.9) the bound is skipped with a line saying so.
 */
const HOST_CPU_MS_PER_MILLION = 3000;
function assertHostCpu(m: { cpuMs: number }, rows: number): void {
  if (!Number.isFinite(m.cpuMs)) {
    console.log('    [skipped] the extension host thread\'s CPU time: process.threadCpuUsage needs Node >= 23.9');
    return;
  }
  const limit = Math.max(1000, (HOST_CPU_MS_PER_MILLION * rows) / 1_000_000);
  assert.ok(m.cpuMs < limit, `the extension host thread spent ${f1(m.cpuMs)} ms of its own CPU time on ${rows.toLocaleString('en')} rows (limit ${limit} ms): work that belongs in the scoring worker ran on it`);
}

async function setMaxMB(value: number | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('evalLens').update('maxFileSizeMB', value, vscode.ConfigurationTarget.Global);
}

suite('large files', () => {
  let dir: string;
  const file = (rows: number) => join(dir, `large${rows}.test_predictions.csv`);

  suiteSetup(async function () {
    this.timeout(120_000);
    // Outside the workspace: discovery does not score these files at the same time.
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-large-'));
    await Promise.all([writeFolktexts(file(100_000), 100_000), writeFolktexts(file(1_000_000), 1_000_000)]);
  });

  suiteTeardown(async () => {
    const a = await api();
    await closePanel(a);
    rmSync(dir, { recursive: true, force: true });
  });

  // The first run of the window may start the first webview of the window (cold: about 1-3 s in
  // code-server); the others start a fresh panel in a warm window. The second 1,000,000-row run
  // does not wait for its bootstrap intervals.
  const runs: { rows: number; intervals: boolean }[] = [
    { rows: 1_000_000, intervals: true }, { rows: 100_000, intervals: true }, { rows: 1_000_000, intervals: false },
  ];
  runs.forEach(({ rows, intervals }, run) => {
    test(`Score Benchmark on ${rows.toLocaleString('en')} rows (run ${run + 1}): first chart, instances, ${intervals ? 'intervals, ' : ''}event loop, memory (measured)`, async function () {
      this.timeout(540_000);
      const a = await api();
      await closePanel(a);
      await a.whenIdle();
      const coldWebview = a.panelsCreated() === 0;
      const path = file(rows);
      const probe = startProbe();
      const t0 = Date.now();
      const command = vscode.commands.executeCommand<ScoreResult>('evalLens.scoreBenchmark', { path, format: 'folktexts' });
      const panel = await until(() => a.panel(), (p) => p?.path === path, 'the panel', 60_000);
      const rendered = await panel!.whenRendered(path, 60_000);
      const firstChartMs = rendered.at - t0;
      const result = await command;
      assert.equal(result.reports[0].n, rows);
      const ready = await panel!.whenInstancesReady(path, 120_000);
      const instancesMs = ready.at - t0;
      assert.equal(ready.rows, rows, 'every instance reached the webview');
      const info = panel!.snapshot();
      const posted = info.pagesPosted;
      const t = result.timings;
      console.log(`    [eval-lens] ${rows.toLocaleString('en')} rows: worker scored in ${Math.round(t?.scoreMs ?? NaN)} ms + encoded in ${Math.round(t?.encodeMs ?? NaN)} ms, `
        + `reply ${Math.round(t?.roundTripMs ?? NaN)} ms after the request; panel created ${info.createdAt - t0} ms, webview ready ${(info.readyAt ?? NaN) - t0} ms, `
        + `report posted ${(info.reportsPostedAt ?? NaN) - t0} ms after the command${coldWebview ? ' (the first webview of this window)' : ''}`);
      let intervalsMs = NaN;
      if (intervals) {
        // The bootstrap pass follows and adds its intervals in place.
        const full = await a.scoring.whenIntervals();
        assert.ok(full?.reports[0].intervals.ece, 'intervals');
        await until(() => panel!.reports?.[0].options.bootstrap, (b) => b === 200, 'the intervals in the panel', 30_000);
        intervalsMs = Date.now() - t0;
        assert.equal(panel!.instancesReady?.at, ready.at, 'the intervals did not re-send the instances');
      }
      const m = probe.stop();
      console.log(`    [eval-lens] ${rows.toLocaleString('en')} rows (${f1(statSync(path).size / 2 ** 20)} MB): first chart ${firstChartMs} ms after the command `
        + `(webview: message -> painted ${rendered.ms} ms); all instances in the table ${instancesMs} ms `
        + `(${posted?.pages} pages, ${f1((posted?.bytes ?? 0) / 2 ** 20)} MB, posted in ${posted?.ms} ms)${intervals ? `; intervals (200 resamples) in place ${intervalsMs} ms` : ''}`);
      console.log(`    [eval-lens] ${rows.toLocaleString('en')} rows: extension host thread: ${f1(m.cpuMs)} ms of its own CPU time in ${f1(m.wallMs)} ms (event loop utilisation ${f1(100 * m.eventLoopUtilization)}%)`);
      console.log(`    [eval-lens] ${rows.toLocaleString('en')} rows: extension host event loop: longest busy stretch ${f1(m.busyMaxMs)} ms (longest GC pause ${f1(m.gcMaxMs)} ms); `
        + `timers late by at most ${f1(m.driftMaxMs)} ms (monitorEventLoopDelay max ${f1(m.loopMaxMs)} ms, p99 ${f1(m.loopP99Ms)} ms); `
        + `rss ${f1(m.rssBeforeMB)} -> ${f1(m.rssAfterMB)} MB (growth ${f1(m.rssGrowthMB)} MB, peak growth ${f1(m.rssPeakGrowthMB)} MB)`);
      // Progress came from the worker as the file was parsed, in whole percents, only ever growing.
      const shown = a.lastProgress;
      console.log(`    [eval-lens] ${rows.toLocaleString('en')} rows: progress shown ${shown.length} times: ${shown.slice(0, 8).join(', ')}${shown.length > 8 ? `, …, ${shown.at(-1)}` : ''} %`);
      assert.ok(shown.every((p, k) => k === 0 || p > shown[k - 1]), `progress only grows: ${shown.join(', ')}`);
      if (rows === 1_000_000 && intervals) {
        // An idle worker exits after a while and gives its heap back; one that keeps a parse for a
        // warm reopen (issue 28.11) stays KEEPING_WORKER_IDLE_MS (3 minutes) first.
        await until(() => a.workerThreads(), (n) => n === 0, 'the idle workers exit', 210_000);
        console.log(`    [eval-lens] ${rows.toLocaleString('en')} rows: rss once the idle workers exited ${f1(process.memoryUsage().rss / 2 ** 20)} MB `
          + `(growth ${f1(process.memoryUsage().rss / 2 ** 20 - m.rssBeforeMB)} MB, the panel keeping the pages it re-posts when the webview reloads)`);
      }
      if (rows === 1_000_000) {
        // A second open of the same unchanged file reuses the worker's parse (issue 28.11): no parse
        // to report in steps, only its end.
        const warm = runs.slice(0, run).some((r) => r.rows === rows);
        assert.ok((warm || shown.length >= 10) && shown.at(-1)! >= 90, `progress in steps: ${shown.join(', ')}`);
        // The 3 s budget is a figure of bench/extension-first-chart.mjs (which runs this test and
        // reports it); here only a margin no loaded 2-core machine reaches unless something broke.
        assert.ok(firstChartMs < 20_000, `1,000,000 rows: first chart after ${firstChartMs} ms`);
        assert.ok(m.rssPeakGrowthMB < 300, `extension host memory grew by ${f1(m.rssPeakGrowthMB)} MB at its peak`);
      }
      // The host's own thread only relays: the worker parses, scores and encodes. Its CPU time over
      // the whole run is what it costs the window, which a busy machine's scheduling does not change
      // (timer lateness does; the 50 ms longest-stretch budget is bench/extension-first-chart.mjs's).
      assertHostCpu(m, rows);
    });
  });

  test('a file above evalLens.maxFileSizeMB gets a clear message from Score Benchmark and the panel, not a crash', async () => {
    const a = await api();
    await closePanel(a);
    const path = file(100_000); // 1.7 MB
    await setMaxMB(1);
    try {
      const t0 = Date.now();
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('evalLens.scoreBenchmark', { path, format: 'folktexts', show: false })),
        (e: Error) => /the file is 1\.\d MB, above the evalLens\.maxFileSizeMB limit \(1(\.0)? MB\); raise the setting to score it\./.test(e.message),
      );
      assert.ok(Date.now() - t0 < 5000, 'refused before reading');
      await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(path));
      const panel = await until(() => a.panel(), (p) => p?.path === path && p.lastPosted === 'error', 'the panel says why', 20_000);
      assert.equal(panel!.reports, undefined);
    } finally {
      await setMaxMB(undefined);
      await closePanel(a);
    }
  });

  test("opening a 1,000,000-row file in an editor: the extension's share of the event loop (measured)", async function () {
    this.timeout(180_000);
    const a = await api();
    await a.whenIdle();
    // The same bytes as plain text first: what VS Code itself costs the extension host (the
    // document's text is synced to it), with nothing of ours involved.
    const csv = file(1_000_000);
    const txt = join(dir, 'large-copy.txt');
    const { copyFileSync } = await import('node:fs');
    copyFileSync(csv, txt);
    const measure = async (path: string, wait: () => Promise<unknown>) => {
      const probe = startProbe();
      const t0 = Date.now();
      await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
      await wait();
      const ms = Date.now() - t0;
      const m = probe.stop();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      return { ms, ...m };
    };
    const ours = await measure(csv, async () => {
      await until(() => a.files.get(vscode.Uri.file(csv))?.result?.reports[0]?.instances?.lines.length, (n) => n === 1_000_000, 'the open file scored with its instances', 60_000);
      await a.whenIdle();
    });
    // The plain text watched for as long as the .csv took, so both figures cover the same span.
    const plain = await measure(txt, () => new Promise((r) => setTimeout(r, ours.ms)));
    for (const [what, m] of [['as .txt (VS Code alone)', plain], ['as .csv (with Eval Lens: detect, score, CodeLens, hover data)', ours]] as const) {
      console.log(`    [eval-lens] opening 1,000,000 rows ${what}: ${m.ms} ms; longest busy stretch ${f1(m.busyMaxMs)} ms, timers late by at most ${f1(m.driftMaxMs)} ms, rss growth ${f1(m.rssGrowthMB)} MB`);
    }
  });

  test('a 1,000,000-row file with 500,000 bad rows in the workspace: diagnostics without blocking the host (measured)', async function () {
    this.timeout(180_000);
    const a = await api();
    await a.whenIdle();
    const scratch = fixture('scratch-large-problems');
    const { mkdirSync, rmSync: rm } = await import('node:fs');
    rm(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    await watcherBarrier(a, scratch);
    // Written elsewhere, then moved in: the watcher sees one complete file.
    const staged = join(dir, 'bad.test_predictions.csv');
    await inWorker(`
      const fs = require('node:fs');
      let s = ',risk_score,label\\n';
      const parts = [];
      for (let i = 0; i < 1000000; i++) {
        s += i + ',' + (i % 2 ? (i % 100) + '%' : ((i % 97) / 97).toFixed(4)) + ',' + (i % 2) + '\\n';
        if (s.length > 1 << 20) { parts.push(s); s = ''; }
      }
      parts.push(s);
      fs.writeFileSync(workerData.file, parts.join(''));
    `, { file: staged });
    const target = join(scratch, 'bad.test_predictions.csv');
    const uri = vscode.Uri.file(target);
    const probe = startProbe();
    const t0 = Date.now();
    const { renameSync } = await import('node:fs');
    renameSync(staged, target);
    const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Eval Lens');
    await until(() => ours().length, (n) => n > 1000, 'the diagnostics', 120_000);
    const ms = Date.now() - t0;
    await a.whenIdle();
    const m = probe.stop();
    const diags = ours();
    console.log(`    [eval-lens] 1,000,000 rows, 500,000 bad: ${diags.length} diagnostics (the first 1,000 problems and a summary) ${ms} ms after the file appeared; `
      + `longest busy stretch ${f1(m.busyMaxMs)} ms, timers late by at most ${f1(m.driftMaxMs)} ms`);
    assert.ok(diags.some((d) => d.code === 'more-problems'), 'a summary of the problems left out');
    console.log(`    [eval-lens] 1,000,000 rows, 500,000 bad: extension host thread: ${f1(m.cpuMs)} ms of its own CPU time in ${f1(m.wallMs)} ms`);
    assertHostCpu(m, 1_000_000);
    rm(scratch, { recursive: true, force: true });
    await until(() => ours().length, (n) => n === 0, 'no diagnostics once the file is gone', 30_000);
  });

  test('how this VS Code carries typed arrays in webview.postMessage (measured)', async function () {
    this.timeout(120_000);
    // A bare webview that answers each message with what it received: typed arrays arrive as typed
    // arrays (VS Code sends their buffers as binary, engines >= 1.57), and bytes cost time.
    const panel = vscode.window.createWebviewPanel('evalLens.postMessageProbe', 'postMessage probe', vscode.ViewColumn.One, { enableScripts: true });
    const nonce = 'probe' + Date.now();
    panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'"></head><body><script nonce="${nonce}">
      const api = acquireVsCodeApi();
      window.addEventListener('message', (e) => {
        const d = e.data;
        api.postMessage({ id: d.id, at: Date.now(), ctor: d.a && d.a.constructor ? d.a.constructor.name : typeof d.a, length: d.a ? d.a.length : 0 });
      });
      api.postMessage({ ready: true });
    </script></body></html>`;
    const waiting = new Map<number, (m: { at: number; ctor: string; length: number }) => void>();
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    panel.webview.onDidReceiveMessage((m) => (m.ready ? ready() : waiting.get(m.id)?.(m)));
    await isReady;
    let id = 0;
    const send = async (a: unknown) => {
      const reply = new Promise<{ at: number; ctor: string; length: number }>((r) => waiting.set(++id, r));
      const t0 = Date.now();
      await panel.webview.postMessage({ id, a });
      const m = await reply;
      return { ms: m.at - t0, ctor: m.ctor, length: m.length };
    };
    try {
      for (const mb of [1, 8, 16]) {
        const a = new Float64Array((mb * 2 ** 20) / 8);
        for (let i = 0; i < a.length; i++) a[i] = Math.random();
        const r = await send(a);
        console.log(`    [eval-lens] postMessage of a ${mb} MB Float64Array: received as ${r.ctor}(${r.length}) after ${r.ms} ms (${f1(mb / (r.ms / 1000))} MB/s)`);
        assert.equal(r.ctor, 'Float64Array');
      }
      const plain = Array.from({ length: 100_000 }, () => Math.random());
      const r = await send(plain);
      console.log(`    [eval-lens] postMessage of 100,000 numbers as a plain array (JSON, ${f1(JSON.stringify(plain).length / 2 ** 20)} MB of text): ${r.ms} ms`);
      const typed = await send(Float64Array.from(plain));
      console.log(`    [eval-lens] the same 100,000 numbers as a Float64Array (0.8 MB): ${typed.ms} ms`);
    } finally {
      panel.dispose();
    }
  });
});
