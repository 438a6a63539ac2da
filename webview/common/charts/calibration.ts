// The calibration charts of issue 19 on a panel canvas: the smoothed reliability diagram (one run,
// several runs, every group) and the per-class ECE bars. Definitions: src/charts/smoothReliability.ts
// and src/charts/classes.ts.
import { classEceConfig } from '../../../src/charts/classes';
import { Chart } from '../../../src/charts/common';
import type { Palette } from '../../../src/charts/palette';
import { smoothReliabilityConfig, type SmoothRun } from '../../../src/charts/smoothReliability';
import type { ClassStats, Kind } from '../../../src/core/types';

export function smoothReliabilityChart(canvas: HTMLCanvasElement, runs: SmoothRun[], kind: Kind, palette: Palette, colors?: string[]): Chart {
  return new Chart(canvas, smoothReliabilityConfig(runs, { kind, palette, colors }) as never);
}

export function classEceChart(canvas: HTMLCanvasElement, stats: ClassStats, mean: number | null | undefined, palette: Palette): Chart {
  return new Chart(canvas, classEceConfig(stats, palette, mean) as never);
}
