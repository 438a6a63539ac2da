// Open editors: a predictions file opened by hand is tracked while it is open (even outside the
// globs), an edit re-scores the unsaved buffer after a pause, and closing returns a discovered file
// to its on-disk score (or forgets a file tracked only because it was open).
import * as vscode from 'vscode';
import type { Discovery } from '../discovery/discovery';
import type { EvalFiles } from '../discovery/evalFiles';
import { isCancelled } from '../worker/workerPool';

/** Files whose content may be predictions, judged by extension before any sniffing. */
const CANDIDATE = /\.(csv|tsv|jsonl|ndjson|json)$/i;

export class OpenDocuments implements vscode.Disposable {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly files: EvalFiles,
    private readonly discovery: Discovery,
    private readonly log: vscode.LogOutputChannel,
    /** Debounce for re-scoring an edited buffer. */
    private readonly debounceMs = 300,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.opened(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.edited(e)),
      vscode.workspace.onDidSaveTextDocument((d) => this.saved(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
    );
  }

  /** Documents already open when the extension activated. */
  openAll(): void {
    for (const d of vscode.workspace.textDocuments) this.opened(d);
  }

  get busy(): boolean {
    return this.timers.size > 0;
  }

  private opened(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file' || !CANDIDATE.test(doc.uri.path)) return;
    const entry = this.files.get(doc.uri);
    if (entry) {
      void this.files.score(entry, 'interactive');
      return;
    }
    this.discovery.detect([doc.uri], 'interactive').then(([format]) => {
      if (!format || doc.isClosed) return;
      void this.files.score(this.files.track(doc.uri, format, false), 'interactive');
    }, (e) => {
      if (!isCancelled(e)) this.log.warn(`${doc.uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
    });
  }

  private edited(e: vscode.TextDocumentChangeEvent): void {
    if (!e.contentChanges.length) return;
    const entry = this.files.get(e.document.uri);
    if (!entry) return;
    const k = entry.uri.toString();
    clearTimeout(this.timers.get(k));
    this.timers.set(k, setTimeout(() => {
      this.timers.delete(k);
      if (this.files.get(entry.uri) === entry) void this.files.score(entry, 'interactive');
    }, this.debounceMs));
  }

  private saved(doc: vscode.TextDocument): void {
    const entry = this.files.get(doc.uri);
    if (!entry) return;
    clearTimeout(this.timers.get(entry.uri.toString()));
    this.timers.delete(entry.uri.toString());
    void this.files.score(entry, 'interactive');
  }

  private closed(doc: vscode.TextDocument): void {
    const entry = this.files.get(doc.uri);
    if (!entry) return;
    clearTimeout(this.timers.get(entry.uri.toString()));
    this.timers.delete(entry.uri.toString());
    // Unsaved edits were dropped: a discovered file shows its on-disk score again.
    if (entry.discovered) void this.files.score(entry, 'background');
    else this.files.untrack(doc.uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}
