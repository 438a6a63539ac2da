// Overlaid charts of several runs: reliability diagrams (one binning per chart), ROC curves, and
// per-class F1 side by side. Runs differ by colour AND by line dash and point shape, so they stay
// apart without colour (colour-blind readers, greyscale prints).
import type { ClassStats, Kind, ReliabilityBin } from '../../src/core/types';
import type { CompareRunView } from '../../src/shared/compareProtocol';
import { Chart } from '../charts/common';
import { diagonalDataset, unitAxis } from '../../src/charts/common';
import { shortLabel } from '../charts/classes';
import { formatBinRange, formatCount, formatMetric, kindAxes } from '../format';
import { withAlpha, type Palette } from '../theme';

const DASHES: number[][] = [[], [7, 4], [2, 3], [10, 3, 2, 3]];
const POINTS = ['circle', 'rectRot', 'triangle', 'rect'] as const;

/** The colour of run k: theme chart colours, in an order that keeps neighbours apart. */
export function runColor(palette: Palette, k: number): string {
  const order = [palette.blue, palette.orange, palette.purple, palette.green, palette.yellow, palette.red];
  return order[k % order.length];
}

export function runStyle(palette: Palette, k: number) {
  return {
    borderColor: runColor(palette, k),
    backgroundColor: runColor(palette, k),
    borderDash: DASHES[k % DASHES.length],
    pointStyle: POINTS[k % POINTS.length],
    borderWidth: palette.highContrast ? 3 : 2,
  };
}

interface BinPoint { x: number; y: number; bin: number }

export function reliabilityOverlay(
  canvas: HTMLCanvasElement, runs: CompareRunView[], binning: 'equalWidth' | 'equalCount', kind: Kind, palette: Palette,
): Chart {
  const axes = kindAxes(kind);
  const binsOf = (r: CompareRunView): ReliabilityBin[] => r.bins?.[binning] ?? [];
  const datasets = runs.map((r, k) => {
    const bins = binsOf(r);
    const max = Math.max(1, ...bins.map((b) => b.count));
    const points: BinPoint[] = [];
    bins.forEach((b, i) => { if (b.count > 0 && b.meanValue !== null && b.meanTarget !== null) points.push({ x: b.meanValue, y: b.meanTarget, bin: i }); });
    return {
      type: 'line' as const,
      label: r.label,
      data: points,
      parsing: false as const,
      ...runStyle(palette, k),
      pointRadius: (ctx: { raw?: unknown }) => {
        const p = ctx.raw as BinPoint | undefined;
        return p ? 3 + 4 * Math.sqrt(bins[p.bin].count / max) : 3;
      },
      pointHoverRadius: 8,
      pointBorderColor: palette.highContrast ? palette.foreground : palette.background,
      pointBorderWidth: 1,
      clip: 12,
    };
  });
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [...datasets, { ...diagonalDataset(palette), parsing: false }] as never },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      scales: { x: unitAxis(axes.value, palette), y: unitAxis(axes.target, palette) },
      interaction: { mode: 'nearest', intersect: true },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground, usePointStyle: true } },
        tooltip: {
          filter: (item) => item.datasetIndex < runs.length,
          callbacks: {
            title: (items) => {
              const item = items[0];
              if (!item) return '';
              const p = item.raw as BinPoint;
              const b = binsOf(runs[item.datasetIndex])[p.bin];
              return `${runs[item.datasetIndex].label} · bin ${p.bin + 1} ${formatBinRange(b.lo, b.hi, binning === 'equalWidth' && p.bin === binsOf(runs[item.datasetIndex]).length - 1)}`;
            },
            label: (item) => {
              const b = binsOf(runs[item.datasetIndex])[(item.raw as BinPoint).bin];
              return [`n = ${formatCount(b.count)}`, `${axes.value}: ${formatMetric(b.meanValue)}`, `${axes.target}: ${formatMetric(b.meanTarget)}`, `gap: ${formatMetric(b.gap)}`];
            },
          },
        },
      },
    },
  });
}

export function rocOverlay(canvas: HTMLCanvasElement, runs: CompareRunView[], aucs: (number | null)[], palette: Palette): Chart {
  const datasets = runs.map((r, k) => ({
    label: `${r.label} (AUC ${formatMetric(aucs[k])})`,
    data: (r.roc?.fpr ?? []).map((x, i) => ({ x, y: r.roc!.tpr[i] })),
    parsing: false as const,
    ...runStyle(palette, k),
    backgroundColor: withAlpha(runColor(palette, k), 0.15),
    pointRadius: 0,
    fill: false,
  }));
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [...datasets, { ...diagonalDataset(palette, 'Chance'), parsing: false }] as never },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      scales: { x: unitAxis('False positive rate', palette), y: unitAxis('True positive rate', palette) },
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          filter: (item) => item.datasetIndex < runs.length,
          callbacks: { label: (item) => `${runs[item.datasetIndex].label}: FPR ${formatMetric(item.parsed.x)}, TPR ${formatMetric(item.parsed.y)}` },
        },
      },
    },
  });
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
