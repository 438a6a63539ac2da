// Writing what a panel's "Export…" asks for: the save dialog (or a caller's target), and the files
// only the webview can make (the instance table's CSV, a chart's PNG or SVG), checked before they
// are written: the webview's content is data, and these are the only shapes it may send.
import * as vscode from 'vscode';
import { isPlainSvg, isPng, safeFileName, type WebviewFile } from '../common/exportProtocol';

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
