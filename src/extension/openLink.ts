// A link a page shows from a file (a judge's explanation, issue 27), clicked: opened only when it is
// a web or mail link, and only on that click (VS Code asks before opening an untrusted domain).
// Anything else (command:, file:, javascript:) is refused with a word why.
import * as vscode from 'vscode';

/** The link's URI when the host may open it, or why not. */
export function openableLink(url: unknown): { uri: vscode.Uri } | { refused: string } | null {
  if (typeof url !== 'string' || url.length > 4096) return null;
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(url, true);
  } catch {
    return null;
  }
  if (!['http', 'https', 'mailto'].includes(uri.scheme)) return { refused: `Eval Lens: a link to ${uri.scheme}: is not opened from a file's text (only http, https and mailto links are).` };
  return { uri };
}

/** Opens the link (see openableLink); the URI opened, if any. */
export async function openLink(url: unknown): Promise<string | undefined> {
  const link = openableLink(url);
  if (!link) return undefined;
  if ('refused' in link) {
    void vscode.window.showWarningMessage(link.refused);
    return undefined;
  }
  await vscode.env.openExternal(link.uri);
  return link.uri.toString();
}
