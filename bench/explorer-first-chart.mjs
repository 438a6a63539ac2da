#!/usr/bin/env node
// The first chart of a large file the way a user gets it (issue 28, point 11): in the real
// workbench (code-server + Chromium, test/e2e/workbench.ts), a click on the file in the Explorer
// opens it in the "Eval Lens Report" custom editor (evalLens.openLargeFilesAsReport), cold after
// "Developer: Reload Window" and warm (the same file again, its tab closed in between); then the
// bootstrap intervals (evalLens.bootstrap, default 200) arriving in place. The very first open of a
// fresh browser profile ('first': VS Code installs its webview service worker) is reported apart.
//
//   flock /tmp/eval-lens-vscode.lock node bench/explorer-first-chart.mjs [--file CSV] [--cold 2] [--warm 3]
//       [--dev [--no-build]] [--at-once | --first-pass-only | --parts-ahead K] [--fresh] [--associate] [--settings '{"evalLens.bootstrap": 200}']
//
// --at-once clicks as soon as the Explorer lists the file after the reload (discovery may still be
// scoring it for the tree); by default the click waits until the tree has scored it.
//
// Each open is broken into steps from three clocks put on one time line (all epoch ms on this
// machine): the workbench page's (the click, a capture listener on mousedown), the extension host's
// timeline (EVAL_LENS_DEBUG: ReportPanel.log and the scoring passes, each line stamped), and the
// report webview's (its document's timeOrigin, data-ready-at, data-received-at, data-rendered-ms,
// and an observer on data-intervals). CPU time per step comes from /proc (bench/procCpu.mjs): every
// thread of code-server and Chromium, grouped (the extension host's main thread, its scoring
// workers, V8's helper threads, Chromium's renderers, the rest). On a loaded machine wall time is
// mostly waiting for a core; the CPU figures are what each step costs.
//
// WebSocket bytes are counted by connection (code-server opens one for the workbench's own
// channels, the remote file system's among them, and one for the extension host);
// BENCH_WS_PEEK=1 also prints the start of every large frame between the click and the first chart
// (that is how the text editor's read of the file was found: rows of the CSV); BENCH_HOST_LOG=1
// prints the extension host's log lines of each open on the click's time line.
//
// Figures go to stdout and bench/data/explorer-first-chart.json.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { CpuSampler } from './procCpu.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const file = opt('file', join(here, 'data', 'folktexts-1m.test_predictions.csv'));
const colds = Number(opt('cold', '2'));
const warms = Number(opt('warm', '3'));
const atOnce = args.includes('--at-once');
// --first-pass-only: the click comes once the report's first pass is made ahead, before its
// intervals are (src/extension/report/prepareAhead.ts makes both after a reload).
const firstPassOnly = args.includes('--first-pass-only');
// --parts-ahead K: the click comes once K parts of the intervals are made ahead (of PARTS_AHEAD in
// src/extension/worker/scoring.ts); the click's workers make the others.
const partsAhead = args.includes('--parts-ahead') ? Number(opt('parts-ahead', '1')) : undefined;
// --fresh: the file's mtime set to now before each reload, as a benchmark run that has just written
// it: nothing kept from the last session stands for it (its report stored on disk, its saved
// intervals: src/extension/report/storedReports.ts, savedIntervals.ts). Without it, a cold click
// after the reload is on a file the window showed before the reload.
const fresh = args.includes('--fresh');
// --associate: the file's name pattern is associated with the report editor (workbench.editorAssociations),
// so the click opens it at once; without it the workbench first opens a text editor, which streams
// the file's first 10 MB to the browser (its limit for a remote file) before the report editor takes over.
const associate = args.includes('--associate');
const settings = {
  ...(associate ? { 'workbench.editorAssociations': { '*.test_predictions.csv': 'evalLens.reportEditor' } } : {}),
  ...JSON.parse(opt('settings', '{}')),
};

