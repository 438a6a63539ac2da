// Data files discovery looked at and did not take as predictions, each with the reason (the
// core's unscoredReason), so the tree can list them under "Not scored" instead of dropping them.
import * as vscode from 'vscode';

export interface UnscoredFile {
  uri: vscode.Uri;
  reason: string;
}

export class UnscoredFiles implements vscode.Disposable {
  private readonly entries = new Map<string, UnscoredFile>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  get size(): number {
    return this.entries.size;
  }

  all(): UnscoredFile[] {
    return [...this.entries.values()].sort((a, b) => a.uri.fsPath.localeCompare(b.uri.fsPath));
  }

  set(uri: vscode.Uri, reason: string): void {
    const k = uri.toString();
    if (this.entries.get(k)?.reason === reason) return;
    this.entries.set(k, { uri, reason });
    this.emitter.fire();
  }

  delete(uri: vscode.Uri): void {
    if (this.entries.delete(uri.toString())) this.emitter.fire();
  }

  /** Forget files under a deleted folder. */
  deleteUnder(folder: vscode.Uri): void {
    const prefix = folder.toString().replace(/\/?$/, '/');
    let changed = false;
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) { this.entries.delete(k); changed = true; }
    if (changed) this.emitter.fire();
  }

  /** Keep only the files a fresh scan found again. */
  retain(keep: Set<string>): void {
    let changed = false;
    for (const k of [...this.entries.keys()]) if (!keep.has(k)) { this.entries.delete(k); changed = true; }
    if (changed) this.emitter.fire();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
