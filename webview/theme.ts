// Colours for the charts. Chart.js draws on a canvas and cannot resolve CSS variables, so the theme's
// --vscode-* values are read with getComputedStyle and the charts are redrawn when they change:
// VS Code swaps the body class (vscode-light / vscode-dark / vscode-high-contrast[-light]) and
// rewrites the variables on <html> whenever the colour theme changes.

export type ThemeKind = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';

export interface Palette {
  kind: ThemeKind;
  highContrast: boolean;
  foreground: string;
  muted: string;
  background: string;
  grid: string;
  border: string;
  red: string;
  green: string;
  blue: string;
  yellow: string;
  orange: string;
  purple: string;
  fontFamily: string;
  fontSize: number;
}

export function themeKind(body: { classList: { contains(name: string): boolean } }): ThemeKind {
  if (body.classList.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (body.classList.contains('vscode-high-contrast')) return 'high-contrast';
  if (body.classList.contains('vscode-light')) return 'light';
  return 'dark';
}

const FALLBACK: Record<'light' | 'dark', Omit<Palette, 'kind' | 'highContrast' | 'fontFamily' | 'fontSize'>> = {
  dark: { foreground: '#cccccc', muted: '#9d9d9d', background: '#1e1e1e', grid: 'rgba(204,204,204,0.15)', border: '#454545',
    red: '#f14c4c', green: '#89d185', blue: '#3794ff', yellow: '#cca700', orange: '#d18616', purple: '#b180d7' },
  light: { foreground: '#616161', muted: '#717171', background: '#ffffff', grid: 'rgba(97,97,97,0.15)', border: '#e5e5e5',
    red: '#e51400', green: '#388a34', blue: '#1a85ff', yellow: '#bf8803', orange: '#d18616', purple: '#652d90' },
};

/** Reads the palette from the document's CSS variables, with fallbacks outside VS Code. */
export function readPalette(doc: Document = document): Palette {
  const kind = themeKind(doc.body);
  const style = getComputedStyle(doc.body);
  const fallback = FALLBACK[kind === 'light' || kind === 'high-contrast-light' ? 'light' : 'dark'];
  const v = (name: string, fb: string) => style.getPropertyValue(name).trim() || fb;
  const highContrast = kind === 'high-contrast' || kind === 'high-contrast-light';
  const foreground = v('--vscode-charts-foreground', v('--vscode-foreground', fallback.foreground));
  const fontSize = parseFloat(v('--vscode-font-size', '13px')) || 13;
  return {
    kind,
    highContrast,
    foreground,
    muted: v('--vscode-descriptionForeground', fallback.muted),
    background: v('--vscode-editor-background', fallback.background),
    grid: highContrast ? withAlpha(foreground, 0.35) : v('--vscode-charts-lines', fallback.grid),
    border: v('--vscode-contrastBorder', v('--vscode-panel-border', fallback.border)),
    // Opaque: the charts apply their own transparency, and some themes define a chart colour with
    // one already (Dark Modern in VS Code 1.139: charts.orange = rgba(234, 92, 0, 0.33)).
    red: opaque(v('--vscode-charts-red', fallback.red)),
    green: opaque(v('--vscode-charts-green', fallback.green)),
    blue: opaque(v('--vscode-charts-blue', fallback.blue)),
    yellow: opaque(v('--vscode-charts-yellow', fallback.yellow)),
    orange: opaque(v('--vscode-charts-orange', fallback.orange)),
    purple: opaque(v('--vscode-charts-purple', fallback.purple)),
    fontFamily: v('--vscode-font-family', 'system-ui, sans-serif'),
    fontSize,
  };
}

/** Parses #rgb, #rgba, #rrggbb, #rrggbbaa, rgb() and rgba(); null when it cannot. */
export function parseColor(color: string): [number, number, number, number] | null {
  const c = color.trim();
  const hex = /^#([0-9a-f]{3,8})$/i.exec(c);
  if (hex) {
    let h = hex[1];
    if (h.length === 3 || h.length === 4) h = [...h].map((ch) => ch + ch).join('');
    if (h.length !== 6 && h.length !== 8) return null;
    const n = (k: number) => parseInt(h.slice(k, k + 2), 16);
    return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/i.exec(c);
  if (fn) {
    const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
    return [Number(fn[1]), Number(fn[2]), Number(fn[3]), alpha];
  }
  return null;
}

/** The colour with its alpha multiplied by `alpha` (unparseable colours come back unchanged). */
export function withAlpha(color: string, alpha: number): string {
  const rgba = parseColor(color);
  if (!rgba) return color;
  const [r, g, b, a] = rgba;
  return `rgba(${r}, ${g}, ${b}, ${+(a * alpha).toFixed(3)})`;
}

/** The colour without transparency (unparseable colours come back unchanged). */
export function opaque(color: string): string {
  const rgba = parseColor(color);
  if (!rgba) return color;
  const [r, g, b] = rgba;
  return `rgb(${r}, ${g}, ${b})`;
}

/**
 * Calls `onChange` (once per animation frame at most) when the theme changes: the body's class or
 * the variables VS Code writes into <html>'s style attribute. Returns a function that stops watching.
 */
export function watchTheme(onChange: () => void, doc: Document = document): () => void {
  let pending = 0;
  let last = signature(doc);
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = requestAnimationFrame(() => {
      pending = 0;
      const now = signature(doc);
      if (now !== last) {
        last = now;
        onChange();
      }
    });
  });
  observer.observe(doc.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(doc.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  return () => observer.disconnect();
}

function signature(doc: Document): string {
  return `${doc.body.className}|${doc.documentElement.getAttribute('style') ?? ''}`;
}
