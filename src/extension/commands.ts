// Commands other than Score Benchmark: open the report, refresh, step through misclassified
// examples, and reveal a row in its data file.
import * as vscode from 'vscode';
import type { EvalFiles } from './discovery/evalFiles';
import { instanceAtLine } from './editor/hover';
import type { TreeNode } from './discovery/tree';
import { activeTabUri } from './report/reportEditor';

/** The path a command was invoked on: a uri, a path, a tree node, or else the active editor's file. */
export function targetPath(arg: unknown): string | undefined {
  // A webview panel's title-bar button passes the panel's own resource (webview-panel:…), which is
  // no file: the caller falls back to the report in front (Map Columns… read "webview-panel/…").
  if (arg instanceof vscode.Uri) return arg.scheme === 'file' ? arg.fsPath : undefined;
  if (typeof arg === 'string') return arg;
  const node = arg as TreeNode | undefined;
  if (node?.kind === 'file') return node.entry.path;
  if (node?.kind === 'raftRun') return node.dir;
  const doc = vscode.window.activeTextEditor?.document;
  if (doc) return doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined;
  // No text editor: the active tab may still be a predictions file (the report editor, or the text
  // editor's large-file notice, which has no TextEditor).
  const uri = activeTabUri();
  return uri?.scheme === 'file' ? uri.fsPath : undefined;
}

/** Opens a file with line `line` (1-based) selected and centred. */
export async function revealLine(path: string, line: number): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const l = Math.min(Math.max(0, line - 1), doc.lineCount - 1);
  const range = doc.lineAt(l).range;
  return vscode.window.showTextDocument(doc, { selection: range, preview: true, viewColumn: vscode.ViewColumn.One });
}

/**
 * evalLens.revealInData: with `{ path, line }`, opens that row; without, takes the row under the
 * cursor in a predictions file and opens the row it came from in the data file (RAFT train.csv).
 */
export async function revealInData(files: EvalFiles, arg?: unknown): Promise<vscode.TextEditor | undefined> {
  const a = arg as { path?: unknown; line?: unknown } | undefined;
  if (a && typeof a.path === 'string' && typeof a.line === 'number') return revealLine(a.path, a.line);
  const editor = vscode.window.activeTextEditor;
  const entry = editor && files.get(editor.document.uri);
  const report = entry?.result?.reports[0];
  if (!editor || !report?.instances) {
    void vscode.window.showInformationMessage('Eval Lens: put the cursor on a row of a scored predictions file first.');
    return undefined;
  }
  const i = instanceAtLine(report.instances.lines, editor.selection.active.line + 1);
  if (i < 0) {
    void vscode.window.showInformationMessage('Eval Lens: this line holds no scored instance.');
    return undefined;
  }
  if (!report.dataPath || !report.dataLines) {
    void vscode.window.showInformationMessage('Eval Lens: this file has no separate data file; the row is its own data.');
    return undefined;
  }
  const dataLine = report.dataLines[i];
  if (!dataLine) {
    void vscode.window.showInformationMessage('Eval Lens: this instance has no row in the data file (hidden test split).');
    return undefined;
  }
  return revealLine(report.dataPath, dataLine);
}
