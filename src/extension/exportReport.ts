// The report panel's exports: Markdown (to a file or the clipboard), JSON, the instance table's CSV
// and a chart's PNG or SVG, written by the host through the save dialog. The Markdown and JSON are the
// CLI's own (`eval-lens score --markdown / --json`), so a pull request and the panel say the same.
import * as vscode from 'vscode';
import type { Report } from '../core/types';
import type { ExportRequest } from '../protocol';
import { baseName } from '../common/paths';
import { scoreMarkdown } from '../cli/scoreTables';
import { toJson } from '../cli/score';
import { saveTo, saveWebviewFile } from './exportFiles';

type Summary = { raft_score?: number | null };

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
    case 'png':
    case 'svg':
      return saveWebviewFile(request, path, target);
    default:
      return undefined;
  }
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}
