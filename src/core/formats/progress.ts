// Progress and cancellation for long parses, and the limits of reading a large file. Readers call
// `progress.at(offset)` only when `offset >= progress.next`, so the check in a hot loop is a single
// comparison; the hooks (ScoreOptions.onProgress / shouldCancel) run at most every STEP bytes.
import type { ScoreOptions } from '../types';

/** Thrown out of scoreInput/scorePath/parseInput when `shouldCancel()` returned true. */
export class ScoreCancelledError extends Error {
  constructor(message = 'Scoring was cancelled.') {
    super(message);
    this.name = 'ScoreCancelledError';
  }
}

/** Input between two progress reports (and cancellation checks): 1/256 of the input, within [64 KB, 1 MB]. */
export const MIN_PROGRESS_STEP = 64 * 1024;
export const MAX_PROGRESS_STEP = 1024 * 1024;

/**
 * The longest string V8 can make (2^29 - 24 UTF-16 code units on 64-bit, Node's
 * buffer.constants.MAX_STRING_LENGTH). UTF-8 never decodes to more code units than it has bytes,
 * so any input of at most this many bytes decodes into one string.
 */
export const MAX_STRING_LENGTH = 0x1fffffe8;

export type ProgressHooks = Pick<ScoreOptions, 'onProgress' | 'shouldCancel'>;

/** One parse's progress: fractions only ever grow, so a reader that starts over does not go back. */
export class ParseProgress {
  /** The offset at which `at` wants to be called next (Infinity when nobody listens). */
  next = Infinity;
  private total = 1;
  private step = MAX_PROGRESS_STEP;
  private last = 0;
  private readonly onProgress?: ScoreOptions['onProgress'];
  private readonly shouldCancel?: ScoreOptions['shouldCancel'];

  constructor(hooks?: ProgressHooks) {
    this.onProgress = hooks?.onProgress;
    this.shouldCancel = hooks?.shouldCancel;
  }

  /** Whether anyone listens (readers may skip offset bookkeeping otherwise). */
  get active(): boolean {
    return this.onProgress !== undefined || this.shouldCancel !== undefined;
  }

  /** A reader starts a pass over `total` units (bytes, or characters of a text) at `offset`. */
  begin(total: number, offset = 0): void {
    this.total = Math.max(1, total);
    this.step = Math.min(MAX_PROGRESS_STEP, Math.max(MIN_PROGRESS_STEP, Math.ceil(total / 256)));
    this.next = this.active ? offset + this.step : Infinity;
  }

  /** `offset` of the current pass is done: maybe report, check for cancellation, set `next`. */
  at(offset: number): void {
    if (!this.active) { this.next = Infinity; return; }
    this.check();
    // Below 1 until the parse is over: 1 means "parsed", which only the front door says.
    const f = Math.min(offset / this.total, 0.999);
    if (f > this.last) {
      this.last = f;
      this.onProgress?.(f, 'parse');
    }
    this.next = offset + this.step;
  }

  /** Throw ScoreCancelledError when the caller asked to stop. */
  check(): void {
    if (this.shouldCancel?.()) throw new ScoreCancelledError();
  }

  /** The parse is over. */
  finish(): void {
    this.next = Infinity;
    if (this.last < 1) {
      this.last = 1;
      this.onProgress?.(1, 'parse');
    }
  }
}

/** A progress that reports nothing (readers called without one). */
export const NO_PROGRESS: ParseProgress = new ParseProgress();

/** "2.3 GB", "512 MB", "64 KB", "100 bytes" (binary units, as the evalLens.maxFileSizeMB setting counts). */
export function sizeText(bytes: number): string {
  const units: [number, string][] = [[1024 ** 3, 'GB'], [1024 ** 2, 'MB'], [1024, 'KB']];
  for (const [size, name] of units) {
    if (bytes >= size) {
      const v = bytes / size;
      const shown = v >= 100 ? Math.round(v).toString() : (Math.round(v * 10) / 10).toString();
      return `${shown} ${name}`;
    }
  }
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

/** True for the error V8/Node throw when a string would be longer than MAX_STRING_LENGTH. */
export function isStringTooLong(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  return (e as { code?: string }).code === 'ERR_STRING_TOO_LONG' || /string longer than|Invalid string length/i.test(e.message);
}

/**
 * A copy of `s` that does not keep a larger string alive. V8 makes `slice` of a long string a view
 * into it, so keeping a 3,000-character clip of a 50 KB document keeps the 50 KB; a concatenation
 * sliced again is flattened into a string of its own.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}
