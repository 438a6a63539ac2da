// The report webview's options and page: scripts on, command URIs off, resources from dist/ and
// media/ only, and the HTML with its nonce-based CSP (panelHtml.ts).
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { makeNonce, panelHtml } from './panelHtml';

export function reportWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/**
 * dist/webview.js and webview.css as text, to go in the page itself (panelHtml.ts says why); read
 * for each page (a rebuilt bundle is the next page's), undefined when they cannot be read (the page
 * then loads them from their URIs).
 */
function inlineBundle(dist: vscode.Uri): { script: string; style: string } | undefined {
  if (dist.scheme !== 'file') return undefined;
  try {
    return {
      script: readFileSync(vscode.Uri.joinPath(dist, 'webview.js').fsPath, 'utf8'),
      style: readFileSync(vscode.Uri.joinPath(dist, 'webview.css').fsPath, 'utf8'),
    };
  } catch {
    return undefined;
  }
}

export function reportWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  return panelHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    title,
    inline: inlineBundle(dist),
  });
}
