// "Reveal" from the report: a row's line in its file, opened beside the panel.
import * as vscode from 'vscode';

/**
 * Opens `path` at `line` in an editor group that is not the panel's, keeping the keyboard in the
 * panel (so j/k keep stepping). False when the file has no text lines or could not be opened.
 */
export async function revealLine(path: string, line: number, panelColumn: vscode.ViewColumn | undefined): Promise<boolean> {
  // Parquet tables and .eval logs have no text lines: the webview shows the row in its table instead.
  if (/\.(parquet|eval)$/i.test(path)) return false;
  try {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const lineIndex = Math.min(line - 1, document.lineCount - 1);
    const range = document.lineAt(lineIndex).range;
    const other = vscode.window.visibleTextEditors.find((e) => e.viewColumn !== undefined && e.viewColumn !== panelColumn);
    const viewColumn = other?.viewColumn
      ?? (panelColumn !== undefined && panelColumn > vscode.ViewColumn.One ? vscode.ViewColumn.One : vscode.ViewColumn.Beside);
    const editor = await vscode.window.showTextDocument(document, { viewColumn, preserveFocus: true, preview: true, selection: range });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return true;
  } catch (error) {
    void vscode.window.showWarningMessage(`Eval Lens: could not open ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}
