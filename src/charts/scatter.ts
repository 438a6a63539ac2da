// Predicted versus true probability (ALMANACS), with the diagonal. Large reports are merged into one
// point per occupied cell of a 64 x 64 grid (see decimateScatter): outliers stay visible, and each
// point's size and opacity grow with the instances it stands for.
import type { ChartConfiguration } from 'chart.js';
import type { ScatterPoints } from '../common/chartData';
import { formatCount, formatMetric } from '../common/format';
import { diagonalDataset, unitSquareOptions } from './common';
import { scaled, withAlpha, type Palette } from './palette';

export function probabilityScatterConfig(points: ScatterPoints, palette: Palette): ChartConfiguration<'scatter'> {
  const maxWeight = Math.max(1, ...points.weight);
  const merged = maxWeight > 1;
  const share = (w: number) => Math.log1p(w) / Math.log1p(maxWeight);
  const data = points.x.map((x, i) => ({ x, y: points.y[i], w: points.weight[i] }));
  return {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: merged ? 'Instances (merged per grid cell)' : 'Instances',
          data,
          parsing: false,
          pointRadius: data.map((d) => scaled(palette, merged ? 2.5 + 4 * share(d.w) : data.length > 1500 ? 2.5 : 3.5)),
          backgroundColor: data.map((d) => withAlpha(palette.orange, merged ? 0.35 + 0.6 * share(d.w) : data.length > 1500 ? 0.6 : 0.8)),
          borderColor: palette.highContrast ? palette.foreground : palette.orange,
          borderWidth: scaled(palette, palette.highContrast ? 1 : 0.75),
        },
        // A line dataset inside a scatter chart: Chart.js's mixed-type form, hence the cast.
        { ...diagonalDataset(palette, 'y = x'), parsing: false } as unknown as ChartConfiguration<'scatter'>['data']['datasets'][number],
      ],
    },
    options: {
      ...unitSquareOptions('Predicted P(Yes)', 'True P(Yes)', palette),
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
  };
}
