// The report panel's host side: one WebviewPanel (reused), scored through the function the
// extension registers, restored after a window reload by re-scoring the path kept in the webview's
// state. The webview is not kept alive while hidden (retainContextWhenHidden: false): it saves its
// own UI state with setState, and every time it (re)loads it says 'ready' and the host posts the
// current view again. The one exception is a new webview's first document: VS Code holds what is
// posted to it until that document has loaded (its pre/index.html keeps the messages of a first
// load, and the page's script listens before its first await), so the view goes at once and its
// transfer overlaps the webview's boot instead of following the 'ready' round trip (issue 28.11).
// Its instance pages, and everything after, still wait for 'ready'.
//
// The panel follows its file (or folder) through a FileFollower: a change re-scores it after a pause.
import * as vscode from 'vscode';
import type { Report } from '../../core/types';
import { WEBVIEW_VIEW_TYPE, type ExportRequest, type HostToWebview, type PanelState, type WebviewToHost } from '../../protocol';
import { exportReportSaying } from '../export/exportReport';
import { ChartRequests } from '../export/chartRequests';
import type { ChartImageFormat } from '../../common/exportProtocol';
import { reportWebviewHtml, reportWebviewOptions } from './reportWebview';
import { openMetricDoc } from './metricDoc';
import { FileFollower } from './fileFollower';
import { scoreWithProgress } from './scoreWithProgress';
import { InstancePages } from './instancePages';
import { revealLine } from './revealLine';
import { PageFacts } from './pageFacts';
import { forWebview, isPanelState, mayOpen, reportIntervals, reportsView, sameReports, titleFor, withIntervals, type PanelInfo, type PanelScoreFunction, type PanelScoreResult } from './panelModel';
import { statSync } from 'node:fs';
import { keepable, keptFor, KEEP_MS, type KeptReport } from './keptReport';
import type { StoredReports } from './storedReports';
import { nextEvent } from './nextEvent';

import { baseName } from '../../common/paths';
import { SamplePanel } from '../sample/samplePanel';
import { firstSampleTarget, readSides, type SampleReader, type SampleTarget } from '../sample/sampleSides';
import { SAMPLE_FILE_FORMATS } from '../../common/sampleView';
import { openLink } from '../openLink';
import { readRecordAtLine } from './judgeRecord';
import type { FormatName } from '../../core/types';

export type { PanelInfo, PanelScoreFunction, PanelScoreResult } from './panelModel';

const STEP_CONTEXT = 'evalLens.misclassifiedCount';

