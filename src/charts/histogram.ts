// Confidence histogram: top-label confidence in equal-width bins, stacked into correct and incorrect
// instances, so a glance shows where the errors sit on the confidence scale.
import type { ChartConfiguration } from 'chart.js';
import type { ConfidenceHistogram } from '../common/chartData';
import { formatCount } from '../common/format';
import { scaled, withAlpha, type Palette } from './palette';

export function confidenceHistogramConfig(histogram: ConfidenceHistogram, palette: Palette): ChartConfiguration<'bar'> {
  const labels = histogram.correct.map((_, b) => `${histogram.edges[b].toFixed(2)}–${histogram.edges[b + 1].toFixed(2)}`);
  const fill = (color: string) => (palette.highContrast ? withAlpha(color, 0.5) : withAlpha(color, 0.75));
  const border = scaled(palette, palette.highContrast ? 2 : 1);
  return {
    type: 'bar',
    data: {
      labels,
      datasets: [
        // Told apart by more than colour: correct bars are filled, incorrect ones outlined (a faint
        // fill inside a thick border), and the legend says which is which.
        { label: '✓ correct (filled)', data: histogram.correct, backgroundColor: fill(palette.green), borderColor: palette.green, borderWidth: border, stack: 'all' },
        { label: '✗ incorrect (outlined)', data: histogram.incorrect, backgroundColor: withAlpha(palette.red, 0.12), borderColor: palette.red, borderWidth: scaled(palette, 2.5), stack: 'all' },
      ],
    },
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
