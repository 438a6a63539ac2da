// The headline metrics on line 1 of an open predictions file; clicking opens the report.
import * as vscode from 'vscode';
import type { EvalFiles, FileEntry } from '../discovery/evalFiles';
import { summaryLine } from './headline';

/** The CodeLens title for a file in its current state (exported for the status bar and tests). */
export function lensTitle(entry: FileEntry): string {
  if (entry.error) return `Eval Lens · not scored: ${entry.error.length > 160 ? `${entry.error.slice(0, 157)}...` : entry.error}`;
  const report = entry.result?.reports[0];
  if (!report) return 'Eval Lens · scoring…';
  return `Eval Lens · ${summaryLine(report)}${entry.pending ? ' · updating…' : ''}`;
}

export class HeadlineCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly files: EvalFiles) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const entry = this.files.get(doc.uri);
    if (!entry) return [];
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
      title: lensTitle(entry),
      tooltip: 'Open the Eval Lens report for this file',
      command: 'evalLens.openReport',
      arguments: [doc.uri],
    })];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
