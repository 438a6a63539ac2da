// Confidence histogram: top-label confidence in equal-width bins, stacked into correct and incorrect
// instances, so a glance shows where the errors sit on the confidence scale.
import type { ChartConfiguration, Plugin } from 'chart.js';
import type { ConfidenceHistogram } from '../common/chartData';
import { exactDecimals, formatCount } from '../common/format';
import { scaled, withAlpha, type Palette } from './palette';

/** The incorrect dataset's index (stacked on top of the correct one). */
const INCORRECT = 1;
/** A segment of wrong answers is drawn at least this tall (px), so 30 errors beside a 5,000 bar still show. */
export const MIN_INCORRECT_PX = 5;
/** Distance between the hatch lines (px, along x). */
const HATCH_GAP = 5;

/** "0.625–0.650": the bin edges with one number of decimals, enough to write every edge exactly. */
export function histogramLabels(edges: readonly number[]): string[] {
  const d = exactDecimals(edges);
  const text = (v: number) => (Math.round(v * 10 ** d) / 10 ** d).toFixed(d);
  return edges.slice(0, -1).map((e, b) => `${text(e)}–${text(edges[b + 1])}`);
}

/**
 * The wrong answers' bars, hatched (lines of the page's background across the red fill) so that they
 * differ from the correct bars by more than colour, and at least MIN_INCORRECT_PX tall where there
 * are any (a few pixels of a tall bar's scale would vanish; the tooltip and the data table give the
 * counts). Plain context calls only: svgcanvas replays them for the SVG export.
 */
function hatchPlugin(histogram: ConfidenceHistogram, palette: Palette, fill: string): Plugin<'bar'> {
  const min = scaled(palette, MIN_INCORRECT_PX);
  const gap = scaled(palette, HATCH_GAP);
  return {
    id: 'incorrectHatch',
    afterDatasetsDraw(chart) {
      if (!chart.isDatasetVisible(INCORRECT)) return;
      const { ctx } = chart;
      const bars = chart.getDatasetMeta(INCORRECT).data;
      ctx.save();
      bars.forEach((bar, b) => {
        if (!(histogram.incorrect[b] > 0)) return;
        const { x, y, base, width } = bar.getProps(['x', 'y', 'base', 'width'], true) as { x: number; y: number; base: number; width: number };
        const left = x - width / 2;
        const right = x + width / 2;
        const bottom = Math.max(y, base);
        let top = Math.min(y, base);
        if (bottom - top < min) {
          // Too thin to see: a segment MIN_INCORRECT_PX tall on top of the stack, filled and outlined as the bar is.
          top = bottom - min;
          ctx.fillStyle = fill;
          ctx.fillRect(left, top, width, min);
          ctx.strokeStyle = palette.red;
          ctx.lineWidth = scaled(palette, 1);
          ctx.strokeRect(left, top, width, min);
        }
        // Lines x + y = k (rising to the right), cut to the bar's rectangle by hand (no clip path).
        ctx.strokeStyle = palette.background;
        ctx.lineWidth = scaled(palette, palette.highContrast ? 1.5 : 1.2);
        ctx.beginPath();
        for (let k = left + top + gap / 2; k < right + bottom; k += gap) {
          const x0 = Math.max(left, k - bottom);
          const x1 = Math.min(right, k - top);
          if (x1 - x0 < 0.5) continue;
          ctx.moveTo(x0, k - x0);
          ctx.lineTo(x1, k - x1);
        }
        ctx.stroke();
      });
      ctx.restore();
    },
  };
}

export function confidenceHistogramConfig(histogram: ConfidenceHistogram, palette: Palette): ChartConfiguration<'bar'> {
  const labels = histogramLabels(histogram.edges);
  const fill = (color: string) => (palette.highContrast ? withAlpha(color, 0.5) : withAlpha(color, 0.75));
  const border = scaled(palette, palette.highContrast ? 2 : 1);
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [
        // Told apart by more than colour: correct bars are plain, incorrect ones hatched (hatchPlugin),
        // and the legend says which is which.
        { label: '✓ correct (plain)', data: histogram.correct, backgroundColor: fill(palette.green), borderColor: palette.green, borderWidth: border, stack: 'all' },
        { label: '✗ incorrect (hatched)', data: histogram.incorrect, backgroundColor: fill(palette.red), borderColor: palette.red, borderWidth: border, stack: 'all' },
      ],
    },
    plugins: [hatchPlugin(histogram, palette, fill(palette.red))],
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, grid: { display: false }, ticks: { color: palette.foreground, maxRotation: 50, autoSkip: true }, title: { display: true, text: 'Top-label confidence', color: palette.foreground } },
        y: { stacked: true, beginAtZero: true, grid: { color: palette.grid, lineWidth: scaled(palette, 1) }, ticks: { color: palette.foreground, precision: 0 }, title: { display: true, text: 'Instances', color: palette.foreground } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          mode: 'index',
          intersect: false,
          callbacks: {
            label: (item) => `${item.dataset.label}: ${formatCount(item.raw as number)}`,
            footer: (items) => {
              const b = items[0]?.dataIndex ?? 0;
              const total = histogram.correct[b] + histogram.incorrect[b];
              return total ? `accuracy ${(histogram.correct[b] / total).toFixed(3)} of ${formatCount(total)}` : '';
            },
          },
        },
      },
    },
  };
}
