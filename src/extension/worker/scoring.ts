// Scoring for the report panel and "Score Benchmark": a file or folder, with a forced format and
// RAFT data folder when the user chose them, the unsaved buffer when the file is open with edits,
// and real cancellation (the worker is stopped).
//
// Two passes: the report is scored first without bootstrap, so the charts appear as soon as the
// metrics exist; the intervals (evalLens.bootstrap resamples, which cost far more than the metrics
// on a large file) follow in a second, cancellable pass and replace the report when they arrive.
import * as vscode from 'vscode';
import type { FormatName, ScoreOptions } from '../../core/types';
import { optionsKey, panelOptions, type EvalLensSettings } from '../settings';
import { sliceOptions } from '../report/slicing';
import { CancelledError, isCancelled, type WorkerPool } from './workerPool';
import { summaryOnly, type Detail, type ScoreResult } from './workerProtocol';
import { stepsText } from './threadCpu';
import { fileStamp } from './fileStamp';
import { sharesOf } from './shares';
import { mergeBootstrapParts } from '../../core/bootstrapParts';
import { PreparedReports, type MadeParts as PreparedParts } from '../report/preparedReports';
import { reportIntervals, sameReports, withIntervals } from '../report/panelModel';
import type { IntervalsOrigin, SavedIntervals } from '../report/savedIntervals';
import type { ReportIntervals } from '../../protocol';
import { statSync } from 'node:fs';

/** The file is open in an editor with unsaved edits (then it is scored from the buffer). */
function isDirty(path: string): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === path && !d.isClosed && d.isDirty);
}

/**
 * Files above this size do not get their intervals made ahead: the idle worker parses the file
 * again beside the tree worker's kept parse (a 1M-row CSV is ~18 MB; a large Inspect log's parse
 * peaks near 200 MB).
 */
const INTERVALS_AHEAD_MAX_BYTES = 64 * 2 ** 20;

/** Sets of at least this many rows have their intervals pass shared between the workers. */
const SPLIT_INTERVALS_ROWS = 100_000;

/**
 * The intervals made ahead of a large set come in this many parts, one after the other in the idle
 * worker: a click before they are all made keeps the parts made and has the pool's workers make
 * the rest (issue 28.11). Each part costs a set-up (~0.15-0.2 s of CPU on a million rows: sorting
 * the scores again); four parts of 200 resamples add ~0.5 s of idle CPU, and a click loses at most
 * a quarter of the work.
 */
const PARTS_AHEAD = 4;

/**
 * How long the report's first pass stays lent to the tree (firstPassFor) after it was started: the
 * tree's score of a file opened before discovery found it comes within a second or two.
 */
const FIRST_PASS_LENT_MS = 30_000;

/** What the user picked for a path in "Score Benchmark", reused when the panel re-scores it. */
export interface ScoreChoice {
  format?: FormatName;
  raftData?: string;
  /** The report's "Group by" column, and the data file joined on ID ("Join data file…"). */
  groupBy?: string;
  /** Whether groupBy names a column of the data file (true) or of the predictions file itself. */
  groupByData?: boolean;
  /** The report's "Cluster by" column (--cluster), and whether it is the data file's. */
  clusterBy?: string;
  clusterByData?: boolean;
  dataFile?: string;
  /** The report's "Model" (a file with several models' columns); none: the first. */
  model?: string;
}

/**
 * How a scoring run is queued: `background`, nobody waits for it (low priority, pre-emptible);
 * `idle`, in the idle pool (ReportScoring.idlePool); `onStart`, a worker took it.
 */
export interface ScoreJob {
  background?: boolean;
  idle?: boolean;
  onStart?: () => void;
}

/** Called when a report's intervals are ready: `quick` is the result shown so far. */
export type IntervalsReady = (path: string, quick: ScoreResult, withIntervals: ScoreResult) => void;

