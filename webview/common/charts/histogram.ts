// The confidence histogram on a panel canvas: the definition is src/charts/histogram.ts.
import { Chart } from '../../../src/charts/common';
import { confidenceHistogramConfig } from '../../../src/charts/histogram';
import type { Palette } from '../../../src/charts/palette';
import type { ConfidenceHistogram } from '../../../src/common/chartData';

export function confidenceHistogramChart(canvas: HTMLCanvasElement, histogram: ConfidenceHistogram, palette: Palette): Chart {
  return new Chart(canvas, confidenceHistogramConfig(histogram, palette));
}
