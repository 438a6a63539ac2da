// Predicted versus true probability (ALMANACS), with the diagonal. Large reports are merged into one
// point per occupied cell of a 64 x 64 grid (see decimateScatter): outliers stay visible, and each
// point's size and opacity grow with the instances it stands for.
import type { ScatterPoints } from '../../src/shared/chartData';
import { formatCount, formatMetric } from '../format';
import { withAlpha, type Palette } from '../theme';
import { Chart, diagonalDataset, unitAxis } from './common';

export function probabilityScatterChart(canvas: HTMLCanvasElement, points: ScatterPoints, palette: Palette): Chart {
  const maxWeight = Math.max(1, ...points.weight);
  const merged = maxWeight > 1;
  const share = (w: number) => Math.log1p(w) / Math.log1p(maxWeight);
  const data = points.x.map((x, i) => ({ x, y: points.y[i], w: points.weight[i] }));
  return new Chart(canvas, {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: merged ? 'Instances (merged per grid cell)' : 'Instances',
          data,
          parsing: false,
          pointRadius: data.map((d) => (merged ? 2.5 + 4 * share(d.w) : data.length > 1500 ? 2.5 : 3.5)),
          backgroundColor: data.map((d) => withAlpha(palette.orange, merged ? 0.35 + 0.6 * share(d.w) : data.length > 1500 ? 0.6 : 0.8)),
          borderColor: palette.highContrast ? palette.foreground : palette.orange,
          borderWidth: palette.highContrast ? 1 : 0.75,
        },
        { ...diagonalDataset(palette, 'y = x'), parsing: false },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { x: unitAxis('Predicted P(Yes)', palette), y: unitAxis('True P(Yes)', palette) },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          filter: (item) => item.datasetIndex === 0,
          callbacks: {
            label: (item) => {
              const d = data[item.dataIndex];
              return `${merged ? `${formatCount(d.w)} instances around ` : ''}predicted ${formatMetric(d.x)}, true ${formatMetric(d.y)}`;
            },
          },
        },
      },
    },
  });
}