export class ReportScoring implements vscode.Disposable {
  /** Choices by path, so a restored or refreshed panel scores the same way. */
  private readonly choices = new Map<string, ScoreChoice>();
  /** First passes made ahead for the newest large files (activate.ts decides which). */
  readonly prepared = new PreparedReports();
  /**
   * One worker at the lowest priority (IDLE_NICE) for the intervals of reports made ahead, apart
   * from the pool: it never holds a slot the tree or a report waits for. None: not made ahead.
   */
  idlePool: WorkerPool | undefined;
  /** How the report's first passes were had: made ahead, or scored on opening (tests, benchmarks). */
  readonly firstPasses = { prepared: 0, scored: 0 };
  /** Intervals passes started for reports shown (tests: a report made ahead with its intervals starts none). */
  intervalsPasses = 0;
  /** Parts of the intervals made ahead that the last intervals pass kept (tests); of partsAhead. */
  partsKept = 0;
  readonly partsAhead = PARTS_AHEAD;
  private intervals: { abort: AbortController; done: Promise<ScoreResult | undefined> } | undefined;
  /** The report's first passes lent to the tree (scoreFirstPass), by path. */
  private readonly firstPassesLent = new Map<string, { key: string; summary: Promise<ScoreResult | undefined>; timer: ReturnType<typeof setTimeout> }>();
  /** Hears how far the intervals pass of `path` is (0..1), for the page's "computing intervals… N%". */
  onIntervalsProgress: ((path: string, fraction: number) => void) | undefined;
  private latestIntervals: Promise<ScoreResult | undefined> | undefined;
  /**
   * Intervals kept across window reloads (savedIntervals.ts): a report whose intervals were made
   * for the file as it is shows them with its first chart. None: always computed.
   */
  saved: SavedIntervals | undefined;
  /** Where each pass's timeline goes (the extension's log; benchmarks read it with EVAL_LENS_DEBUG). */
  log: ((line: string) => void) | undefined;
  /**
   * What the intervals pass of `path` waits for before it starts: the report's first chart (see
   * activate.ts). On two cores the pass would otherwise take a core from the webview while it
   * boots, and the first chart is what the user waits for (issue 28.11).
   */
  holdIntervals: ((path: string) => Promise<unknown>) | undefined;

  constructor(
    private readonly pool: WorkerPool,
    private readonly settings: () => EvalLensSettings,
    private readonly onIntervals: IntervalsReady,
    private readonly memento?: vscode.Memento,
  ) {
    const saved = memento?.get<Record<string, ScoreChoice>>('evalLens.scoreChoices');
    for (const [k, v] of Object.entries(saved ?? {})) this.choices.set(k, v);
  }

  remember(path: string, choice: ScoreChoice): void {
    this.choices.set(path, choice);
    void this.memento?.update('evalLens.scoreChoices', Object.fromEntries([...this.choices].slice(-50)));
  }

  optionsFor(path: string, choice?: ScoreChoice): Partial<ScoreOptions> {
    const c = choice ?? this.choices.get(path) ?? {};
    const o: Partial<ScoreOptions> = panelOptions(this.settings(), path);
    if (c.format) o.format = c.format;
    if (c.raftData) o.raftData = c.raftData;
    return { ...o, ...sliceOptions(path, c, this.settings()) };
  }

  /** What was chosen for `path` (format, RAFT folder, group column, data file). */
  choiceFor(path: string): ScoreChoice {
    return { ...this.choices.get(path) };
  }

