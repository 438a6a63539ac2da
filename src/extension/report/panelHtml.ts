// The report webview's HTML and Content Security Policy. Pure (no `vscode` import) so the preview
// harness (test/webview-preview) and the CSP unit test use exactly what the panel serves.
//
// The policy: nothing by default; scripts only with this page's nonce; styles, images and fonts
// only from the extension's own webview resources (plus data: images). No 'unsafe-eval', no
// 'unsafe-inline', no remote origin, no connect-src (the webview talks to the host by postMessage
// only). Chart.js 4 sets canvas sizes through element.style (CSSOM), which style-src does not
// restrict, and injects no <style> element, so 'unsafe-inline' is not needed.

export interface PanelHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  /** webview.asWebviewUri(dist/webview.js) as a string */
  scriptUri: string;
  /** webview.asWebviewUri(dist/webview.css) as a string */
  styleUri: string;
  title?: string;
}

export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** 32 characters from [A-Za-z0-9], from a cryptographic source. */
export function makeNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function panelHtml(input: PanelHtmlInput): string {
  const nonce = escapeAttribute(input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(panelCsp(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
<title>${escapeAttribute(input.title ?? 'Eval Lens report')}</title>
</head>
<body>
<main id="root"><div class="status loading" role="status"><div class="spinner" aria-hidden="true"></div><span>Waiting for the report…</span></div></main>
<script nonce="${nonce}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>
`;
}
