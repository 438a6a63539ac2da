// The compare and leaderboard panels' host side. Each is one WebviewPanel (reused) running
// dist/compare.js; the work (reading, scoring, aligning, testing) runs in the scoring worker with a
// cancellable progress notification, so two 1,000,000-row files compare without blocking the host.
// Nothing is posted before the webview says 'ready'; after a reload of the webview (hidden and
// shown again) the current view is posted again.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import {
  BOARD_VIEW_TYPE, COMPARE_VIEW_TYPE, type AgreementCell, type BoardView, type CompareHostToWebview, type CompareView,
  type CompareExportRequest, type CompareWebviewToHost, restoreStateOf,
} from '../../common/compareProtocol';
import { exportBoard, exportComparison } from '../export/exportComparison';
import { boardPairPaths, showBoard } from '../board/showBoard';
import { runLabels } from '../../common/paths';
import { ChartRequests } from '../export/chartRequests';
import type { ChartImageFormat } from '../../common/exportProtocol';
import type { ScoreOptions } from '../../core/types';
import { makeNonce, panelHtml } from '../report/panelHtml';
import { isCancelled, type WorkerPool } from '../worker/workerPool';
import { SamplePanel } from '../sample/samplePanel';

export type Mode = 'compare' | 'board';

export interface CompareDeps {
  context: vscode.ExtensionContext;
  pool: WorkerPool;
  /** Scoring options for a path (settings, remembered format and RAFT data folder). */
  options: (path: string) => Partial<ScoreOptions>;
  maxBytes: () => number | undefined;
  log?: (line: string) => void;
}

function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || path;
}

/**
 * The compare tab's title, naming runs so that tabs can be told apart: `Compare banking_77: run-1 vs
 * run-2` when every file is the same task's predictions, else `Compare: a vs b` (runLabels).
 */
export function compareTitle(paths: readonly string[]): string {
  const labels = runLabels(paths);
  const split = labels.map((l) => l.split(' · '));
  const task = split[0]?.[0];
  if (split.length > 1 && split.every((s) => s.length >= 2 && s[0] === task)) return `Compare ${task}: ${split.map((s) => s.slice(1).join(' · ')).join(' vs ')}`;
  return `Compare: ${labels.join(' vs ')}`;
}

export class ComparePanel {
  static compare: ComparePanel | undefined;
  static board: ComparePanel | undefined;
  /** Every compare panel's and board panel's last posted view, for tests. */
  view: CompareHostToWebview | undefined;
  ready = false;
  /** The webview's last 'rendered' and 'filtered' reports. */
  rendered: { view: Mode | 'comparison'; ms: number; at: number } | undefined;
  filtered: { cell: AgreementCell | null; rows: number } | undefined;
  /** Percentages the last job's progress notification showed. */
  progress: number[] = [];
  private readonly renderedEmitter = new vscode.EventEmitter<void>();
  private readonly filteredEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private job: vscode.CancellationTokenSource | undefined;
  private generation = 0;
  private readonly chartRequests = new ChartRequests();