  /**
   * The report's first pass (no bootstrap); schedules the intervals pass. Rejects with
   * CancelledError when `token` is cancelled.
   */
  async scoreForReport(path: string, token?: vscode.CancellationToken, choice?: ScoreChoice, onProgress?: (fraction: number) => void): Promise<ScoreResult & { intervalsPending?: number }> {
    this.intervals?.abort.abort(); // a new report: the previous one's intervals are not wanted
    this.intervals = undefined;
    const options = this.optionsFor(path, choice);
    const first = { ...options, bootstrap: 0 };
    // Made ahead for a large file the tree scored (preparedReports.ts), else now: the panel's form,
    // chart data and compact per-instance pages, made in the worker.
    const prepared = await this.prepared.take(path, JSON.stringify(first), JSON.stringify(options), () => fileStamp(path), isDirty(path));
    if (token?.isCancellationRequested) throw new CancelledError();
    if (prepared) this.log?.(`scoring: the first pass of ${path} was prepared ahead${prepared.withIntervals ? ', with its intervals' : ''}`);
    this.firstPasses[prepared ? 'prepared' : 'scored']++;
    if (prepared?.withIntervals) return prepared.result;
    const quick = prepared?.result ?? await this.scoreFirstPass(path, first, token, onProgress);
    if ((options.bootstrap ?? 0) > 0 && quick.reports.some((r) => r.n > 0)) {
      const kept = this.savedFor(path, options, quick);
      if (kept) {
        this.latestIntervals = Promise.resolve(kept);
        return kept;
      }
      // The parts are this class's own worker results (intervalsFor), held as the panel's type.
      this.startIntervals(path, options, quick, prepared?.parts as MadeParts | undefined);
      // The page says "computing intervals…" until they come, not "no intervals" (issue 28.9).
      return { ...quick, intervalsPending: options.bootstrap };
    }
    return quick;
  }

  /**
   * The report's first pass, lent to the tree (firstPassFor) while it is made and a while after: a
   * report opened before the tree scored its file would otherwise have the file scored twice.
   */
  private scoreFirstPass(path: string, first: Partial<ScoreOptions>, token?: vscode.CancellationToken, onProgress?: (fraction: number) => void): Promise<ScoreResult> {
    const pass = this.score(path, first, token, onProgress, undefined, 'panel');
    const key = treeKeyOf(first);
    const lent = this.firstPassesLent.get(path);
    if (lent) clearTimeout(lent.timer);
    this.firstPassesLent.delete(path);
    if (key === undefined) return pass;
    const summary = pass.then((r) => (r.stamp ? { ...summaryOnly(r), stamp: r.stamp } : undefined), () => undefined);
    const timer = setTimeout(() => {
      if (this.firstPassesLent.get(path)?.summary === summary) this.firstPassesLent.delete(path);
    }, FIRST_PASS_LENT_MS);
    timer.unref?.();
    this.firstPassesLent.set(path, { key, summary, timer });
    return pass;
  }

  /**
   * The report's latest first pass of `path` (its figures, without per-instance data) when a tree
   * score with options of `optionsKey` (settings.optionsKey) would give the same figures; it may
   * be still running. The caller checks that it read the file as it is (its stamp).
   */
  firstPassFor(path: string, optionsKey: string): Promise<ScoreResult | undefined> | undefined {
    const lent = this.firstPassesLent.get(path);
    return lent?.key === optionsKey ? lent.summary : undefined;
  }

  /**
   * Makes the report panel's first pass of `path` ahead, at low priority, unless one with its
   * current options is made or being made, or it has unsaved edits (see preparedReports.ts).
   */
  prepare(path: string): void {
    if (isDirty(path)) return;
    const options = this.optionsFor(path);
    // Not with a joined data file: its groups could change while the file's stamp does not (as
    // for a closed tab's report, keptReport.ts).
    if (options.listColumns?.dataPath) {
      this.prepared.forget(path);
      return;
    }
    const first = { ...options, bootstrap: 0 };
    const key = JSON.stringify(first);
    const withIntervals = (quick: ScoreResult | undefined) => {
      if (quick && this.idlePool && this.intervalsAhead(quick, options)) this.prepared.addIntervals(path, key, JSON.stringify(options), (signal, onPart) => this.intervalsFor(path, options, quick, signal, onPart));
    };
    // Made with these options from the file as it is: only its intervals may be wanted anew (evalLens.bootstrap changed).
    if (this.prepared.has(path, key, fileStamp(path))) return withIntervals(this.prepared.firstPass(path));
    void this.prepared.start(path, key, (signal, onStart) => this.score(path, first, undefined, undefined, signal, 'panel', { background: true, onStart })).then(withIntervals);
  }

  /**
   * Whether a prepared pass gets its intervals made ahead too: resamples asked for, rows to
   * resample, and a file small enough for a second parse beside the tree worker's (the idle
   * worker reads it again).
   */
  private intervalsAhead(quick: ScoreResult, options: Partial<ScoreOptions>): boolean {
    return (options.bootstrap ?? 0) > 0 && quick.reports.some((r) => r.n > 0) && (quick.stamp?.size ?? Infinity) <= INTERVALS_AHEAD_MAX_BYTES;
  }

