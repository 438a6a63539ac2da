// The ROC curve on a panel canvas: the definition is src/charts/roc.ts.
import { Chart } from '../../../src/charts/common';
import type { Palette } from '../../../src/charts/palette';
import { rocConfig } from '../../../src/charts/roc';
import type { RocCurve } from '../../../src/core/types';

export function rocChart(canvas: HTMLCanvasElement, roc: RocCurve, auc: number | null | undefined, palette: Palette): Chart {
  return new Chart(canvas, rocConfig(roc, auc, palette));
}
