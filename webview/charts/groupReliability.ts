// Reliability diagrams of every group overlaid: each group's equal-width bins as a line of
// (mean value, mean target) points, in its own colour and point shape (colour is never the only
// carrier), named in the legend; the worst group drawn thicker and named "(worst)".
import type { GroupSlice, Kind } from '../../src/core/types';
import { kindAxes } from '../format';
import type { Palette } from '../theme';
import { Chart } from './common';
import { diagonalDataset, unitAxis } from '../../src/charts/common';

const SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'] as const;

export function groupColour(palette: Palette, k: number): string {
  const colours = [palette.blue, palette.orange, palette.green, palette.purple, palette.red, palette.yellow];
  return colours[k % colours.length];
}

export function groupReliabilityChart(canvas: HTMLCanvasElement, kind: Kind, groups: readonly GroupSlice[], worst: number, palette: Palette): Chart {
  const axes = kindAxes(kind);
  const datasets = groups.map((g, k) => ({
    type: 'line' as const,
    label: `${g.value} (n = ${g.n})${k === worst ? ' (worst)' : ''}`,
    data: (g.bins ?? []).filter((b) => b.count > 0 && b.meanValue !== null && b.meanTarget !== null).map((b) => ({ x: b.meanValue as number, y: b.meanTarget as number })),
    borderColor: groupColour(palette, k),
    backgroundColor: groupColour(palette, k),
    pointStyle: SHAPES[k % SHAPES.length],
    pointRadius: 4,
    borderWidth: k === worst ? 3 : 1.5,
    borderDash: k >= 6 ? [6, 3] : undefined,
    fill: false,
  }));
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [...datasets, diagonalDataset(palette)] },
    options: {
      parsing: false,
      scales: { x: unitAxis(axes.value, palette), y: unitAxis(axes.target, palette) },
      plugins: { legend: { position: 'bottom', labels: { color: palette.foreground, usePointStyle: true } } },
    },
  });
}