  /**
   * The prepared pass `quick` with its intervals, made in the idle pool (undefined: the file changed
   * in between). A large set's are made in PARTS_AHEAD parts, each handed to `onPart` as it is
   * made: a click before the last keeps them (PreparedReports.take, scoreParts).
   */
  private async intervalsFor(path: string, options: Partial<ScoreOptions>, quick: ScoreResult, signal: AbortSignal, onPart: (index: number, count: number, part: ScoreResult) => void): Promise<ScoreResult | undefined> {
    const kept = this.savedFor(path, options, quick);
    if (kept) return kept;
    let full: ScoreResult;
    if (splitsIntervals(quick, options)) {
      const parts: ScoreResult[] = [];
      for (let index = 0; index < PARTS_AHEAD; index++) {
        const part = await this.score(path, { ...options, bootstrapPart: { index, count: PARTS_AHEAD } }, undefined, undefined, signal, 'summary', { idle: true }, 0.3);
        if (!sameStamp(part, quick)) return undefined;
        parts.push(part);
        onPart(index, PARTS_AHEAD, part);
      }
      full = mergedParts(parts);
    } else {
      full = await this.score(path, options, undefined, undefined, signal, 'summary', { idle: true }, 0.3);
    }
    if (!sameStamp(full, quick) || !sameReports(quick.reports, full.reports)) return undefined;
    this.log?.(`scoring: prepared intervals of ${path} made`);
    const intervals = reportIntervals(full.reports);
    this.saveIntervals(path, options, quick, intervals);
    return { ...quick, reports: quick.reports.map((r, k) => withIntervals(r, intervals[k])) };
  }

  /**
   * `quick` with the intervals kept for it from an earlier session (savedIntervals.ts), when they
   * were made for the file as it is, with these options, beside the same figures.
   */
  private savedFor(path: string, options: Partial<ScoreOptions>, quick: ScoreResult): ScoreResult | undefined {
    const origin = this.saved && intervalsOrigin(path, options, quick);
    const intervals = origin && this.saved?.get(origin, quick.reports);
    if (!intervals) return undefined;
    this.log?.(`scoring: the intervals of ${path} were kept from an earlier pass over the file as it is (no resample made)`);
    return { ...quick, reports: quick.reports.map((r, k) => withIntervals(r, intervals[k])) };
  }

  /** Keeps the intervals made beside `quick` for the next session (savedIntervals.ts). */
  private saveIntervals(path: string, options: Partial<ScoreOptions>, quick: ScoreResult, intervals: ReportIntervals[]): void {
    const origin = this.saved && intervalsOrigin(path, options, quick);
    if (origin) this.saved?.save(origin, quick.reports, intervals);
  }

  /** Stops the intervals pass in flight (its panel closed). */
  cancelIntervals(): void {
    this.intervals?.abort.abort();
    this.intervals = undefined;
  }

  /** The latest intervals pass, running or done (tests wait for it); undefined when none ran. */
  whenIntervals(): Promise<ScoreResult | undefined> {
    return this.latestIntervals ?? Promise.resolve(undefined);
  }

