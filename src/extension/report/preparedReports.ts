// First passes made ahead (issue 28, point 11): after a window reload the tree scores a large
// predictions file in its lower-priority worker, which then keeps the file's parse; the first
// click on the file scored it again from disk in another worker, while the webview booted and the
// text editor read the file (1.2-2.1 s of wall time on two cores for ~0.55 s of the worker's CPU).
// The newest few files a click opens as a report (large or binary: reportEditor.ts opensAsReport)
// get their report panel's first pass (chart data and instance pages, no intervals) made ahead in
// that worker, from its kept parse, at its low priority; the click shows it at once and starts the
// intervals pass. Then the intervals themselves are made, in a worker of the lowest priority
// (nice 19: only time nothing else wants), and a click shows the report with them at once.
// A prepared pass stands only for the file it was made from (mtime and size), the same scoring
// options and no unsaved edits; it is used once (the panel then holds it). Pure: no `vscode`, no
// file system.
import { KEEP_MAX_BYTES, panelBytes } from './keptReport';
import type { PanelScoreResult } from './panelModel';

/** How many files have their first pass prepared: the newest (by mtime) that open as a report. */
export const PREPARE_COUNT = 2;

export interface PrepareCandidate {
  path: string;
  mtime: number;
  size: number;
}

/** The files to prepare: the `count` newest, ties by path (a stable choice between reloads). */
export function choosePrepared(candidates: readonly PrepareCandidate[], count = PREPARE_COUNT): string[] {
  return [...candidates]
    .sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, count)
    .map((c) => c.path);
}

interface Prepared {
  /** The scoring options of its first pass (no resamples), as a string. */
  key: string;
  /** The first pass. */
  result: PanelScoreResult;
  /** The pass with its bootstrap intervals (addIntervals), and the options they were made with. */
  full?: { result: PanelScoreResult; key: string };
  /** Its intervals being made, with these options, and the parts of them made so far (MadeParts). */
  intervals?: { abort: AbortController; key: string; parts?: MadeParts };
}

/**
 * The parts of an intervals pass made so far: `done[index]` (sparse) of `count`
 * (ReportScoring.scoreParts). Each was read from the file as its first pass was (intervalsFor checks).
 */
export interface MadeParts<T = PanelScoreResult> {
  count: number;
  done: (T | undefined)[];
}

/** A prepared pass handed to the panel: with its intervals, or the first pass alone. */
export interface TakenPass {
  result: PanelScoreResult;
  withIntervals: boolean;
  /** The first pass alone, its intervals being made: the parts of them made so far (none: undefined). */
  parts?: MadeParts;
}

/** Makes the intervals of a prepared pass: `signal` stops it, `onPart` hears each part made (when made in parts). */
export type IntervalsRun = (signal: AbortSignal, onPart: (index: number, count: number, part: PanelScoreResult) => void) => Promise<PanelScoreResult | undefined>;

interface InFlight {
  key: string;
  done: Promise<PanelScoreResult | undefined>;
  abort: AbortController;
  /** A worker took the job (it is not waiting behind the tree's other files). */
  started: boolean;
}

/** Makes a first pass: `signal` stops it, `onStart` is called when a worker starts it. */
export type PrepareRun = (signal: AbortSignal, onStart: () => void) => Promise<PanelScoreResult>;

export class PreparedReports {
  private readonly ready = new Map<string, Prepared>();
  private readonly running = new Map<string, InFlight>();

  /**
   * Whether `path` has a pass being made with `key`, or made with it from the file as it is now
   * (`stamp`: its mtime and size): nothing to start.
   */
  has(path: string, key: string, stamp: { mtime: number; size: number } | undefined): boolean {
    if (this.running.get(path)?.key === key) return true;
    const made = this.ready.get(path);
    return !!made && made.key === key && sameStamp(made.result.stamp, stamp);
  }

  /** Paths whose pass is made and waiting for a click (tests). */
  readyPaths(): string[] {
    return [...this.ready.keys()];
  }

  /** Paths prepared or being prepared (tests, logs). */
  paths(): string[] {
    return [...new Set([...this.ready.keys(), ...this.running.keys()])];
  }

  /**
   * Records a preparation of `path` started with `key`: its result is kept when it resolves with a
   * pass that can be kept (a stamp, chart data, instance pages within KEEP_MAX_BYTES), else dropped.
   * A preparation of the same path already running is stopped (its options or its file changed).
   */
  start(path: string, key: string, run: PrepareRun): Promise<PanelScoreResult | undefined> {
    this.running.get(path)?.abort.abort();
    this.drop(path);
    const abort = new AbortController();
    const flight = { key, abort, started: false } as InFlight;
    flight.done = run(abort.signal, () => { flight.started = true; }).then(
      (result) => (keepablePass(result) ? result : undefined),
      () => undefined,
    );
    const done = flight.done;
    this.running.set(path, flight);
    void done.then((result) => {
      if (this.running.get(path) !== flight) return;
      this.running.delete(path);
      if (result && !abort.signal.aborted) this.ready.set(path, { key, result });
    });
    return done;
  }

