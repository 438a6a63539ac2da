// End-to-end harness: a real VS Code workbench (code-server 4.139.1 = VS Code 1.139.1) in Debian's
// Chromium, driven by playwright-core, with the project loaded as the extension under development.
// See test/vscode/README.md. Typical use in a vitest file (test/e2e/*.e2e.ts):
//
//   const wb = await startWorkbench({ workspace: 'test/fixtures/harness' });
//   await wb.openFile('notes.txt');
//   await wb.runCommand('Eval Lens: Score Benchmark');
//   await expect.poll(() => wb.webview().locator('#summary').textContent()).toContain('AUC');
//   await wb.screenshot('summary');
//   await wb.close();
//
// The dev extension is loaded the way test-electron's --extensionDevelopmentPath does it: the
// smoke-test-driver payload in the workbench URL carries `extensionDevelopmentPath` (and no
// `extensionTestsPath`), so the window is an "[Extension Development Host]" that runs the project's
// package.json / dist/extension.js straight from the source tree. Build first (scripts/build.mjs).
import { mkdirSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { PROJECT_ROOT, RESULTS_DIR, isWorkbenchNoise, launchChromium, sleep, startCodeServer, tail, workbenchUrl, type CodeServer } from '../vscode/codeserver.mjs';

export const SCREENSHOT_DIR = join(RESULTS_DIR, 'e2e');

/** Short names for the built-in themes; any other string is used as `workbench.colorTheme`. */
const THEMES: Record<string, string> = {
  dark: 'Default Dark Modern',
  light: 'Default Light Modern',
  hc: 'Default High Contrast',
  'hc-dark': 'Default High Contrast',
  'hc-light': 'Default High Contrast Light',
};

export interface WorkbenchOptions {
  /** Folder to open; relative paths are resolved against the project root. */
  workspace: string;
  /** User settings, merged over the harness defaults (test/vscode/codeserver.mjs DEFAULT_SETTINGS). */
  settings?: Record<string, unknown>;
  /** 'dark' | 'light' | 'hc' | 'hc-light' or a full theme name ('Default Dark Modern'). */
  theme?: string;
  /** Extension folder(s) to load in development mode. Default: the project root. `null`: none. */
  extensionDevelopmentPath?: string | string[] | null;
  /** Browser viewport, default 1400×900. */
  viewport?: { width: number; height: number };
  /** Extra environment for code-server and the extension host. */
  env?: Record<string, string>;
  /** How long to wait for the workbench to be usable, default 90 s. */
  startTimeoutMs?: number;
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export interface Workbench {
  page: Page;
  browser: Browser;
  codeServer: CodeServer;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Absolute path of the opened folder. */
  workspace: string;
  /** Browser console lines: the workbench's and the dev extension host's ("[Extension Host] …"). */
  logs: string[];
  /** ms: code-server start, Chromium launch, workbench until usable. */
  timings: { codeServerStartMs: number; chromiumLaunchMs: number; workbenchReadyMs: number };
  /** Closes Chromium and kills code-server (its whole process group); safe to call twice. */
  close(): Promise<void>;
  /** The content document of the visible webview (two iframes deep); `index` picks among several. */
  webview(options?: { index?: number }): FrameLocator;
  /** Runs a command by its palette title ("Category: Title"), retrying until it is listed. */
  runCommand(title: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Opens a workspace file through Quick Open (Ctrl+P) and waits for its tab to be active. */
  openFile(relPath: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Screenshot of the page (or of `target`) to test-results/e2e/<name>.png; returns the path. */
  screenshot(name: string, target?: Locator): Promise<string>;
  /** Texts of the CodeLenses in the active editor (waits up to `timeoutMs` for at least `min`). */
  codeLenses(options?: { min?: number; timeoutMs?: number }): Promise<string[]>;
  /** Error/warning/info counts from the status bar's problems entry. */
  problems(): Promise<ProblemCounts>;
  /** Messages currently in the notification center (and any toast), newest first. */
  notifications(): Promise<string[]>;
  /** Presses Escape until no quick input / notification has focus. */
  dismiss(): Promise<void>;
}

function resolveTheme(theme: string | undefined): Record<string, unknown> {
  if (!theme) return {};
  return { 'workbench.colorTheme': THEMES[theme] ?? theme };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';
}

/** Parses the problems status entry, e.g. aria-label "Errors: 2, Warnings: 1" or "No Problems". */
export function parseProblems(label: string): ProblemCounts {
  const count = (re: RegExp) => {
    const m = re.exec(label);
    return m ? Number(m[1]) : 0;
  };
  return { errors: count(/Errors?:\s*(\d+)/i), warnings: count(/Warnings?:\s*(\d+)/i), infos: count(/Infos?:\s*(\d+)/i) };
}

export async function startWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  const t0 = Date.now();
  const workspace = isAbsolute(options.workspace) ? options.workspace : resolve(PROJECT_ROOT, options.workspace);
  const devPaths = options.extensionDevelopmentPath === null ? [] : [options.extensionDevelopmentPath ?? PROJECT_ROOT].flat();
  const startTimeoutMs = options.startTimeoutMs ?? 90_000;
  const settings = { ...(options.settings ?? {}), ...resolveTheme(options.theme) };

  const codeServer = await startCodeServer({ settings, env: options.env, startTimeoutMs });
  let browser: Browser | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (browser) await browser.close().catch(() => {});
    await codeServer.stop();
  };
  try {
    const tb = Date.now();
    browser = await launchChromium();
    const chromiumLaunchMs = Date.now() - tb;
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    page.setDefaultTimeout(30_000);
    // The browser console: the workbench's messages and, in an Extension Development Host, the
    // extension host's console.log output (prefixed "[Extension Host]"). Kept in `logs`, echoed
    // when EVAL_LENS_E2E_DEBUG=1.
    const logs: string[] = [];
    page.on('console', (message) => {
      const raw = message.text();
      // "%c[Extension Host]%c text" arrives with its CSS arguments appended ("color: blue color:").
      const text = (raw.includes('%c') ? raw.replace(/%c/g, '').replace(/\s*color:\s*[#\w]*;?/g, '') : raw).trim();
      if (!text || isWorkbenchNoise(text)) return;
      logs.push(`[${message.type()}] ${text}`);
      if (process.env.EVAL_LENS_E2E_DEBUG) console.log(`[workbench:${message.type()}] ${text}`);
    });
    page.on('pageerror', (error) => logs.push(`[pageerror] ${error.message}`));
    const tw = Date.now();
    const url = workbenchUrl({ port: codeServer.port, folder: workspace, extensionDevelopmentPath: devPaths });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: startTimeoutMs });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: startTimeoutMs });
    // The explorer lists the folder once the remote file system answers: a usable workbench.
    await page.locator('.explorer-folders-view, .explorer-viewlet .monaco-list').first().waitFor({ timeout: startTimeoutMs }).catch(() => {});
    const workbenchReadyMs = Date.now() - tw;

    const quickInput = page.locator('.quick-input-widget');
    const quickInputBox = quickInput.locator('.quick-input-box input');

    const dismiss = async () => {
      for (let i = 0; i < 3 && (await quickInput.isVisible()); i++) {
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden', timeout: 1_000 }).catch(() => {});
      }
    };

    const runCommand = async (title: string, opts: { timeoutMs?: number } = {}) => {
      const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
      const labelRe = new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`);
      let attempt = 0;
      // The palette snapshots the command list when it opens; a command registered later (the
      // extension still activating) appears only after reopening it.
      while (true) {
        attempt++;
        await dismiss();
        await page.keyboard.press('F1');
        // F1 can land while an editor that just opened takes the focus (a report editor's webview
        // booting): the palette then does not open, and F1 is pressed again.
        const opened = await quickInputBox.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
        if (!opened) {
          if (Date.now() > deadline) throw new Error(`runCommand: the command palette did not open for "${title}" after ${attempt} attempts`);
          continue;
        }
        await quickInputBox.fill(`>${title}`);
        const row = quickInput.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: labelRe }) }).first();
        try {
          await row.waitFor({ state: 'visible', timeout: 2_000 });
          await row.click();
          await quickInputBox.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
          return;
        } catch {
          if (process.env.EVAL_LENS_E2E_DEBUG) console.log(`[runCommand] attempt ${attempt} at ${Date.now() - tw} ms: listed ${JSON.stringify(await quickInput.locator('.monaco-list-row .label-name').allTextContents())}`);
          if (Date.now() > deadline) {
            const listed = await quickInput.locator('.monaco-list-row .label-name').allTextContents();
            await dismiss();
            throw new Error(`runCommand: "${title}" not in the command palette after ${attempt} attempts (listed: ${JSON.stringify(listed.slice(0, 10))})`);
          }
          await sleep(750);
        }
      }
    };

    // 1.139 splits a tab's label into name and suffix ("notes" + ".txt"); data-resource-name and
    // the icon label's aria-label (the file's path) are whole. The aria-label holds the path, then
    // the file's problems when it has any ("…/gpt-4_pair.jsonl • 1 problem in this file"): it
    // contains the path rather than ending with it.
    const activeTab = (relPath: string) =>
      page
        .locator(`.editor-group-container.active .tabs-container .tab.active[data-resource-name=${JSON.stringify(basename(relPath))}]`)
        .filter({ has: page.locator(`.monaco-icon-label[aria-label*=${JSON.stringify(relPath.replace(/^\.?\//, ''))}]`) });

    const openFile = async (relPath: string, opts: { timeoutMs?: number } = {}) => {
      const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
      const name = basename(relPath);
      let attempt = 0;
      while (true) {
        attempt++;
        await dismiss();
        await page.keyboard.press('Control+P');
        await quickInputBox.waitFor({ state: 'visible', timeout: 10_000 });
        await quickInputBox.fill(relPath);
        const row = quickInput.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) }).first();
        try {
          await row.waitFor({ state: 'visible', timeout: 5_000 });
          await row.click();
          await activeTab(relPath).waitFor({ state: 'visible', timeout: 10_000 });
          return;
        } catch {
          if (Date.now() > deadline) {
            await dismiss();
            throw new Error(`openFile: could not open "${relPath}" through Quick Open after ${attempt} attempts`);
          }
          await sleep(500);
        }
      }
    };

    const webview = (opts: { index?: number } = {}) => {
      // Hidden webviews stay in the DOM (visibility: hidden); prefer the visible one.
      const outer = page.frameLocator('iframe.webview.ready >> visible=true');
      const chosen = opts.index === undefined ? outer.first() : outer.nth(opts.index);
      return chosen.frameLocator('iframe#active-frame');
    };

    const screenshot = async (name: string, target?: Locator) => {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${safeName(name)}.png`);
      if (target) await target.screenshot({ path });
      else await page.screenshot({ path });
      return path;
    };

    const codeLenses = async (opts: { min?: number; timeoutMs?: number } = {}) => {
      const min = opts.min ?? 1;
      const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
      const lenses = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration > a, .editor-group-container.active .monaco-editor .codelens-decoration > span');
      while (true) {
        const texts = (await lenses.allTextContents()).map((t) => t.trim()).filter(Boolean);
        if (texts.length >= min || Date.now() > deadline) return texts;
        await sleep(250);
      }
    };

    const problems = async () => {
      const entry = page.locator('.statusbar-item[id="status.problems"]');
      await entry.waitFor({ state: 'attached', timeout: 10_000 });
      const label = (await entry.locator('a, .statusbar-item-label').first().getAttribute('aria-label')) ?? (await entry.getAttribute('aria-label')) ?? '';
      return parseProblems(label);
    };

    // Toasts are not reliable here (in 1.139 an extension's info message often goes straight to
    // the notification center, the bell shows a dot): read the center, opened through the bell.
    const notifications = async () => {
      const center = page.locator('.notifications-center');
      const isOpen = async () => (await page.locator('.notifications-center.visible').count()) > 0; // no auto-wait: the center is created lazily
      const bell = page.locator('.statusbar-item[id="status.notifications"]');
      const wasOpen = await isOpen();
      if (!wasOpen) {
        await bell.click();
        await center.locator('.notifications-center-header').waitFor({ state: 'visible', timeout: 5_000 });
      }
      const inCenter = await center.locator('.notification-list-item-message').allTextContents();
      const inToasts = await page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
      if (!wasOpen && (await isOpen())) await bell.click();
      return [...new Set([...inCenter, ...inToasts].map((t) => t.trim()).filter(Boolean))];
    };

    return {
      page,
      browser,
      codeServer,
      origin: codeServer.origin,
      workspace,
      logs,
      timings: { codeServerStartMs: codeServer.startMs, chromiumLaunchMs, workbenchReadyMs },
      close,
      webview,
      runCommand,
      openFile,
      screenshot,
      codeLenses,
      problems,
      notifications,
      dismiss,
    };
  } catch (err) {
    const logTail = tail(codeServer.logFile, 30);
    await close();
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`startWorkbench failed after ${Date.now() - t0} ms: ${message}\n--- code-server log tail ---\n${logTail}`);
  }
}

/**
 * Answers VS Code's save dialog, which code-server shows as the "simple file dialog" (a quick input
 * holding a path): waits for it to offer a file name, replaces its value with `absolutePath` and
 * accepts, confirming "replace" when the file exists already. Returns the path it first offered.
 * The file is written after this returns: poll for it.
 */
export async function saveDialog(wb: Workbench, absolutePath: string, options: { timeoutMs?: number } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const widget = wb.page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  // The dialog opens on its folder, then puts the suggested file name in: wait for a name with an extension.
  let offered = '';
  const deadline = Date.now() + timeoutMs;
  while (!/\/[^/]+\.\w+$/.test(offered)) {
    if (Date.now() > deadline) throw new Error(`saveDialog: no file name offered (input holds ${JSON.stringify(offered)})`);
    await sleep(100);
    offered = await input.inputValue();
  }
  // A file that exists already: the dialog turns into a prompt titled "… already exists. Are you
  // sure you want to overwrite it?" (some versions ask in a modal dialog instead).
  const replacePrompt = widget.locator('.quick-input-title', { hasText: /already exists/i });
  const confirm = wb.page.locator('.monaco-dialog-box');
  while (await widget.isVisible() || await confirm.isVisible()) {
    if (Date.now() > deadline) throw new Error(`saveDialog: still open after ${timeoutMs} ms (input holds ${JSON.stringify(await input.inputValue().catch(() => ''))})`);
    if (process.env.EVAL_LENS_E2E_DEBUG) console.log(`[saveDialog] title ${JSON.stringify(await widget.locator('.quick-input-title').textContent().catch(() => ''))}, input ${JSON.stringify(await input.inputValue().catch(() => ''))}, modal ${await confirm.isVisible()}`);
    if (await confirm.isVisible()) {
      await confirm.locator('.monaco-button', { hasText: /Replace|Overwrite|OK|Yes/ }).first().click();
    } else if (await replacePrompt.isVisible()) {
      // It has no Yes/No rows here: accepting it (Enter, or its OK button) answers yes.
      await input.press('Enter');
      await widget.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    } else if ((await input.inputValue()) !== absolutePath) {
      await input.fill(absolutePath);
    } else {
      // The dialog ignores Enter while it is still listing the folder: wait a little for it to close
      // or ask, and press again if it did neither.
      await input.press('Enter');
      await Promise.race([widget.waitFor({ state: 'hidden', timeout: 2_000 }), replacePrompt.waitFor({ timeout: 2_000 }), confirm.waitFor({ timeout: 2_000 })]).catch(() => undefined);
    }
  }
  return offered;
}

/** The texts of a panel's "Export…" menu, as listed when it is opened (it is refilled on focus). */
export async function exportChoices(view: FrameLocator): Promise<string[]> {
  const select = view.locator('#export-select');
  await select.focus();
  return select.locator('option').allTextContents();
}

/** Picks the "Export…" entry whose text matches `label`, the way a user does: focus, then choose. */
export async function chooseExport(view: FrameLocator, label: RegExp): Promise<void> {
  const select = view.locator('#export-select');
  await select.focus();
  const options = await select.locator('option').evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent ?? '' })));
  const chosen = options.find((o) => label.test(o.text));
  if (!chosen) throw new Error(`chooseExport: no entry ${label} in ${JSON.stringify(options.map((o) => o.text))}`);
  await select.selectOption(chosen.value);
}

/** An exported SVG as a browser draws it (an <img> of it on a page of its own), screenshotted to test-results/e2e. */
export async function svgShot(wb: Workbench, svg: Buffer, name: string): Promise<string> {
  const page = await wb.browser.newPage({ viewport: { width: 1000, height: 600 } });
  try {
    await page.setContent(`<body style="margin:0;background:#fff"><img id="svg" src="data:image/svg+xml;base64,${svg.toString('base64')}"></body>`);
    const img = page.locator('#svg');
    await page.waitForFunction(() => { const i = document.getElementById('svg') as HTMLImageElement; return i.complete && i.naturalWidth > 100; });
    return await wb.screenshot(name, img);
  } finally {
    await page.close();
  }
}
