// Draws a chart definition (src/charts) headless: Chart.js on @napi-rs/canvas (Skia, prebuilt
// binaries), to PNG or to SVG through the same canvas's SVG backend. @napi-rs/canvas is an optional
// dependency of the CLI only, loaded when a figure is asked for and never bundled into the extension.
import type { ChartConfiguration } from 'chart.js';
import { applyDefaults, backgroundPlugin, Chart } from '../charts/common';
import { DEFAULT_COLORS, scaled, type Palette } from '../charts/palette';

export type FigureFormat = 'png' | 'svg';

export interface FigureSize {
  width: number;
  height: number;
}

/** The column width of a two-column paper, in points (3.33 in): a figure is sized to be read there. */
const COLUMN_POINTS = 240;

/**
 * A palette for print. Sizes follow the figure's width, taken as one column of a two-column paper:
 * tick labels and legends come out at 8 pt, curves at 1 pt, grid lines at 0.5 pt, whatever the
 * pixel size. Light text is darker than VS Code's grey, which prints too faint.
 */
export function printPalette(theme: 'light' | 'dark', width: number): Palette {
  const pxPerPoint = width / COLUMN_POINTS;
  const colors = DEFAULT_COLORS[theme];
  return {
    ...colors,
    ...(theme === 'light' ? { foreground: '#222222', muted: '#555555', grid: 'rgba(0, 0, 0, 0.12)' } : {}),
    kind: theme,
    highContrast: false,
    fontFamily: 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif',
    // chartFontSize() takes 90% of this.
    fontSize: (8 * pxPerPoint) / 0.9,
    scale: pxPerPoint / 2,
  };
}

type CanvasModule = typeof import('@napi-rs/canvas');

/** Loads @napi-rs/canvas, or says in one sentence how to get it. */
export async function loadCanvas(): Promise<CanvasModule> {
  try {
    return await import('@napi-rs/canvas');
  } catch (e) {
    throw new Error(`eval-lens plot needs the optional package @napi-rs/canvas (npm install @napi-rs/canvas@1.1.1), which could not be loaded here: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
}

/**
 * Skia's SVG lists one x per glyph with a trailing comma, which SVG's grammar does not allow, and
 * writes a space between words as an empty <text>: drop both.
 */
function tidySvg(svg: string): string {
  return svg.replace(/ (x|y)="([^"]*?)[,\s]+"/g, ' $1="$2"').replace(/<text[^>]*><\/text>/g, '');
}

export interface Figure {
  bytes: Buffer;
  /** Where the axes' box ended up, in pixels: for checks and for annotating the figure afterwards. */
  chartArea: { left: number; top: number; right: number; bottom: number };
}

/** Draws `config` at `size` and returns the file's bytes. */
export async function renderChart(config: ChartConfiguration, palette: Palette, size: FigureSize, format: FigureFormat): Promise<Figure> {
  const canvasLib = await loadCanvas();
  const canvas = format === 'svg'
    ? canvasLib.createCanvas(size.width, size.height, canvasLib.SvgExportFlag.NoPrettyXML)
    : canvasLib.createCanvas(size.width, size.height);
  applyDefaults(palette);
  const figure: ChartConfiguration = {
    ...config,
    // A margin so the outermost tick labels are not cut at the figure's edge.
    options: { ...config.options, responsive: false, maintainAspectRatio: false, animation: false, devicePixelRatio: 1, events: [], layout: { padding: scaled(palette, 8) } },
    plugins: [backgroundPlugin(palette.background), ...(config.plugins ?? [])],
  };
  // Chart.js takes any object with getContext('2d'); outside a browser it uses its basic platform.
  const chart = new Chart(canvas as unknown as ConstructorParameters<typeof Chart>[0], figure);
  try {
    const { left, top, right, bottom } = chart.chartArea;
    const bytes = 'getContent' in canvas ? Buffer.from(tidySvg(canvas.getContent().toString('utf8')), 'utf8') : canvas.toBuffer('image/png');
    return { bytes, chartArea: { left, top, right, bottom } };
  } finally {
    chart.destroy();
  }
}
