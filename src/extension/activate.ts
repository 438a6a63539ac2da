// Entry point (dist/extension.js). Activation only registers providers and commands and starts
// discovery on a later tick: no file is read and no worker starts before activate() returns.
import { bundleStart } from './loadClock';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { HeadlineCodeLensProvider, lensTitle } from './editor/codeLens';
import { revealInData, targetPath } from './commands';
import { registerCompareCommands } from './compare/compareCommands';
import { ComparePanel } from './compare/comparePanel';
import { ProblemsPublisher } from './editor/diagnostics';
import { Discovery } from './discovery/discovery';
import { UnscoredFiles } from './discovery/unscoredFiles';
import { OpenDocuments } from './editor/openDocuments';
import { EvalFiles } from './discovery/evalFiles';
import { exportCommand, exportComparisonCommand } from './export/exportCommand';
import { InstanceHoverProvider } from './editor/hover';
import { registerPrepareAhead } from './report/prepareAhead';
import { ReportPanel } from './report/reportPanel';
import { SamplePanel } from './sample/samplePanel';
import type { SampleReader } from './sample/sampleSides';
import { SampleWorkerClient } from './sample/sampleWorkerClient';
import { registerReportEditor } from './report/reportEditor';
import { QuickFixProvider } from './editor/quickFixes';
import { scoreBenchmark } from './scoreBenchmark';
import { ReportScoring } from './worker/scoring';
import { fileStamp } from './worker/fileStamp';
import { SavedIntervals } from './report/savedIntervals';
import { StoredReports } from './report/storedReports';
import { readSettings, SECTION, type EvalLensSettings } from './settings';
import { HeadlineStatusBar } from './editor/statusBar';
import { PredictionTree, type TreeNode } from './discovery/tree';
import { IDLE_NICE, WORKER_IDLE_MS, WorkerPool } from './worker/workerPool';
import { startMemoryLog } from './worker/memoryLog';
import { handleSliceRequest } from './report/slicing';
import { readColumnForSearch } from './report/columnSearch';
import { givenMapping, mapColumns, rememberMapping, type ColumnPickShown } from './report/mapColumns';
import type { ScoreResult } from './worker/workerProtocol';

/** The longest an intervals pass waits for its report's first chart (see ReportScoring.holdIntervals). */
const INTERVALS_HOLD_MS = 3000;

/** When the bundle's modules finished evaluating (this line runs after every import). */
const bundleEvaluatedAt = performance.now();

/** Files the editor features apply to (providers return nothing for files not tracked). */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', pattern: '**/*.{csv,tsv,jsonl,ndjson,json}' }];

export interface TreeSnapshot {
  label: string;
  description?: string;
  /** The tooltip's text (a MarkdownString's source). */
  tooltip?: string;
  children: TreeSnapshot[];
}

/** What activate() returns: timings and hooks for the integration tests. */
export interface EvalLensApi {
  /**
   * ms spent in activate(), and evaluating the bundle's modules before it (what VS Code does in
   * between, e.g. preparing the ExtensionContext, is not ours and not counted).
   */
  activationMs: number;
  moduleLoadMs: number;
  files: EvalFiles;
  /** Resolves when discovery, debounced edits and every scoring job are done. */
  whenIdle(timeoutMs?: number): Promise<void>;
  /** The tree's current contents, labels and descriptions. */
  treeSnapshot(): TreeSnapshot[];
  /** The CodeLens title for a file, as provideCodeLenses would give it. */
  lensTitle(uri: vscode.Uri): string | undefined;
  statusBarText(): string | undefined;
  /** Result of the last Score Benchmark run. */
  lastScore: ScoreResult | undefined;
  /** The percentages the last Score Benchmark run's progress notification showed, in order. */
  lastProgress: number[];
  /** The panel's scoring (options, cancellation), for tests. */
  scoring: ReportScoring;
  /** Jobs queued or running in the scoring workers. */
  workerJobs(): number;
  /** Scoring worker threads alive (idle ones are terminated after a while). */
  workerThreads(): number;
  /** The report panel, when one is open. */
  panel(): ReportPanel | undefined;
  /** The large reports kept on disk across reloads (report/storedReports.ts), for tests. */
  storedReports(): StoredReports | undefined;
  /** Report panels created in this window so far. */
  panelsCreated(): number;
  /** The sample view (issue 29), when open. */
  samplePanel(): SamplePanel | undefined;
  /** The compare and leaderboard panels, when open. */
  comparePanel(): ComparePanel | undefined;
  boardPanel(): ComparePanel | undefined;
  /** The "Map columns…" pick on screen (its field, items, and a way to make one active), if any. */
  columnPick(): ColumnPickShown | undefined;
}

