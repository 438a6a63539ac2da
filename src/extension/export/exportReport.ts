// The report panel's exports: Markdown (to a file or the clipboard), JSON, the instance table's CSV
// and a chart's PNG or SVG, written by the host through the save dialog. The Markdown and JSON are the
// CLI's own (`eval-lens score --markdown / --json`), so a pull request and the panel say the same.
import * as vscode from 'vscode';
import type { Report } from '../../core/types';
import type { ExportRequest } from '../../protocol';
import { baseName } from '../../common/paths';
import { scoreMarkdown } from '../../documents/scoreTables';
import { toJson } from '../../documents/json';
import { saveDocument, saveWebviewFile } from './exportFiles';

type Summary = { raft_score?: number | null };

function chosen(reports: Report[], which: number | 'all'): Report[] {
  if (which === 'all') return reports;
  return Number.isInteger(which) && reports[which] ? [reports[which]] : [];
}

/** Carries out one export; returns the file written, 'clipboard', or undefined when cancelled or invalid. */
export async function exportReport(
  request: ExportRequest, reports: Report[], summary: Summary, path: string, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  if (request.format !== 'markdown' && request.format !== 'json') return saveWebviewFile(request, path, target);
  const subset = chosen(reports, request.report);
  if (!subset.length) return undefined;
  // The RAFT score is the whole folder's: only with every report.
  const whole = subset.length === reports.length ? summary : {};
  return saveDocument(request, {
    markdown: () => scoreMarkdown(subset, whole),
    json: () => JSON.stringify(toJson(subset, whole), null, 1) + '\n',
  }, baseName(path).replace(/\.[^.]*$/, '') || 'report', path, target);
}

/** exportReport, then a word in the status bar of what was done (a caller's own target: nothing). */
export async function exportReportSaying(
  request: ExportRequest, reports: Report[], summary: Summary, path: string, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  const done = await exportReport(request, reports, summary, path, target);
  if (done === 'clipboard') void vscode.window.setStatusBarMessage('Eval Lens: Markdown copied to the clipboard', 3000);
  else if (done && !target) void vscode.window.setStatusBarMessage(`Eval Lens: exported ${baseName(done.fsPath)}`, 3000);
  return done;
}