if (!existsSync(file)) {
  if (file !== join(here, 'data', 'folktexts-1m.test_predictions.csv')) throw new Error(`${file} does not exist`);
  const made = spawnSync(process.execPath, [join(here, 'make-folktexts-csv.mjs')], { stdio: 'inherit' });
  if (made.status !== 0) process.exit(made.status ?? 1);
}
// The extension as a user gets it: the .vsix's content (a production build: minified, no source
// maps; scripts/package-vsix.mjs stages the same), in a folder of its own, so dist/ (the tests') is
// left alone. --dev: the development build in dist/ instead (scripts/build.mjs).
const dev = args.includes('--dev');
let extensionPath = root;
if (dev) {
  if (!args.includes('--no-build')) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
} else {
  extensionPath = mkdtempSync(join(tmpdir(), 'eval-lens-bench-extension-'));
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--production', '--outdir', join(extensionPath, 'dist')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  for (const p of ['media', 'README.md', 'LICENSE', 'docs/metrics.md', 'package.json']) {
    if (!existsSync(join(root, p))) continue;
    mkdirSync(dirname(join(extensionPath, p)), { recursive: true });
    cpSync(join(root, p), join(extensionPath, p), { recursive: true });
  }
}

// The e2e harness is TypeScript: bundled here, with codeserver.mjs left where it is (it finds the
// project root from its own location).
const harness = join(here, 'data', 'explorer-first-chart.workbench.mjs');
mkdirSync(dirname(harness), { recursive: true });
await esbuild.build({
  entryPoints: [join(root, 'test', 'e2e', 'workbench.ts')],
  bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: harness, logLevel: 'warning',
  external: ['playwright-core'],
  plugins: [{
    name: 'codeserver-in-place',
    setup(b) {
      b.onResolve({ filter: /codeserver\.mjs$/ }, (a) => ({ path: pathToFileURL(join(a.resolveDir, a.path)).href, external: true }));
    },
  }],
});
const { startWorkbench } = await import(pathToFileURL(harness).href);

const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-bench-explorer-'));
const name = basename(file);
try {
  linkSync(file, join(workspace, name));
} catch {
  copyFileSync(file, join(workspace, name));
}
const sizeMB = readFileSync(file).byteLength / 2 ** 20;

// ---- the extension host's timeline ----------------------------------------------------------------
/** Lines the extension logged (EVAL_LENS_DEBUG), with the epoch ms each was stamped with. */
const hostLines = [];
const STAMPED = /\[eval-lens (\w+) @(\d+)\]\s*(.*)$/;

// ---- CPU per thread group ----------------------------------------------------------------------------
function classify(pid, cmdline, tid, comm) {
  if (pid === process.pid) return undefined; // this script
  if (/extensionHost|bootstrap-fork.*--type=extensionHost/.test(cmdline)) {
    if (tid === pid) return 'ext host: main thread';
    if (comm === 'WorkerThread' || comm === 'node') return 'ext host: scoring workers';
    if (comm === 'V8Worker') return 'ext host: V8 helpers (GC, compiler)';
    return 'ext host: other threads';
  }
  if (/--type=fileWatcher/.test(cmdline)) return 'code-server: file watcher';
  if (/out\/node\/entry(\.js)?( |$)/.test(cmdline)) return 'code-server: server';
  if (/chrom/i.test(cmdline)) {
    if (/--type=renderer/.test(cmdline)) return 'Chromium renderers';
    return 'Chromium browser, GPU, utility';
  }
  return 'code-server: other (language servers, pty)';
}

function load() {
  return loadavg().map((x) => x.toFixed(1)).join(' ');
}

const round = (x) => (Number.isFinite(x) ? Math.round(x) : NaN);