export function activate(context: vscode.ExtensionContext): EvalLensApi {
  const t0 = performance.now();
  const log = createLog();
  let settings: EvalLensSettings = readSettings();
  const getSettings = () => settings;

  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const pool = new WorkerPool(context.asAbsolutePath('dist/scoreWorker.js'), cores > 1 ? 2 : 1, 1, (l) => log.warn(l));
  // A worker at full priority, its code compiled on made-up tables, for the first report a user
  // opens after a window reload (workerPool.prepare; issue 28.11). Not on one core, where the one
  // worker is the tree's too and the warm-up would compete with the window's start.
  if (pool.size > 1) pool.prepare({ type: 'warmUp' });
  // The intervals of reports made ahead (report/prepareAhead.ts) run in a worker of their own at the
  // lowest priority: only on more than one core, and never in a slot the tree or a report waits for.
  const idlePool = cores > 1 ? new WorkerPool(context.asAbsolutePath('dist/scoreWorker.js'), 1, 1, (l) => log.warn(l), WORKER_IDLE_MS, WORKER_IDLE_MS, IDLE_NICE) : undefined;
  pool.trace = (line) => log.debug(line);
  if (idlePool) idlePool.trace = (line) => log.debug(`idle ${line}`);
  const files = new EvalFiles(pool, getSettings, log);
  const unscored = new UnscoredFiles();
  const discovery = new Discovery(files, pool, getSettings, log, unscored);
  const documents = new OpenDocuments(files, discovery, log);
  const problems = new ProblemsPublisher();
  const tree = new PredictionTree(files, unscored);
  const lenses = new HeadlineCodeLensProvider(files);
  const statusBar = new HeadlineStatusBar(files);
  const scoring = new ReportScoring(pool, getSettings, (path, quick, full) => void showIntervals(path, quick, full), context.workspaceState);
  scoring.idlePool = idlePool;
  // Intervals kept across reloads stand for this build of the scoring worker only (its stamp).
  const workerStamp = fileStamp(context.asAbsolutePath('dist/scoreWorker.js'));
  if (workerStamp) scoring.saved = new SavedIntervals(context.workspaceState, `${workerStamp.mtime}:${workerStamp.size}`);
  // And so do the large reports kept on disk (the extension's own global storage).
  if (workerStamp) ReportPanel.stored = new StoredReports(vscode.Uri.joinPath(context.globalStorageUri, 'reports').fsPath, `${workerStamp.mtime}:${workerStamp.size}:${process.versions.v8}`);
  files.borrow = (path, key) => scoring.firstPassFor(path, key);
  ReportPanel.sliceHandler = (path, message) => handleSliceRequest(scoring, path, message);
  ReportPanel.columnReader = (path, report, column, fromData) => readColumnForSearch(scoring, path, report, column, fromData);
  scoring.onIntervalsProgress = (path, fraction) => ReportPanel.current?.intervalsProgress(path, fraction);
  ReportPanel.log = (line) => log.debug(line);
  scoring.log = (line) => log.debug(line);
  // A report's intervals pass starts once the page has its report (at most INTERVALS_HOLD_MS later):
  // not while the webview boots, but without waiting for the first chart's drawing either
  // (issue 28.11: the drawing is ~0.1-0.2 s of the page's thread; the pass is seconds on both cores).
  scoring.holdIntervals = (path) => ReportPanel.current?.whenPosted(path, INTERVALS_HOLD_MS) ?? Promise.resolve();
  // A closed report tab's report is kept a while for its file opened again (report/keptReport.ts):
  // while the options it was scored with hold, and checked after it is shown by a pass without
  // instances or intervals. Not with a joined data file: its groups could change while the
  // figures that check compares do not.
  ReportPanel.scoreKey = (path) => {
    const options = scoring.optionsFor(path);
    return options.listColumns?.dataPath ? undefined : JSON.stringify(options);
  };
  ReportPanel.rescore = async (path) => (await scoring.score(path, { ...scoring.optionsFor(path), bootstrap: 0 }, undefined, undefined, undefined, 'summary')).reports;
  SamplePanel.log = (line) => log.debug(line);
  const sampleWorker = new SampleWorkerClient(context.asAbsolutePath('dist/sampleWorker.js'), (l) => log.warn(l));
  // EVAL_LENS_DEBUG=memory: RSS and each isolate's heap once a second (bench/large-eval.bench.mjs reads them).
  const stopMemoryLog = startMemoryLog(process.env.EVAL_LENS_DEBUG === 'memory', (l) => log.debug(l), () => [
    ...pool.threads(), ...(sampleWorker.thread ? [{ name: 'sample worker', worker: sampleWorker.thread }] : []),
  ]);
  // One reader for the sample view's tab and the report page's sample peek.
  const readSamples: SampleReader = (targets) => sampleWorker.read(
    targets.map((t) => ({ path: t.path, format: t.format, task: t.task, row: t.row, text: unsavedText(t.path) })),
    getSettings().maxFileBytes,
  );
  // A report with samples is shown: the worker starts and reads its first sample ahead (answer
  // dropped), so that the first click's read is a warm one.
  ReportPanel.samplesShown = (ahead) => {
    sampleWorker.warm();
    if (ahead) readSamples([ahead]).catch(() => undefined);
  };
  ReportPanel.sampleReader = readSamples;
  ReportPanel.conversationSearch = async (path, format, query) => {
    const reply = await pool.run({ type: 'searchConversations', path, format, query, maxBytes: getSettings().maxFileBytes }, { priority: 'interactive' });
    if (reply.type === 'conversations') return { rows: reply.rows, searched: reply.searched, unread: reply.unread, error: reply.error };
    throw new Error(reply.type === 'failed' ? reply.message : `unexpected reply ${reply.type}`);
  };
  const treeView = vscode.window.createTreeView('evalLens.files', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });

  const api: EvalLensApi = {
    activationMs: 0,
    moduleLoadMs: bundleEvaluatedAt - bundleStart,
    files,
    whenIdle: (timeoutMs = 60_000) => waitIdle(() => !discovery.busy && !documents.busy && files.pendingCount === 0 && pool.busy === 0, timeoutMs),
    treeSnapshot: () => snapshot(tree),
    lensTitle: (uri) => {
      const e = files.get(uri);
      return e && lensTitle(e);
    },
    statusBarText: () => (statusBar.item.text ? statusBar.item.text : undefined),
    lastScore: undefined,
    lastProgress: [],
    scoring,
    workerJobs: () => pool.busy,
    workerThreads: () => pool.workers,
    panel: () => ReportPanel.current,
    storedReports: () => ReportPanel.stored,
    panelsCreated: () => ReportPanel.created,
    samplePanel: () => SamplePanel.current,
    comparePanel: () => ComparePanel.compare,
    boardPanel: () => ComparePanel.board,
    columnPick: () => shownPick,
  };
  let shownPick: ColumnPickShown | undefined;

  // A closed panel needs no intervals: stop their pass (it can run for a while on a large file).
  const watched = new WeakSet<ReportPanel>();
  const watch = (shown: ReportPanel) => {
    if (!watched.has(shown)) {
      watched.add(shown);
      shown.panel.onDidDispose(() => scoring.cancelIntervals());
    }
    return shown;
  };
  const showReport = (path: string, result?: ScoreResult) => watch(ReportPanel.show(context, path, result));
  const prepareReport = (path: string) => {
    const shown = watch(ReportPanel.showLoading(context, path));
    return { fail: (message: string) => shown.fail(path, message) };
  };

  context.subscriptions.push(
    log, { dispose: () => pool.dispose() }, { dispose: () => idlePool?.dispose() }, files, discovery, documents, problems, tree, lenses, statusBar, treeView,
    unscored, unscored.onDidChange(() => tree.refresh()),
    files.onDidChange((ev) => {
      problems.update(ev);
      tree.refresh();
      lenses.refresh();
      statusBar.update();
    }),
    vscode.window.onDidChangeActiveTextEditor(() => statusBar.update()),
    vscode.languages.registerCodeLensProvider(SELECTOR, lenses),
    vscode.languages.registerHoverProvider(SELECTOR, new InstanceHoverProvider(files)),
    vscode.languages.registerCodeActionsProvider(SELECTOR, new QuickFixProvider(problems.collection), { providedCodeActionKinds: QuickFixProvider.kinds }),
    scoring,
    ReportPanel.register(context, (path, token, onProgress) => scoring.scoreForReport(path, token, undefined, onProgress)),
    // The sample view (issue 29): a sample is read from its file when shown, in a worker of its own
    // (never queued behind a scoring pass), started when a report with samples is shown.
    SamplePanel.register(context, readSamples),
    { dispose: () => sampleWorker.dispose() }, { dispose: stopMemoryLog },
    registerReportEditor(context, files),
    // The newest large files' reports are made ahead once the tree has scored them (issue 28.11).
    registerPrepareAhead(files, scoring, (line) => log.debug(line)),
    vscode.window.tabGroups.onDidChangeTabs(() => statusBar.update()),
    vscode.commands.registerCommand('evalLens.scoreBenchmark', async (a?: unknown, b?: unknown) => {
      const shown: number[] = [];
      api.lastProgress = shown;
      const result = await scoreBenchmark({ files, scoring, settings: getSettings, showReport, prepareReport, log, onProgressShown: (p) => shown.push(p) }, a, b);
      if (result) api.lastScore = result;
      return result;
    }),
    vscode.commands.registerCommand('evalLens.openReport', (arg?: unknown) => {
      const path = targetPath(arg);
      if (!path) {
        void vscode.window.showInformationMessage('Eval Lens: open a predictions file, or pick one in the Eval Lens view.');
        return undefined;
      }
      return showReport(path);
    }),
    vscode.commands.registerCommand('evalLens.refresh', async () => {
      settings = readSettings();
      for (const e of files.all()) e.resultKey = undefined;
      await discovery.start();
    }),
    registerCompareCommands(files, {
      context, pool, options: (p) => scoring.optionsFor(p), maxBytes: () => getSettings().maxFileBytes, log: (l) => log.info(l),
    }),
    vscode.commands.registerCommand('evalLens.nextMisclassified', () => step(1)),
    vscode.commands.registerCommand('evalLens.previousMisclassified', () => step(-1)),
    vscode.commands.registerCommand('evalLens.revealInData', (arg?: unknown) => revealInData(files, arg)),
    vscode.commands.registerCommand('evalLens.exportReport', (arg?: unknown) => exportCommand(arg)),
    // "Map columns…": from the palette, the report's title bar or its status view. With a mapping
    // as second argument ({label, score, pred, ...}), remembers that one without asking; the title
    // bar's second argument ({groupId, editorIndex}) is no mapping, so the pick shows (givenMapping).
    vscode.commands.registerCommand('evalLens.mapColumns', async (arg?: unknown, given?: unknown) => {
      const current = ReportPanel.current;
      const path = (arg === undefined && current?.panel.active && current.path ? current.path : undefined) ?? targetPath(arg) ?? current?.path;
      if (!path) {
        void vscode.window.showInformationMessage('Eval Lens: open a table (CSV, TSV, JSON Lines, Parquet) or its report first.');
        return undefined;
      }
      log.info(`Map columns: ${path}`);
      let mapping = givenMapping(given);
      if (mapping) {
        await rememberMapping(path, mapping);
      } else {
        mapping = await mapColumns({ pool, settings: getSettings, onPick: (p, visible) => { if (visible) shownPick = p; else if (shownPick === p) shownPick = undefined; } }, path);
      }
      if (!mapping) return undefined;
      // Score with it now (the settings event follows; its re-scores are the same requests).
      settings = readSettings();
      void discovery.start();
      files.invalidateAll();
      const panel = ReportPanel.current;
      if (panel && panel.path === path) await panel.load(path);
      else showReport(path);
      return mapping;
    }),
    vscode.commands.registerCommand('evalLens.exportComparison', (arg?: unknown) => exportComparisonCommand(arg)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      const before = settings;
      settings = readSettings();
      if (JSON.stringify(before.include) !== JSON.stringify(settings.include) || JSON.stringify(before.exclude) !== JSON.stringify(settings.exclude)
        // A mapped table is predictions now (or no longer): discovery decides again.
        || JSON.stringify(before.columnMappings) !== JSON.stringify(settings.columnMappings)) {
        void discovery.start();
      }
      files.invalidateAll();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void discovery.start()),
  );

  function step(direction: 1 | -1): void {
    if (ReportPanel.current) {
      ReportPanel.current.step(direction);
      return;
    }
    const path = targetPath(undefined);
    if (path && vscode.window.activeTextEditor && files.get(vscode.window.activeTextEditor.document.uri)) showReport(path);
    else void vscode.window.showInformationMessage('Eval Lens: open a report first (Eval Lens: Score Benchmark).');
  }

  // Discovery and the already-open editors wait for the next tick: activation stays cheap.
  setTimeout(() => {
    documents.openAll();
    statusBar.update();
    void discovery.start();
  }, 0);

  api.activationMs = performance.now() - t0;
  log.info(`activated in ${api.activationMs.toFixed(1)} ms (module evaluation before it: ${api.moduleLoadMs.toFixed(1)} ms)`);
  return api;
}

