// "Eval Lens: Export Report…": the report panel's Markdown (file or clipboard) and JSON exports from
// the command palette. Arguments skip the pick and the save dialog (keybindings, tests):
// { format: 'markdown' | 'json', to?: 'file' | 'clipboard', report?: number | 'all', uri?: Uri | string }.
import * as vscode from 'vscode';
import type { ExportRequest } from '../protocol';
import { ReportPanel } from './panel';

interface ExportArgs {
  format?: unknown;
  to?: unknown;
  report?: unknown;
  uri?: unknown;
}

const PICKS: (vscode.QuickPickItem & { request: ExportRequest })[] = [
  { label: 'Markdown summary to a file…', request: { format: 'markdown', to: 'file', report: 'all' } },
  { label: 'Markdown summary to the clipboard', request: { format: 'markdown', to: 'clipboard', report: 'all' } },
  { label: 'JSON (as eval-lens score --json)…', request: { format: 'json', report: 'all' } },
];

function requestFrom(args: ExportArgs): ExportRequest | undefined {
  const report = args.report === undefined ? 'all' : args.report === 'all' || Number.isInteger(args.report) ? (args.report as number | 'all') : undefined;
  if (report === undefined) return undefined;
  if (args.format === 'markdown') return { format: 'markdown', to: args.to === 'clipboard' ? 'clipboard' : 'file', report };
  if (args.format === 'json') return { format: 'json', report };
  return undefined;
}

export async function exportCommand(arg?: unknown): Promise<vscode.Uri | 'clipboard' | undefined> {
  const panel = ReportPanel.current;
  if (!panel) {
    void vscode.window.showInformationMessage('Eval Lens: open a report first (Eval Lens: Open Report).');
    return undefined;
  }
  const args = (arg && typeof arg === 'object' ? arg : {}) as ExportArgs;
  let request = args.format === undefined ? undefined : requestFrom(args);
  if (!request) {
    if (args.format !== undefined) throw new Error(`Eval Lens: cannot export format ${JSON.stringify(args.format)}.`);
    request = (await vscode.window.showQuickPick(PICKS, { placeHolder: 'Export the report as' }))?.request;
    if (!request) return undefined;
  }
  const target = args.uri instanceof vscode.Uri ? args.uri : typeof args.uri === 'string' ? vscode.Uri.file(args.uri) : undefined;
  return panel.export(request, target);
}
