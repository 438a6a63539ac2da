// Finds prediction files in the workspace: the include/exclude globs pick candidates (findFiles, so
// excluded folders like node_modules are never walked), the worker sniffs each candidate's first
// kilobytes to learn its format, and file watchers keep the set current. Everything here runs
// after activation, asynchronously.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FormatName } from '../../core/types';
import type { EvalFiles } from './evalFiles';
import { combineGlobs, globsMatcher, searchExcludes } from './glob';
import { mappingFor, type EvalLensSettings } from '../settings';
import { isCancelled, type WorkerPool } from '../worker/workerPool';
import type { UnscoredFiles } from './unscoredFiles';

/** Candidates sniffed per worker message. */
const DETECT_BATCH = 200;
/** Upper bound on candidates per discovery run, so a huge workspace cannot stall the worker. */
const MAX_CANDIDATES = 20_000;
/** Watcher events for one file closer together than this are handled once. */
const WATCH_DEBOUNCE_MS = 300;

export class Discovery implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private run = 0;
  private scanning: Promise<void> | undefined;
  private excluded: (rel: string) => boolean = () => false;
  private included: (rel: string) => boolean = () => false;

  constructor(
    private readonly files: EvalFiles,
    private readonly pool: WorkerPool,
    private readonly settings: () => EvalLensSettings,
    private readonly log: vscode.LogOutputChannel,
    private readonly unscored?: UnscoredFiles,
  ) {}

  /** True while a scan is running (tests wait for it). */
  get busy(): boolean {
    return this.scanning !== undefined || this.timers.size > 0;
  }

  /** Scan the workspace (again) and (re)start the watchers. */
  start(): Promise<void> {
    const s = this.settings();
    this.excluded = globsMatcher(s.exclude);
    this.included = globsMatcher(s.include);
    this.watch(s);
    const run = ++this.run;
    const scan = this.scan(run, s).catch((e) => {
      if (!isCancelled(e)) this.log.error(`discovery failed: ${e instanceof Error ? e.message : String(e)}`);
    });
    this.scanning = scan.finally(() => {
      if (this.run === run) this.scanning = undefined;
    });
    return this.scanning;
  }

  /** A file the globs would exclude (discovery only: a file opened by hand is still scored). */
  isExcluded(uri: vscode.Uri): boolean {
    return this.excluded(vscode.workspace.asRelativePath(uri, false));
  }

  private async scan(run: number, s: EvalLensSettings): Promise<void> {
    const t0 = performance.now();
    const include = combineGlobs(s.include);
    if (!include || !vscode.workspace.workspaceFolders?.length) return;
    const uris = (await vscode.workspace.findFiles(include, combineGlobs(searchExcludes(s.exclude)), MAX_CANDIDATES)).filter((u) => u.scheme === 'file');
    if (run !== this.run) return;
    const found = new Set<string>();
    const notScored = new Set<string>();
    for (let i = 0; i < uris.length; i += DETECT_BATCH) {
      const batch = uris.slice(i, i + DETECT_BATCH);
      const formats = await this.detect(batch);
      if (run !== this.run) return;
      batch.forEach((uri, k) => {
        const format = formats[k];
        if (!format) {
          if (this.reasons.has(uri.toString())) notScored.add(uri.toString());
          return;
        }
        found.add(uri.toString());
        const entry = this.files.track(uri, format, true);
        void this.files.score(entry, 'background');
      });
    }
    this.unscored?.retain(notScored);
    // Files discovered before but no longer within the globs (a settings change, a refresh).
    for (const e of this.files.all()) {
      if (e.discovered && !found.has(e.uri.toString())) {
        if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === e.uri.toString())) e.discovered = false;
        else this.files.untrack(e.uri);
      }
    }
    this.log.info(`discovery: ${found.size} prediction files among ${uris.length} candidates in ${(performance.now() - t0).toFixed(0)} ms`);
  }

  /** Uris (as strings) the last detection found to be data files that are not predictions. */
  private readonly reasons = new Set<string>();

  /**
   * Formats of files, sniffed in the worker (null: not predictions). A data file that is not
   * predictions is listed, with the reason, as not scored; a file that is predictions leaves it.
   */
  async detect(uris: vscode.Uri[], priority: 'background' | 'interactive' = 'background'): Promise<(FormatName | null)[]> {
    if (!uris.length) return [];
    const reply = await this.pool.run({ type: 'detect', paths: uris.map((u) => u.fsPath) }, { priority });
    if (reply.type !== 'detected') throw new Error(reply.type === 'failed' ? reply.message : 'unexpected reply');
    // A table whose columns the user mapped ("Map columns…", evalLens.columnMappings) is predictions
    // read as a table, whatever its own roles said.
    const s = this.settings();
    reply.formats = reply.formats.map((f, k) => f ?? (reply.reasons?.[k] && mappingFor(uris[k].fsPath, s) ? 'generic' : null));
    uris.forEach((uri, k) => {
      const reason = reply.reasons?.[k] ?? null;
      if (reason !== null && !reply.formats[k]) {
        this.reasons.add(uri.toString());
        this.unscored?.set(uri, reason);
      } else {
        this.reasons.delete(uri.toString());
        this.unscored?.delete(uri);
      }
    });
    return reply.formats;
  }

  private watch(s: EvalLensSettings): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    const include = combineGlobs(s.include);
    if (include) {
      const w = vscode.workspace.createFileSystemWatcher(include);
      w.onDidCreate((u) => {
        this.log.trace(`watcher: created ${u.fsPath}`);
        this.later(u, () => this.created(u));
      });
      w.onDidChange((u) => {
        this.log.trace(`watcher: changed ${u.fsPath}`);
        this.later(u, () => this.changed(u));
      });
      w.onDidDelete((u) => this.deleted(u));
      this.watchers.push(w);
    }
    // Folders: a deleted folder reports only itself, not the files that were in it; files written
    // into a folder right after it was created can be missed by the OS watcher, so a new folder is
    // searched once.
    const folders = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    folders.onDidCreate((u) => {
      if (u.scheme === 'file' && !this.included(vscode.workspace.asRelativePath(u, false)) && !this.isExcluded(u)) {
        this.later(u, () => this.folderCreated(u));
      }
    });
    folders.onDidDelete((u) => {
      this.log.trace(`watcher: deleted ${u.fsPath}`);
      this.deleted(u);
    });
    this.watchers.push(folders);
  }

  /** Debounce per file: a file written in many chunks is sniffed and scored once. */
  private later(uri: vscode.Uri, action: () => Promise<void>): void {
    const k = uri.toString();
    clearTimeout(this.timers.get(k));
    this.timers.set(k, setTimeout(() => {
      this.timers.delete(k);
      action().catch((e) => {
        if (!isCancelled(e)) this.log.warn(`${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
      });
    }, WATCH_DEBOUNCE_MS));
  }

  private async created(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file' || this.isExcluded(uri)) return;
    const [format] = await this.detect([uri]);
    if (!format) return;
    void this.files.score(this.files.track(uri, format, true), 'background');
  }

  private async folderCreated(uri: vscode.Uri): Promise<void> {
    const stat = await vscode.workspace.fs.stat(uri).then((st) => st, () => undefined);
    if (!stat || !(stat.type & vscode.FileType.Directory)) return;
    const s = this.settings();
    const include = combineGlobs(s.include);
    if (!include) return;
    // Searched from the workspace folder, so a folder deleted meanwhile is simply empty (a search
    // rooted in it would fail to start).
    const root = vscode.workspace.getWorkspaceFolder(uri);
    const rel = root ? path.posix.relative(root.uri.path, uri.path) : '';
    const pattern = root && rel && !/[[\]{}*?]/.test(rel) ? new vscode.RelativePattern(root, `${rel}/${include}`) : new vscode.RelativePattern(uri, include);
    const uris = await vscode.workspace.findFiles(pattern, combineGlobs(searchExcludes(s.exclude)), MAX_CANDIDATES);
    const fresh = uris.filter((u) => !this.files.get(u) && this.included(vscode.workspace.asRelativePath(u, false)));
    if (!fresh.length) return;
    this.log.trace(`new folder ${uri.fsPath}: ${fresh.length} candidates`);
    const formats = await this.detect(fresh);
    fresh.forEach((u, k) => {
      const format = formats[k];
      if (format && !this.files.get(u)) void this.files.score(this.files.track(u, format, true), 'background');
    });
  }

  private async changed(uri: vscode.Uri): Promise<void> {
    const entry = this.files.get(uri);
    if (entry) {
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
      return this.files.score(entry, open ? 'interactive' : 'background');
    }
    return this.created(uri); // it may have become a predictions file (written after an empty create)
  }

  private deleted(uri: vscode.Uri): void {
    const k = uri.toString();
    clearTimeout(this.timers.get(k));
    this.timers.delete(k);
    this.files.untrack(uri);
    this.files.untrackUnder(uri);
    this.reasons.delete(k);
    this.unscored?.delete(uri);
    this.unscored?.deleteUnder(uri);
  }

  dispose(): void {
    this.run++;
    for (const w of this.watchers) w.dispose();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
