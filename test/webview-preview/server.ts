// The report webview outside VS Code: the production webview bundle, the panel's exact HTML and
// CSP (src/extension/report/panelHtml.ts), a stand-in for the host (stub.ts) and reports scored by the real
// core, served on 127.0.0.1 and driven by playwright-core + Debian's Chromium.
//
//   node test/webview-preview/preview.mjs serve [--samples a,b] [--port 8123]   browse the samples
//   node test/webview-preview/preview.mjs shoot [--samples a,b]                 screenshots + checks
//   node test/webview-preview/preview.mjs perf  [--rows 1000000]                1M-row timings
//
// Output goes to out/webview-preview/ (git-ignored); shoot prints a JSON summary.
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { makeNonce, panelHtml } from '../../src/extension/report/panelHtml';
import { buildSamples, type Sample } from './samples';
import type { HostToWebview, WebviewToHost } from '../../src/protocol';

const ROOT = resolve(__dirname, '..', '..');
const OUT = join(ROOT, 'out', 'webview-preview');
const STATIC = join(OUT, 'static');
const SHOTS = join(OUT, 'shots');
const THEMES = ['dark', 'light', 'hc'] as const;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function bundle(): Promise<void> {
  mkdirSync(STATIC, { recursive: true });
  await esbuild.build({
    entryPoints: [join(ROOT, 'webview', 'report', 'main.ts')], outfile: join(STATIC, 'webview.js'),
    bundle: true, minify: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning',
  });
  await esbuild.build({
    entryPoints: [join(ROOT, 'test', 'webview-preview', 'stub.ts')], outfile: join(STATIC, 'stub.js'),
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning',
  });
}

