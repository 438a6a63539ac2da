// Overlaid charts of several runs: reliability diagrams (one binning per chart), ROC curves, and
// per-class F1 side by side. Runs differ by colour AND by line dash and point shape, so they stay
// apart without colour (colour-blind readers, greyscale prints).
import type { ClassStats, Kind } from '../../src/core/types';
import type { CompareRunView } from '../../src/shared/compareProtocol';
import { Chart } from '../charts/common';
import { shortLabel } from '../charts/classes';
import { formatMetric } from '../format';
import { withAlpha, type Palette } from '../theme';
import { runColor } from '../../src/charts/runs';
import { rocOverlayConfig } from '../../src/charts/roc';
import { reliabilityOverlayConfig } from '../../src/charts/reliability';

export function reliabilityOverlay(
  canvas: HTMLCanvasElement, runs: CompareRunView[], binning: 'equalWidth' | 'equalCount', kind: Kind, palette: Palette,
): Chart {
  // The definition eval-lens plot draws too (src/charts/reliability.ts); ECE is in the page's table.
  const config = reliabilityOverlayConfig(runs.map((r) => ({ label: r.label, bins: r.bins?.[binning] ?? [] })), { kind, palette, equalWidth: binning === 'equalWidth' });
  return new Chart(canvas, config);
}

export function rocOverlay(canvas: HTMLCanvasElement, runs: CompareRunView[], aucs: (number | null)[], palette: Palette): Chart {
  // The definition eval-lens plot draws too (src/charts/roc.ts); the host already thinned the curves.
  return new Chart(canvas, rocOverlayConfig(runs.map((r, k) => ({ label: r.label, roc: r.roc ?? { fpr: [], tpr: [] }, auc: aucs[k] })), palette));
}

/** Per-class F1 of every run, bars side by side per class (classes of the baseline). */
export function classF1Overlay(canvas: HTMLCanvasElement, runs: CompareRunView[], palette: Palette): Chart {
  const classes = runs[0].classStats?.classes ?? [];
  const horizontal = classes.length >= 8;
  const f1Of = (stats: ClassStats | null, name: string) => {
    const k = stats?.classes.indexOf(name) ?? -1;
    return k >= 0 ? stats!.f1[k] : null;
  };
  const valueAxis = { min: 0, max: 1, grid: { color: palette.grid }, ticks: { color: palette.foreground }, title: { display: true, text: 'F1', color: palette.foreground } };
  const classAxis = { grid: { display: false }, ticks: { color: palette.foreground, autoSkip: false } };
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: classes.map((c) => shortLabel(c)),
      datasets: runs.map((r, k) => ({
        label: r.label,
        data: classes.map((c) => f1Of(r.classStats, c)),
        backgroundColor: withAlpha(runColor(palette, k), palette.highContrast ? 0.5 : 0.7),
        borderColor: runColor(palette, k),
        borderWidth: palette.highContrast ? 2 : 1,
      })),
    },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      responsive: true, maintainAspectRatio: false, animation: false,
      scales: horizontal ? { x: valueAxis, y: classAxis } : { x: classAxis, y: valueAxis },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          callbacks: {
            title: (items) => classes[items[0]?.dataIndex ?? 0] ?? '',
            label: (item) => `${runs[item.datasetIndex].label}: F1 ${formatMetric(item.raw as number | null)}`,
          },
        },
      },
    },
  });
}