/** Waits for a host log line matching `re` stamped at or after `since`; returns it. */
/** The `nth` host log line since `since` that matches `re` (a bench polls; nothing here is a test). */
async function hostLine(re, since, timeoutMs = 180_000, nth = 1) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = hostLines.filter((l) => l.t >= since && re.test(l.text))[nth - 1];
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no host log line ${re} within ${timeoutMs} ms (last lines: ${hostLines.slice(-5).map((l) => l.text).join(' | ')})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const wb = await startWorkbench({
  workspace,
  extensionDevelopmentPath: extensionPath,
  env: { EVAL_LENS_DEBUG: '1' },
  settings,
  startTimeoutMs: 180_000,
});
wb.page.on('console', (message) => {
  const m = STAMPED.exec(message.text());
  if (m) hostLines.push({ t: Number(m[2]), level: m[1], text: m[3] });
});
const sampler = new CpuSampler(process.pid, classify);
sampler.start();
// Bytes over the workbench's WebSockets (to code-server: the extension host's messages, the remote
// file system's reads, webview resources), by direction, for the step table.
const wsFrames = [];
wb.page.on('websocket', (ws) => {
  const conn = `connection ${/reconnectionToken=([0-9a-f]{4})/.exec(ws.url())?.[1] ?? ws.url()}`;
  const peek = (p) => (process.env.BENCH_WS_PEEK ? (typeof p === 'string' ? p : p.toString('latin1')).replace(/[^\x20-\x7e]+/g, '.').slice(0, 120) : undefined);
  ws.on('framereceived', (f) => wsFrames.push({ t: Date.now(), dir: 'in', conn, bytes: typeof f.payload === 'string' ? Buffer.byteLength(f.payload) : f.payload.length, peek: peek(f.payload) }));
  ws.on('framesent', (f) => wsFrames.push({ t: Date.now(), dir: 'out', conn, bytes: typeof f.payload === 'string' ? Buffer.byteLength(f.payload) : f.payload.length }));
});
const wsBetween = (t0, t1) => {
  let down = 0;
  let up = 0;
  /** Bytes down by connection (code-server's management connection, the extension host's). */
  const byConn = {};
  for (const f of wsFrames) {
    if (f.t < t0 || f.t >= t1) continue;
    if (f.dir === 'in') {
      down += f.bytes;
      byConn[f.conn] = (byConn[f.conn] ?? 0) + f.bytes;
    } else up += f.bytes;
  }
  return { down, up, byConn };
};

const page = wb.page;
const explorerRow = () => page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: name }).first();

/** The workbench after a (re)load: the Explorer lists the file and, unless --at-once, the tree has scored it. */
async function workbenchSettled(since) {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 180_000 });
  await explorerRow().waitFor({ timeout: 180_000 });
  if (atOnce) return;
  await hostLine(new RegExp(`^scored .*${name.replace(/\./g, '\\.')} \\(disk\\)`), since);
  // And its report's first pass made ahead (src/extension/report/prepareAhead.ts), when the
  // extension prepares one: the workspace has settled. Code without it prepares nothing.
  const prepared = await hostLine(new RegExp(`^scoring: prepared panel pass of .*${name.replace(/\./g, '\\.')}`), since, 20_000)
    .catch(() => console.log('(no first pass prepared ahead within 20 s of the reload)'));
  // Then its intervals, made in the idle worker (nice 19) in parts, unless --first-pass-only; with
  // --parts-ahead K, once K parts of them are made (the click keeps those and makes the rest).
  if (prepared && partsAhead !== undefined) {
    await hostLine(new RegExp(`^scoring: prepared summary pass of .*${name.replace(/\./g, '\\.')} \\(bootstrap`), since, 120_000, partsAhead)
      .catch(() => console.log(`(no ${partsAhead} parts of the intervals made ahead within 120 s of the reload)`));
  } else if (prepared && !firstPassOnly) {
    await hostLine(new RegExp(`^scoring: prepared intervals of .*${name.replace(/\./g, '\\.')} made`), since, 120_000)
      .catch(() => console.log('(no intervals made ahead within 120 s of the reload)'));
  }
}

/** The report webview's document (the inner frame whose body carries data-rendered). */
async function reportFrame() {
  for (const frame of page.frames()) {
    const rendered = await frame.evaluate(() => document.body?.dataset.rendered ?? null).catch(() => null);
    if (rendered) return frame;
  }
  return undefined;
}

