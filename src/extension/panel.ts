// The report panel's host side: one WebviewPanel (reused), scored through the function the
// extension registers, restored after a window reload by re-scoring the path kept in the webview's
// state. The webview is not kept alive while hidden (retainContextWhenHidden: false): it saves its
// own UI state with setState, and every time it (re)loads it says 'ready' and the host posts the
// current view again. Nothing is posted before 'ready'.
import * as vscode from 'vscode';
import type { Report } from '../core/types';
import { WEBVIEW_VIEW_TYPE, type HostToWebview, type PanelState, type WebviewToHost } from '../protocol';
import { makeNonce, panelHtml } from './panelHtml';

export interface PanelScoreResult {
  reports: Report[];
  summary: { raft_score?: number | null };
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
  /** The last line revealed on the webview's request. */
  lastRevealed: { path: string; line: number } | undefined;
  /** The webview's UI state as it last reported it. */
  state: PanelState | undefined;
}

const STEP_CONTEXT = 'evalLens.misclassifiedCount';

export class ReportPanel {
  static current: ReportPanel | undefined;
  private static scoreFunction: PanelScoreFunction | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private readonly renderedEmitter = new vscode.EventEmitter<NonNullable<PanelInfo['rendered']>>();
  /** Fires when the webview has painted the first chart of a report. */
  readonly onDidRender = this.renderedEmitter.event;
  private readonly info: PanelInfo;
  /** The view the webview should show: 'loading', 'reports' or 'error' (re-posted after every 'ready'). */
  private view: HostToWebview | undefined;
  /** 'step' messages that arrived while the webview was not ready. */
  private pendingSteps: HostToWebview[] = [];
  private result: PanelScoreResult | undefined;
  private scoring: vscode.CancellationTokenSource | undefined;
  private generation = 0;

  private constructor(
    private readonly context: vscode.ExtensionContext,
    readonly panel: vscode.WebviewPanel,
    path: string,
    state?: PanelState,
  ) {
    this.info = { path, lastPosted: undefined, ready: false, stepPosition: undefined, rendered: undefined, lastRevealed: undefined, state };
    panel.webview.options = ReportPanel.webviewOptions(context);
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'eval-lens.svg');
    panel.webview.html = this.html();
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => {
        // A hidden webview is destroyed (no retainContextWhenHidden); it says 'ready' again when shown.
        if (!panel.visible) this.info.ready = false;
      }),
      panel.onDidDispose(() => this.dispose()),
      this.renderedEmitter,
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
   * Shows the report of `path` in the panel (created, or reused and revealed). With `result` it is
   * shown at once; without, the path is scored with a cancellable progress notification.
   */
  static show(context: vscode.ExtensionContext, path: string, result?: PanelScoreResult): ReportPanel {
    let target = ReportPanel.current;
    if (target) {
      // A new result for the report already in view (e.g. the second pass with intervals) must not
      // pull the keyboard focus away from where the user is.
      const sameInView = target.panel.visible && target.info.path === path;
      target.panel.reveal(target.panel.viewColumn, sameInView);
    } else {
      const panel = vscode.window.createWebviewPanel(
        WEBVIEW_VIEW_TYPE, titleFor(path),
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        { ...ReportPanel.webviewOptions(context), retainContextWhenHidden: false, enableFindWidget: true },
      );
      target = new ReportPanel(context, panel, path);
      ReportPanel.current = target;
    }
    if (result) target.showResult(path, result);
    else void target.load(path);
    return target;
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
    this.showResult(path, result);
  }

  private showResult(path: string, result: PanelScoreResult): void {
    this.scoring?.cancel();
    this.generation++;
    this.result = result;
    this.info.path = path;
    this.info.rendered = undefined;
    this.panel.title = titleFor(path);
    const saved = this.info.state;
    const selected = saved?.path === path && saved.selected !== undefined && saved.selected < result.reports.length ? saved.selected : 0;
    this.setView({ type: 'reports', path, reports: result.reports, summary: result.summary, selected });
  }

  // ---- messages -----------------------------------------------------------------------------------

  private setView(message: HostToWebview): void {
    this.view = message;
    if (this.info.ready) this.postNow(message);
    else this.info.lastPosted = message.type; // queued: posted on 'ready'
  }

  private postNow(message: HostToWebview): void {
    this.info.lastPosted = message.type;
    void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') return;
    const message = raw as WebviewToHost;
    switch (message.type) {
      case 'ready': {
        this.info.ready = true;
        if (isPanelState(message.state) && message.state.path === this.info.path) this.info.state = message.state;
        if (this.view) this.postNow(this.view);
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
        if (typeof message.ms === 'number') {
          const rendered = { path: String(message.path), selected: Number(message.selected) || 0, ms: message.ms, at: Date.now() };
          this.info.rendered = rendered;
          this.renderedEmitter.fire(rendered);
        }
        break;
      case 'reveal':
        void this.reveal(message.path, message.line);
        break;
    }
  }

  /** Files the webview may ask to open: the reports' own files only, never an arbitrary path. */
  private revealable(path: string): boolean {
    if (typeof path !== 'string' || !this.result) return false;
    return this.result.reports.some((r) => r.path === path || r.dataPath === path || r.reportedPath === path || r.problems.some((p) => p.path === path));
  }

  private async reveal(path: string, line: number): Promise<void> {
    if (!this.revealable(path) || !Number.isInteger(line) || line < 1) return;
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
    if (ReportPanel.current === this) {
      ReportPanel.current = undefined;
      void vscode.commands.executeCommand('setContext', STEP_CONTEXT, 0);
    }
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

function isPanelState(value: unknown): value is PanelState {
  return !!value && typeof value === 'object' && typeof (value as PanelState).path === 'string';
}

function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || path;
}

function titleFor(path: string): string {
  return path ? `Eval Lens: ${baseName(path)}` : 'Eval Lens';
}