/** The text of `path` when it is open in an editor with unsaved edits (the sample is read from it then). */
function unsavedText(path: string): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path && !d.isClosed);
  return doc?.isDirty ? doc.getText() : undefined;
}

export function deactivate(): void {
  // Everything is in context.subscriptions; the workers terminate with the pool.
}

/**
 * The second pass of a report (with bootstrap intervals) adds its intervals to the panel in place,
 * if the panel still shows that first pass (or is about to: the first pass may still be on its way
 * in). If the file changed between the passes (other numbers), the panel scores it again.
 */
async function showIntervals(path: string, quick: ScoreResult, full: ScoreResult): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const panel = ReportPanel.current;
    if (!panel) return;
    if (panel.reports === quick.reports) {
      if (!panel.applyIntervals(path, full)) void panel.load(path);
      return;
    }
    if (panel.reports !== undefined && panel.path !== path) return; // another report took its place
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The "Eval Lens" output channel; with EVAL_LENS_DEBUG set, every line also goes to the console (test logs). */
function createLog(): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('Eval Lens', { log: true });
  if (!process.env.EVAL_LENS_DEBUG) return channel;
  for (const level of ['trace', 'debug', 'info', 'warn', 'error'] as const) {
    const original = channel[level].bind(channel) as (message: string, ...args: unknown[]) => void;
    (channel as unknown as Record<string, unknown>)[level] = (message: string, ...args: unknown[]) => {
      // Stamped with the epoch ms: a benchmark lines these up with the page's own clock.
      console.log(`[eval-lens ${level} @${Date.now()}] ${message}`);
      original(message, ...args);
    };
  }
  return channel;
}

function waitIdle(idle: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    let calm = 0;
    const check = () => {
      // Idle twice in a row, 50 ms apart: a finished job may start the next one on its way out.
      calm = idle() ? calm + 1 : 0;
      if (calm >= 2) resolve();
      else if (Date.now() > deadline) reject(new Error(`Eval Lens did not become idle within ${timeoutMs} ms`));
      else setTimeout(check, 50);
    };
    check();
  });
}

function snapshot(tree: PredictionTree, node?: TreeNode): TreeSnapshot[] {
  return tree.getChildren(node).map((child) => {
    const item = tree.getTreeItem(child);
    const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
    const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value;
    return { label, description: typeof item.description === 'string' ? item.description : undefined, tooltip, children: snapshot(tree, child) };
  });
}
