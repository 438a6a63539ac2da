// The colours and type sizes a chart is drawn with, as plain data: the webview reads them from the
// VS Code theme (webview/common/theme.ts), the CLI's plot takes a light or dark one for print.

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
  /** Multiplies line widths, point sizes and in-chart labels: 1 on screen, more for a figure drawn large for print. */
  scale?: number;
}

/** VS Code's default chart colours (Light+ / Dark+), used outside VS Code. */
export const DEFAULT_COLORS: Record<'light' | 'dark', Omit<Palette, 'kind' | 'highContrast' | 'fontFamily' | 'fontSize' | 'scale'>> = {
  dark: { foreground: '#cccccc', muted: '#9d9d9d', background: '#1e1e1e', grid: 'rgba(204,204,204,0.15)', border: '#454545',
    red: '#f14c4c', green: '#89d185', blue: '#3794ff', yellow: '#cca700', orange: '#d18616', purple: '#b180d7' },
  light: { foreground: '#616161', muted: '#717171', background: '#ffffff', grid: 'rgba(97,97,97,0.15)', border: '#e5e5e5',
    red: '#e51400', green: '#388a34', blue: '#1a85ff', yellow: '#bf8803', orange: '#d18616', purple: '#652d90' },
};

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

/** A size in pixels at the palette's scale. */
export function scaled(palette: Palette, px: number): number {
  return px * (palette.scale ?? 1);
}