/** One click on the file in the Explorer, measured until its intervals are shown. */
async function openOnce(kind, index) {
  const loadBefore = load();
  await wb.dismiss();
  await page.evaluate(() => {
    window.__evalLensClickAt = undefined;
    window.addEventListener('mousedown', () => { window.__evalLensClickAt ??= performance.timeOrigin + performance.now(); }, { capture: true, once: true });
  });
  const since = Date.now();
  await explorerRow().click();
  const clickAt = await page.evaluate(() => window.__evalLensClickAt);
  await wb.webview().locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 180_000 });
  const frame = await reportFrame();
  if (!frame) throw new Error('no webview frame with data-rendered');
  const view = await frame.evaluate(() => ({
    origin: performance.timeOrigin, readyAt: Number(document.body.dataset.readyAt), receivedAt: Number(document.body.dataset.receivedAt),
    renderedMs: Number(document.body.dataset.renderedMs), rendered: document.body.dataset.rendered,
    // The first chart's paint (the page draws the others after it: webview/report/chartSlots.ts
    // drawFirstThenRest); a page without the mark painted every chart at once.
    firstChartMs: Number(document.body.dataset.firstChartMs ?? document.body.dataset.renderedMs),
  }));
  const outerOrigin = await frame.parentFrame()?.evaluate(() => performance.timeOrigin).catch(() => NaN);
  // The page's own loading: its document, the script and the style sheet (epoch ms).
  const loading = await frame.evaluate(() => {
    const at = (x) => performance.timeOrigin + x;
    const nav = performance.getEntriesByType('navigation')[0];
    const res = (re) => {
      const e = performance.getEntriesByType('resource').find((r) => re.test(r.name));
      return e ? { start: at(e.startTime), firstByte: at(e.responseStart), end: at(e.responseEnd), bytes: e.decodedBodySize } : undefined;
    };
    return { documentEnd: nav ? at(nav.responseEnd) : NaN, domInteractive: nav ? at(nav.domInteractive) : NaN, script: res(/webview\.js/), style: res(/webview\.css/) };
  });
  // The intervals, when they come (an observer in the page: its own clock).
  const intervalsAt = await frame.evaluate(() => new Promise((resolve) => {
    if (document.body.dataset.intervals) { resolve(null); return; }
    new MutationObserver((_, observer) => {
      if (!document.body.dataset.intervals) return;
      observer.disconnect();
      resolve(performance.timeOrigin + performance.now());
    }).observe(document.body, { attributes: true, attributeFilter: ['data-intervals'] });
  }));
  const instancesMs = await frame.evaluate(() => new Promise((resolve) => {
    const read = () => (document.body.dataset.instancesMs ? Number(document.body.dataset.instancesMs) : undefined);
    if (read() !== undefined) { resolve(read()); return; }
    new MutationObserver((_, observer) => { if (read() !== undefined) { observer.disconnect(); resolve(read()); } })
      .observe(document.body, { attributes: true, attributeFilter: ['data-instances-ms'] });
  }));
  if (process.env.BENCH_WS_PEEK) {
    // What the large frames between the click and the first chart carry (a debugging aid).
    const painted = view.origin + view.receivedAt + view.firstChartMs;
    for (const f of wsFrames) if (f.t >= clickAt && f.t < painted && f.dir === 'in' && f.bytes >= 64 * 1024) console.log(`  frame +${round(f.t - clickAt)} ms ${f.conn} ${f.bytes} B: ${f.peek}`);
  }
  const quietUntil = Date.now() + 500; // let the last samples land
  while (Date.now() < quietUntil) await new Promise((r) => setTimeout(r, 100));

  // ---- the host's lines of this open ----
  const lines = hostLines.filter((l) => l.t >= since - 50);
  const find = (re) => lines.find((l) => re.test(l.text));
  // BENCH_HOST_LOG=1: the host's lines of this open, on the click's time line (a debugging aid).
  if (process.env.BENCH_HOST_LOG) for (const l of lines) console.log(`  host +${round(l.t - clickAt)} ms: ${l.text.slice(0, 240)}`);
  const created = find(/^panel: created for /);
  // Posted to the ready page, or to a new webview before it was ready (then its 'ready' is a line of its own).
  const posted = find(/^panel: 'reports' posted (\d+) ms after the panel was created/);
  const readyLine = find(/^panel: webview ready (\d+) ms after the panel was created/);
  const readyMs = Number((/webview ready at (-?\d+|NaN) ms/.exec(posted?.text ?? '') ?? /webview ready (\d+) ms/.exec(readyLine?.text ?? ''))?.[1] ?? NaN);
  const panelPass = find(/^scoring: panel pass of /);
  // The intervals pass, or the last of its shares to answer (the merge follows it).
  const summaryPasses = lines.filter((l) => /^scoring: summary pass of .*\(bootstrap/.test(l.text));
  const summaryPass = summaryPasses.at(-1);
  const intervalsPosted = find(/^panel: intervals (posted|kept)/);
  const treeScore = lines.filter((l) => /^scored .* \(disk\)/.test(l.text)).map((l) => l.text);
  const steps = (line) => {
    const out = {};
    const part = line?.text.split(': worker ')[1]?.split(';')[0] ?? '';
    for (const m of part.matchAll(/([\w+ ]+?) (\d+) ms \(CPU (\d+|\?)\)/g)) out[m[1].trim()] = { ms: Number(m[2]), cpuMs: Number(m[3]) };
    return out;
  };
  const replyMs = (line) => Number(/reply (\d+) ms after the request/.exec(line?.text ?? '')?.[1]);

  const t = {
    click: clickAt,
    panelCreated: created?.t,
    webviewFrame: outerOrigin,
    webviewDocument: view.origin,
    documentLoaded: loading.documentEnd,
    scriptRequested: loading.script?.start,
    scriptFirstByte: loading.script?.firstByte,
    scriptLoaded: loading.script?.end,
    styleLoaded: loading.style?.end,
    webviewScript: view.origin + view.readyAt,
    webviewReady: created && Number.isFinite(readyMs) ? created.t + readyMs : NaN,
    workerReply: panelPass?.t,
    reportsPosted: posted?.t,
    received: view.origin + view.receivedAt,
    painted: view.origin + view.receivedAt + view.firstChartMs,
    allCharts: view.origin + view.receivedAt + view.renderedMs,
    intervalsReply: summaryPass?.t,
    intervalsPosted: intervalsPosted?.t,
    // null: the intervals came with the report (one kept from its closed tab), shown with its first chart.
    intervalsShown: intervalsAt ?? intervalsPosted?.t ?? view.origin + view.receivedAt + view.firstChartMs,
  };
  const span = (label, a, b) => {
    const from = t[a];
    const to = t[b];
    const ok = Number.isFinite(from) && Number.isFinite(to);
    return { step: label, from: a, to: b, ms: round(to - from), cpu: ok ? sampler.cpuBetween(from, to) : {}, ws: ok ? wsBetween(from, to) : { down: 0, up: 0 } };
  };
  const result = {
    kind, index, load: loadBefore, scriptBytes: loading.script?.bytes,
    firstChartMs: round(t.painted - t.click),
    intervalsMs: round(t.intervalsShown - t.click),
    instancesAfterPaintMs: round(instancesMs - view.renderedMs),
    panelWorker: steps(panelPass), panelWorkerReplyMs: replyMs(panelPass),
    intervalsWorker: summaryPasses.map(steps), intervalsWorkerReplyMs: summaryPasses.map(replyMs),
    // The resamples of the intervals pass (evalLens.bootstrap; each share computes its part of them).
    bootstrap: Number(/\(bootstrap (\d+)\)/.exec(summaryPass?.text ?? '')?.[1] ?? NaN),
    treeScoredDuringOpen: treeScore,
    // The report kept from the file's closed tab was shown (src/extension/report/keptReport.ts), and what its check found.
    keptShown: !!find(/^panel: the report of .* kept from its closed tab shown/),
    // The first pass made ahead after the reload was shown (src/extension/report/preparedReports.ts).
    preparedShown: !!find(/^scoring: the first pass of .* was prepared ahead/),
    pagesDelivered: /\d+ instance pages \([\d.]+ MB\) delivered in \d+ ms/.exec(find(/^panel: \d+ instance pages/)?.text ?? '')?.[0],
    keptCheck: /^panel: the kept report of .*?(is the file's report|differs from the file's: scored again)/.exec(find(/^panel: the kept report of /)?.text ?? '')?.[1],
    spans: [
      span('click → panel created (workbench opens the editor)', 'click', 'panelCreated'),
      span('panel created → webview script ran (webview boot)', 'panelCreated', 'webviewScript'),
      span('  panel created → the page\'s document starts (webview frame, service worker)', 'panelCreated', 'webviewDocument'),
      span('  document starts → webview.js requested', 'webviewDocument', 'scriptRequested'),
      span('  webview.js requested → its first byte (service worker, workbench, server)', 'scriptRequested', 'scriptFirstByte'),
      span('  webview.js first byte → loaded', 'scriptFirstByte', 'scriptLoaded'),
      span('  webview.js loaded → script ran (parse, evaluate)', 'scriptLoaded', 'webviewScript'),
      // The bundle in the page itself (reportWebview.ts): no request, the document holds it.
      span('  document starts → script ran (the page with its bundle: parse, evaluate)', 'webviewDocument', 'webviewScript'),
      span('panel created → worker reply (read, parse, report, chart data, encode)', 'panelCreated', 'workerReply'),
      span('worker reply → reports posted', 'workerReply', 'reportsPosted'),
      span('reports posted → received by the page (message)', 'reportsPosted', 'received'),
      span('received → first chart painted', 'received', 'painted'),
      span('click → first chart painted', 'click', 'painted'),
      span('first chart → every chart painted', 'painted', 'allCharts'),
      span('first chart → intervals pass reply (the last share)', 'painted', 'intervalsReply'),
      span('intervals reply → shown (merge, message, cards)', 'intervalsReply', 'intervalsShown'),
      span('click → intervals shown', 'click', 'intervalsShown'),
    ],
    times: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, round(v - t.click)])),
  };
  print(result);
  return result;
}

