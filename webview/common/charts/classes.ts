// Per-class F1 on a panel canvas: the definition is src/charts/classes.ts.
import { classF1Config } from '../../../src/charts/classes';
import { Chart } from '../../../src/charts/common';
import type { Palette } from '../../../src/charts/palette';
import type { ClassStats } from '../../../src/core/types';

export { HORIZONTAL_FROM, shortLabel } from '../../../src/charts/classes';

export function classF1Chart(canvas: HTMLCanvasElement, stats: ClassStats, palette: Palette, onClassClick: (k: number) => void): Chart {
  return new Chart(canvas, classF1Config(stats, palette, onClassClick));
}
