// Colours for the charts. Chart.js draws on a canvas and cannot resolve CSS variables, so the theme's
// --vscode-* values are read with getComputedStyle and the charts are redrawn when they change:
// VS Code swaps the body class (vscode-light / vscode-dark / vscode-high-contrast[-light]) and
// rewrites the variables on <html> whenever the colour theme changes.

import { DEFAULT_COLORS, opaque, withAlpha, type Palette, type ThemeKind } from '../../src/charts/palette';

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
