// "Eval Lens: Export Report…" and "Eval Lens: Export Comparison…": the panels' exports from the
// command palette. Arguments skip the picks and the save dialog (keybindings, tests):
//   Export Report:     { format: 'markdown' | 'json', to?: 'file' | 'clipboard', report?: number | 'all', uri? }
//   Export Comparison: { format: 'markdown' | 'json' | 'csv', to?: 'file' | 'clipboard', uri? }
//   both:              { format: 'png' | 'svg', chart?: string (its id: 'reliability', 'roc'…), uri? }
// `uri` is a Uri or a path.
import * as vscode from 'vscode';
import type { CompareExportRequest } from '../../common/compareProtocol';
import type { ChartImageFormat } from '../../common/exportProtocol';
import type { ExportRequest } from '../../protocol';
import { ComparePanel } from '../compare/comparePanel';
import { ReportPanel } from '../report/reportPanel';

interface ExportArgs {
  format?: unknown;
  to?: unknown;
  report?: unknown;
  chart?: unknown;
  uri?: unknown;
}

type Choice<R> = vscode.QuickPickItem & { request: R | { chart: ChartImageFormat } };

const CHART_PICKS: Choice<never>[] = [
  { label: 'PNG of a chart…', request: { chart: 'png' } },
  { label: 'SVG of a chart…', request: { chart: 'svg' } },
];

const REPORT_PICKS: Choice<ExportRequest>[] = [
  { label: 'Markdown summary to a file…', request: { format: 'markdown', to: 'file', report: 'all' } },
  { label: 'Markdown summary to the clipboard', request: { format: 'markdown', to: 'clipboard', report: 'all' } },
  { label: 'JSON (as eval-lens score --json)…', request: { format: 'json', report: 'all' } },
  ...CHART_PICKS,
];

const COMPARE_PICKS: Choice<CompareExportRequest>[] = [
  { label: 'Markdown summary to a file…', request: { format: 'markdown', to: 'file' } },
  { label: 'Markdown summary to the clipboard', request: { format: 'markdown', to: 'clipboard' } },
  { label: 'JSON (as eval-lens compare --json)…', request: { format: 'json' } },
  { label: 'CSV of the metrics (as eval-lens compare --csv)…', request: { format: 'csv' } },
  ...CHART_PICKS,
];

function reportRequest(args: ExportArgs): ExportRequest | undefined {
  const report = args.report === undefined ? 'all' : args.report === 'all' || Number.isInteger(args.report) ? (args.report as number | 'all') : undefined;
  if (report === undefined) return undefined;
  if (args.format === 'markdown') return { format: 'markdown', to: args.to === 'clipboard' ? 'clipboard' : 'file', report };
  if (args.format === 'json') return { format: 'json', report };
  return undefined;
}

function compareRequest(args: ExportArgs): CompareExportRequest | undefined {
  if (args.format === 'markdown') return { format: 'markdown', to: args.to === 'clipboard' ? 'clipboard' : 'file' };
  if (args.format === 'json' || args.format === 'csv') return { format: args.format };
  return undefined;
}

interface Target<R> {
  parse: (args: ExportArgs) => R | undefined;
  picks: Choice<R>[];
  export: (request: R, target?: vscode.Uri) => Promise<vscode.Uri | 'clipboard' | undefined>;
  exportChart: (chart: string | undefined, format: ChartImageFormat, target?: vscode.Uri) => Promise<vscode.Uri | undefined>;
}

async function run<R>(panel: Target<R>, what: string, arg: unknown): Promise<vscode.Uri | 'clipboard' | undefined> {
  const args = (arg && typeof arg === 'object' ? arg : {}) as ExportArgs;
  const target = args.uri instanceof vscode.Uri ? args.uri : typeof args.uri === 'string' ? vscode.Uri.file(args.uri) : undefined;
  if (args.format === 'png' || args.format === 'svg') {
    return panel.exportChart(typeof args.chart === 'string' ? args.chart : undefined, args.format, target);
  }
  let request: R | { chart: ChartImageFormat } | undefined = args.format === undefined ? undefined : panel.parse(args);
  if (!request) {
    if (args.format !== undefined) throw new Error(`Eval Lens: cannot export ${what} as ${JSON.stringify(args.format)}.`);
    request = (await vscode.window.showQuickPick(panel.picks, { placeHolder: `Export the ${what} as` }))?.request;
    if (!request) return undefined;
  }
  if (typeof request === 'object' && 'chart' in request) return panel.exportChart(undefined, request.chart, target);
  return panel.export(request, target);
}

export async function exportCommand(arg?: unknown): Promise<vscode.Uri | 'clipboard' | undefined> {
  const panel = ReportPanel.current;
  if (!panel) {
    void vscode.window.showInformationMessage('Eval Lens: open a report first (Eval Lens: Open Report).');
    return undefined;
  }
  return run<ExportRequest>({
    parse: reportRequest, picks: REPORT_PICKS,
    export: (r, t) => panel.export(r, t), exportChart: (c, f, t) => panel.exportChart(c, f, t),
  }, 'report', arg);
}

export async function exportComparisonCommand(arg?: unknown): Promise<vscode.Uri | 'clipboard' | undefined> {
  const panel = ComparePanel.compare;
  if (!panel?.comparison) {
    void vscode.window.showInformationMessage('Eval Lens: compare runs first (Eval Lens: Compare Runs).');
    return undefined;
  }
  // Run folders are compared task by task, without charts: no chart entries to offer.
  const charted = panel.comparison.runs.length > 0;
  return run<CompareExportRequest>({
    parse: compareRequest, picks: charted ? COMPARE_PICKS : COMPARE_PICKS.filter((p) => !('chart' in p.request)),
    export: (r, t) => panel.export(r, t), exportChart: (c, f, t) => panel.exportChart(c, f, t),
  }, 'comparison', arg);
}
