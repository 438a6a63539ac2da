// The report webview's HTML and Content Security Policy. Pure (no `vscode` import) so the preview
// harness (test/webview-preview) and the CSP unit test use exactly what the panel serves.
//
// The policy: nothing by default; scripts only with this page's nonce; styles, images and fonts
// only from the extension's own webview resources (plus data: images). No 'unsafe-eval', no
// 'unsafe-inline', no remote origin, no connect-src (the webview talks to the host by postMessage
// only). Chart.js 4 sets canvas sizes through element.style (CSSOM), which style-src does not
// restrict, and injects no <style> element, so 'unsafe-inline' is not needed.
//
// The page's own script and style sheet may come inline (`inline`), carrying the same nonce: a
// webview's resources reach it through VS Code's webview service worker and, in code-server, the
// remote file system's connection, where they queue behind whatever else is read over it. A click
// on a large file in the Explorer first opens a text editor, which streams the file's first 10 MB
// over that connection before the report editor replaces it, and webview.js arrived 1 s late
// (issue 28, point 11). The HTML itself comes over the extension host's connection. Still only
// code with this page's nonce runs: the nonce is made for each page and the text of files never
// enters the HTML (it is posted, and drawn with textContent).

export interface PanelHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  /** webview.asWebviewUri(dist/webview.js) as a string */
  scriptUri: string;
  /** webview.asWebviewUri(dist/webview.css) as a string */
  styleUri: string;
  title?: string;
  /** The script's and the style sheet's text, put in the page (with the nonce) instead of loaded from the URIs. */
  inline?: { script: string; style: string };
}

/**
 * A bundle's text made safe inside a <script> element: "</script" would end it and "<!--" could
 * change how the HTML parser reads the rest. A minifier writes neither as code (esbuild spaces
 * `a < !--b`), so both sit in strings, regular expressions, templates or comments, where `\x3C`
 * means the same "<".
 */
export function scriptText(code: string): string {
  return code.replace(/<(!--|\/script)/gi, '\\x3C$1');
}

export function panelCsp(cspSource: string, nonce: string, inlineStyle = false): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    inlineStyle ? `style-src ${cspSource} 'nonce-${nonce}'` : `style-src ${cspSource}`,
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
  // A style sheet that would end its <style> element early is loaded from its URI, and so is the script then.
  const inline = input.inline && !/<\/style/i.test(input.inline.style) ? input.inline : undefined;
  const style = inline ? `<style nonce="${nonce}">${inline.style}</style>` : `<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">`;
  const script = inline ? `<script nonce="${nonce}">${scriptText(inline.script)}</script>` : `<script nonce="${nonce}" src="${escapeAttribute(input.scriptUri)}"></script>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(panelCsp(input.cspSource, input.nonce, !!inline))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${style}
<title>${escapeAttribute(input.title ?? 'Eval Lens report')}</title>
</head>
<body>
<main id="root"><div class="status loading" role="status"><div class="spinner" aria-hidden="true"></div><span>Waiting for the report…</span></div></main>
${script}
</body>
</html>
`;
}