  private constructor(private readonly deps: CompareDeps, readonly mode: Mode, readonly panel: vscode.WebviewPanel) {
    const dist = vscode.Uri.joinPath(deps.context.extensionUri, 'dist');
    panel.iconPath = vscode.Uri.joinPath(deps.context.extensionUri, 'media', 'eval-lens.svg');
    panel.webview.html = panelHtml({
      cspSource: panel.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'compare.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'compare.css')).toString(),
      title: panel.title,
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      // A hidden webview is destroyed with its charts: it says 'ready' and paints again when shown.
      panel.onDidChangeViewState(() => { if (!panel.visible) { this.ready = false; this.rendered = undefined; } }),
      panel.onDidDispose(() => this.dispose()),
      this.renderedEmitter, this.filteredEmitter, this.chartRequests,
    );
  }

  /**
   * Restores the compare and leaderboard panels after a window reload: the page kept what it showed
   * (CompareRestoreState), and the comparison or board is computed again from the files.
   */
  static registerSerializers(deps: CompareDeps): vscode.Disposable {
    const serializer = (mode: Mode): vscode.WebviewPanelSerializer => ({
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, raw: unknown) {
        const state = restoreStateOf(raw);
        // VS Code revives a background tab only when it is first shown: by then the user may have
        // opened a newer page of this kind, which stays (there is one of each).
        const live = mode === 'compare' ? ComparePanel.compare : ComparePanel.board;
        if (live) {
          panel.dispose();
          live.panel.reveal(live.panel.viewColumn, false);
          return;
        }
        panel.webview.options = ComparePanel.webviewOptions(deps);
        const restored = new ComparePanel(deps, mode, panel);
        if (mode === 'compare') ComparePanel.compare = restored;
        else ComparePanel.board = restored;
        // The work runs in the worker with its own progress; VS Code need not wait for it.
        if (state?.mode === 'compare' && mode === 'compare' && state.paths.every((p) => existsSync(p))) void ComparePanel.showComparison(deps, state.paths);
        else if (state?.mode === 'board' && mode === 'board' && existsSync(state.folder)) void showBoard(deps, state.folder);
        else restored.setView({ type: 'error', message: `Nothing to restore: ${state ? 'a file it showed is gone' : 'the page kept no state'}. Run "Eval Lens: ${mode === 'compare' ? 'Compare Runs' : 'Show Leaderboard'}" again.` });
      },
    });
    return vscode.Disposable.from(
      vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, serializer('compare')),
      vscode.window.registerWebviewPanelSerializer(BOARD_VIEW_TYPE, serializer('board')),
    );
  }

  private static webviewOptions(deps: CompareDeps): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true, enableCommandUris: false, retainContextWhenHidden: false, enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(deps.context.extensionUri, 'dist'), vscode.Uri.joinPath(deps.context.extensionUri, 'media')],
    };
  }

  /** The panel of `mode`, revealed with `title`, or a new one (for showComparison and showBoard). */
  static open(deps: CompareDeps, mode: Mode, title: string): ComparePanel {
    const existing = mode === 'compare' ? ComparePanel.compare : ComparePanel.board;
    if (existing) {
      existing.panel.title = title;
      existing.panel.reveal(existing.panel.viewColumn, false);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      mode === 'compare' ? COMPARE_VIEW_TYPE : BOARD_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      ComparePanel.webviewOptions(deps),
    );
    const created = new ComparePanel(deps, mode, panel);
    if (mode === 'compare') ComparePanel.compare = created;
    else ComparePanel.board = created;
    return created;
  }

  /** Compares `paths` (the first is the baseline) in the worker and shows the result. */
  static async showComparison(deps: CompareDeps, paths: string[]): Promise<ComparePanel> {
    const target = ComparePanel.open(deps, 'compare', compareTitle(paths));
    await target.run(`Comparing ${paths.map(baseName).join(' with ')}`, paths.join('\n'), (signal, onProgress) =>
      deps.pool.run(
        { type: 'compare', paths, options: deps.options(paths[0]), maxBytes: deps.maxBytes() },
        { priority: 'interactive', signal, onProgress },
      ).then((reply) => {
        if (reply.type === 'compared') {
          deps.log?.(`compare: ${paths.length} runs, ${reply.view.comparison.aligned} aligned instances, ${reply.ms.toFixed(0)} ms in the worker`);
          return { type: 'comparison', view: reply.view, restore: { mode: 'compare', paths } } as CompareHostToWebview;
        }
        if (reply.type === 'failed' && reply.notApplicable) return { type: 'error', message: reply.message, notApplicable: true } as CompareHostToWebview;
        throw new Error(reply.type === 'failed' ? reply.message : `unexpected reply ${reply.type}`);
      }));
    return target;
  }

  /** Runs one job with a cancellable notification; a newer job cancels this one. */
  async run(
    title: string, detail: string,
    work: (signal: AbortSignal, onProgress: (fraction: number) => void) => Promise<CompareHostToWebview>,
  ): Promise<void> {
    this.job?.cancel();
    const generation = ++this.generation;
    const source = new vscode.CancellationTokenSource();
    this.job = source;
    this.progress = [];
    this.rendered = undefined;
    this.filtered = undefined;
    this.setView({ type: 'loading', title, detail });
    const abort = new AbortController();
    source.token.onCancellationRequested(() => abort.abort());
    try {
      const message = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Eval Lens: ${title}`, cancellable: true },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => source.cancel());
          let reported = 0;
          try {
            return await work(abort.signal, (fraction) => {
              const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
              if (percent > reported) {
                progress.report({ increment: percent - reported });
                reported = percent;
                this.progress.push(percent);
              }
            });
          } finally {
            sub.dispose();
          }
        },
      );
      if (generation === this.generation) this.setView(message);
    } catch (error) {
      if (generation !== this.generation) return;
      this.setView({
        type: 'error',
        message: isCancelled(error) || source.token.isCancellationRequested ? `${title} was cancelled.` : error instanceof Error ? error.message : String(error),
      });
    } finally {
      if (this.job === source) this.job = undefined;
    }
  }

  /** Cancels the job in progress (tests; the notification's Cancel button does the same). */
  cancel(): void {
    this.job?.cancel();
  }

  get comparison(): CompareView | undefined {
    return this.view?.type === 'comparison' ? this.view.view : undefined;
  }

  get boardView(): BoardView | undefined {
    return this.view?.type === 'board' ? this.view.view : undefined;
  }

  /** Resolves once the webview has painted the current view. */
  whenRendered(timeoutMs = 60_000): Promise<void> {
    if (this.rendered && this.view && (this.view.type === 'comparison' || this.view.type === 'board')) return Promise.resolve();
    return waitFor(this.renderedEmitter.event, timeoutMs, 'view not rendered');
  }

  /** Resolves with the next 'filtered' report. */
  whenFiltered(timeoutMs = 20_000): Promise<void> {
    return waitFor(this.filteredEmitter.event, timeoutMs, 'table not filtered');
  }

  /**
   * "Export…": the comparison (or the leaderboard) in the panel as the CLI writes it, to `target`
   * (tests) or where the save dialog says. Undefined when there is neither, or when cancelled.
   */
  async export(request: CompareExportRequest, target?: vscode.Uri): Promise<vscode.Uri | 'clipboard' | undefined> {
    const view = this.comparison;
    const board = this.boardView;
    if (!view && !board) return undefined;
    const done = view ? await exportComparison(request, view.comparison, target) : await exportBoard(request, board!, target);
    if (done === 'clipboard') void vscode.window.setStatusBarMessage('Eval Lens: Markdown copied to the clipboard', 3000);
    else if (done && !target) void vscode.window.setStatusBarMessage(`Eval Lens: exported ${baseName(done.fsPath)}`, 3000);
    return done;
  }

  /**
   * A chart of the comparison as PNG or SVG (the Export Comparison command): drawn by the webview,
   * saved to `target` or where the save dialog says. Without `chart`, a quick pick of the page's charts.
   */
  async exportChart(chart: string | undefined, format: ChartImageFormat, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    if (!this.panel.visible) this.panel.reveal(this.panel.viewColumn, true);
    await this.whenRendered();
    return this.chartRequests.export((m) => this.panel.webview.postMessage(m), chart, format, target);
  }

  /** Posts a message as the webview would receive it from itself (tests drive clicks this way). */
  postToWebview(message: unknown): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private setView(message: CompareHostToWebview): void {
    this.view = message;
    if (message.type !== 'loading') this.rendered = undefined;
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  /** Paths the webview may ask to open: the files of the view in place only. */
  private allowed(path: string): boolean {
    const v = this.view;
    if (typeof path !== 'string' || !v) return false;
    if (v.type === 'comparison') return v.view.runs.some((r) => r.path === path) || v.view.pairs.some((p) => p.paths.includes(path));
    if (v.type === 'board') return Object.values(v.view.paths).some((tasks) => Object.values(tasks).includes(path));
    return false;
  }

  private receive(raw: unknown): void {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') return;
    const message = raw as CompareWebviewToHost;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.view) void this.panel.webview.postMessage(this.view);
        break;
      case 'rendered':
        this.rendered = { view: message.view, ms: Number(message.ms) || 0, at: Date.now() };
        this.renderedEmitter.fire();
        break;
      case 'filtered':
        this.filtered = { cell: message.cell, rows: Number(message.rows) || 0 };
        this.filteredEmitter.fire();
        break;
      case 'reveal':
        if (this.allowed(message.path) && Number.isInteger(message.line) && message.line >= 1) {
          void vscode.commands.executeCommand('evalLens.revealInData', { path: message.path, line: message.line });
        }
        break;
      case 'export':
        void this.chartRequests.receive(message.answers, async (target) => {
          const done = await this.export(message.request, target);
          if (done === 'clipboard') void this.panel.webview.postMessage({ type: 'copied' } satisfies CompareHostToWebview);
          return done;
        });
        break;
      case 'chartMissing':
        this.chartRequests.missing(message);
        break;
      case 'openReport':
        if (this.allowed(message.path)) void vscode.commands.executeCommand('evalLens.openReport', message.path);
        break;
      case 'openSamples':
        this.openSamples(message.candidate, message.id);
        break;
      case 'compareRows': {
        const pair = this.boardView && boardPairPaths(this.boardView, message.runs, message.task);
        if (pair) void ComparePanel.showComparison(this.deps, pair);
        break;
      }
    }
  }

  /** The sample view (issue 29) on aligned instance `id`: the baseline's and the candidate's samples side by side. */
  private openSamples(candidate: unknown, id: unknown): void {
    const view = this.comparison;
    if (!view || typeof id !== 'string' || !Number.isInteger(candidate)) return;
    const pairs = view.pairs.find((p) => p.candidate === candidate);
    const row = pairs?.rows.find((r) => r.id === id);
    if (!pairs || !row) return;
    const runs = [view.runs[0], view.runs[candidate as number]];
    const comparisonRuns = [view.comparison.runs[0], view.comparison.runs[candidate as number]];
    if (!runs[0] || !runs[1] || !comparisonRuns[0] || !comparisonRuns[1]) return;
    SamplePanel.show(this.deps.context, ([0, 1] as const).map((k) => ({
      label: runs[k].label,
      path: pairs.paths[k],
      format: comparisonRuns[k].format,
      task: comparisonRuns[k].task,
      row: { line: row.lines[k], id: row.id, gold: row.gold, pred: row.preds[k], correct: k === 0 ? row.cell === 'both_right' || row.cell === 'baseline_only' : row.cell === 'both_right' || row.cell === 'candidate_only', ...(row.texts ? { texts: { fields: pairs.textFields, values: row.texts } } : {}) },
    })));
  }

  private dispose(): void {
    this.job?.cancel();
    this.generation++;
    if (ComparePanel.compare === this) ComparePanel.compare = undefined;
    if (ComparePanel.board === this) ComparePanel.board = undefined;
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

function waitFor(event: vscode.Event<void>, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { sub.dispose(); reject(new Error(`${what} within ${timeoutMs} ms`)); }, timeoutMs);
    const sub = event(() => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}
