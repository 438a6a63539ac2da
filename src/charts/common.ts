// Chart.js set-up shared by every chart, in the panel and in the CLI's figures: only the pieces the
// report uses are registered (the bundle stays small), animation is off (large reports, stable
// screenshots and figures), colours and sizes come from the palette.
import {
  BarController, BarElement, CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement,
  LogarithmicScale, PointElement, ScatterController, Tooltip,
  type Plugin, type ScaleOptions,
} from 'chart.js';
import { scaled, type Palette } from './palette';

Chart.register(
  BarController, BarElement, CategoryScale, Filler, Legend, LinearScale, LogarithmicScale, LineController, LineElement,
  PointElement, ScatterController, Tooltip,
);

export { Chart };

/**
 * Paints a figure's background: Chart.js leaves the canvas transparent, which a file (the CLI's
 * figures, the panel's exported PNG and SVG) must not be.
 */
export function backgroundPlugin(color: string): Plugin {
  return {
    id: 'figureBackground',
    beforeDraw(chart) {
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, width, height);
      ctx.restore();
    },
  };
}

/** The font size of ticks, legends and axis titles for a palette. */
export function chartFontSize(palette: Palette): number {
  return Math.max(11, Math.round(palette.fontSize * 0.9));
}

/** Applies the palette to Chart.js's global defaults (before any chart of a render is created). */
export function applyDefaults(palette: Palette): void {
  Chart.defaults.color = palette.foreground;
  Chart.defaults.borderColor = palette.grid;
  Chart.defaults.font.family = palette.fontFamily;
  Chart.defaults.font.size = chartFontSize(palette);
  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.tooltip.backgroundColor = palette.background;
  Chart.defaults.plugins.tooltip.titleColor = palette.foreground;
  Chart.defaults.plugins.tooltip.bodyColor = palette.foreground;
  Chart.defaults.plugins.tooltip.borderColor = palette.highContrast ? palette.foreground : palette.border;
  Chart.defaults.plugins.tooltip.borderWidth = 1;
  Chart.defaults.plugins.legend.labels.boxWidth = scaled(palette, 12);
  Chart.defaults.plugins.legend.labels.padding = scaled(palette, 10);
}

/** A linear [0, 1] axis with a title. */
export function unitAxis(title: string, palette: Palette): ScaleOptions<'linear'> {
  return {
    type: 'linear',
    min: 0,
    max: 1,
    ticks: { stepSize: 0.2, color: palette.foreground },
    grid: { color: palette.grid, lineWidth: scaled(palette, 1) },
    border: { color: palette.highContrast ? palette.foreground : palette.grid, width: scaled(palette, 1) },
    title: { display: true, text: title, color: palette.foreground },
  };
}

/** The y = x diagonal as a dataset. */
export function diagonalDataset(palette: Palette, label = 'Perfect calibration') {
  return {
    type: 'line' as const,
    label,
    data: [{ x: 0, y: 0 }, { x: 1, y: 1 }],
    borderColor: palette.muted,
    borderWidth: scaled(palette, palette.highContrast ? 2 : 1),
    borderDash: [scaled(palette, 5), scaled(palette, 4)],
    pointRadius: 0,
    pointHoverRadius: 0,
    fill: false,
    order: 10,
  };
}

/** The options every [0, 1] × [0, 1] chart starts from (reliability, ROC, scatter): sized by its box, drawn once. */
export function unitSquareOptions(xTitle: string, yTitle: string, palette: Palette) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    // Room for the last tick label ("1.0"), centred on the chart's right edge.
    layout: { padding: { right: scaled(palette, 10) } },
    scales: { x: unitAxis(xTitle, palette), y: unitAxis(yTitle, palette) },
  };
}
