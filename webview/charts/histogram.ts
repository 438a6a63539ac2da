// Confidence histogram: top-label confidence in equal-width bins, stacked into correct and incorrect
// instances, so a glance shows where the errors sit on the confidence scale.
import type { ConfidenceHistogram } from '../../src/shared/chartData';
import { formatCount } from '../format';
import { withAlpha, type Palette } from '../theme';
import { Chart } from './common';

export function confidenceHistogramChart(canvas: HTMLCanvasElement, histogram: ConfidenceHistogram, palette: Palette): Chart {
  const labels = histogram.correct.map((_, b) => `${histogram.edges[b].toFixed(2)}–${histogram.edges[b + 1].toFixed(2)}`);
  const fill = (color: string) => (palette.highContrast ? withAlpha(color, 0.5) : withAlpha(color, 0.75));
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels,
      datasets: [
        { label: 'correct', data: histogram.correct, backgroundColor: fill(palette.green), borderColor: palette.green, borderWidth: palette.highContrast ? 2 : 1, stack: 'all' },
        { label: 'incorrect', data: histogram.incorrect, backgroundColor: fill(palette.red), borderColor: palette.red, borderWidth: palette.highContrast ? 2 : 1, stack: 'all' },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, grid: { display: false }, ticks: { color: palette.foreground, maxRotation: 50, autoSkip: true }, title: { display: true, text: 'Top-label confidence', color: palette.foreground } },
        y: { stacked: true, beginAtZero: true, grid: { color: palette.grid }, ticks: { color: palette.foreground, precision: 0 }, title: { display: true, text: 'Instances', color: palette.foreground } },
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
  });
}
