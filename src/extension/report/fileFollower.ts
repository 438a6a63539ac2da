// The report follows its file (or folder): a change on disk or in an editor buffer asks for a new
// score after a pause, so the report always ends with the file's latest content.
import { statSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import * as vscode from 'vscode';

/** Changes to the report's file closer together than this re-score it once. */
const REFRESH_DELAY_MS = 500;

export class FileFollower implements vscode.Disposable {
  private following: { path: string; watch: vscode.Disposable } | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  /**
   * @param refresh called with the followed path once its changes settle
   * @param scored the path in view and the stamp (mtime, size) of what was scored, if any
   */
  constructor(
    private readonly refresh: (path: string) => void,
    private readonly scored: () => { path: string; stamp?: { mtime: number; size: number } },
  ) {}

  /** Watches `path` (a file, or every file below a folder) on disk and in editors. */
  follow(path: string): void {
    if (this.following?.path === path) return;
    this.following?.watch.dispose();
    this.following = undefined;
    if (!path) return;
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      /* gone: watch the name, it may come back */
    }
    const pattern = folder
      ? new vscode.RelativePattern(vscode.Uri.file(path), '**/*')
      : new vscode.RelativePattern(vscode.Uri.file(dirname(path)), basename(path));
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = () => this.scheduleRefresh(path);
    const inside = (uri: vscode.Uri) => uri.scheme === 'file' && (uri.fsPath === path || (folder && uri.fsPath.startsWith(path.endsWith(sep) ? path : path + sep)));
    // The watcher starts listening a little later: a change in between is caught by comparing the
    // file with what was scored, once it surely listens.
    const settle = setTimeout(() => this.checkStamp(), 1500);
    this.following = {
      path,
      watch: vscode.Disposable.from(
        { dispose: () => clearTimeout(settle) },
        watcher,
        watcher.onDidChange(changed),
        watcher.onDidCreate(changed),
        watcher.onDidDelete(changed),
        // Unsaved edits are scored too (the panel scores the buffer of an open, edited file).
        vscode.workspace.onDidChangeTextDocument((e) => {
          if (e.contentChanges.length && inside(e.document.uri)) changed();
        }),
      ),
    };
  }

  /** Re-scores when the file on disk is no longer the one scored (mtime or size differ). */
  checkStamp(): void {
    const { path, stamp } = this.scored();
    if (!stamp || !path) return;
    let now: { mtime: number; size: number } | undefined;
    try {
      const st = statSync(path);
      now = { mtime: st.mtimeMs, size: st.size };
    } catch {
      now = undefined;
    }
    if (!now || now.mtime !== stamp.mtime || now.size !== stamp.size) this.scheduleRefresh(path);
  }

  private scheduleRefresh(path: string): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.refresh(path);
    }, REFRESH_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.following?.watch.dispose();
    this.following = undefined;
  }
}
