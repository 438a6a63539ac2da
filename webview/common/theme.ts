// Colours for the charts. Chart.js draws on a canvas and cannot resolve CSS variables, so the theme's
// --vscode-* values are read with getComputedStyle and the charts are redrawn when they change:
// VS Code swaps the body class (vscode-light / vscode-dark / vscode-high-contrast[-light]) and
// rewrites the variables on <html> whenever the colour theme changes.

import { DEFAULT_COLORS, opaque, parseColor, withAlpha, type Palette, type ThemeKind } from '../../src/charts/palette';

export { opaque, parseColor, withAlpha, type Palette, type ThemeKind } from '../../src/charts/palette';

export function themeKind(body: { classList: { contains(name: string): boolean } }): ThemeKind {
  if (body.classList.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (body.classList.contains('vscode-high-contrast')) return 'high-contrast';
  if (body.classList.contains('vscode-light')) return 'light';
  return 'dark';
}

/** Reads the palette from the document's CSS variables, with fallbacks outside VS Code. */
export function readPalette(doc: Document = document): Palette {
  const kind = themeKind(doc.body);
  const style = getComputedStyle(doc.body);
  const fallback = DEFAULT_COLORS[kind === 'light' || kind === 'high-contrast-light' ? 'light' : 'dark'];
  const v = (name: string, fb: string) => style.getPropertyValue(name).trim() || fb;
  const highContrast = kind === 'high-contrast' || kind === 'high-contrast-light';
  const foreground = v('--vscode-charts-foreground', v('--vscode-foreground', fallback.foreground));
  const background = v('--vscode-editor-background', fallback.background);
  const fontSize = parseFloat(v('--vscode-font-size', '13px')) || 13;
  return {
    kind,
    highContrast,
    foreground,
    muted: v('--vscode-descriptionForeground', fallback.muted),
    background,
    grid: highContrast ? withAlpha(foreground, 0.35) : v('--vscode-charts-lines', fallback.grid),
    border: v('--vscode-contrastBorder', v('--vscode-panel-border', fallback.border)),
    // Opaque: the charts apply their own transparency, and some themes define a chart colour with
    // one already (Dark Modern in VS Code 1.139: charts.orange = rgba(234, 92, 0, 0.33)).
    // Marks keep 3:1 on the background (WCAG 1.4.11): Light Modern's orange is 2.9:1 on white.
    red: markColor(v('--vscode-charts-red', fallback.red), background, foreground),
    green: markColor(v('--vscode-charts-green', fallback.green), background, foreground),
    blue: markColor(v('--vscode-charts-blue', fallback.blue), background, foreground),
    yellow: markColor(v('--vscode-charts-yellow', fallback.yellow), background, foreground),
    orange: markColor(v('--vscode-charts-orange', fallback.orange), background, foreground),
    purple: markColor(v('--vscode-charts-purple', fallback.purple), background, foreground),
    fontFamily: v('--vscode-font-family', 'system-ui, sans-serif'),
    fontSize,
  };
}

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]: readonly number[]): number {
  const lin = (c: number) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The WCAG contrast ratio of two opaque colours (null when one cannot be read). */
export function contrastRatio(a: string, b: string): number | null {
  const x = parseColor(a), y = parseColor(b);
  if (!x || !y) return null;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}

/** A chart colour, opaque, mixed toward the foreground in 10% steps until it keeps `ratio` on the background. */
export function markColor(color: string, background: string, foreground: string, ratio = 3): string {
  const c = parseColor(opaque(color)), f = parseColor(foreground);
  if (!c || !f) return opaque(color);
  for (let t = 0; t <= 1.0001; t += 0.1) {
    const mixed = `rgb(${c.slice(0, 3).map((v, i) => Math.round(v + (f[i] - v) * t)).join(', ')})`;
    if ((contrastRatio(mixed, background) ?? ratio) >= ratio) return mixed;
  }
  return opaque(color);
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