  private startIntervals(path: string, options: Partial<ScoreOptions>, quick: ScoreResult, madeAhead?: MadeParts): void {
    this.intervalsPasses++;
    const abort = new AbortController();
    // Only the intervals are new: no per-instance data comes back (the panel has it already).
    const progress = (fraction: number) => { if (!abort.signal.aborted) this.onIntervalsProgress?.(path, fraction); };
    const held = this.holdIntervals?.(path).catch(() => undefined) ?? Promise.resolve();
    // At full priority: the page shows "computing intervals…" and the user waits for them; it also
    // lands on the worker of the first pass, whose kept parse it reuses (a niced worker cannot
    // take an urgent job again). A large set's resamples are shared between the workers.
    // Parts made ahead (a click while the idle worker made them, from the file as `quick` read it)
    // are kept: the workers make the rest.
    this.partsKept = madeAhead?.done.filter(Boolean).length ?? 0;
    if (madeAhead) this.log?.(`scoring: ${this.partsKept} of ${madeAhead.count} parts of the intervals of ${path} were made ahead`);
    const shares = this.intervalShares(quick, options);
    const run = () => (madeAhead
      ? this.scoreParts(path, options, madeAhead, progress, abort.signal)
      : shares > 1
        ? this.scoreParts(path, options, { count: shares, done: [] }, progress, abort.signal)
        : this.score(path, options, undefined, progress, abort.signal, 'summary', {}, 0.3));
    const done = held.then(run).then(
      (full) => {
        if (!abort.signal.aborted) this.onIntervals(path, quick, full);
        if (sameStamp(full, quick) && sameReports(quick.reports, full.reports)) this.saveIntervals(path, options, quick, reportIntervals(full.reports));
        return full;
      },
      (e) => {
        if (!isCancelled(e)) throw e;
        return undefined;
      },
    );
    done.catch(() => {}).finally(() => {
      if (this.intervals?.abort === abort) this.intervals = undefined;
    });
    this.intervals = { abort, done };
    this.latestIntervals = done;
  }

  /**
   * How many workers share the intervals pass: every worker of the pool when a report's set is
   * large enough for the resamples to dominate (issue 28.11: 200 resamples of a million rows are
   * ~5 s of CPU), else one. A cluster bootstrap is not split (core/bootstrapParts.ts).
   */
  private intervalShares(quick: ScoreResult, options: Partial<ScoreOptions>): number {
    return this.pool.size >= 2 && splitsIntervals(quick, options) ? this.pool.size : 1;
  }

  /**
   * The intervals pass in `made.count` parts, those not made yet in shares run at once, one per
   * worker (spans of parts, sharesOf), merged with the parts made into the single pass's result
   * (the same resamples, so the same intervals). The file read differently by the shares (changed
   * in between): the pass is run whole instead.
   */
  private async scoreParts(path: string, options: Partial<ScoreOptions>, made: MadeParts, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<ScoreResult> {
    const shares = sharesOf(made.count, made.done, Math.max(1, this.pool.size));
    const doneCount = made.done.filter(Boolean).length;
    const todo = made.count - doneCount;
    // The shares run side by side at about the same pace: the first one's progress is theirs.
    const progress = (f: number) => onProgress((doneCount + f * todo) / made.count);
    const run = await Promise.all(shares.map((share, k) =>
      this.score(path, { ...options, bootstrapPart: { index: share.index, count: made.count, ...(share.span > 1 ? { span: share.span } : {}) } }, undefined, k === 0 ? progress : undefined, signal, 'summary', {}, 0.3)));
    const parts: ScoreResult[] = [];
    for (let index = 0, k = 0; index < made.count;) {
      const done = made.done[index];
      if (done) {
        parts.push(done);
        index++;
      } else {
        parts.push(run[k]);
        index += shares[k++].span;
      }
    }
    const first = parts[0];
    const same = parts.every((p) => sameStamp(p, first) && p.reports.length === first.reports.length);
    if (!same) return this.score(path, options, undefined, onProgress, signal, 'summary', {}, 0.3);
    return mergedParts(parts);
  }

  /** One scoring run in a worker, the unsaved buffer when the file is open with edits. */
  async score(
    path: string, options: Partial<ScoreOptions>, token?: vscode.CancellationToken,
    onProgress?: (fraction: number) => void, signal?: AbortSignal, detail: Detail = 'full', job: ScoreJob = {}, parseShare?: number,
  ): Promise<ScoreResult> {
    const abort = new AbortController();
    const sub = token?.onCancellationRequested(() => abort.abort());
    if (token?.isCancellationRequested) abort.abort();
    signal?.addEventListener('abort', () => abort.abort(), { once: true });
    try {
      const t0 = performance.now();
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path && !d.isClosed);
      const pool = job.idle && this.idlePool ? this.idlePool : this.pool;
      const reply = await pool.run(
        { type: 'score', path, text: doc?.isDirty ? doc.getText() : undefined, options, maxBytes: this.settings().maxFileBytes, detail, progress: !!onProgress, ...(parseShare !== undefined ? { parseShare } : {}) },
        { priority: job.background || job.idle ? 'background' : 'interactive', lowPriority: !!(job.background || job.idle), signal: abort.signal, onProgress, onStart: job.onStart },
      );
      if (reply.type === 'scored') {
        const { mtimeBefore, mtimeAfter, sizeBefore, sizeAfter } = reply;
        const steady = mtimeBefore !== undefined && mtimeBefore === mtimeAfter && sizeBefore !== undefined && sizeBefore === sizeAfter;
        const timings = { scoreMs: reply.timings?.scoreMs ?? NaN, encodeMs: reply.timings?.encodeMs ?? NaN, roundTripMs: performance.now() - t0, steps: reply.timings?.steps };
        this.log?.(`scoring: ${job.background || job.idle ? 'prepared ' : ''}${detail} pass of ${path}${options.bootstrap ? ` (bootstrap ${options.bootstrap})` : ''}: worker ${stepsText(timings.steps ?? [])}; reply ${Math.round(timings.roundTripMs)} ms after the request`);
        return steady ? { ...reply.result, stamp: { mtime: mtimeBefore, size: sizeBefore }, timings } : { ...reply.result, timings };
      }
      if (reply.type === 'failed') throw new Error(reply.message);
      throw new Error(`unexpected reply ${reply.type}`);
    } finally {
      sub?.dispose();
    }
  }

