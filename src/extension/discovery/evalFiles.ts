// The prediction files the extension knows about and their latest scores. Each file's result is
// tied to the exact content it came from (disk mtime + size, or an editor buffer's version), so a
// cached result is reused only for that content, and only the newest request's result is ever
// accepted: a file edited or rewritten mid-score ends with the score of its latest content.
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import type { FormatName } from '../../core/types';
import { backgroundOptions, optionsKey, type EvalLensSettings } from '../settings';
import { isCancelled, type Priority, type WorkerPool } from '../worker/workerPool';
import { summaryOnly, type ScoreResult, type WorkerReply } from '../worker/workerProtocol';
import { stepsText } from '../worker/threadCpu';

export interface FileEntry {
  readonly uri: vscode.Uri;
  /** File system path (what the worker reads). */
  readonly path: string;
  format: FormatName;
  /** Found by discovery (on disk, within the globs); otherwise tracked only while open in an editor. */
  discovered: boolean;
  /** The latest accepted result and the content key it belongs to. */
  result?: ScoreResult;
  resultKey?: string;
  /** The file's mtime and size when `result` was scored from disk (undefined: from an editor's buffer). */
  disk?: { mtime: number; size: number };
  /** Why there is no result (too large, the worker failed). */
  error?: string;
  /** The scoring in flight. */
  pending?: { key: string; abort: AbortController; done: Promise<void> };
  /** Bumped by every request: while one awaits the file's stat, a newer request takes over. */
  requests: number;
  /** Scoring runs started in a worker for this file (tests check that edits are debounced). */
  runs: number;
}

export interface FileEvent {
  entry: FileEntry;
  removed: boolean;
}

export class EvalFiles implements vscode.Disposable {
  private readonly entries = new Map<string, FileEntry>();
  private readonly emitter = new vscode.EventEmitter<FileEvent>();
  readonly onDidChange = this.emitter.event;
  /**
   * A pass made elsewhere that a score of `path` with options of this key may take (the report's
   * first pass of the file: ReportScoring.firstPassFor); undefined when none stands for it.
   */
  borrow: ((path: string, optionsKey: string) => Promise<ScoreResult | undefined> | undefined) | undefined;
  /** Scores taken from another pass instead of a worker's (tests). */
  borrowedScores = 0;

