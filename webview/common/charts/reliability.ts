// The reliability diagram on a panel canvas: the definition is src/charts/reliability.ts.
import { Chart } from '../../../src/charts/common';
import { reliabilityConfig, type ReliabilityOptions } from '../../../src/charts/reliability';
import type { ReliabilityBin } from '../../../src/core/types';

export function reliabilityChart(canvas: HTMLCanvasElement, bins: ReliabilityBin[], options: ReliabilityOptions): Chart {
  return new Chart(canvas, reliabilityConfig(bins, options));
}
