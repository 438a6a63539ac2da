// Every group's reliability curve on a panel canvas: the definition is src/charts/groupReliability.ts.
import { Chart } from '../../../src/charts/common';
import { groupReliabilityConfig } from '../../../src/charts/groupReliability';
import type { Palette } from '../../../src/charts/palette';
import type { GroupSlice, Kind } from '../../../src/core/types';

export function groupReliabilityChart(canvas: HTMLCanvasElement, kind: Kind, groups: readonly GroupSlice[], worst: number, palette: Palette): Chart {
  return new Chart(canvas, groupReliabilityConfig(kind, groups, worst, palette));
}
