// Per-class F1 bars (multiclass), with precision and recall in the tooltip. Many classes (banking_77
// has 77) turn the chart horizontal so every class name gets its own row.
import type { ChartConfiguration } from 'chart.js';
import type { ClassStats } from '../core/types';
import { formatCount, formatMetric } from '../common/format';
import { scaled, withAlpha, type Palette } from './palette';

export const HORIZONTAL_FROM = 8;

/** Class names on a canvas axis are cut to this many characters (the full name is in the tooltip). */
export function shortLabel(name: string, max = 28): string {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

export function classF1Config(stats: ClassStats, palette: Palette, onClassClick?: (k: number) => void): ChartConfiguration<'bar'> {
  const horizontal = stats.classes.length >= HORIZONTAL_FROM;
  const valueAxis = { min: 0, max: 1, position: horizontal ? ('top' as const) : ('left' as const), grid: { color: palette.grid }, ticks: { color: palette.foreground }, title: { display: true, text: 'F1', color: palette.foreground } };
  const classAxis = { grid: { display: false }, ticks: { color: palette.foreground, autoSkip: false } };
  return {
    type: 'bar',
    data: {
      labels: stats.classes.map((c) => shortLabel(c)),
      datasets: [{
        label: 'F1',
        data: stats.f1,
        backgroundColor: withAlpha(palette.blue, palette.highContrast ? 0.5 : 0.7),
        borderColor: palette.blue,
        borderWidth: scaled(palette, palette.highContrast ? 2 : 1),
      }],
    },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: horizontal ? { x: valueAxis, y: classAxis } : { x: classAxis, y: valueAxis },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => stats.classes[items[0]?.dataIndex ?? 0] ?? '',
            label: (item) => {
              const k = item.dataIndex;
              return [
                `F1 ${formatMetric(stats.f1[k])}`,
                `precision ${formatMetric(stats.precision[k])}`,
                `recall ${formatMetric(stats.recall[k])}`,
                `support ${formatCount(stats.support[k])}`,
                ...(onClassClick ? ['click to filter the table by gold class'] : []),
              ];
            },
          },
        },
      },
      ...(onClassClick ? { onClick: (_event: unknown, elements: { index: number }[]) => { if (elements[0]) onClassClick(elements[0].index); } } : {}),
    },
  };
}

/**
 * Per-class ECE (issue 19, docs/metrics.md#ece_classwise): each class's equal-width ECE of p_c
 * against 1[y = c] (ClassStats.ece), lower is better; their mean (ece_classwise) as a dashed line
 * named in the legend. null (a class without probabilities) draws no bar.
 */
export function classEceConfig(stats: ClassStats, palette: Palette, mean: number | null | undefined): ChartConfiguration<'bar' | 'line'> {
  const ece = stats.ece ?? [];
  const horizontal = stats.classes.length >= HORIZONTAL_FROM;
  // Room above the tallest bar, to the next 0.05.
  const top = Math.min(1, Math.ceil(Math.max(0.04, ...ece.map((v) => v ?? 0)) * 1.1 * 20) / 20);
  const valueAxis = { min: 0, max: top, position: horizontal ? ('top' as const) : ('left' as const), grid: { color: palette.grid }, ticks: { color: palette.foreground }, title: { display: true, text: 'ECE (lower is better)', color: palette.foreground } };
  const classAxis = { grid: { display: false }, ticks: { color: palette.foreground, autoSkip: false }, title: { display: true, text: 'Class', color: palette.foreground } };
  const meanLine = mean === null || mean === undefined ? [] : [{
    type: 'line' as const,
    label: `Mean over classes (ece_classwise ${formatMetric(mean)})`,
    data: stats.classes.map(() => mean),
    borderColor: palette.foreground,
    borderDash: [scaled(palette, 5), scaled(palette, 4)],
    borderWidth: scaled(palette, 1.5),
    pointRadius: 0,
    ...(horizontal ? { indexAxis: 'y' as const } : {}),
  }];
  return {
    type: 'bar',
    data: {
      labels: stats.classes.map((c) => shortLabel(c)),
      datasets: [
        {
          type: 'bar' as const,
          label: 'ECE of the class',
          data: ece,
          backgroundColor: withAlpha(palette.orange, palette.highContrast ? 0.5 : 0.7),
          borderColor: palette.orange,
          borderWidth: scaled(palette, palette.highContrast ? 2 : 1),
        },
        ...meanLine,
      ],
    } as ChartConfiguration<'bar' | 'line'>['data'],
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: horizontal ? { x: valueAxis, y: classAxis } : { x: classAxis, y: valueAxis },
      plugins: {
        legend: { display: meanLine.length > 0, position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          callbacks: {
            title: (items) => stats.classes[items[0]?.dataIndex ?? 0] ?? '',
            label: (item) => `ECE ${formatMetric(ece[item.dataIndex])} (p of the class against being the class), support ${formatCount(stats.support[item.dataIndex])}`,
          },
        },
      },
    },
  };
}