function cpuText(cpu) {
  const entries = Object.entries(cpu).filter(([, ms]) => ms >= 5).sort((a, b) => b[1] - a[1]);
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  return `CPU ${round(total)} ms${entries.length ? ` (${entries.map(([g, ms]) => `${g} ${round(ms)}`).join(', ')})` : ''}`;
}

function print(r) {
  console.log(`\n## ${r.kind} ${r.index}: first chart ${r.firstChartMs} ms after the click, intervals ${r.intervalsMs} ms (load average before: ${r.load})`);
  const mb = (x) => `${(x / 2 ** 20).toFixed(2)} MB`;
  const conns = (ws) => Object.entries(ws.byConn ?? {}).filter(([, b]) => b >= 0.01 * 2 ** 20).map(([c, b]) => `${c} ${mb(b)}`).join(', ');
  for (const s of r.spans.filter((x) => Number.isFinite(x.ms))) console.log(`- ${s.step}: ${s.ms} ms; ${cpuText(s.cpu)}; WebSocket ${mb(s.ws.down)} down${conns(s.ws) ? ` (${conns(s.ws)})` : ''}, ${mb(s.ws.up)} up`);
  const w = (o) => Object.entries(o).map(([k, v]) => `${k} ${v.ms} ms (CPU ${v.cpuMs})`).join(', ');
  console.log(`- worker, report pass: ${w(r.panelWorker)}; reply ${r.panelWorkerReplyMs} ms after the request`);
  r.intervalsWorker.forEach((share, k) => console.log(`- worker, intervals pass of ${r.bootstrap} resamples${r.intervalsWorker.length > 1 ? ` (share ${k + 1} of ${r.intervalsWorker.length})` : ''}: ${w(share)}; reply ${r.intervalsWorkerReplyMs[k]} ms after the request`));
  console.log(`- all instances in the table ${r.instancesAfterPaintMs} ms after the first chart (${r.pagesDelivered ?? 'pages not logged'}); tree scorings logged during the open: ${r.treeScoredDuringOpen.length}`);
  console.log(`- ${r.keptShown ? `the report kept from the closed tab shown (${r.keptCheck ?? 'not checked yet'})` : r.preparedShown ? 'the first pass made ahead after the reload shown' : 'scored for this open (no kept report)'}`);
  console.log(`- time line (ms after the click): ${Object.entries(r.times).map(([k, v]) => `${k} ${v}`).join(', ')}`);
}

