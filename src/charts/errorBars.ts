// Error bars on binned reliability diagrams (issue 19): each non-empty bin's Wilson 95% interval of
// its fraction positive (ReliabilityBin.targetInterval), a vertical bar with caps at the bin's mean
// value. Drawn with plain context calls (moveTo/lineTo/stroke), which svgcanvas replays for SVG.
import type { Plugin } from 'chart.js';
import type { ReliabilityBin } from '../core/types';
import { scaled, type Palette } from './palette';

export interface ErrorBarSeries {
  bins: readonly ReliabilityBin[];
  color: string;
  /** Chart.js dataset index whose visibility the bars follow (a legend click hides both); none: always. */
  datasetIndex?: number;
}

/** The bins that get a bar: non-empty, with a mean value and an interval. */
export function binIntervals(bins: readonly ReliabilityBin[]): { x: number; lo: number; hi: number; bin: number }[] {
  const out: { x: number; lo: number; hi: number; bin: number }[] = [];
  bins.forEach((b, bin) => {
    if (b.count > 0 && b.meanValue !== null && b.targetInterval) out.push({ x: b.meanValue, lo: b.targetInterval[0], hi: b.targetInterval[1], bin });
  });
  return out;
}

/** Draws each series' bars after the datasets' fills and before their points sit on top. */
export function errorBarsPlugin(series: readonly ErrorBarSeries[], palette: Palette): Plugin<'line'> {
  const width = scaled(palette, palette.highContrast ? 2 : 1.5);
  const cap = scaled(palette, 4);
  return {
    id: 'binErrorBars',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea, scales } = chart;
      ctx.save();
      ctx.beginPath();
      ctx.rect(chartArea.left, chartArea.top - cap, chartArea.width, chartArea.height + 2 * cap);
      ctx.clip();
      ctx.lineWidth = width;
      for (const s of series) {
        if (s.datasetIndex !== undefined && !chart.isDatasetVisible(s.datasetIndex)) continue;
        ctx.strokeStyle = s.color;
        ctx.beginPath();
        for (const b of binIntervals(s.bins)) {
          const x = scales.x.getPixelForValue(b.x);
          const top = scales.y.getPixelForValue(b.hi);
          const bottom = scales.y.getPixelForValue(b.lo);
          ctx.moveTo(x, top);
          ctx.lineTo(x, bottom);
          ctx.moveTo(x - cap, top);
          ctx.lineTo(x + cap, top);
          ctx.moveTo(x - cap, bottom);
          ctx.lineTo(x + cap, bottom);
        }
        ctx.stroke();
      }
      ctx.restore();
    },
  };
}
