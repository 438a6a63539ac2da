// The report panel's host side: one WebviewPanel (reused), scored through the function the
// extension registers, restored after a window reload by re-scoring the path kept in the webview's
// state. The webview is not kept alive while hidden (retainContextWhenHidden: false): it saves its
// own UI state with setState, and every time it (re)loads it says 'ready' and the host posts the
// current view again. Nothing is posted before 'ready'.
//
// The panel follows its file (or folder): a change on disk or in an editor buffer re-scores it after
// a pause, so the report always ends with the file's latest content.
import { statSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import * as vscode from 'vscode';
import type { Report } from '../../core/types';
import { WEBVIEW_VIEW_TYPE, type ExportRequest, type HostToWebview, type InstancePage, type PanelState, type ReportIntervals, type WebviewToHost } from '../../protocol';
import { exportReport } from '../export/exportReport';
import { ChartRequests } from '../export/chartRequests';
import type { ChartImageFormat } from '../../common/exportProtocol';
import { makeNonce, panelHtml } from './panelHtml';
import { withGroupIntervals } from '../../common/groupRanking';
import { openMetricDoc } from './metricDoc';
import type { PanelData } from '../worker/workerProtocol';
import { baseName } from '../../common/paths';

export interface PanelScoreResult {
  reports: Report[];
  summary: { raft_score?: number | null };
  /** Chart data and encoded per-instance columns per report (the worker's 'panel' detail). */
  panel?: PanelData[];
  /** The scored file's mtime and size (see ScoreResult.stamp). */
  stamp?: { mtime: number; size: number };
}

/** Scores a file or folder; should reject (or resolve, it is then ignored) when `token` is cancelled. */
export type PanelScoreFunction = (
  path: string, token: vscode.CancellationToken, onProgress?: (fraction: number) => void,
) => Promise<PanelScoreResult>;

/** What tests and benchmarks can read about the panel (read-only). */
export interface PanelInfo {
  path: string;
  /** Type of the last message posted to the webview (or queued until it is ready). */
  lastPosted: HostToWebview['type'] | undefined;
  /** Whether the webview has said 'ready' since it last (re)loaded. */
  ready: boolean;
  /** The stepper's position as the webview last reported it ('stepped'), 0-based. */
  stepPosition: { index: number; total: number } | undefined;
  /** The last 'rendered' report: ms from the 'reports' message to the first painted chart. */
  rendered: { path: string; selected: number; ms: number; at: number } | undefined;
  /** The last report whose per-instance data all arrived and whose table is built. */
  instancesReady: { path: string; selected: number; ms: number; rows: number; at: number } | undefined;
  /** Date.now() when the panel was created, when its webview last said 'ready', when the last 'reports' view was posted. */
  createdAt: number;
  readyAt: number | undefined;
  reportsPostedAt: number | undefined;
  /** The last run of 'instances' pages the host finished posting (bytes of typed data). */
  pagesPosted: { token: number; pages: number; bytes: number; ms: number; at: number } | undefined;
  /** The last line revealed on the webview's request. */
  lastRevealed: { path: string; line: number } | undefined;
  /** The last metric definition opened from a card's "?" (the docs/metrics.md URI with its fragment). */
  lastMetricDoc?: string;
  /** The webview's UI state as it last reported it. */
  state: PanelState | undefined;
}

const STEP_CONTEXT = 'evalLens.misclassifiedCount';
/** Changes to the report's file closer together than this re-score it once. */
const REFRESH_DELAY_MS = 500;
/** The instance pages wait this long at most for the first chart to be painted. */
const PAGES_WAIT_MS = 3000;

export class ReportPanel {
  static current: ReportPanel | undefined;
  /** Panels created in this window so far (the first one's webview starts cold). */
  static created = 0;
  /** Where the panel logs its timeline (the extension's output channel; tests read it with EVAL_LENS_DEBUG). */
  static log: ((line: string) => void) | undefined;
  private static scoreFunction: PanelScoreFunction | undefined;
  /** Remembers a "Group by" or data file choice; true when the report should be scored again. */
  static sliceHandler: ((path: string, message: Extract<WebviewToHost, { type: 'groupBy' | 'pickDataFile' | 'chooseModel' }>) => Promise<boolean>) | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private readonly renderedEmitter = new vscode.EventEmitter<NonNullable<PanelInfo['rendered']>>();
  /** Fires when the webview has painted the first chart of a report. */
  readonly onDidRender = this.renderedEmitter.event;
  private readonly instancesEmitter = new vscode.EventEmitter<NonNullable<PanelInfo['instancesReady']>>();
  /** Fires when the webview has all of the selected report's instances and built its table. */
  readonly onDidReceiveInstances = this.instancesEmitter.event;
  /** Ties pages and intervals to the 'reports' message they belong to. */
  private static tokens = 0;
  private token = 0;
  /** The pages of the report in view, posted after the 'reports' message (again after every 'ready'). */
  private pages: { report: number; page: InstancePage }[] = [];
  /** Bumped to stop a page-posting loop (a new report, the webview went away). */
  private pageRun = 0;
  /** Watches the path in view; a change re-scores it after REFRESH_DELAY_MS. */
  private following: { path: string; watch: vscode.Disposable } | undefined;
  /** Token of the last report the webview said it painted. */
  private renderedToken: number | undefined;
  private readonly chartRequests = new ChartRequests();
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly info: PanelInfo;
  /** The view the webview should show: 'loading', 'reports' or 'error' (re-posted after every 'ready'). */
  private view: HostToWebview | undefined;
  /** 'step' messages that arrived while the webview was not ready. */
  private pendingSteps: HostToWebview[] = [];
  private result: PanelScoreResult | undefined;
  private scoring: vscode.CancellationTokenSource | undefined;
  private generation = 0;
  /** A report editor tab's panel (reportEditor.ts): it shows its own file only, show() never reuses it for another. */
  private pinned = false;
  /** The panel show() creates and reuses (not a report editor tab). */
  private static floating: ReportPanel | undefined;

  private constructor(
    private readonly context: vscode.ExtensionContext,
    readonly panel: vscode.WebviewPanel,
    path: string,
    state?: PanelState,
  ) {
    ReportPanel.created++;
    this.info = {
      path, lastPosted: undefined, ready: false, stepPosition: undefined, rendered: undefined, instancesReady: undefined,
      pagesPosted: undefined, lastRevealed: undefined, state, createdAt: Date.now(), readyAt: undefined, reportsPostedAt: undefined,
    };
    panel.webview.options = ReportPanel.webviewOptions(context);
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'eval-lens.svg');
    panel.webview.html = this.html();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => {
        // A hidden webview is destroyed (no retainContextWhenHidden); it says 'ready' again when shown.
        if (!panel.visible) {
          this.info.ready = false;
          // Its charts went with it: whoever waits for them (a chart export) waits for the new page.
          this.info.rendered = undefined;
          this.pageRun++;
        }
      }),
      panel.onDidDispose(() => this.dispose()),
      this.renderedEmitter,
      this.instancesEmitter,
      this.chartRequests,
    );
  }

  /** Registers the scoring function and the serializer that restores the panel after a reload. */
  static register(context: vscode.ExtensionContext, score: PanelScoreFunction): vscode.Disposable {
    ReportPanel.scoreFunction = score;
    return vscode.window.registerWebviewPanelSerializer(WEBVIEW_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        const saved = isPanelState(state) ? state : undefined;
        ReportPanel.current?.panel.dispose();
        const restored = new ReportPanel(context, panel, saved?.path ?? '', saved);
        ReportPanel.current = restored;
        if (saved?.path) {
          panel.title = titleFor(saved.path);
          void restored.load(saved.path);
        } else {
          restored.setView({ type: 'error', message: 'This report has nothing to restore. Run "Eval Lens: Score Benchmark" or "Eval Lens: Open Report".' });
        }
      },
    });
  }

  /**
   * The panel of a report editor tab (the custom editor of reportEditor.ts): the same report, keys
   * and commands as the panel, in the tab VS Code made for `path`. It is `current` while active.
   */
  static adopt(context: vscode.ExtensionContext, panel: vscode.WebviewPanel, path: string): ReportPanel {
    const adopted = new ReportPanel(context, panel, path);
    adopted.pinned = true;
    ReportPanel.current = adopted;
    adopted.disposables.push(panel.onDidChangeViewState(() => {
      if (panel.active) ReportPanel.current = adopted;
    }));
    void adopted.load(path);
    return adopted;
  }

  /** The one report panel: revealed when it exists, created beside the editor when it does not. */
  private static revealOrCreate(context: vscode.ExtensionContext, path: string, preserveFocus: boolean): ReportPanel {
    const current = ReportPanel.current;
    // A report editor tab is reused for its own file only; another file goes to the floating panel.
    const existing = current?.pinned && current.info.path !== path ? ReportPanel.floating : current;
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn, preserveFocus);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      WEBVIEW_VIEW_TYPE, titleFor(path),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { ...ReportPanel.webviewOptions(context), retainContextWhenHidden: false, enableFindWidget: true },
    );
    ReportPanel.current = new ReportPanel(context, panel, path);
    ReportPanel.floating = ReportPanel.current;
    return ReportPanel.current;
  }

  /**
   * Shows the report of `path` in the panel (created, or reused and revealed). With `result` it is
   * shown at once; without, the path is scored with a cancellable progress notification.
   */
  static show(context: vscode.ExtensionContext, path: string, result?: PanelScoreResult): ReportPanel {
    // A new result for the report already in view (e.g. the second pass with intervals) must not
    // pull the keyboard focus away from where the user is.
    const current = ReportPanel.current;
    const target = ReportPanel.revealOrCreate(context, path, !!current && current.panel.visible && current.info.path === path);
    if (result) target.showResult(path, result);
    else void target.load(path);
    return target;
  }

  /**
   * Opens (or reveals) the panel on `path` with a spinner while the caller scores it: the webview
   * boots (about a second in code-server) while the worker works, so the report shows the moment
   * the result is there. The caller then calls show() with the result, or fail().
   */
  static showLoading(context: vscode.ExtensionContext, path: string): ReportPanel {
    const target = ReportPanel.revealOrCreate(context, path, false);
    target.scoring?.cancel();
    target.generation++;
    target.result = undefined;
    target.info.path = path;
    target.info.rendered = undefined;
    target.info.instancesReady = undefined;
    target.panel.title = titleFor(path);
    target.setView({ type: 'loading', path });
    return target;
  }

  /** Scoring for a showLoading() panel failed or was cancelled: say so, if it still waits for `path`. */
  fail(path: string, message: string): void {
    if (this.info.path === path && this.view?.type === 'loading') this.setView({ type: 'error', message });
  }

  private static webviewOptions(context: vscode.ExtensionContext): vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist'), vscode.Uri.joinPath(context.extensionUri, 'media')],
    };
  }

  // ---- read-only facts for tests and benchmarks -------------------------------------------------

  get path(): string { return this.info.path; }
  get lastPosted(): PanelInfo['lastPosted'] { return this.info.lastPosted; }
  get stepPosition(): PanelInfo['stepPosition'] { return this.info.stepPosition; }
  get rendered(): PanelInfo['rendered'] { return this.info.rendered; }
  get instancesReady(): PanelInfo['instancesReady'] { return this.info.instancesReady; }
  get lastRevealed(): PanelInfo['lastRevealed'] { return this.info.lastRevealed; }
  /** A copy of everything above. */
  snapshot(): PanelInfo { return { ...this.info }; }
  /** The reports shown (undefined while scoring or after an error). */
  get reports(): readonly Report[] | undefined { return this.result?.reports; }

  /** Resolves with the next 'rendered' report (or the current one if `path` is already rendered). */
  whenRendered(path?: string, timeoutMs = 60_000): Promise<NonNullable<PanelInfo['rendered']>> {
    const done = this.info.rendered;
    if (done && (!path || done.path === path) && this.view?.type === 'reports') return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { sub.dispose(); reject(new Error(`report not rendered within ${timeoutMs} ms`)); }, timeoutMs);
      const sub = this.onDidRender((r) => {
        if (path && r.path !== path) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(r);
      });
    });
  }

  /** Resolves when the webview has every instance of the report in view (of `path`, if given). */
  whenInstancesReady(path?: string, timeoutMs = 60_000): Promise<NonNullable<PanelInfo['instancesReady']>> {
    const done = this.info.instancesReady;
    if (done && (!path || done.path === path) && this.view?.type === 'reports' && done.at >= (this.info.rendered?.at ?? 0)) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { sub.dispose(); reject(new Error(`instances not received within ${timeoutMs} ms`)); }, timeoutMs);
      const sub = this.onDidReceiveInstances((r) => {
        if (path && r.path !== path) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(r);
      });
    });
  }

  // ---- commands ---------------------------------------------------------------------------------

  /** Next/previous misclassified example ("Eval Lens: Next/Previous Misclassified Example"). */
  step(direction: 1 | -1): void {
    const message: HostToWebview = { type: 'step', direction };
    if (!this.panel.visible) this.panel.reveal(this.panel.viewColumn, true);
    if (this.info.ready) this.postNow(message);
    else {
      this.pendingSteps.push(message);
      this.info.lastPosted = message.type;
    }
  }

  /** Scores `path` again (cancelling a run in progress) and shows the result. */
  async load(path: string): Promise<void> {
    const score = ReportPanel.scoreFunction;
    this.scoring?.cancel();
    const generation = ++this.generation;
    this.result = undefined;
    this.info.path = path;
    this.follow(path);
    this.panel.title = titleFor(path);
    this.setView({ type: 'loading', path });
    if (!score) {
      this.setView({ type: 'error', message: 'Eval Lens is not ready to score yet.' });
      return;
    }
    const source = new vscode.CancellationTokenSource();
    this.scoring = source;
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Eval Lens: scoring ${baseName(path)}`, cancellable: true },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => source.cancel());
          let reported = 0;
          try {
            return await score(path, source.token, (fraction) => {
              const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
              if (percent > reported) {
                progress.report({ increment: percent - reported });
                reported = percent;
              }
            });
          } finally {
            sub.dispose();
          }
        },
      );
      if (generation !== this.generation) return; // a newer load took over
      if (source.token.isCancellationRequested) {
        this.setView({ type: 'error', message: `Scoring ${baseName(path)} was cancelled.` });
        return;
      }
      this.showResult(path, result);
    } catch (error) {
      if (generation !== this.generation) return;
      const message = source.token.isCancellationRequested
        ? `Scoring ${baseName(path)} was cancelled.`
        : `Could not score ${path}: ${error instanceof Error ? error.message : String(error)}`;
      this.setView({ type: 'error', message });
    } finally {
      if (this.scoring === source) this.scoring = undefined;
      source.dispose();
    }
  }

  /**
   * Replaces what the panel shows with `result` without revealing or focusing it (a refined result
   * for the same path). When hidden, the webview gets it on its next 'ready'.
   */
  update(path: string, result: PanelScoreResult): void {
    if (!this.applyIntervals(path, result)) this.showResult(path, result);
  }

  /**
   * The same report with its bootstrap intervals: only the intervals change, in place (the charts
   * and the instances the webview holds stay). False, and nothing changes, when `result` is not the
   * report in view (another path, or its file changed in between: other numbers).
   */
  applyIntervals(path: string, result: PanelScoreResult): boolean {
    const view = this.view;
    const current = this.result;
    if (view?.type === 'reports' && current && this.info.path === path && sameReports(current.reports, result.reports)) {
      const intervals: ReportIntervals[] = result.reports.map((r) => ({
        intervals: r.intervals, bootstrap: r.options.bootstrap, ...(r.groups ? { groupIntervals: r.groups.groups.map((g) => g.intervals) } : {}),
      }));
      const merge = (r: Report, k: number): Report => ({
        ...r, intervals: intervals[k].intervals, options: { ...r.options, bootstrap: intervals[k].bootstrap }, groups: withGroupIntervals(r.groups, intervals[k].groupIntervals),
      });
      this.result = { ...current, reports: current.reports.map(merge) };
      this.view = { ...view, reports: view.reports.map(merge) };
      if (this.info.ready) this.postNow({ type: 'intervals', token: this.token, reports: intervals });
      this.checkStamp();
      return true;
    }
    return false;
  }

  private showResult(path: string, result: PanelScoreResult): void {
    this.scoring?.cancel();
    this.generation++;
    this.result = result;
    this.info.path = path;
    this.follow(path);
    this.info.rendered = undefined;
    this.info.instancesReady = undefined;
    this.panel.title = titleFor(path);
    const saved = this.info.state;
    const selected = saved?.path === path && saved.selected !== undefined && saved.selected < result.reports.length ? saved.selected : 0;
    this.token = ++ReportPanel.tokens;
    const panel = result.panel;
    if (panel && panel.length === result.reports.length) {
      // The selected report's pages first: its table is the one the user is waiting for.
      const order = [selected, ...result.reports.map((_, k) => k).filter((k) => k !== selected)];
      this.pages = order.flatMap((k) => (panel[k].instances?.pages ?? []).map((page) => ({ report: k, page })));
      this.setView({
        type: 'reports', path, reports: result.reports, summary: result.summary, selected, token: this.token,
        charts: panel.map((p) => p.charts), instances: panel.map((p) => p.instances?.scheme ?? null),
      });
    } else {
      // Reports with their columns inline (small results from elsewhere): as they are.
      this.pages = [];
      this.setView({ type: 'reports', path, reports: result.reports, summary: result.summary, selected, token: this.token });
    }
  }

  private renderedOrTimeout(token: number, ms: number): Promise<void> {
    if (this.renderedToken === token) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const sub = this.onDidRender(() => {
        if (this.renderedToken === token) done();
      });
    });
  }

  // ---- following the file -------------------------------------------------------------------------

  /** Watches `path` (a file, or every file below a folder) on disk and in editors. */
  private follow(path: string): void {
    if (this.following?.path === path) return;
    this.following?.watch.dispose();
    this.following = undefined;
    if (!path) return;
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      /* gone: watch the name, it may come back */
    }
    const pattern = folder
      ? new vscode.RelativePattern(vscode.Uri.file(path), '**/*')
      : new vscode.RelativePattern(vscode.Uri.file(dirname(path)), basename(path));
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = () => this.scheduleRefresh(path);
    const inside = (uri: vscode.Uri) => uri.scheme === 'file' && (uri.fsPath === path || (folder && uri.fsPath.startsWith(path.endsWith(sep) ? path : path + sep)));
    // The watcher starts listening a little later: a change in between is caught by comparing the
    // file with what was scored, once it surely listens.
    const settle = setTimeout(() => this.checkStamp(), 1500);
    this.following = {
      path,
      watch: vscode.Disposable.from(
        { dispose: () => clearTimeout(settle) },
        watcher,
        watcher.onDidChange(changed),
        watcher.onDidCreate(changed),
        watcher.onDidDelete(changed),
        // Unsaved edits are scored too (the panel scores the buffer of an open, edited file).
        vscode.workspace.onDidChangeTextDocument((e) => {
          if (e.contentChanges.length && inside(e.document.uri)) changed();
        }),
      ),
    };
  }

  /** Re-scores when the file on disk is no longer the one scored (mtime or size differ). */
  private checkStamp(): void {
    const stamp = this.result?.stamp;
    const path = this.info.path;
    if (!stamp || !path) return;
    let now: { mtime: number; size: number } | undefined;
    try {
      const st = statSync(path);
      now = { mtime: st.mtimeMs, size: st.size };
    } catch {
      now = undefined;
    }
    if (!now || now.mtime !== stamp.mtime || now.size !== stamp.size) this.scheduleRefresh(path);
  }

  private scheduleRefresh(path: string): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (ReportPanel.current === this && this.info.path === path) void this.load(path);
    }, REFRESH_DELAY_MS);
  }

  // ---- messages -----------------------------------------------------------------------------------

  private setView(message: HostToWebview): void {
    this.view = message;
    this.pageRun++; // pages of an earlier view stop
    if (this.info.ready) this.postView();
    else this.info.lastPosted = message.type; // queued: posted on 'ready'
  }

  /** The current view, then (for reports) its instance pages. */
  private postView(): void {
    const view = this.view;
    if (!view) return;
    this.postNow(view);
    if (view.type === 'reports' && this.pages.length) void this.postPages(this.token);
  }

  /**
   * Posts the pages one after another, each once the previous one was delivered: a few MB at a
   * time keeps the extension host's event loop and memory calm, and a newer view (or the webview
   * going away) stops the loop between two pages. The first page waits until the webview has
   * painted the charts (or PAGES_WAIT_MS passed): the bulk transfer never delays the first chart.
   */
  private async postPages(token: number): Promise<void> {
    const run = ++this.pageRun;
    await this.renderedOrTimeout(token, PAGES_WAIT_MS);
    const t0 = Date.now();
    let bytes = 0;
    for (const { report, page } of this.pages) {
      if (run !== this.pageRun || !this.info.ready || token !== this.token) return;
      for (const a of Object.values(page.data)) bytes += a?.byteLength ?? 0;
      this.info.lastPosted = 'instances';
      const delivered = await this.panel.webview.postMessage({ type: 'instances', token, report, page } satisfies HostToWebview).then((ok) => ok, () => false);
      if (!delivered) return;
    }
    if (run === this.pageRun) {
      this.info.pagesPosted = { token, pages: this.pages.length, bytes, ms: Date.now() - t0, at: Date.now() };
      ReportPanel.log?.(`panel: ${this.pages.length} instance pages (${(bytes / 2 ** 20).toFixed(1)} MB) delivered in ${Date.now() - t0} ms`);
    }
  }

  private postNow(message: HostToWebview): void {
    this.info.lastPosted = message.type;
    if (message.type === 'reports') {
      this.info.reportsPostedAt = Date.now();
      ReportPanel.log?.(`panel: 'reports' posted ${Date.now() - this.info.createdAt} ms after the panel was created (webview ready at ${(this.info.readyAt ?? NaN) - this.info.createdAt} ms)`);
    }
    void this.panel.webview.postMessage(message);
  }

  /** What the webview posts, delivered as if it had (tests drive the panel's controls through this). */
  receiveFromWebview(raw: unknown): void {
    this.receive(raw);
  }

  private receive(raw: unknown): void {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') return;
    const message = raw as WebviewToHost;
    switch (message.type) {
      case 'ready': {
        this.info.ready = true;
        this.info.readyAt = Date.now();
        if (isPanelState(message.state) && message.state.path === this.info.path) this.info.state = message.state;
        this.postView();
        const steps = this.pendingSteps;
        this.pendingSteps = [];
        for (const step of steps) this.postNow(step);
        break;
      }
      case 'state':
        if (isPanelState(message.state)) this.info.state = message.state;
        break;
      case 'stepped':
        if (Number.isInteger(message.index) && Number.isInteger(message.total)) {
          this.info.stepPosition = { index: message.index, total: message.total };
          void vscode.commands.executeCommand('setContext', STEP_CONTEXT, message.total);
        }
        break;
      case 'rendered':
        ReportPanel.log?.(`panel: first chart painted, ${Date.now() - this.info.createdAt} ms after the panel was created (webview: ${message.ms} ms after the message)`);
        if (typeof message.token === 'number') this.renderedToken = message.token;
        if (typeof message.ms === 'number') {
          const rendered = { path: String(message.path), selected: Number(message.selected) || 0, ms: message.ms, at: Date.now() };
          this.info.rendered = rendered;
          this.renderedEmitter.fire(rendered);
        }
        break;
      case 'instancesReady':
        if (typeof message.ms === 'number') {
          const ready = { path: String(message.path), selected: Number(message.selected) || 0, ms: message.ms, rows: Number(message.rows) || 0, at: Date.now() };
          this.info.instancesReady = ready;
          this.instancesEmitter.fire(ready);
        }
        break;
      case 'reveal':
        void this.reveal(message.path, message.line);
        break;
      case 'openMetricDoc':
        void openMetricDoc(this.context.extensionUri, message.metric).then((uri) => { if (uri) this.info.lastMetricDoc = uri.toString(); });
        break;
      case 'groupBy':
      case 'pickDataFile':
      case 'chooseModel':
        void this.slice(message);
        break;
      case 'compareModels':
        if (this.revealable(this.info.path)) void vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(this.info.path));
        break;
      case 'export':
        if (message.request && typeof message.request === 'object') void this.chartRequests.receive(message.answers, (target) => this.export(message.request, target));
        break;
      case 'chartMissing':
        this.chartRequests.missing(message);
        break;
      case 'compareWith':
        if (this.revealable(message.path)) void vscode.commands.executeCommand('evalLens.compareWith', message.path);
        break;
    }
  }

  /** "Group by" / "Join data file…": remembered by the handler (extension/slicing.ts), then re-scored. */
  private async slice(message: Extract<WebviewToHost, { type: 'groupBy' | 'pickDataFile' | 'chooseModel' }>): Promise<void> {
    const path = this.info.path;
    if (path && (await ReportPanel.sliceHandler?.(path, message))) await this.load(path);
  }

  /** "Export…" from the webview or the Export Report command: see exportReport.ts. */
  async export(request: ExportRequest, target?: vscode.Uri): Promise<vscode.Uri | 'clipboard' | undefined> {
    if (!this.result) return undefined;
    const done = await exportReport(request, this.result.reports, this.result.summary, this.info.path, target);
    if (done === 'clipboard') void vscode.window.setStatusBarMessage('Eval Lens: Markdown copied to the clipboard', 3000);
    else if (done && !target) void vscode.window.setStatusBarMessage(`Eval Lens: exported ${baseName(done.fsPath)}`, 3000);
    return done;
  }

  /**
   * A chart of the report as PNG or SVG (the Export Report command): drawn by the webview, saved to
   * `target` or where the save dialog says. Without `chart`, a quick pick of the page's charts.
   */
  async exportChart(chart: string | undefined, format: ChartImageFormat, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    if (!this.panel.visible) this.panel.reveal(this.panel.viewColumn, true);
    await this.whenRendered(this.info.path);
    return this.chartRequests.export((m) => this.panel.webview.postMessage(m), chart, format, target);
  }

  /** Files the webview may ask to open: the reports' own files only, never an arbitrary path. */
  private revealable(path: string): boolean {
    if (typeof path !== 'string' || !this.result) return false;
    return this.result.reports.some((r) => r.path === path || r.dataPath === path || r.reportedPath === path || r.problems.some((p) => p.path === path));
  }

  private async reveal(path: string, line: number): Promise<void> {
    if (!this.revealable(path) || !Number.isInteger(line) || line < 1) return;
    // Parquet tables and .eval logs have no text lines: the webview shows the row in its table instead.
    if (/\.(parquet|eval)$/i.test(path)) return;
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
      const lineIndex = Math.min(line - 1, document.lineCount - 1);
      const range = document.lineAt(lineIndex).range;
      // Open beside the panel, in an editor group that is not the panel's, and keep the keyboard in
      // the panel so j/k keep stepping.
      const other = vscode.window.visibleTextEditors.find((e) => e.viewColumn !== undefined && e.viewColumn !== this.panel.viewColumn);
      const viewColumn = other?.viewColumn
        ?? (this.panel.viewColumn !== undefined && this.panel.viewColumn > vscode.ViewColumn.One ? vscode.ViewColumn.One : vscode.ViewColumn.Beside);
      const editor = await vscode.window.showTextDocument(document, { viewColumn, preserveFocus: true, preview: true, selection: range });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      this.info.lastRevealed = { path, line };
    } catch (error) {
      void vscode.window.showWarningMessage(`Eval Lens: could not open ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private html(): string {
    const webview = this.panel.webview;
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    return panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      title: titleFor(this.info.path),
    });
  }

  private dispose(): void {
    this.scoring?.cancel();
    this.generation++;
    clearTimeout(this.refreshTimer);
    this.following?.watch.dispose();
    this.following = undefined;
    this.pageRun++;
    this.pages = [];
    this.result = undefined;
    this.view = undefined;
    if (ReportPanel.floating === this) ReportPanel.floating = undefined;
    if (ReportPanel.current === this) {
      ReportPanel.current = ReportPanel.floating;
      if (!ReportPanel.current) void vscode.commands.executeCommand('setContext', STEP_CONTEXT, 0);
    }
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

/** The same reports (same files, same numbers): a later pass only adds intervals. */
function sameReports(a: readonly Report[], b: readonly Report[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((r, k) => {
    const o = b[k];
    if (r.path !== o.path || r.n !== o.n || r.skipped !== o.skipped || r.kind !== o.kind) return false;
    const names = new Set([...Object.keys(r.metrics), ...Object.keys(o.metrics)]) as Set<keyof Report['metrics']>;
    for (const m of names) {
      const x = r.metrics[m];
      const y = o.metrics[m];
      if (!(x === y || (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y)))) return false;
    }
    return true;
  });
}

function isPanelState(value: unknown): value is PanelState {
  return !!value && typeof value === 'object' && typeof (value as PanelState).path === 'string';
}

function titleFor(path: string): string {
  return path ? `Eval Lens: ${baseName(path)}` : 'Eval Lens';
}