export class ReportPanel {
  static current: ReportPanel | undefined;
  /** Panels created in this window so far (the first one's webview starts cold). */
  static created = 0;
  /** Where the panel logs its timeline (the extension's output channel; tests read it with EVAL_LENS_DEBUG). */
  static log: ((line: string) => void) | undefined;
  private static scoreFunction: PanelScoreFunction | undefined;
  /** A report whose rows open the sample view is shown: its reader gets ready (reading `ahead`) before the first click. */
  static samplesShown: ((ahead: SampleTarget | undefined) => void) | undefined;
  /** Reads a row's sample from its file (the sample view's worker), for the page's sample peek (issue 29). */
  static sampleReader: SampleReader | undefined;
  /** The conversation search of the sample view (issue 29), run in the scoring worker. */
  static conversationSearch: ((path: string, format: FormatName, query: string) => Promise<Omit<Extract<HostToWebview, { type: 'conversationMatches' }>, 'type' | 'search'>>) | undefined;
  /** Reads one column of the file (or of its joined data file) for each instance of report `report` (issue 28.1). */
  static columnReader: ((path: string, report: number, column: string, fromData: boolean) => Promise<{ values?: (string | null)[]; error?: string }>) | undefined;
  /** Remembers a "Group by" or data file choice; true when the report should be scored again. */
  static sliceHandler: ((path: string, message: Extract<WebviewToHost, { type: 'groupBy' | 'clusterBy' | 'pickDataFile' | 'chooseModel' }>) => Promise<boolean>) | undefined;
  /**
   * The options `path` would be scored with now, as a string (undefined: do not keep its report).
   * With `rescore` (the file scored again without instances or intervals), a closed tab's report is
   * kept a while and shown at once when the same file opens again (keptReport.ts).
   */
  static scoreKey: ((path: string) => string | undefined) | undefined;
  static rescore: ((path: string) => Promise<readonly Report[]>) | undefined;
  /** The complete reports of the newest large files, kept on disk across reloads (storedReports.ts). */
  static stored: StoredReports | undefined;
  /** The report of the last tab closed, for its file opened again (keptReport.ts). */
  private static kept: KeptReport | undefined;
  private static keptTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  /** What the page said of itself (ready, rendered, instances received, stepped). */
  private readonly facts: PageFacts;
  /** Ties pages and intervals to the 'reports' message they belong to. */
  private static tokens = 0;
  private token = 0;
  /** The pages of the report in view, posted after the 'reports' message (again after every 'ready'). */
  private readonly pages: InstancePages;
  /** The intervals of the view of `token` still to come (its pages wait for them: InstancePages.post). */
  private intervalsAhead: { token: number; arrived: Promise<void>; resolve: () => void } | undefined;
  /** The intervals of the result in view have arrived (or none were coming). */
  private intervalsArrived = false;
  /**
   * The report in view is the one kept from its file's closed tab (keptReport.ts): 'shown', then
   * 'confirmed' by the file scored again, or 'replaced' when that differed; undefined when scored
   * for this view. For tests and benchmarks.
   */
  keptState: 'shown' | 'confirmed' | 'replaced' | undefined;
  /** Watches the path in view; a change re-scores it. */
  private readonly follower = new FileFollower(
    (path) => { if (ReportPanel.current === this && this.info.path === path) void this.load(path); },
    () => ({ path: this.info.path, stamp: this.result?.stamp }),
  );
  private readonly chartRequests = new ChartRequests();
  /** Fires with the path of each 'reports' view posted to the ready webview. */
  private readonly reportsPosted = new vscode.EventEmitter<string>();
  /** The token of the 'reports' view last posted to the webview since it was last ready. */
  private postedToken: number | undefined;
  /** The view the webview should show: 'loading', 'reports' or 'error' (re-posted after every 'ready'). */
  private view: HostToWebview | undefined;
  /**
   * The webview has not loaded a document yet (a new panel or tab): a view posted now is held by VS
   * Code and delivered once the page listens. `earlyToken` is the 'reports' view so posted.
   */
  private firstLoad = true;
  private earlyToken: number | undefined;
  /** 'step' messages that arrived while the webview was not ready. */
  private pendingSteps: HostToWebview[] = [];
  private result: PanelScoreResult | undefined;
  private scoring: vscode.CancellationTokenSource | undefined;
  private generation = 0;
  /** A report editor tab's panel (reportEditor.ts): it shows its own file only, show() never reuses it for another. */
  private pinned = false;
  /** The sample peek's request being read or drawn: when it arrived, how long its read took. */
  private peek: { request: number; arrivedAt: number; readMs: number } | undefined;
  /** The panel show() creates and reuses (not a report editor tab). */
  private static floating: ReportPanel | undefined;

  private constructor(
    private readonly context: vscode.ExtensionContext,
    readonly panel: vscode.WebviewPanel,
    path: string,
    state?: PanelState,
  ) {
    ReportPanel.created++;
    ReportPanel.log?.(`panel: created for ${path} (panel ${ReportPanel.created} of this window)`);
    this.facts = new PageFacts(path, state);
    this.pages = new InstancePages(this.facts.onDidRender);
    panel.webview.options = reportWebviewOptions(context.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'eval-lens.svg');
    panel.webview.html = reportWebviewHtml(panel.webview, context.extensionUri, titleFor(path));
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => {
        // A hidden webview is destroyed (no retainContextWhenHidden); it says 'ready' again when shown.
        if (!panel.visible) {
          this.info.ready = false;
          this.firstLoad = false;
          this.earlyToken = undefined;
          this.postedToken = undefined;
          // Its charts went with it: whoever waits for them (a chart export) waits for the new page.
          this.info.rendered = undefined;
          this.pages.stop();
        }
      }),
      panel.onDidDispose(() => this.dispose()),
      this.facts,
      this.chartRequests,
      this.reportsPosted,
      this.follower,
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
      { ...reportWebviewOptions(context.extensionUri), retainContextWhenHidden: false, enableFindWidget: true },
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
   * boots (0.3-1 s in code-server, bench/README.md) while the worker works, so the report shows the moment
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

