// The report panel's exports: Markdown (to a file or the clipboard), JSON, the instance table's CSV
// and a chart's PNG, written by the host through the save dialog. The Markdown and JSON are the
// CLI's own (`eval-lens score --markdown / --json`), so a pull request and the panel say the same.
import * as vscode from 'vscode';
import type { Report } from '../core/types';
import type { ExportRequest } from '../protocol';
import { baseName } from '../common/paths';
import { scoreMarkdown } from '../cli/scoreTables';
import { toJson } from '../cli/score';

type Summary = { raft_score?: number | null };

/** Where a file goes: `target` when a caller (a test, a command argument) gives one, else the save dialog. */
export async function saveTo(defaultName: string, filters: Record<string, string[]>, near: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (target) return target;
  const folder = vscode.Uri.file(near.slice(0, Math.max(near.lastIndexOf('/'), near.lastIndexOf('\\')) + 1) || near);
  return vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(folder, defaultName), filters, saveLabel: 'Export' });
}

function chosen(reports: Report[], which: number | 'all'): Report[] {
  if (which === 'all') return reports;
  return Number.isInteger(which) && reports[which] ? [reports[which]] : [];
}

/** Carries out one export; returns the file written, 'clipboard', or undefined when cancelled or invalid. */
export async function exportReport(
  request: ExportRequest, reports: Report[], summary: Summary, path: string, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  const stem = baseName(path).replace(/\.[^.]*$/, '') || 'report';
  let bytes: Uint8Array;
  let uri: vscode.Uri | undefined;
  switch (request.format) {
    case 'markdown': {
      const subset = chosen(reports, request.report);
      if (!subset.length) return undefined;
      const markdown = scoreMarkdown(subset, subset.length === reports.length ? summary : {});
      if (request.to === 'clipboard') {
        await vscode.env.clipboard.writeText(markdown);
        return 'clipboard';
      }
      uri = await saveTo(`${stem}.eval-lens.md`, { Markdown: ['md'] }, path, target);
      bytes = new TextEncoder().encode(markdown);
      break;
    }
    case 'json': {
      const subset = chosen(reports, request.report);
      if (!subset.length) return undefined;
      uri = await saveTo(`${stem}.eval-lens.json`, { JSON: ['json'] }, path, target);
      bytes = new TextEncoder().encode(JSON.stringify(toJson(subset, subset.length === reports.length ? summary : {}), null, 1) + '\n');
      break;
    }
    case 'csv':
      if (typeof request.text !== 'string') return undefined;
      uri = await saveTo(safeName(request.name, 'csv'), { CSV: ['csv'] }, path, target);
      bytes = new TextEncoder().encode(request.text);
      break;
    case 'png':
      if (typeof request.base64 !== 'string') return undefined;
      uri = await saveTo(safeName(request.name, 'png'), { 'PNG image': ['png'] }, path, target);
      bytes = Buffer.from(request.base64, 'base64');
      // Only a PNG: the webview's content is data, and this is the one format it may send.
      if (bytes.length < 8 || Buffer.from(bytes.subarray(0, 8)).toString('hex') !== '89504e470d0a1a0a') return undefined;
      break;
    default:
      return undefined;
  }
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}

/** A suggested name from the webview: a plain file name with the right extension, nothing else. */
function safeName(name: string, ext: string): string {
  const plain = String(name).replace(/[\\/:*?"<>|\x00-\x1f]+/g, '_').slice(0, 120) || 'export';
  return plain.toLowerCase().endsWith(`.${ext}`) ? plain : `${plain}.${ext}`;
}
