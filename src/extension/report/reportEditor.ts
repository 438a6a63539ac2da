// "Eval Lens Report": a read-only custom editor that shows a predictions file's report in the
// editor tab itself. It is how files the text editor will not show reach Eval Lens: files above the
// text editor's limit (about 16 MB in the browser workbench: "The file is not displayed in the text
// editor because it is very large", every 1M-row predictions file) and binary ones (Parquet tables,
// Inspect .eval logs). Right-click → Open With… offers it for any predictions file; with
// evalLens.openLargeFilesAsReport (default on) such files open in it by themselves, from the
// explorer, from Quick Open, or from the Eval Lens view.
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import { detectFormat, readHead } from '../../core/index';
import type { EvalFiles } from '../discovery/evalFiles';
import { ReportPanel } from './reportPanel';
import { SECTION } from '../settings';

export const REPORT_EDITOR_VIEW_TYPE = 'evalLens.reportEditor';
export const OPEN_FILE_COMMAND = 'evalLens.openFile';

/**
 * Files above this size are not shown by the text editor in the browser workbench (code-server):
 * it refuses them with its large-file notice. The desktop limit is higher; a report is still the
 * more useful view of a file this size.
 */
export const TEXT_EDITOR_LIMIT_BYTES = 16 * 1024 * 1024;

/** How long a report tab's file waits for the report's first chart before the tree scores it. */
const FIRST_CHART_WAIT_MS = 10_000;

/** Names the text editor cannot show at all: Parquet tables and Inspect .eval logs (zips). */
const BINARY_NAME = /\.(parquet|eval)$/i;
/** Names of prediction files the redirect may apply to (the include patterns' extensions). */
const PREDICTION_NAME = /\.(csv|tsv|jsonl|ndjson|json|parquet|eval)$/i;

export function isBinaryPredictions(path: string): boolean {
  return BINARY_NAME.test(path);
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function openLargeAsReport(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('openLargeFilesAsReport', true) !== false;
}

/** Whether `uri` should open as a report rather than as text: a large or binary predictions file. */
export function opensAsReport(uri: vscode.Uri, files: EvalFiles): boolean {
  if (uri.scheme !== 'file' || !openLargeAsReport()) return false;
  const tracked = !!files.get(uri);
  // .json files are everywhere: only the ones discovery recognised as predictions.
  if (!tracked && (!PREDICTION_NAME.test(uri.fsPath) || /\.json$/i.test(uri.fsPath))) return false;
  if (isBinaryPredictions(uri.fsPath)) return true;
  const size = sizeOf(uri.fsPath);
  return size !== undefined && size > TEXT_EDITOR_LIMIT_BYTES;
}

/**
 * opensAsReport for a file the tree tracks, of a size already known (no stat on the extension
 * host's thread: the reports made ahead look at every tracked file).
 */
export function trackedOpensAsReport(path: string, size: number): boolean {
  return openLargeAsReport() && (isBinaryPredictions(path) || size > TEXT_EDITOR_LIMIT_BYTES);
}

class ReportDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

/** The custom editor: each tab is a ReportPanel around the webview panel VS Code hands over. */
class ReportEditorProvider implements vscode.CustomReadonlyEditorProvider<ReportDocument> {
  /** Editors opened so far (tests). */
  static opened = 0;

  constructor(private readonly context: vscode.ExtensionContext, private readonly files: EvalFiles) {}

  openCustomDocument(uri: vscode.Uri): ReportDocument {
    return new ReportDocument(uri);
  }

  resolveCustomEditor(document: ReportDocument, webviewPanel: vscode.WebviewPanel): void {
    ReportEditorProvider.opened++;
    const panel = ReportPanel.adopt(this.context, webviewPanel, document.uri.fsPath);
    // Like a file open in a text editor: tracked while its tab is open (status bar, Problems), even
    // outside the workspace's globs.
    const uri = document.uri;
    if (uri.scheme !== 'file' || this.files.get(uri)) return;
    const format = detectFormat(uri.fsPath, readHead(uri.fsPath) ?? '') ?? 'generic';
    const entry = this.files.track(uri, format, false);
    // Scored for the tree once the report's first chart is painted (or has failed to come): a
    // click at once after a reload, on a file discovery has not reached yet, otherwise parsed it
    // for the tree while the webview booted, beside a report kept from before the reload
    // (storedReports.ts): ~0.5 s of a core on two (issue 28.11). It then takes the report's own
    // pass when that is lent (scoring.ts firstPassFor).
    void panel.whenRendered(uri.fsPath, FIRST_CHART_WAIT_MS).catch(() => undefined).then(() => {
      if (this.files.get(uri) === entry) void this.files.score(entry, 'interactive');
    });
    webviewPanel.onDidDispose(() => {
      const entry = this.files.get(uri);
      if (entry && !entry.discovered) this.files.untrack(uri);
    });
  }
}

/**
 * Opens a file from the Eval Lens view: its report (custom editor) when the text editor would only
 * show its large-file or binary notice, else the text.
 */
export async function openFile(files: EvalFiles, uri: vscode.Uri): Promise<void> {
  if (opensAsReport(uri, files)) await vscode.commands.executeCommand('vscode.openWith', uri, REPORT_EDITOR_VIEW_TYPE);
  else await vscode.commands.executeCommand('vscode.open', uri);
}

/**
 * A text tab opened on a large or binary predictions file (explorer, Quick Open) is replaced by the
 * report editor in the same group, before the user has to read the large-file notice.
 */
function redirectLargeTabs(files: EvalFiles): vscode.Disposable {
  const busy = new Set<string>();
  const redirect = async (tab: vscode.Tab) => {
    if (!(tab.input instanceof vscode.TabInputText)) return;
    const uri = tab.input.uri;
    const key = uri.toString();
    if (busy.has(key) || !opensAsReport(uri, files)) return;
    // A document the extension host already holds (showTextDocument by an extension) is displayed
    // as text whatever its size: only the workbench's own refusal has no document behind it.
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return;
    busy.add(key);
    try {
      await vscode.commands.executeCommand('vscode.openWith', uri, REPORT_EDITOR_VIEW_TYPE, { viewColumn: tab.group.viewColumn, preview: tab.isPreview });
      // The text tab may already be gone (a preview replaced by the report): close it only if it is there.
      const still = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key);
      if (still) await vscode.window.tabGroups.close(still, true);
    } finally {
      busy.delete(key);
    }
  };
  // Tabs opened before the extension activated (a click in the explorer right after start-up).
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) void redirect(tab);
  return vscode.window.tabGroups.onDidChangeTabs((e) => {
    for (const tab of [...e.opened, ...e.changed]) void redirect(tab);
  });
}

/** The uri of the active tab, whatever its editor: text, the report editor, or a notice. */
export function activeTabUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  return undefined;
}

export function registerReportEditor(context: vscode.ExtensionContext, files: EvalFiles): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.registerCustomEditorProvider(REPORT_EDITOR_VIEW_TYPE, new ReportEditorProvider(context, files), {
      webviewOptions: { enableFindWidget: true, retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: false,
    }),
    vscode.commands.registerCommand(OPEN_FILE_COMMAND, (uri: vscode.Uri) => openFile(files, uri)),
    redirectLargeTabs(files),
  );
}

export function reportEditorsOpened(): number {
  return ReportEditorProvider.opened;
}