  private get info(): PanelInfo { return this.facts.info; }
  /** Fires when the webview has painted the first chart of a report. */
  get onDidRender(): vscode.Event<NonNullable<PanelInfo['rendered']>> { return this.facts.onDidRender; }
  /** Fires when the webview has all of the selected report's instances and built its table. */
  get onDidReceiveInstances(): vscode.Event<NonNullable<PanelInfo['instancesReady']>> { return this.facts.onDidReceiveInstances; }

  /** Resolves with the next 'rendered' report (or the current one if `path` is already rendered). */
  whenRendered(path?: string, timeoutMs = 60_000): Promise<NonNullable<PanelInfo['rendered']>> {
    return this.facts.whenRendered(path, timeoutMs, this.view?.type === 'reports');
  }

  /**
   * Resolves with true when the report of `path` has been posted to the ready webview (at once if
   * it is), with false after `timeoutMs`: the page has all it needs for its first chart.
   */
  whenPosted(path: string, timeoutMs: number): Promise<boolean> {
    if (this.info.ready && this.view?.type === 'reports' && this.view.path === path && this.postedToken === this.token) return Promise.resolve(true);
    return nextEvent(this.reportsPosted.event, (p) => p === path, timeoutMs, 'report not posted').then(() => true, () => false);
  }