  dispose(): void {
    this.intervals?.abort.abort();
    this.prepared.clear();
  }
}

/** Parts of an intervals pass, as this file's worker results (preparedReports.ts keeps them as the panel's type). */
type MadeParts = PreparedParts<ScoreResult>;

/**
 * Whether a report's intervals pass is made in shares: a set large enough for the resamples to
 * dominate, and no cluster bootstrap (never split: core/bootstrapParts.ts).
 */
function splitsIntervals(quick: ScoreResult, options: Partial<ScoreOptions>): boolean {
  if (options.cluster) return false;
  return quick.reports.some((r) => r.n >= SPLIT_INTERVALS_ROWS && (r.kind === 'binary' || r.kind === 'confidence' || r.kind === 'multiclass'));
}

/**
 * The options key (settings.optionsKey) of the tree's score of a file whose figures equal those of
 * the report's first pass with `first`: the same options but the report's list of columns, which
 * adds the columns on offer and changes no figure. Undefined when a chosen model or a joined data
 * file may change them (the model is not part of the key).
 */
function treeKeyOf(first: Partial<ScoreOptions>): string | undefined {
  if (first.model !== undefined || first.listColumns?.dataPath !== undefined) return undefined;
  const { listColumns: _columns, ...rest } = first;
  return optionsKey(rest);
}

/**
 * What a report's intervals are made from (savedIntervals.ts): a file read steadily (its stamp),
 * not a folder (a file within can change without the folder's stamp), no unsaved edits.
 */
function intervalsOrigin(path: string, options: Partial<ScoreOptions>, quick: ScoreResult): IntervalsOrigin | undefined {
  if (!quick.stamp || isDirty(path) || !isFile(path)) return undefined;
  const dataPath = options.listColumns?.dataPath;
  return { path, stamp: quick.stamp, options: JSON.stringify(options), ...(dataPath ? { data: { path: dataPath, stamp: fileStamp(dataPath) } } : {}) };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The parts of an intervals pass (in part order, covering every part) merged into one result. */
function mergedParts(parts: readonly ScoreResult[]): ScoreResult {
  const first = parts[0];
  return { ...first, reports: first.reports.map((_, k) => mergeBootstrapParts(parts.map((p) => p.reports[k]))) };
}

/** Whether two results were read from the file as it was the same (mtime and size, read steadily). */
function sameStamp(a: ScoreResult, b: ScoreResult): boolean {
  return !!a.stamp && !!b.stamp && a.stamp.mtime === b.stamp.mtime && a.stamp.size === b.stamp.size;
}

export { CancelledError };