  constructor(
    private readonly pool: WorkerPool,
    private readonly settings: () => EvalLensSettings,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get(uri: vscode.Uri): FileEntry | undefined {
    return this.entries.get(uri.toString());
  }

  all(): FileEntry[] {
    return [...this.entries.values()];
  }

  /** Number of files being scored right now (for tests and the tree's busy state). */
  get pendingCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.pending) n++;
    return n;
  }

  track(uri: vscode.Uri, format: FormatName, discovered: boolean): FileEntry {
    let entry = this.entries.get(uri.toString());
    if (entry) {
      entry.discovered ||= discovered;
      return entry;
    }
    entry = { uri, path: uri.fsPath, format, discovered, requests: 0, runs: 0 };
    this.entries.set(uri.toString(), entry);
    this.emitter.fire({ entry, removed: false });
    return entry;
  }

  untrack(uri: vscode.Uri): void {
    const entry = this.entries.get(uri.toString());
    if (!entry) return;
    this.entries.delete(uri.toString());
    entry.requests++;
    entry.pending?.abort.abort();
    entry.pending = undefined;
    this.emitter.fire({ entry, removed: true });
  }

  /** A deleted folder: every tracked file below it goes. */
  untrackUnder(folder: vscode.Uri): void {
    const prefix = folder.toString().replace(/\/?$/, '/');
    for (const e of [...this.entries.values()]) if (e.uri.toString().startsWith(prefix)) this.untrack(e.uri);
  }

  /** Forget every cached result (settings changed) and score everything again. */
  invalidateAll(): void {
    for (const e of this.entries.values()) e.resultKey = undefined;
    for (const e of this.entries.values()) void this.score(e, 'background');
  }

  /**
   * Score a file's current content: the editor buffer when it has unsaved changes, else the file on
   * disk. Resolves once this request's result is stored, superseded, or cancelled.
   */
  async score(entry: FileEntry, priority: Priority): Promise<void> {
    const request = ++entry.requests;
    // The file's remembered columns (evalLens.columnMappings) too: the tree, CodeLens and hover score as the report does.
    const options = backgroundOptions(this.settings(), entry.path);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.uri.toString() && !d.isClosed);
    let key: string;
    let text: string | undefined;
    let diskMtime: number | undefined;
    let diskSize: number | undefined;
    if (doc?.isDirty) {
      key = `buffer:${doc.version}`;
      text = doc.getText();
    } else {
      let stat;
      try {
        stat = await fsp.stat(entry.path);
      } catch {
        if (request !== entry.requests) return;
        // Gone from disk: a deleted file keeps no result, diagnostics or tree entry.
        if (!doc) this.untrack(entry.uri);
        return;
      }
      if (request !== entry.requests) return;
      if (!stat.isFile()) return;
      diskMtime = stat.mtimeMs;
      diskSize = stat.size;
      key = `disk:${stat.mtimeMs}:${stat.size}`;
    }
    // Per-instance columns only while the file is open (hover, reveal): a closed file's result is a
    // summary, so many large files in a workspace cost the extension host little memory.
    const detail = doc ? 'full' : 'summary';
    key += `|${optionsKey(options)}`;
    if (entry.resultKey === `${key}|${detail}` && !entry.pending) return; // cached: this exact content was scored
    if (detail === 'summary' && entry.resultKey === `${key}|full` && entry.result && !entry.pending) {
      entry.result = summaryOnly(entry.result);
      entry.resultKey = `${key}|summary`;
      return;
    }
    key += `|${detail}`;
    if (entry.pending?.key === key) return entry.pending.done;
    entry.pending?.abort.abort();

    const abort = new AbortController();
    const pending = { key, abort, done: Promise.resolve() };
    entry.pending = pending;
    pending.done = this.run(entry, key, abort, priority, { path: entry.path, text, options, diskMtime, diskSize, detail });
    this.emitter.fire({ entry, removed: false });
    return pending.done;
  }

  /**
   * For a summary of the file on disk: the pass `borrow` names, as this request's reply when it read
   * the file as this request's stat found it (mtime and size); else none (the worker scores it).
   */
  private borrowFor(req: { path: string; text?: string; options: ReturnType<typeof backgroundOptions>; diskMtime?: number; diskSize?: number; detail: 'full' | 'summary' }): (() => Promise<WorkerReply | undefined> | undefined) | undefined {
    if (req.text !== undefined || req.detail !== 'summary' || req.diskMtime === undefined) return undefined;
    return () => this.borrow?.(req.path, optionsKey(req.options))?.then((result) => {
      if (!result?.stamp || result.stamp.mtime !== req.diskMtime || result.stamp.size !== req.diskSize) return undefined;
      this.borrowedScores++;
      this.log.debug(`${req.path}: its score taken from the report's pass of the same file and options`);
      return { type: 'scored', id: 0, result: summaryOnly(result), mtimeBefore: req.diskMtime, mtimeAfter: req.diskMtime, sizeBefore: req.diskSize, sizeAfter: req.diskSize } as const;
    });
  }

  private async run(
    entry: FileEntry, key: string, abort: AbortController, priority: Priority,
    req: { path: string; text?: string; options: ReturnType<typeof backgroundOptions>; diskMtime?: number; diskSize?: number; detail: 'full' | 'summary' },
  ): Promise<void> {
    const t0 = performance.now();
    entry.runs++;
    let reply;
    try {
      reply = await this.pool.run(
        { type: 'score', path: req.path, text: req.text, options: req.options, maxBytes: this.settings().maxFileBytes, detail: req.detail },
        { priority, signal: abort.signal, borrow: this.borrowFor(req) },
      );
    } catch (e) {
      if (isCancelled(e) || entry.pending?.abort !== abort) return;
      entry.pending = undefined;
      entry.result = undefined;
      entry.resultKey = key;
      entry.error = e instanceof Error ? e.message : String(e);
      this.log.warn(`scoring ${req.path} failed: ${entry.error}`);
      this.emitter.fire({ entry, removed: false });
      return;
    }
    // Only the request still pending may store its result: anything else was superseded or untracked.
    if (entry.pending?.abort !== abort || !this.entries.has(entry.uri.toString())) return;
    entry.pending = undefined;
    const changed = reply.type === 'scored' && req.diskMtime !== undefined
      && (reply.mtimeBefore !== req.diskMtime || reply.mtimeAfter !== reply.mtimeBefore || reply.sizeBefore !== req.diskSize || reply.sizeAfter !== reply.sizeBefore);
    if (changed) {
      // The file changed between our stat and the worker's read, or during it: score it again.
      this.log.info(`${req.path} changed while being scored; scoring its new content`);
      return this.score(entry, priority);
    }
    entry.disk = req.diskMtime !== undefined && req.diskSize !== undefined ? { mtime: req.diskMtime, size: req.diskSize } : undefined;
    if (reply.type === 'scored') {
      entry.result = reply.result;
      entry.error = undefined;
      const format = reply.result.reports[0]?.format;
      if (format) entry.format = format;
    } else if (reply.type === 'failed') {
      entry.result = undefined;
      entry.error = reply.message;
    }
    entry.resultKey = key;
    // The worker's steps say whether it parsed the file or found the parse another request made.
    const steps = reply.type === 'scored' && reply.timings?.steps ? `: worker ${stepsText(reply.timings.steps)}` : '';
    this.log.debug(`scored ${req.path} (${req.text !== undefined ? 'buffer' : 'disk'}) in ${(performance.now() - t0).toFixed(0)} ms (${priority}, ${req.detail})${steps}`);
    this.emitter.fire({ entry, removed: false });
  }

  dispose(): void {
    for (const e of this.entries.values()) e.pending?.abort.abort();
    this.entries.clear();
    this.emitter.dispose();
  }
}