  /** Resolves when the webview has every instance of the report in view (of `path`, if given). */
  whenInstancesReady(path?: string, timeoutMs = 60_000): Promise<NonNullable<PanelInfo['instancesReady']>> {
    return this.facts.whenInstancesReady(path, timeoutMs, this.view?.type === 'reports');
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
    this.follower.follow(path);
    this.panel.title = titleFor(path);
    const kept = ReportPanel.takeKept(path);
    if (kept) {
      ReportPanel.log?.(`panel: the report of ${path} kept from its closed tab shown (scored ${Math.round((Date.now() - kept.at) / 1000)} s ago)`);
      this.showResult(path, kept.result);
      this.keptState = 'shown';
      void this.checkKept(path);
      return;
    }
    const stored = await ReportPanel.takeStored(path);
    if (generation !== this.generation) return;
    if (stored) {
      ReportPanel.log?.(`panel: the report of ${path} stored on disk shown (scored ${Math.round((Date.now() - stored.at) / 1000)} s ago)`);
      this.showResult(path, stored.result);
      this.keptState = 'shown';
      void this.checkKept(path);
      return;
    }
    this.setView({ type: 'loading', path });
    if (!score) {
      this.setView({ type: 'error', message: 'Eval Lens is not ready to score yet.' });
      return;
    }
    const source = new vscode.CancellationTokenSource();
    this.scoring = source;
    try {
      const result = await scoreWithProgress(score, path, source);
      if (generation !== this.generation) return; // a newer load took over
      if (source.token.isCancellationRequested) {
        this.setView({ type: 'error', message: `Scoring ${baseName(path)} was cancelled.` });
        return;
      }
      this.showResult(path, result);
      if (!result.intervalsPending) this.store(path);
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

  /** The intervals pass of the report in view is `fraction` done: the page's "computing intervals… N%". */
  intervalsProgress(path: string, fraction: number): void {
    if (this.info.ready && this.info.path === path && this.view?.type === 'reports') this.postNow({ type: 'intervalsProgress', token: this.token, fraction });
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
      const intervals = reportIntervals(result.reports);
      const merge = (r: Report, k: number) => withIntervals(r, intervals[k]);
      this.result = { ...current, reports: current.reports.map(merge) };
      this.view = { ...view, reports: view.reports.map(merge) };
      this.intervalsArrived = true;
      if (this.info.ready) this.postNow({ type: 'intervals', token: this.token, reports: intervals });
      // Arrived before the page's 'ready' (its hold timed out while a first webview booted): the view
      // posted early lacks them, so 'ready' posts the view again, with them.
      else this.earlyToken = undefined;
      if (this.intervalsAhead?.token === this.token) this.intervalsAhead.resolve();
      this.store(path);
      ReportPanel.log?.(`panel: intervals ${this.info.ready ? 'posted' : 'kept for the next ready'}, ${Date.now() - this.info.createdAt} ms after the panel was created`);
      this.follower.checkStamp();
      return true;
    }
    return false;
  }

  private showResult(path: string, result: PanelScoreResult): void {
    this.scoring?.cancel();
    this.generation++;
    this.result = result;
    this.info.path = path;
    this.follower.follow(path);
    this.info.rendered = undefined;
    this.info.instancesReady = undefined;
    this.panel.title = titleFor(path);
    this.token = ++ReportPanel.tokens;
    this.keptState = undefined;
    this.intervalsAhead?.resolve();
    this.intervalsAhead = undefined;
    this.intervalsArrived = !result.intervalsPending;
    if (result.intervalsPending) {
      let resolve = () => {};
      const arrived = new Promise<void>((r) => { resolve = r; });
      this.intervalsAhead = { token: this.token, arrived, resolve };
    }
    const { view, pages } = reportsView(path, result, this.info.state, this.token);
    if (result.reports.some((r) => SAMPLE_FILE_FORMATS.includes(r.format))) ReportPanel.samplesShown?.(firstSampleTarget(result.reports));
    this.pages.set(pages);
    this.setView(view);
  }


  // ---- the report of a closed tab, for its file opened again (keptReport.ts) ------------------------

  /** Keeps what this panel shows as its tab closes (only the last closed tab's report is kept). */
  private keep(): void {
    const path = this.info.path;
    const key = ReportPanel.rescore ? ReportPanel.scoreKey?.(path) : undefined;
    const kept = keepable(path, key, this.result, this.intervalsArrived, Date.now());
    if ('not' in kept) {
      if (path && this.result) ReportPanel.log?.(`panel: the report of ${path} is not kept (${kept.not})`);
      return;
    }
    ReportPanel.dropKept();
    ReportPanel.kept = kept;
    ReportPanel.keptTimer = setTimeout(() => ReportPanel.dropKept(), KEEP_MS);
    ReportPanel.log?.(`panel: the report of ${path} kept for ${KEEP_MS / 60_000} min (${(kept.bytes / 2 ** 20).toFixed(1)} MB of instance pages)`);
  }

  private static dropKept(): void {
    if (ReportPanel.keptTimer) clearTimeout(ReportPanel.keptTimer);
    ReportPanel.keptTimer = undefined;
    ReportPanel.kept = undefined;
  }

  /** Writes the complete report in view to disk, when it is large enough to be worth it (storedReports.ts). */
  private store(path: string): void {
    const stored = ReportPanel.stored;
    const key = stored && ReportPanel.rescore ? ReportPanel.scoreKey?.(path) : undefined;
    const kept = keepable(path, key, this.result, true, Date.now());
    if (!stored || 'not' in kept) return;
    stored.save(kept).then(
      (saved) => { if (saved) ReportPanel.log?.(`panel: the report of ${path} stored on disk (${(kept.bytes / 2 ** 20).toFixed(1)} MB of instance pages)`); },
      (e: unknown) => ReportPanel.log?.(`panel: the report of ${path} could not be stored: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  /** The report of `path` stored on disk when it stands for the file now (storedReports.ts). */
  private static async takeStored(path: string): Promise<KeptReport | undefined> {
    const stored = ReportPanel.stored;
    if (!stored || !ReportPanel.rescore) return undefined;
    return stored.load(path, ReportPanel.scoreKey?.(path), ReportPanel.stampOf(path), ReportPanel.isDirty(path));
  }

  private static stampOf(path: string): { mtime: number; size: number } | undefined {
    try {
      const st = statSync(path);
      return st.isFile() ? { mtime: st.mtimeMs, size: st.size } : undefined;
    } catch {
      return undefined;
    }
  }

  private static isDirty(path: string): boolean {
    return vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === path && d.isDirty);
  }

  /** The kept report of `path` when it still stands (then it is no longer kept: the panel holds it). */
  private static takeKept(path: string): KeptReport | undefined {
    const kept = ReportPanel.kept;
    if (!kept) return undefined;
    const result = keptFor(kept, path, ReportPanel.scoreKey?.(path), ReportPanel.stampOf(path), ReportPanel.isDirty(path), Date.now());
    if (!result) return undefined;
    ReportPanel.dropKept();
    return kept;
  }

  /**
   * After a kept report's first chart: the file scored again (no instances, no intervals) and, when
   * its numbers differ from the kept ones (a companion file changed: the stamp covers the file
   * itself only), scored and shown anew.
   */
  private async checkKept(path: string): Promise<void> {
    const token = this.token;
    const rescore = ReportPanel.rescore;
    if (!rescore) return;
    await this.whenRendered(path, 30_000).catch(() => undefined);
    if (token !== this.token) return;
    try {
      const fresh = await rescore(path);
      if (token !== this.token || !this.result) return;
      if (sameReports(this.result.reports, fresh)) {
        this.keptState = 'confirmed';
        ReportPanel.log?.(`panel: the kept report of ${path} is the file's report`);
      } else {
        ReportPanel.log?.(`panel: the kept report of ${path} differs from the file's: scored again`);
        await ReportPanel.stored?.forget(path);
        if (token !== this.token) return;
        void this.load(path).then(() => { if (!this.keptState) this.keptState = 'replaced'; });
      }
    } catch {
      // Scoring fails now: load() says why, in place of the kept report.
      if (token === this.token) void this.load(path);
    }
  }

  // ---- messages -----------------------------------------------------------------------------------

  private setView(message: HostToWebview): void {
    this.view = message;
    this.pages.stop(); // pages of an earlier view stop
    if (this.info.ready) this.postView();
    else if (this.firstLoad) this.postEarly(message);
    else this.info.lastPosted = message.type; // queued: posted on 'ready'
  }

  /** A view for the first document of a new webview, before it says 'ready' (see the top of this file). */
  private postEarly(message: HostToWebview): void {
    this.info.lastPosted = message.type;
    this.earlyToken = message.type === 'reports' ? this.token : undefined;
    if (message.type === 'reports') this.info.reportsPostedAt = Date.now();
    if (message.type === 'reports') ReportPanel.log?.(`panel: 'reports' posted ${Date.now() - this.info.createdAt} ms after the panel was created (before the webview was ready)`);
    void this.panel.webview.postMessage(forWebview(message));
  }

  /** The current view, then (for reports) its instance pages. */
  private postView(): void {
    const view = this.view;
    if (!view) return;
    this.postNow(view);
    if (view.type === 'reports' && this.pages.count) void this.postPages(this.token);
  }

  /** 'ready' from a page that has the view posted early: it is posted now (the intervals pass may start), then its pages. */
  private postedEarly(): void {
    const view = this.view;
    if (view?.type !== 'reports') return;
    ReportPanel.log?.(`panel: webview ready ${(this.info.readyAt ?? NaN) - this.info.createdAt} ms after the panel was created, its report posted before`);
    this.postedToken = this.token;
    this.reportsPosted.fire(view.path);
    if (this.pages.count) void this.postPages(this.token);
  }

  /** The instance pages of the view, after its charts (see InstancePages). */
  private async postPages(token: number): Promise<void> {
    const send = (m: HostToWebview) => {
      this.info.lastPosted = m.type;
      return this.panel.webview.postMessage(m);
    };
    const ahead = this.intervalsAhead?.token === token ? this.intervalsAhead.arrived : undefined;
    const posted = await this.pages.post(token, send, () => this.info.ready && token === this.token, ahead);
    if (!posted) return;
    this.info.pagesPosted = { token, ...posted, at: Date.now() };
    ReportPanel.log?.(`panel: ${posted.pages} instance pages (${(posted.bytes / 2 ** 20).toFixed(1)} MB) delivered in ${posted.ms} ms`);
  }

  private postNow(message: HostToWebview): void {
    this.info.lastPosted = message.type;
    if (message.type === 'reports') {
      this.info.reportsPostedAt = Date.now();
      ReportPanel.log?.(`panel: 'reports' posted ${Date.now() - this.info.createdAt} ms after the panel was created (webview ready at ${(this.info.readyAt ?? NaN) - this.info.createdAt} ms)`);
    }
    void this.panel.webview.postMessage(forWebview(message));
    if (message.type === 'reports') {
      this.postedToken = this.token;
      this.reportsPosted.fire(message.path);
    }
  }

  /** What the webview posts, delivered as if it had (tests drive the panel's controls through this). */
  receiveFromWebview(raw: unknown): void {
    this.receive(raw);
  }

  private receive(raw: unknown): void {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') return;
    const message = raw as WebviewToHost;
    if (this.facts.note(message)) {
      switch (message.type) {
        case 'ready': {
          const early = this.firstLoad && this.earlyToken === this.token && this.view?.type === 'reports';
          this.firstLoad = false;
          this.earlyToken = undefined;
          if (early) this.postedEarly();
          else this.postView();
          const steps = this.pendingSteps;
          this.pendingSteps = [];
          for (const step of steps) this.postNow(step);
          break;
        }
        case 'stepped':
          if (Number.isInteger(message.index) && Number.isInteger(message.total)) void vscode.commands.executeCommand('setContext', STEP_CONTEXT, message.total);
          break;
        case 'rendered':
          ReportPanel.log?.(`panel: first chart painted, ${Date.now() - this.info.createdAt} ms after the panel was created (webview: ${message.ms} ms after the message)`);
          if (typeof message.token === 'number') this.pages.rendered(message.token);
          break;
      }
      return;
    }
    switch (message.type) {
      case 'reveal':
        void this.reveal(message.path, message.line);
        break;
      case 'openMetricDoc':
        void openMetricDoc(this.context.extensionUri, message.metric).then((uri) => { if (uri) this.info.lastMetricDoc = uri.toString(); });
        break;
      case 'groupBy':
      case 'clusterBy':
      case 'pickDataFile':
      case 'chooseModel':
        void this.slice(message);
        break;
      case 'compareModels':
        if (mayOpen(this.result, this.info.path)) void vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(this.info.path));
        break;
      case 'mapColumns':
        if (this.info.path) void vscode.commands.executeCommand('evalLens.mapColumns', vscode.Uri.file(this.info.path));
        break;
      case 'export':
        if (message.request && typeof message.request === 'object') {
          void this.chartRequests.receive(message.answers, async (target) => {
            const done = await this.export(message.request, target);
            if (done === 'clipboard') void this.panel.webview.postMessage({ type: 'copied' } satisfies HostToWebview);
            return done;
          });
        }
        break;
      case 'chartMissing':
        this.chartRequests.missing(message);
        break;
      case 'compareWith':
        if (mayOpen(this.result, message.path)) void vscode.commands.executeCommand('evalLens.compareWith', message.path);
        break;
      case 'openLink':
        void openLink(message.url).then((opened) => { if (opened) ReportPanel.log?.(`panel: opened the link ${opened}`); });
        break;
      case 'readRecord':
        this.readRecord(message);
        break;
      case 'openSample':
        this.openSample(message);
        break;
      case 'peekSample':
        void this.peekSample(message);
        break;
      case 'samplePeekShown':
        this.samplePeekShown(message);
        break;
      case 'searchConversations':
        void this.searchConversations(message);
        break;
      case 'readColumn':
        void this.readColumn(message);
        break;
    }
  }

