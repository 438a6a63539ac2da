// The compare panel's exports: Markdown (to a file or the clipboard), JSON and CSV of the comparison
// in the panel, built by the host with the CLI's own functions (`eval-lens compare --markdown / --json
// / --csv`), so a pull request and the panel say the same; and the files only the webview makes (the
// aligned instances as filtered, a chart's PNG or SVG). All go through the save dialog.
import * as vscode from 'vscode';
import type { Comparison } from '../../core/compare';
import type { Board } from '../../core/compare/board';
import type { BoardView, CompareExportRequest, ComparisonResult } from '../../common/compareProtocol';
import { boardCsv, boardMarkdown } from '../../documents/boardOutput';
import { boardJson, compareJson } from '../../documents/json';
import { compareCsv, compareMarkdown } from '../../documents/compareOutput';
import { saveDocument, saveWebviewFile } from './exportFiles';

/** The CLI's default significance level (--alpha), which the panel's ✱ marks use too. */
const ALPHA = 0.05;

/** Carries out one export; returns the file written, 'clipboard', or undefined when cancelled or invalid. */
export async function exportComparison(
  request: CompareExportRequest, result: ComparisonResult, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  // The posted document is the core's Comparison (run names included), typed for the webview.
  const comparison = result as unknown as Comparison;
  const near = comparison.runs[0]?.path ?? '';
  if (request?.format === 'file') return request.file && typeof request.file === 'object' ? saveWebviewFile(request.file, near, target) : undefined;
  return saveDocument(request, {
    markdown: () => compareMarkdown(comparison, ALPHA),
    // As printResult prints --json.
    json: () => JSON.stringify(compareJson(comparison), null, 1) + '\n',
    csv: () => compareCsv(comparison),
  }, 'comparison', near, target);
}

/** The leaderboard's exports: `eval-lens board --markdown / --json / --csv` of the board in the panel. */
export async function exportBoard(
  request: CompareExportRequest, view: BoardView, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  if (request?.format === 'file') return undefined;
  // The posted board is the core's Board (direction and source included), typed for the webview.
  const board = view.board as unknown as Board;
  return saveDocument(request, {
    markdown: () => boardMarkdown([board]),
    json: () => JSON.stringify(boardJson({ board }), null, 1) + '\n',
    csv: () => boardCsv([board]),
  }, 'leaderboard', `${view.folder.replace(/[\\/]+$/, '')}/`, target);
}
