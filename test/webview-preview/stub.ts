// Loaded before dist/webview.js in the preview page: stands in for VS Code's webview host. It
// provides acquireVsCodeApi (state in sessionStorage, so a page reload restores it like a window
// reload), applies a theme, records CSP violations and errors, and on the webview's 'ready' posts
// the sample's 'reports' message, as ReportPanel does.
import type { HostToWebview, PanelState, WebviewToHost } from '../../src/protocol';
import { applyTheme, type PreviewTheme } from './themes';

interface PreviewGlobals {
  __PREVIEW_DATA?: string;
  __posted: WebviewToHost[];
  __csp: string[];
  __errors: string[];
  __pwned?: unknown;
  __preview: { setTheme(theme: PreviewTheme): void; post(message: HostToWebview): void; posted(type: string): WebviewToHost[] };
  acquireVsCodeApi?: () => unknown;
}
const g = window as unknown as PreviewGlobals;
g.__posted = [];
g.__csp = [];
g.__errors = [];
document.addEventListener('securitypolicyviolation', (e) => g.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
window.addEventListener('error', (e) => g.__errors.push(String(e.message)));

const params = new URLSearchParams(location.search);
applyTheme((params.get('theme') as PreviewTheme) || 'dark');

const TYPED: Record<string, new (buffer: ArrayBuffer) => ArrayBufferView> = {
  Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array,
};

function decode(text: string): HostToWebview {
  return JSON.parse(text, (_key, value) => {
    if (value && typeof value === 'object' && typeof value.$typed === 'string') {
      const bytes = Uint8Array.from(atob(value.b64), (c) => c.charCodeAt(0));
      return new TYPED[value.$typed](bytes.buffer);
    }
    return value;
  }) as HostToWebview;
}

let delivered = false;
function deliver(): void {
  if (!g.__PREVIEW_DATA) return;
  const message = decode(g.__PREVIEW_DATA);
  const select = params.get('select');
  if (select !== null && message.type === 'reports') {
    const k = /^\d+$/.test(select) ? Number(select) : message.reports.findIndex((r) => r.task === select);
    if (k >= 0 && k < message.reports.length) message.selected = k;
  }
  if (!delivered && params.get('loading') === '1') {
    window.postMessage({ type: 'loading', path: (message as { path?: string }).path ?? '' }, '*');
    delivered = true;
    return;
  }
  delivered = true;
  window.postMessage(message, '*');
}

g.acquireVsCodeApi = () => ({
  postMessage(message: WebviewToHost) {
    g.__posted.push(message);
    if (message.type === 'ready') setTimeout(deliver, 0);
  },
  getState(): PanelState | undefined {
    const saved = sessionStorage.getItem('eval-lens-state');
    return saved ? (JSON.parse(saved) as PanelState) : undefined;
  },
  setState(state: PanelState) {
    sessionStorage.setItem('eval-lens-state', JSON.stringify(state));
  },
});

g.__preview = {
  setTheme: (theme) => applyTheme(theme),
  post: (message) => window.postMessage(message, '*'),
  posted: (type) => g.__posted.filter((m) => m.type === type),
};