  /** Which file and row the page asks for (the path and format are the report's, not the page's word). */
  private sampleTarget(message: { report: number; row: unknown }): SampleTarget | undefined {
    const report = this.result?.reports[message.report];
    const row = message.row as SampleTarget['row'] | undefined;
    if (!report || !row || typeof row !== 'object' || !Number.isInteger(row.line)) return undefined;
    this.info.lastSampleRow = row;
    return { label: baseName(report.path), path: report.path, format: report.format, task: report.task, row };
  }

  /** The sample view in its own tab, on a row of one of the reports shown (the peek's "Open in its own tab"). */
  private openSample(message: Extract<WebviewToHost, { type: 'openSample' }>): void {
    const target = this.sampleTarget(message);
    if (target) SamplePanel.show(this.context, [target]);
  }

  /**
   * A row's sample for the page's own peek: read by the sample view's worker and posted back. The
   * page is already loaded, so the sample is on it as soon as it is read (a new tab would first
   * have to create and boot its webview: most of a first click's second, issue 29).
   */
  private async peekSample(message: Extract<WebviewToHost, { type: 'peekSample' }>): Promise<void> {
    const target = this.sampleTarget(message);
    if (!target || !Number.isInteger(message.request)) return;
    const arrivedAt = performance.now();
    const peek = { request: message.request, arrivedAt, readMs: 0 };
    this.peek = peek;
    const [side] = await readSides(ReportPanel.sampleReader, [target]);
    peek.readMs = performance.now() - arrivedAt;
    if (this.peek !== peek || !this.info.ready) return; // another row was asked for meanwhile, or the page went
    this.postNow({ type: 'samplePeek', request: message.request, side });
  }