  /**
   * Has the intervals of the pass made for `path` with `key` made too, with the options
   * `intervalsKey` (the resamples, the interval method): `run` gives the pass with them (undefined:
   * they do not fit it, the file changed). Nothing when no such pass is made, or its intervals are
   * made or being made with those options; ones made or being made with other options give way.
   */
  addIntervals(path: string, key: string, intervalsKey: string, run: IntervalsRun): void {
    const made = this.ready.get(path);
    if (!made || made.key !== key || made.full?.key === intervalsKey || made.intervals?.key === intervalsKey) return;
    made.intervals?.abort.abort();
    made.full = undefined;
    const intervals: NonNullable<Prepared['intervals']> = { abort: new AbortController(), key: intervalsKey };
    made.intervals = intervals;
    const onPart = (index: number, count: number, part: PanelScoreResult) => {
      if (made.intervals !== intervals || intervals.abort.signal.aborted) return;
      if (intervals.parts?.count !== count) intervals.parts = { count, done: [] };
      intervals.parts.done[index] = part;
    };
    run(intervals.abort.signal, onPart).then(
      (result) => {
        if (made.intervals !== intervals) return;
        made.intervals = undefined;
        if (result && !intervals.abort.signal.aborted && this.ready.get(path) === made && keepablePass(result)) made.full = { result, key: intervalsKey };
      },
      () => {
        if (made.intervals === intervals) made.intervals = undefined;
      },
    );
  }

  /** The first pass made for `path` (not one being made). */
  firstPass(path: string): PanelScoreResult | undefined {
    return this.ready.get(path)?.result;
  }

  /** Whether `path`'s pass is made with its intervals (tests). */
  withIntervals(path: string): boolean {
    return !!this.ready.get(path)?.full;
  }

  /** How many parts of `path`'s intervals being made are made (tests). */
  partsMade(path: string): number {
    return this.ready.get(path)?.intervals?.parts?.done.filter(Boolean).length ?? 0;
  }

  /** Whether `path`'s intervals are being made (tests). */
  intervalsRunning(path: string): boolean {
    return !!this.ready.get(path)?.intervals;
  }

  /**
   * The prepared pass of `path` for `key` (with its intervals when they were made for
   * `intervalsKey`) when it stands for the file now (`stamp`: its mtime and
   * size, undefined when unreadable; `dirty`: open with unsaved edits), waiting for one a worker
   * is making (it was given the file's kept parse; a new job would wait for it anyway: one file is
   * never parsed by two workers at once). One still queued is stopped: scoring now is sooner. It is
   * no longer kept then (the panel holds it). Undefined: score the file.
   */
  async take(path: string, key: string, intervalsKey: string, stamp: () => { mtime: number; size: number } | undefined, dirty: boolean): Promise<TakenPass | undefined> {
    const flight = this.running.get(path);
    let taken: TakenPass | undefined;
    if (flight) this.running.delete(path);
    if (flight && (flight.key !== key || !flight.started || dirty)) flight.abort.abort();
    else if (flight) {
      const result = await flight.done;
      if (result) taken = { result, withIntervals: false };
    } else {
      // The intervals only when made with the options asked for now (evalLens.bootstrap may have
      // changed since); ones still being made are stopped: the panel's own pass, at full priority,
      // is sooner, and makes only the parts not made yet.
      const made = this.ready.get(path);
      if (made?.key === key) {
        const parts = made.intervals?.key === intervalsKey && made.intervals.parts?.done.some(Boolean) ? made.intervals.parts : undefined;
        taken = made.full?.key === intervalsKey ? { result: made.full.result, withIntervals: true } : { result: made.result, withIntervals: false, ...(parts ? { parts: { count: parts.count, done: [...parts.done] } } : {}) };
      }
    }
    this.drop(path);
    if (!taken || dirty) return undefined;
    return sameStamp(taken.result.stamp, stamp()) ? taken : undefined;
  }

  /** Forgets what is made or being made for `path` (no longer wanted for it). */
  forget(path: string): void {
    this.running.get(path)?.abort.abort();
    this.running.delete(path);
    this.drop(path);
  }

  /** Forgets the pass made for `path`, stopping its intervals. */
  private drop(path: string): void {
    this.ready.get(path)?.intervals?.abort.abort();
    this.ready.delete(path);
  }

  /** Drops every pass but those of `keep` (no longer among the newest, or untracked), stopping those being made. */
  retain(keep: ReadonlySet<string>): void {
    for (const [path, flight] of this.running) {
      if (keep.has(path)) continue;
      flight.abort.abort();
      this.running.delete(path);
    }
    for (const path of [...this.ready.keys()]) if (!keep.has(path)) this.drop(path);
  }

  clear(): void {
    this.retain(new Set());
  }
}

function sameStamp(a: { mtime: number; size: number } | undefined, b: { mtime: number; size: number } | undefined): boolean {
  return !!a && !!b && a.mtime === b.mtime && a.size === b.size;
}

function keepablePass(result: PanelScoreResult): boolean {
  return !!result.stamp && !!result.panel && panelBytes(result) <= KEEP_MAX_BYTES;
}
