// ROC curve (binary reports), thinned to about 1,500 points so a million-row curve draws instantly;
// several runs overlay in one chart (compare). The same configuration draws the panel and `eval-lens plot`.
import type { ChartConfiguration } from 'chart.js';
import type { RocCurve } from '../core/types';
import { decimateCurve, ROC_CHART_POINTS } from '../common/curves';
import { formatMetric } from '../common/format';
import { diagonalDataset, unitSquareOptions } from './common';
import { runColors, runDash } from './runs';
import { scaled, withAlpha, type Palette } from './palette';

export interface RocRun {
  label: string;
  roc: RocCurve;
  auc: number | null | undefined;
}

export function rocConfig(roc: RocCurve, auc: number | null | undefined, palette: Palette): ChartConfiguration<'line'> {
  return rocOverlayConfig([{ label: 'ROC', roc, auc }], palette);
}

/**
 * One curve per run, each labelled with its AUC; a single run is filled down to the axis. A single
 * run is the report's purple; several start with blue, as the reliability overlay does, so a run
 * keeps its colour across the figures of one comparison (the compare page and `eval-lens plot`).
 */
export function rocOverlayConfig(runs: RocRun[], palette: Palette): ChartConfiguration<'line'> {
  const first = runs.length > 1 ? palette.blue : palette.purple;
  const colors = runColors(palette, runs.length, first);
  const single = runs.length === 1;
  return {
    type: 'line',
    data: {
      datasets: [
        ...runs.map((run, k) => {
          const curve = decimateCurve(run.roc.fpr, run.roc.tpr, ROC_CHART_POINTS);
          return {
            label: `${run.label} (AUC ${formatMetric(run.auc)})`,
            data: curve.x.map((x, i) => ({ x, y: curve.y[i] })),
            parsing: false as const,
            borderColor: colors[k],
            backgroundColor: withAlpha(colors[k], palette.highContrast ? 0.25 : 0.15),
            borderWidth: scaled(palette, palette.highContrast ? 3 : 2),
            borderDash: runDash(palette, k),
            pointRadius: 0,
            fill: single ? ('origin' as const) : false,
          };
        }),
        { ...diagonalDataset(palette, 'Chance'), parsing: false },
      ],
    },
    options: {
      ...unitSquareOptions('False positive rate', 'True positive rate', palette),
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          filter: (item) => item.datasetIndex < runs.length,
          callbacks: { label: (item) => `${single ? '' : `${runs[item.datasetIndex].label}: `}FPR ${formatMetric(item.parsed.x)}, TPR ${formatMetric(item.parsed.y)}` },
        },
      },
    },
  };
}