  private samplePeekShown(message: Extract<WebviewToHost, { type: 'samplePeekShown' }>): void {
    const peek = this.peek;
    if (!peek || peek.request !== message.request) return;
    const shown = {
      request: peek.request, requestToShownMs: performance.now() - peek.arrivedAt, readMs: peek.readMs,
      pageMs: Number(message.ms) || 0, messages: Number(message.messages) || 0,
    };
    this.info.lastSamplePeek = shown;
    ReportPanel.log?.(`sample peek: ${shown.messages} messages on the page ${shown.requestToShownMs.toFixed(0)} ms after the request (worker read ${shown.readMs.toFixed(0)} ms, page ${shown.pageMs.toFixed(0)} ms)`);
  }

  /** A judge file's row, whole (issue 27): read from the report's own file (never a path the page names), posted back. */
  private readRecord(message: Extract<WebviewToHost, { type: 'readRecord' }>): void {
    const report = this.result?.reports[message.report];
    if (!report || !Number.isInteger(message.request)) return;
    let answer: { fields: Record<string, string> } | { error: string };
    try {
      answer = readRecordAtLine(report.path, message.line);
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    if (this.info.ready) this.postNow({ type: 'record', request: message.request, ...answer });
  }

  private async searchConversations(message: Extract<WebviewToHost, { type: 'searchConversations' }>): Promise<void> {
    const report = this.result?.reports[message.report];
    const search = ReportPanel.conversationSearch;
    if (!report || !search || typeof message.query !== 'string') return;
    const token = this.token;
    let answer: Omit<Extract<HostToWebview, { type: 'conversationMatches' }>, 'type' | 'search'>;
    try {
      answer = await search(report.path, report.format, message.query);
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    if (token === this.token && this.info.ready) this.postNow({ type: 'conversationMatches', search: message.search, ...answer });
  }

  /** The search's column of the file (issue 28.1): read in the worker, posted to the page that asked. */
  private async readColumn(message: Extract<WebviewToHost, { type: 'readColumn' }>): Promise<void> {
    const path = this.info.path;
    const reader = ReportPanel.columnReader;
    if (!path || !reader || typeof message.column !== 'string' || !Number.isInteger(message.report)) return;
    const token = this.token;
    let answer: { values?: (string | null)[]; error?: string };
    try {
      answer = await reader(path, message.report, message.column, !!message.fromData);
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    if (token === this.token && this.info.ready) {
      this.postNow({ type: 'columnRead', report: message.report, column: message.column, ...(message.fromData ? { fromData: true } : {}), ...answer });
    }
  }

  /** "Group by" / "Join data file…": remembered by the handler (extension/slicing.ts), then re-scored. */
  private async slice(message: Extract<WebviewToHost, { type: 'groupBy' | 'clusterBy' | 'pickDataFile' | 'chooseModel' }>): Promise<void> {
    const path = this.info.path;
    if (path && (await ReportPanel.sliceHandler?.(path, message))) await this.load(path);
  }

  /** "Export…" from the webview or the Export Report command: see exportReport.ts. */
  async export(request: ExportRequest, target?: vscode.Uri): Promise<vscode.Uri | 'clipboard' | undefined> {
    return this.result ? exportReportSaying(request, this.result.reports, this.result.summary, this.info.path, target) : undefined;
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

  private async reveal(path: string, line: number): Promise<void> {
    if (!mayOpen(this.result, path) || !Number.isInteger(line) || line < 1) return;
    if (await revealLine(path, line, this.panel.viewColumn)) this.info.lastRevealed = { path, line };
  }

  private dispose(): void {
    this.keep();
    this.scoring?.cancel();
    this.generation++;
    this.pages.stop();
    this.pages.set([]);
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

