// The probability scatter on a panel canvas: the definition is src/charts/scatter.ts.
import { Chart } from '../../../src/charts/common';
import type { Palette } from '../../../src/charts/palette';
import { probabilityScatterConfig } from '../../../src/charts/scatter';
import type { ScatterPoints } from '../../../src/common/chartData';

export function probabilityScatterChart(canvas: HTMLCanvasElement, points: ScatterPoints, palette: Palette): Chart {
  return new Chart(canvas, probabilityScatterConfig(points, palette));
}
