// The compare panel's exports: Markdown (to a file or the clipboard), JSON and CSV of the comparison
// in the panel, built by the host with the CLI's own functions (`eval-lens compare --markdown / --json
// / --csv`), so a pull request and the panel say the same; and the files only the webview makes (the
// aligned instances as filtered, a chart's PNG or SVG). All go through the save dialog.
import * as vscode from 'vscode';
import type { Comparison } from '../core/compare';
import type { Board } from '../core/compare/board';
import type { BoardView, CompareExportRequest, ComparisonResult } from '../common/compareProtocol';
import { boardJson } from '../cli/board';
import { boardCsv, boardMarkdown } from '../cli/boardOutput';
import { compareJson } from '../cli/compare';
import { compareCsv, compareMarkdown } from '../cli/compareOutput';
import { saveTo, saveWebviewFile } from './exportFiles';

/** The CLI's default significance level (--alpha), which the panel's ✱ marks use too. */
const ALPHA = 0.05;

/** Carries out one export; returns the file written, 'clipboard', or undefined when cancelled or invalid. */
export async function exportComparison(
  request: CompareExportRequest, result: ComparisonResult, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  // The posted document is the core's Comparison (run names included), typed for the webview.
  const comparison = result as unknown as Comparison;
  const near = comparison.runs[0]?.path ?? '';
  const stem = 'comparison';
  let text: string;
  let uri: vscode.Uri | undefined;
  switch (request?.format) {
    case 'markdown':
      text = compareMarkdown(comparison, ALPHA);
      if (request.to === 'clipboard') {
        await vscode.env.clipboard.writeText(text);
        return 'clipboard';
      }
      uri = await saveTo(`${stem}.eval-lens.md`, { Markdown: ['md'] }, near, target);
      break;
    case 'json':
      // As printResult prints --json.
      text = JSON.stringify(compareJson(comparison), null, 1) + '\n';
      uri = await saveTo(`${stem}.eval-lens.json`, { JSON: ['json'] }, near, target);
      break;
    case 'csv':
      text = compareCsv(comparison);
      uri = await saveTo(`${stem}.eval-lens.csv`, { CSV: ['csv'] }, near, target);
      break;
    case 'file':
      return request.file && typeof request.file === 'object' ? saveWebviewFile(request.file, near, target) : undefined;
    default:
      return undefined;
  }
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

/** The leaderboard's exports: `eval-lens board --markdown / --json / --csv` of the board in the panel. */
export async function exportBoard(
  request: CompareExportRequest, view: BoardView, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  // The posted board is the core's Board (direction and source included), typed for the webview.
  const board = view.board as unknown as Board;
  const near = `${view.folder.replace(/[\\/]+$/, '')}/`;
  const stem = 'leaderboard';
  let text: string;
  let uri: vscode.Uri | undefined;
  switch (request?.format) {
    case 'markdown':
      text = boardMarkdown([board]);
      if (request.to === 'clipboard') {
        await vscode.env.clipboard.writeText(text);
        return 'clipboard';
      }
      uri = await saveTo(`${stem}.eval-lens.md`, { Markdown: ['md'] }, near, target);
      break;
    case 'json':
      text = JSON.stringify(boardJson({ board }), null, 1) + '\n';
      uri = await saveTo(`${stem}.eval-lens.json`, { JSON: ['json'] }, near, target);
      break;
    case 'csv':
      text = boardCsv([board]);
      uri = await saveTo(`${stem}.eval-lens.csv`, { CSV: ['csv'] }, near, target);
      break;
    default:
      return undefined;
  }
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}
