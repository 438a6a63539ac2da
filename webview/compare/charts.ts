// Overlaid charts of several runs on the compare page. Reliability and ROC overlays are the shared
// definitions (src/charts, also drawn by `eval-lens plot`): each run has its own colour, dash and
// marker, so runs stay apart without colour. Per-class F1 puts the runs' bars side by side.
import { Chart } from '../../src/charts/common';
import { shortLabel } from '../../src/charts/classes';
import { withAlpha, type Palette } from '../../src/charts/palette';
import { reliabilityOverlayConfig } from '../../src/charts/reliability';
import { rocOverlayConfig } from '../../src/charts/roc';
import { smoothReliabilityConfig } from '../../src/charts/smoothReliability';
import { runColors } from '../../src/charts/runs';
import type { ClassStats, Kind } from '../../src/core/types';
import type { CompareRunView } from '../../src/common/compareProtocol';
import { formatMetric } from '../common/format';

/** The colours of the runs, as the reliability overlay gives them (the run list's swatches). */
export function compareRunColors(palette: Palette, n: number): string[] {
  return runColors(palette, n, palette.blue);
}

export function reliabilityOverlay(
  canvas: HTMLCanvasElement, runs: CompareRunView[], binning: 'equalWidth' | 'equalCount', kind: Kind, eces: (number | null)[], palette: Palette,
): Chart {
  const overlay = runs.map((r, k) => ({ label: r.label, bins: r.bins?.[binning] ?? [], ece: eces[k] }));
  return new Chart(canvas, reliabilityOverlayConfig(overlay, { kind, palette, equalWidth: binning === 'equalWidth' }));
}

/** Each run's smoothed reliability curve (issue 19), in the runs' colours; runs without one are left out. */
export function smoothReliabilityOverlay(canvas: HTMLCanvasElement, runs: CompareRunView[], kind: Kind, palette: Palette): Chart {
  const colors = compareRunColors(palette, runs.length);
  const drawn = runs.flatMap((r, k) => (r.smoothReliability ? [{ run: { label: r.label, smooth: r.smoothReliability }, color: colors[k] }] : []));
  return new Chart(canvas, smoothReliabilityConfig(drawn.map((d) => d.run), { kind, palette, colors: drawn.map((d) => d.color) }) as never);
}

export function rocOverlay(canvas: HTMLCanvasElement, runs: CompareRunView[], aucs: (number | null)[], palette: Palette): Chart {
  const overlay = runs.filter((r) => r.roc).map((r, k) => ({ label: r.label, roc: { fpr: r.roc!.fpr, tpr: r.roc!.tpr, thresholds: [] }, auc: aucs[k] }));
  return new Chart(canvas, rocOverlayConfig(overlay, palette));
}

/** Per-class F1 of every run, bars side by side per class (classes of the baseline). */
export function classF1Overlay(canvas: HTMLCanvasElement, runs: CompareRunView[], palette: Palette): Chart {
  const classes = runs[0].classStats?.classes ?? [];
  const horizontal = classes.length >= 8;
  const colors = compareRunColors(palette, runs.length);
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
        backgroundColor: withAlpha(colors[k], palette.highContrast ? 0.5 : 0.7),
        borderColor: colors[k],
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
