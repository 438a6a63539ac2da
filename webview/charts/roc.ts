// ROC curve (binary reports), thinned to about 1,500 points so a million-row curve draws instantly.
import type { RocCurve } from '../../src/core/types';
import { decimateCurve } from '../data';
import { formatMetric } from '../format';
import { withAlpha, type Palette } from '../theme';
import { Chart, diagonalDataset, unitAxis } from './common';

export function rocChart(canvas: HTMLCanvasElement, roc: RocCurve, auc: number | null | undefined, palette: Palette): Chart {
  const curve = decimateCurve(roc.fpr, roc.tpr, 1500);
  const points = curve.x.map((x, i) => ({ x, y: curve.y[i] }));
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        {
          label: `ROC (AUC ${formatMetric(auc)})`,
          data: points,
          parsing: false,
          borderColor: palette.purple,
          backgroundColor: withAlpha(palette.purple, palette.highContrast ? 0.25 : 0.15),
          borderWidth: palette.highContrast ? 3 : 2,
          pointRadius: 0,
          fill: 'origin',
        },
        { ...diagonalDataset(palette, 'Chance'), parsing: false },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { x: unitAxis('False positive rate', palette), y: unitAxis('True positive rate', palette) },
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          filter: (item) => item.datasetIndex === 0,
          callbacks: { label: (item) => `FPR ${formatMetric(item.parsed.x)}, TPR ${formatMetric(item.parsed.y)}` },
        },
      },
    },
  });
}
