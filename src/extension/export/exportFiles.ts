// Writing what a panel's "Export…" asks for: the save dialog (or a caller's target); the CLI's
// documents (Markdown, JSON, CSV) that the host builds; and the files only the webview can make (the
// instance table's CSV, a chart's PNG or SVG), checked before they are written: the webview's
// content is data, and these are the only shapes it may send.
import * as vscode from 'vscode';
import { isPlainSvg, isPng, safeFileName, type WebviewFile } from '../../common/exportProtocol';

/** Where a file goes: `target` when a caller (a test, a command argument) gives one, else the save dialog. */
export async function saveTo(defaultName: string, filters: Record<string, string[]>, near: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (target) return target;
  const folder = vscode.Uri.file(near.slice(0, Math.max(near.lastIndexOf('/'), near.lastIndexOf('\\')) + 1) || near);
  return vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(folder, defaultName), filters, saveLabel: 'Export' });
}

/** The bytes of a webview file, or undefined when it is not what its format says. */
function bytesOf(file: WebviewFile): Uint8Array | undefined {
  switch (file?.format) {
    case 'csv':
      return typeof file.text === 'string' ? new TextEncoder().encode(file.text) : undefined;
    case 'png': {
      if (typeof file.base64 !== 'string') return undefined;
      const bytes = new Uint8Array(Buffer.from(file.base64, 'base64'));
      return isPng(bytes) ? bytes : undefined;
    }
    case 'svg':
      return isPlainSvg(file.text) ? new TextEncoder().encode(file.text) : undefined;
    default:
      return undefined;
  }
}

const FILTERS: Record<WebviewFile['format'], Record<string, string[]>> = {
  csv: { CSV: ['csv'] },
  png: { 'PNG image': ['png'] },
  svg: { 'SVG image': ['svg'] },
};

/** Saves a webview file near `near`; the file written, or undefined when refused or cancelled. */
export async function saveWebviewFile(file: WebviewFile, near: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const bytes = bytesOf(file);
  if (!bytes) return undefined;
  const uri = await saveTo(safeFileName(file.name, file.format), FILTERS[file.format], near, target);
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}

/** A document the host builds as a CLI command prints it (`--markdown`, `--json`, `--csv`). */
export type DocumentRequest = { format: 'markdown'; to: 'file' | 'clipboard' } | { format: 'json' } | { format: 'csv' };

/** A panel's documents, built when asked for; a panel without a CSV leaves it out. */
export interface Documents {
  markdown: () => string;
  json: () => string;
  csv?: () => string;
}

const DOCUMENT_FILTERS: Record<DocumentRequest['format'], [string, Record<string, string[]>]> = {
  markdown: ['md', { Markdown: ['md'] }],
  json: ['json', { JSON: ['json'] }],
  csv: ['csv', { CSV: ['csv'] }],
};

/**
 * Builds the asked-for document and copies it (Markdown to the clipboard) or saves it as
 * `<stem>.eval-lens.<ext>` near `near`; the file written, 'clipboard', or undefined when cancelled.
 */
export async function saveDocument(
  request: DocumentRequest, documents: Documents, stem: string, near: string, target?: vscode.Uri,
): Promise<vscode.Uri | 'clipboard' | undefined> {
  const build = documents[request.format];
  if (!build) return undefined;
  const text = build();
  if (request.format === 'markdown' && request.to === 'clipboard') {
    await vscode.env.clipboard.writeText(text);
    return 'clipboard';
  }
  const [ext, filters] = DOCUMENT_FILTERS[request.format];
  const uri = await saveTo(`${stem}.eval-lens.${ext}`, filters, near, target);
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}
