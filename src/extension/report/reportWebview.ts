// The report webview's options and page: scripts on, command URIs off, resources from dist/ and
// media/ only, and the HTML with its nonce-based CSP (panelHtml.ts).
import * as vscode from 'vscode';
import { makeNonce, panelHtml } from './panelHtml';

export function reportWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export function reportWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  return panelHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    title,
  });
}
