// The bootstrap intervals of a report, kept across window reloads (issue 28, point 11). They are
// the report's costliest part by far (200 resamples of a million rows are ~5 s of CPU on two
// cores) and the smallest to keep (a few numbers per metric, the smoothed curve's band), and they
// are a pure function of the file, the options and the code: the same seed draws the same
// resamples. A report opened again after a reload (or a restart) of the same file as it was then
// shows them with its first chart instead of computing them again.
//
// An entry stands for the file at its mtime and size, the scoring options, the joined data file at
// its mtime and size, and the scoring worker's bundle (a new version or build of the extension
// computes afresh). It is used only when the first pass shows the same figures as the pass the
// intervals were made beside (same paths, counts, kinds and metrics, to the last bit), which also
// catches a file rewritten within its old mtime and size. Pure: no `vscode`, no file system.
import type { Report } from '../../core/types';
import type { ReportIntervals } from '../../protocol';

/** What keeps the entries (vscode.Memento: the workspace's state, which a reload keeps). */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Where a report's intervals came from, to the last detail that changes them. */
export interface IntervalsOrigin {
  path: string;
  stamp: { mtime: number; size: number };
  /** The scoring options, as a string (JSON of the options the pass ran with). */
  options: string;
  /** The joined data file's stamp (its groups and clusters change the intervals, not the figures). */
  data?: { path: string; stamp: { mtime: number; size: number } | undefined };
}

interface Entry {
  key: string;
  /** The key without the stamps: an entry of an older stamp of the same place is dropped. */
  place: string;
  /** The first pass's figures they belong to (figuresOf). */
  figures: string;
  intervals: ReportIntervals[];
}

export const SAVED_INTERVALS_KEY = 'evalLens.savedIntervals';
/** Entries kept, the most recently used first. */
export const SAVED_INTERVALS_MAX = 16;
/** An entry above this size (JSON characters; many groups) is not kept: the store is loaded whole at start-up. */
export const SAVED_ENTRY_MAX_CHARS = 256 * 1024;

export class SavedIntervals {
  /** Intervals taken from the store, and entries written (tests, logs). */
  readonly counts = { used: 0, saved: 0 };

  /** `code`: what identifies the scoring code (the worker bundle's stamp); entries of other code are not used. */
  constructor(private readonly store: KeyValueStore, private readonly code: string) {}

  /** The intervals made for `origin` beside a first pass showing `reports`' figures; undefined when none. */
  get(origin: IntervalsOrigin, reports: readonly Report[]): ReportIntervals[] | undefined {
    const key = this.keyOf(origin);
    const entries = this.entries();
    const found = entries.find((e) => e.key === key);
    if (!found || found.figures !== figuresOf(reports) || found.intervals.length !== reports.length) return undefined;
    this.counts.used++;
    // The most recently used first: it is the last to be dropped.
    if (entries[0] !== found) void this.store.update(SAVED_INTERVALS_KEY, [found, ...entries.filter((e) => e !== found)]);
    return found.intervals;
  }

  /** Keeps `intervals` (one per report) made for `origin` beside a first pass showing `reports`' figures. */
  save(origin: IntervalsOrigin, reports: readonly Report[], intervals: readonly ReportIntervals[]): boolean {
    if (intervals.length !== reports.length) return false;
    const entry: Entry = { key: this.keyOf(origin), place: this.placeOf(origin), figures: figuresOf(reports), intervals: JSON.parse(JSON.stringify(intervals)) as ReportIntervals[] };
    if (JSON.stringify(entry).length > SAVED_ENTRY_MAX_CHARS) return false;
    const rest = this.entries().filter((e) => e.key !== entry.key && e.place !== entry.place);
    void this.store.update(SAVED_INTERVALS_KEY, [entry, ...rest].slice(0, SAVED_INTERVALS_MAX));
    this.counts.saved++;
    return true;
  }

  private keyOf(origin: IntervalsOrigin): string {
    return JSON.stringify([this.placeOf(origin), origin.stamp.mtime, origin.stamp.size, origin.data?.stamp ?? null]);
  }

  private placeOf(origin: IntervalsOrigin): string {
    return JSON.stringify([origin.path, this.code, origin.options, origin.data?.path ?? null]);
  }

  private entries(): Entry[] {
    const value = this.store.get<unknown>(SAVED_INTERVALS_KEY);
    return Array.isArray(value) ? value.filter(isEntry) : [];
  }
}

/**
 * The figures a pass shows, as a string: each report's path, count, kind and metrics, through
 * JSON (which writes every double so that it reads back to the same bits).
 */
function figuresOf(reports: readonly Report[]): string {
  return JSON.stringify(reports.map((r) => [r.path, r.n, r.skipped, r.kind, r.metrics]));
}

function isEntry(value: unknown): value is Entry {
  const e = value as Entry;
  return !!e && typeof e.key === 'string' && typeof e.place === 'string' && typeof e.figures === 'string' && Array.isArray(e.intervals);
}
