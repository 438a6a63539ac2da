// Row problems as diagnostics in the Problems panel, for open and unopened files alike. A problem in
// a companion file (RAFT train.csv, a results json) is shown on that file; several predictions files
// may share one companion, so each target's diagnostics are the union over the files that own them.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RowProblem, Severity } from '../../core/types';
import type { FileEntry, FileEvent } from '../discovery/evalFiles';

export const DIAGNOSTIC_SOURCE = 'Eval Lens';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** A diagnostic exactly where the core says: 1-based line and column, exclusive end column. */
export function toDiagnostic(p: RowProblem): vscode.Diagnostic {
  const line = Math.max(0, p.line - 1);
  const start = p.column !== undefined ? Math.max(0, p.column - 1) : 0;
  // Without a column the whole line is marked (VS Code clamps the end to the line's length); with a
  // column but no end, an empty range, which the editor widens to the word at that column.
  let end = Number.MAX_SAFE_INTEGER;
  if (p.column !== undefined) end = p.endColumn !== undefined ? Math.max(start, p.endColumn - 1) : start;
  const d = new vscode.Diagnostic(new vscode.Range(line, start, line, end), p.message, SEVERITY[p.severity] ?? vscode.DiagnosticSeverity.Warning);
  d.source = DIAGNOSTIC_SOURCE;
  d.code = p.code;
  return d;
}

export class ProblemsPublisher implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('evalLens');
  /** owner file -> target file -> its diagnostics contributed by the owner. */
  private readonly byOwner = new Map<string, Map<string, vscode.Diagnostic[]>>();

  update(ev: FileEvent): void {
    const owner = ev.entry.uri.toString();
    const before = this.byOwner.get(owner);
    if (ev.removed) {
      this.byOwner.delete(owner);
    } else {
      const contributed = this.contributions(ev.entry);
      if (!contributed) return; // still scoring: keep what is shown until the new result arrives
      this.byOwner.set(owner, contributed);
    }
    const targets = new Set<string>([...(before?.keys() ?? []), ...(this.byOwner.get(owner)?.keys() ?? [])]);
    for (const t of targets) this.publish(t);
  }

  clear(): void {
    this.byOwner.clear();
    this.collection.clear();
  }

  private contributions(entry: FileEntry): Map<string, vscode.Diagnostic[]> | undefined {
    const out = new Map<string, vscode.Diagnostic[]>();
    const add = (target: string, d: vscode.Diagnostic) => {
      const list = out.get(target);
      if (list) list.push(d);
      else out.set(target, [d]);
    };
    const self = entry.uri.toString();
    if (entry.error) {
      const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, Number.MAX_SAFE_INTEGER), `Not scored: ${entry.error}`, vscode.DiagnosticSeverity.Information);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = 'not-scored';
      add(self, d);
      return out;
    }
    if (!entry.result) return entry.pending ? undefined : out;
    for (const report of entry.result.reports) {
      const reportTarget = report.path === entry.path ? self : vscode.Uri.file(report.path).toString();
      for (const p of report.problems) add(p.path ? vscode.Uri.file(path.resolve(path.dirname(entry.path), p.path)).toString() : reportTarget, toDiagnostic(p));
    }
    return out;
  }

  private publish(target: string): void {
    const all: vscode.Diagnostic[] = [];
    for (const m of this.byOwner.values()) all.push(...(m.get(target) ?? []));
    const uri = vscode.Uri.parse(target);
    if (all.length) this.collection.set(uri, all);
    else this.collection.delete(uri);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