/** JSON with typed arrays as base64 (decoded by stub.ts), like VS Code's buffer transfer keeps them typed. */
function encode(message: HostToWebview): string {
  return JSON.stringify(message, (_key, value) => {
    if (ArrayBuffer.isView(value)) {
      const view = value as ArrayBufferView;
      return { $typed: view.constructor.name, b64: Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64') };
    }
    return value;
  });
}

function writeSample(sample: Sample): void {
  const message: HostToWebview = { type: 'reports', path: sample.path, reports: sample.reports, summary: sample.summary, selected: 0 };
  writeFileSync(join(STATIC, `data-${sample.name}.js`), `window.__PREVIEW_DATA = ${JSON.stringify(encode(message))};\n`);
}

function page(origin: string, sample: string): string {
  const nonce = makeNonce();
  const html = panelHtml({ cspSource: origin, nonce, scriptUri: '/static/webview.js', styleUri: '/static/webview.css', title: sample });
  const pre = `<script nonce="${nonce}" src="/static/stub.js"></script>\n<script nonce="${nonce}" src="/static/data-${sample}.js"></script>\n`;
  return html.replace(`<script nonce="${nonce}" src="/static/webview.js">`, `${pre}<script nonce="${nonce}" src="/static/webview.js">`);
}

function serve(samples: Sample[], port: number): Promise<{ server: Server; origin: string }> {
  const names = new Set(samples.map((s) => s.name));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    if (url.pathname.startsWith('/static/')) {
      const file = join(STATIC, url.pathname.slice('/static/'.length));
      if (!file.startsWith(STATIC) || !existsSync(file)) { res.writeHead(404).end(); return; }
      const type = file.endsWith('.css') ? 'text/css' : 'text/javascript';
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(readFileSync(file));
      return;
    }
    const name = url.pathname.slice(1);
    if (names.has(name)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(origin, name));
      return;
    }
    if (url.pathname === '/favicon.ico') { res.writeHead(204).end(); return; }
    if (url.pathname === '/') {
      const links = samples.map((s) => THEMES.map((t) => `<a href="/${s.name}?theme=${t}">${t}</a>`).join(' ') + ` ${s.name}: ${s.title.replace(/</g, '&lt;')}`).join('<br>\n');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><meta charset="utf-8"><title>Eval Lens webview preview</title><p>${links}</p>`);
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => {
    ok({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
  }));
}

async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

interface PageWatch {
  foreignRequests: string[];
  consoleErrors: string[];
}

async function openSample(browser: Browser, origin: string, name: string, theme: string, width = 1280): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage({ viewport: { width, height: 1000 }, deviceScaleFactor: 1 });
  const watch: PageWatch = { foreignRequests: [], consoleErrors: [] };
  page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) watch.foreignRequests.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') watch.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => watch.consoleErrors.push(String(e)));
  await page.goto(`${origin}/${name}?theme=${theme}`);
  await page.waitForSelector('body[data-rendered]', { timeout: 120_000 });
  await page.waitForTimeout(150);
  return { page, watch };
}

async function pageChecks(page: Page): Promise<{ csp: string[]; errors: string[]; pwned: unknown; rendered: WebviewToHost[]; canvases: { id: string; distinctPixels: number }[] }> {
  return page.evaluate(() => {
    const g = window as unknown as { __csp: string[]; __errors: string[]; __pwned?: unknown; __posted: WebviewToHost[] };
    const canvases = [...document.querySelectorAll('canvas')].map((c) => {
      const ctx = c.getContext('2d')!;
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length && seen.size < 64; i += 4 * 17) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2] | (data[i + 3] << 24));
      return { id: c.id, distinctPixels: seen.size };
    });
    return { csp: g.__csp, errors: g.__errors, pwned: g.__pwned, rendered: g.__posted.filter((m) => m.type === 'rendered'), canvases };
  });
}

async function shoot(samples: Sample[], origin: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  const summary: Record<string, unknown> = {};
  try {
    for (const sample of samples) {
      for (const theme of THEMES) {
        if (sample.name === 'big' && theme !== 'dark') continue;
        const { page, watch } = await openSample(browser, origin, sample.name, theme);
        const checks = await pageChecks(page);
        await page.screenshot({ path: join(SHOTS, `${sample.name}-${theme}.png`), fullPage: true });
        if (await page.locator('#stepper').count()) {
          await page.locator('#stepper').screenshot({ path: join(SHOTS, `${sample.name}-${theme}-stepper.png`) });
        }
        summary[`${sample.name}/${theme}`] = { ...checks, ...watch };
        await page.close();
      }
    }
    // Theme switch: the charts are redrawn with the new colours.
    const first = samples.find((s) => s.name === 'folktexts') ?? samples[0];
    if (first) {
      const { page } = await openSample(browser, origin, first.name, 'dark');
      const before = await page.evaluate(() => (document.querySelector('canvas') as HTMLCanvasElement).toDataURL());
      await page.evaluate(() => (window as unknown as { __preview: { setTheme(t: string): void } }).__preview.setTheme('light'));
      await page.waitForTimeout(300);
      const after = await page.evaluate(() => (document.querySelector('canvas') as HTMLCanvasElement).toDataURL());
      summary['theme-switch redraws'] = before !== after;
      await page.screenshot({ path: join(SHOTS, `${first.name}-switched-to-light.png`), fullPage: true });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const text = JSON.stringify(summary, (k, v) => (k === 'rendered' ? (v as WebviewToHost[]).map((m) => (m as { ms: number }).ms) : v), 1);
  writeFileSync(join(OUT, 'summary.json'), text);
  console.log(text);
  // Fail on anything a user must never see: a CSP violation, a script error, executed file text,
  // a request leaving the page, a blank chart, or charts that ignore a theme change.
  const failures: string[] = [];
  for (const [key, value] of Object.entries(summary)) {
    if (key === 'theme-switch redraws') { if (value !== true) failures.push('charts not redrawn on a theme change'); continue; }
    const v = value as Awaited<ReturnType<typeof pageChecks>> & PageWatch;
    if (v.csp.length) failures.push(`${key}: CSP violations ${v.csp.join(', ')}`);
    if (v.errors.length || v.consoleErrors.length) failures.push(`${key}: errors ${[...v.errors, ...v.consoleErrors].join(', ')}`);
    if (v.pwned !== undefined && v.pwned !== null) failures.push(`${key}: file text executed (${String(v.pwned)})`);
    if (v.foreignRequests.length) failures.push(`${key}: requests ${v.foreignRequests.join(', ')}`);
    for (const c of v.canvases) if (c.distinctPixels < 4) failures.push(`${key}: ${c.id} is blank`);
    if (!v.rendered.length) failures.push(`${key}: never rendered`);
  }
  if (failures.length) {
    console.error(`[preview] FAILED:\n${failures.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.error(`[preview] ${Object.keys(summary).length - 1} pages checked: no CSP violation, no error, nothing executed, no foreign request, every canvas drawn`);
  }
}

async function perf(samples: Sample[], origin: string): Promise<void> {
  const big = samples.find((s) => s.name === 'big');
  if (!big) throw new Error('perf needs the big sample');
  const browser = await launch();
  try {
    const t0 = Date.now();
    const { page, watch } = await openSample(browser, origin, 'big', 'dark');
    const loadMs = Date.now() - t0;
    const result = await page.evaluate(async () => {
      const frame = () => new Promise((ok) => requestAnimationFrame(() => ok(null)));
      const g = window as unknown as { __posted: { type: string; ms?: number }[] };
      const rendered = g.__posted.find((m) => m.type === 'rendered')?.ms;
      const body = document.querySelector('.vtable-body') as HTMLElement;
      const domRows = () => document.querySelectorAll('.vtable-rows .vtable-row').length;
      const timings: Record<string, number> = {};
      let t = performance.now();
      (document.querySelector('.vtable-headcell[data-column="value"]') as HTMLElement).click();
      await frame();
      timings.sortByScoreMs = performance.now() - t;
      t = performance.now();
      (document.querySelector('.vtable-headcell[data-column="value"]') as HTMLElement).click();
      await frame();
      timings.sortDescendingMs = performance.now() - t;
      t = performance.now();
      const select = document.querySelector('#filter-correctness') as HTMLSelectElement;
      select.value = 'incorrect';
      select.dispatchEvent(new Event('change'));
      await frame();
      timings.filterIncorrectMs = performance.now() - t;
      // Scrolling: 60 jumps across the whole range; the longest task the main thread ran meanwhile.
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); });
      observer.observe({ type: 'longtask', buffered: false });
      const frames: number[] = [];
      for (let k = 0; k <= 60; k++) {
        t = performance.now();
        body.scrollTop = ((k * 37) % 61) / 60 * (body.scrollHeight - body.clientHeight);
        await frame();
        frames.push(performance.now() - t);
      }
      await new Promise((ok) => setTimeout(ok, 50));
      observer.disconnect();
      frames.sort((a, b) => a - b);
      timings.scrollFrameMedianMs = frames[Math.floor(frames.length / 2)];
      timings.scrollFrameP95Ms = frames[Math.floor(frames.length * 0.95)];
      timings.scrollLongTasks = longTasks.length;
      timings.scrollLongestTaskMs = longTasks.length ? Math.max(...longTasks) : 0;
      body.scrollTop = body.scrollHeight;
      await frame();
      await frame();
      const lastRow = document.querySelector('.vtable-rows .vtable-row:not([hidden]):last-of-type') as HTMLElement | null;
      return {
        renderedMs: rendered, timings, domRows: domRows(),
        rowsShown: (document.querySelector('.table-count') as HTMLElement).textContent,
        lastVisiblePosition: [...document.querySelectorAll<HTMLElement>('.vtable-rows .vtable-row:not([hidden])')].map((r) => Number(r.dataset.position)).pop(),
        lastRowText: lastRow?.textContent,
      };
    });
    await page.screenshot({ path: join(OUT, 'big-perf.png'), fullPage: false });
    console.log(JSON.stringify({ rows: big.reports[0]?.n, pageLoadToRenderedMs: loadMs, ...result, consoleErrors: watch.consoleErrors }, null, 1));
    await page.close();
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'shoot';
  const list = arg('samples');
  const defaults = ['folktexts', 'raft', 'raft-real', 'almanacs', 'lm-eval', 'generic', 'broken', 'hostile'];
  const which = new Set(list ? list.split(',') : mode === 'perf' ? ['big'] : defaults);
  const rows = Number(arg('rows') ?? 1_000_000);
  await bundle();
  const t = Date.now();
  const samples = buildSamples(which, rows);
  console.error(`[preview] scored ${samples.length} samples in ${Date.now() - t} ms`);
  for (const s of samples) writeSample(s);
  const { server, origin } = await serve(samples, Number(arg('port') ?? 0));
  console.error(`[preview] ${origin}/`);
  if (mode === 'serve') return; // keep serving
  try {
    if (mode === 'perf') await perf(samples, origin);
    else await shoot(samples, origin);
  } finally {
    server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