// The machine's speed today: the CPU of one bootstrap resample of a million rows (the intervals'
// unit of work, bench/bootstrap.bench.mjs), before and after the run. A shared virtual machine's
// speed differs from day to day (18.5-18.9 ms one day, 28-32 ms another, same code): figures of
// different runs compare only beside it.
const gauge = () => {
  const run = spawnSync(process.execPath, [join(here, 'bootstrap.bench.mjs'), '--rows', '1000000', '--resamples', '40', '--naive', '0'], { encoding: 'utf8' });
  if (run.status !== 0) return NaN;
  return JSON.parse(run.stdout.trim().split('\n').at(-1)).per_resample_cpu_ms;
};
const gaugeBefore = gauge();
const results = [];
try {
  console.log(`# ${name} (${sizeMB.toFixed(1)} MB); ${dev ? 'development build (dist/)' : 'production build (as in the .vsix)'}; settings ${JSON.stringify(settings)}; ${atOnce ? 'click at once after the reload' : 'click once the tree has scored the file'}${fresh ? '; the file written anew before each reload (--fresh)' : ''}`);
  await workbenchSettled(0);
  // The browser's first webview ever installs VS Code's webview service worker: measured apart
  // ('first'), as a browser that has shown a webview before never pays for it again.
  results.push(await openOnce('first', 1));
  await wb.runCommand('View: Close All Editors');
  for (let c = 1; c <= colds; c++) {
    await wb.runCommand('View: Close All Editors');
    if (fresh) utimesSync(join(workspace, name), new Date(), new Date());
    const since = Date.now();
    await wb.runCommand('Developer: Reload Window');
    // The old page's last lines are stamped before the reload: wait for the new host's activation.
    await hostLine(/^activated in /, since);
    await workbenchSettled(since);
    results.push(await openOnce('cold', c));
    for (let w = 1; w <= warms; w++) {
      await wb.runCommand('View: Close All Editors');
      await page.locator('iframe.webview').first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => {});
      results.push(await openOnce('warm', w));
    }
  }
} finally {
  sampler.stop();
  await wb.close();
  rmSync(workspace, { recursive: true, force: true });
  if (extensionPath !== root) rmSync(extensionPath, { recursive: true, force: true });
}
// Where the CPU went over the whole run, by thread (the groups above are sums of these).
console.log('\n# CPU by thread over the whole run (top 12)');
for (const t of sampler.topThreads(12)) console.log(`- ${t.group}: ${t.comm} (pid ${t.pid}) ${round(t.ms)} ms`);

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
for (const kind of ['first', 'cold', 'warm']) {
  const rs = results.filter((r) => r.kind === kind);
  if (!rs.length) continue;
  console.log(`\n# ${kind}: first chart ${rs.map((r) => r.firstChartMs).join(', ')} ms (median ${median(rs.map((r) => r.firstChartMs))}); intervals ${rs.map((r) => r.intervalsMs).join(', ')} ms (median ${median(rs.map((r) => r.intervalsMs))})`);
}
const gaugeAfter = gauge();
console.log(`\n# machine speed: one bootstrap resample of 1M rows costs ${gaugeBefore} ms of CPU before the run, ${gaugeAfter} ms after (bench/bootstrap.bench.mjs)`);
writeFileSync(join(here, 'data', 'explorer-first-chart.json'), JSON.stringify({ gauge: { before: gaugeBefore, after: gaugeAfter }, results }, null, 2));
console.log('\nwritten bench/data/explorer-first-chart.json');
