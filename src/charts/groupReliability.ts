// Reliability diagrams of every group overlaid: each group's equal-width bins as a line of
// (mean value, mean target) points, in its own colour and point shape (colour is never the only
// carrier), named in the legend; the worst group drawn thicker and named "(worst)"; each bin's Wilson
// 95% interval of its target as an error bar in the group's colour.
// The same configuration draws the panel and `eval-lens plot --chart groups`.
import type { ChartConfiguration } from 'chart.js';
import type { GroupSlice, Kind } from '../core/types';
import { kindAxes } from '../common/format';
import { diagonalDataset, unitAxis } from './common';
import { errorBarsPlugin } from './errorBars';
import { scaled, type Palette } from './palette';

const SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'] as const;

export function groupColour(palette: Palette, k: number): string {
  const colours = [palette.blue, palette.orange, palette.green, palette.purple, palette.red, palette.yellow];
  return colours[k % colours.length];
}

export function groupReliabilityConfig(kind: Kind, groups: readonly GroupSlice[], worst: number, palette: Palette): ChartConfiguration<'line'> {
  const axes = kindAxes(kind);
  const datasets = groups.map((g, k) => ({
    type: 'line' as const,
    label: `${g.value} (n = ${g.n})${k === worst ? ' (worst)' : ''}`,
    data: (g.bins ?? []).filter((b) => b.count > 0 && b.meanValue !== null && b.meanTarget !== null).map((b) => ({ x: b.meanValue as number, y: b.meanTarget as number })),
    borderColor: groupColour(palette, k),
    backgroundColor: groupColour(palette, k),
    pointStyle: SHAPES[k % SHAPES.length],
    pointRadius: scaled(palette, 4),
    borderWidth: scaled(palette, k === worst ? 3 : 1.5),
    borderDash: k >= 6 ? [scaled(palette, 6), scaled(palette, 3)] : undefined,
    fill: false,
  }));
  return {
    type: 'line',
    data: { datasets: [...datasets, diagonalDataset(palette)] },
    options: {
      parsing: false,
      scales: { x: unitAxis(axes.value, palette), y: unitAxis(axes.target, palette) },
      plugins: { legend: { position: 'bottom', labels: { color: palette.foreground, usePointStyle: true } } },
    },
    plugins: [errorBarsPlugin(groups.map((g, k) => ({ bins: g.bins ?? [], color: groupColour(palette, k), datasetIndex: k })), palette)],
  };
}
