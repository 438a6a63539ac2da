// A forest plot (issue 27): one row per estimate, its 95% interval as a thin floating bar and the
// estimate as a marker on it. The arena's ratings (rows: models) and the judged means (rows: a
// model's mean over all turns and per turn) are drawn with it. Rows of one group share a marker
// shape (a turn: triangle, square, ...), and every row's label says what it is, so neither shape
// nor colour carries meaning alone. A reference value (the ratings' mean, 1000) is a dashed line
// drawn as a line dataset and named in the legend. Chart.js elements only: the SVG export redraws it as is.
import type { ChartConfiguration, PointStyle } from 'chart.js';
import { formatMetric } from '../common/format';
import { scaled, withAlpha, type Palette } from './palette';
import { shortLabel } from './classes';

export interface ForestRow {
  /** The row's label on the axis (cut to 40 characters there; `full` is the tooltip's). */
  label: string;
  full?: string;
  estimate: number | null;
  interval: [number, number] | null;
  /** Rows of one group share a marker (0: circle, 1: triangle, 2: square, ...). */
  group?: number;
}

export interface ForestOptions {
  /** The value axis's title ("Rating (Elo scale)", "Judge score"). */
  valueTitle: string;
  /** The row axis's title ("Model"). */
  rowTitle: string;
  /** What an estimate is, for the legend ("Rating", "Mean"). */
  estimateName: string;
  /** A vertical dashed line, named in the legend. */
  reference?: { value: number; label: string };
  /** Digits of the tooltip's numbers. */
  digits?: number;
}

const MARKERS: PointStyle[] = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'];

export function markerOf(group: number | undefined): PointStyle {
  return MARKERS[(group ?? 0) % MARKERS.length];
}

/** The value range the axis shows: every interval and estimate, and the reference, with a margin. */
export function forestRange(rows: readonly ForestRow[], reference?: number): [number, number] | null {
  const values: number[] = [];
  for (const r of rows) {
    if (r.estimate !== null && Number.isFinite(r.estimate)) values.push(r.estimate);
    if (r.interval) values.push(...r.interval.filter(Number.isFinite));
  }
  if (reference !== undefined) values.push(reference);
  if (!values.length) return null;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
  return [lo - pad, hi + pad];
}

export function forestConfig(rows: readonly ForestRow[], options: ForestOptions, palette: Palette): ChartConfiguration<'bar' | 'line'> {
  const range = forestRange(rows, options.reference?.value);
  const digits = options.digits ?? 3;
  const border = scaled(palette, palette.highContrast ? 2 : 1);
  const referenceLegend = options.reference ? [{
    type: 'line' as const,
    label: options.reference.label,
    // The same value on every row: a vertical dashed line from the first row to the last.
    data: rows.map(() => options.reference!.value),
    borderColor: palette.muted,
    borderDash: [scaled(palette, 5), scaled(palette, 4)],
    borderWidth: scaled(palette, 1.2),
    pointRadius: 0,
    pointHoverRadius: 0,
    fill: false,
    indexAxis: 'y' as const,
  }] : [];
  return {
    type: 'bar',
    data: {
      labels: rows.map((r) => shortLabel(r.label, 40)),
      datasets: [
        {
          type: 'bar' as const,
          label: '95% interval (bar)',
          data: rows.map((r) => (r.interval ? [r.interval[0], r.interval[1]] : null)) as unknown as number[],
          backgroundColor: withAlpha(palette.blue, palette.highContrast ? 0.5 : 0.45),
          borderColor: palette.blue,
          borderWidth: border,
          barPercentage: 0.35,
          categoryPercentage: 1,
          grouped: false,
        },
        {
          type: 'line' as const,
          label: `${options.estimateName} (marker)`,
          data: rows.map((r) => (r.estimate !== null && Number.isFinite(r.estimate) ? r.estimate : null)),
          showLine: false,
          pointStyle: rows.map((r) => markerOf(r.group)),
          pointRadius: scaled(palette, 6),
          pointHoverRadius: scaled(palette, 8),
          pointBackgroundColor: palette.foreground,
          pointBorderColor: palette.background,
          pointBorderWidth: scaled(palette, 1.5),
          borderColor: palette.foreground,
          backgroundColor: palette.foreground,
          indexAxis: 'y' as const,
        },
        ...referenceLegend,
      ],
    } as ChartConfiguration<'bar' | 'line'>['data'],
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: {
          type: 'linear',
          // Round ticks around the data (a bar chart's value axis would start at 0: ratings sit near 1000).
          beginAtZero: false,
          ...(range ? { suggestedMin: range[0], suggestedMax: range[1] } : {}),
          grid: { color: palette.grid, lineWidth: scaled(palette, 1) },
          ticks: { color: palette.foreground },
          title: { display: true, text: options.valueTitle, color: palette.foreground },
        },
        y: { grid: { display: false }, ticks: { color: palette.foreground, autoSkip: false }, title: { display: true, text: options.rowTitle, color: palette.foreground } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground, usePointStyle: true } },
        tooltip: {
          callbacks: {
            title: (items) => {
              const r = rows[items[0]?.dataIndex ?? 0];
              return r ? r.full ?? r.label : '';
            },
            label: (item) => {
              const r = rows[item.dataIndex];
              if (!r) return '';
              const interval = r.interval ? ` [${formatMetric(r.interval[0], digits)}, ${formatMetric(r.interval[1], digits)}]` : ' (no interval)';
              return `${options.estimateName} ${formatMetric(r.estimate, digits)}${interval}`;
            },
          },
          filter: (item) => item.datasetIndex <= 1,
        },
      },
    },
  };
}
