// Reliability diagram: one bar per non-empty bin spanning the bin's range [lo, hi] up to its mean
// target (fraction positive / accuracy), the gap to the mean value shaded (what ECE adds up), the
// (mean value, mean target) points joined by a line, the y = x diagonal, each bin's count, and
// each bin's Wilson 95% interval of its target as an error bar (./errorBars.ts).
// Bars are drawn by a small plugin because Chart.js bars cannot take per-bar x ranges, and the
// equal-count bins have unequal widths. The same configuration draws the panel and `eval-lens plot`.
import type { ChartConfiguration, Plugin } from 'chart.js';
import type { Kind, ReliabilityBin } from '../core/types';
import { binAt } from '../common/curves';
import { formatBinRange, formatCount, formatMetric, kindAxes } from '../common/format';
import { chartFontSize, diagonalDataset, unitSquareOptions } from './common';
import { errorBarsPlugin } from './errorBars';
import { runColors, runDash, runPointStyle } from './runs';
import { scaled, withAlpha, type Palette } from './palette';

export interface ReliabilityOptions {
  kind: Kind;
  palette: Palette;
  /** Equal-width bins: the last one is closed. */
  equalWidth: boolean;
  selectedBin?: number | null;
  /** In the panel: a click on a bin filters the instance table. */
  onBinClick?: (bin: number) => void;
}

interface BinPoint {
  x: number;
  y: number;
  bin: number;
}

function binPoints(bins: ReliabilityBin[]): BinPoint[] {
  const points: BinPoint[] = [];
  bins.forEach((b, i) => {
    if (b.count > 0 && b.meanValue !== null && b.meanTarget !== null) points.push({ x: b.meanValue, y: b.meanTarget, bin: i });
  });
  return points;
}

/** The bars, the gap shading and the bin counts. */
function barsPlugin(bins: ReliabilityBin[], options: ReliabilityOptions): Plugin<'line'> {
  const { palette } = options;
  const barColor = palette.blue;
  const gapColor = palette.red;
  const line = scaled(palette, 1);
  return {
    id: 'reliabilityBars',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea, scales } = chart;
      const x = scales.x;
      const y = scales.y;
      ctx.save();
      ctx.beginPath();
      ctx.rect(chartArea.left, chartArea.top, chartArea.width, chartArea.height);
      ctx.clip();
      bins.forEach((b, i) => {
        if (!b.count || b.meanTarget === null || b.meanValue === null) return;
        let left = x.getPixelForValue(b.lo);
        let right = x.getPixelForValue(b.hi);
        if (right - left < 3 * line) { const mid = (left + right) / 2; left = mid - 1.5 * line; right = mid + 1.5 * line; }
        const inset = line / 2;
        const base = y.getPixelForValue(0);
        const top = y.getPixelForValue(b.meanTarget);
        const selected = options.selectedBin === i;
        ctx.fillStyle = withAlpha(barColor, selected ? 0.6 : palette.highContrast ? 0.45 : 0.3);
        ctx.fillRect(left + inset, top, right - left - line, base - top);
        ctx.strokeStyle = palette.highContrast || selected ? palette.foreground : withAlpha(barColor, 0.9);
        ctx.lineWidth = selected ? 2 * line : line;
        ctx.strokeRect(left + inset, top, right - left - line, base - top);
        // The calibration gap: from the bar's top to the bin's mean value.
        const expected = y.getPixelForValue(b.meanValue);
        ctx.fillStyle = withAlpha(gapColor, palette.highContrast ? 0.55 : 0.3);
        ctx.fillRect(left + inset, Math.min(top, expected), right - left - line, Math.abs(expected - top));
      });
      ctx.restore();
    },
    afterDatasetsDraw(chart) {
      const { ctx, scales } = chart;
      ctx.save();
      ctx.fillStyle = palette.foreground;
      ctx.font = `${Math.max(10, chartFontSize(palette) - 2 * (palette.scale ?? 1))}px ${palette.fontFamily}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      // Counts sit at the foot of each bar, clear of the points and the gap shading.
      const base = scales.y.getPixelForValue(0) - 3 * line;
      bins.forEach((b) => {
        if (!b.count || b.meanTarget === null || b.meanValue === null) return;
        const label = `n=${formatCount(b.count)}`;
        const left = scales.x.getPixelForValue(b.lo);
        const right = scales.x.getPixelForValue(b.hi);
        const short = formatCount(b.count);
        const width = right - left;
        const text = width >= ctx.measureText(label).width + 6 * line ? label : width >= ctx.measureText(short).width + 4 * line ? short : null;
        if (text) ctx.fillText(text, (left + right) / 2, base); // too narrow: the bins table has it
      });
      ctx.restore();
    },
  };
}

export function reliabilityConfig(bins: ReliabilityBin[], options: ReliabilityOptions): ChartConfiguration<'line', BinPoint[] | { x: number; y: number }[]> {
  const { palette } = options;
  const axes = kindAxes(options.kind);
  const points = binPoints(bins);
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  const onBinClick = options.onBinClick;
  return {
    type: 'line',
    data: {
      datasets: [
        {
          label: `Bins (${axes.target.toLowerCase()} vs ${axes.value.toLowerCase()})${bins.some((b) => b.targetInterval) ? ', bars: 95% Wilson interval' : ''}`,
          data: points,
          parsing: false,
          borderColor: palette.blue,
          backgroundColor: palette.blue,
          borderWidth: scaled(palette, palette.highContrast ? 3 : 2),
          pointRadius: (ctx) => {
            const p = ctx.raw as BinPoint | undefined;
            return scaled(palette, p ? 3 + 5 * Math.sqrt(bins[p.bin].count / maxCount) : 3);
          },
          pointHoverRadius: scaled(palette, 9),
          pointBorderColor: palette.highContrast ? palette.foreground : palette.background,
          pointBorderWidth: scaled(palette, 1),
          clip: scaled(palette, 12), // points at accuracy 1.0 stay whole above the plot area
          order: 1,
        },
        { ...diagonalDataset(palette), parsing: false },
      ],
    },
    options: {
      ...unitSquareOptions(axes.value, axes.target, palette),
      interaction: { mode: 'nearest', intersect: false, axis: 'x' },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground, filter: (item) => item.datasetIndex === 0 || item.datasetIndex === 1 } },
        tooltip: {
          filter: (item) => item.datasetIndex === 0,
          callbacks: {
            title: (items) => {
              const p = items[0]?.raw as BinPoint | undefined;
              if (!p) return '';
              const b = bins[p.bin];
              return `Bin ${p.bin + 1} ${formatBinRange(b.lo, b.hi, options.equalWidth && p.bin === bins.length - 1)}`;
            },
            label: (item) => {
              const b = bins[(item.raw as BinPoint).bin];
              return [
                `n = ${formatCount(b.count)}`,
                `${axes.value}: ${formatMetric(b.meanValue)}`,
                `${axes.target}: ${formatMetric(b.meanTarget)}`,
                `gap: ${formatMetric(b.gap)}`,
                ...(b.targetInterval ? [`95% interval of ${axes.target.toLowerCase()}: [${formatMetric(b.targetInterval[0])}, ${formatMetric(b.targetInterval[1])}]`] : []),
                ...(onBinClick ? ['click to filter the table'] : []),
              ];
            },
          },
        },
      },
      ...(onBinClick ? {
        onClick: (event, elements, chart) => {
          let bin = -1;
          const hit = elements.find((e) => e.datasetIndex === 0);
          if (hit) bin = points[hit.index].bin;
          else if (event.x !== null && event.x !== undefined) {
            const x = chart.scales.x.getValueForPixel(event.x);
            if (x !== undefined && x >= -0.02 && x <= 1.02) bin = binAt(bins, x);
          }
          if (bin >= 0) onBinClick(bin);
        },
        onHover: (event, elements) => {
          // The panel's canvas (the definitions stay free of DOM types: the CLI draws them too).
          const target = event.native?.target as { style?: { cursor: string } } | null | undefined;
          if (target?.style) target.style.cursor = elements.length ? 'pointer' : 'default';
        },
      } satisfies ChartConfiguration<'line'>['options'] : {}),
    },
    plugins: [barsPlugin(bins, options), errorBarsPlugin([{ bins, color: palette.foreground, datasetIndex: 0 }], palette) as Plugin<'line'>],
  };
}

export interface ReliabilityRun {
  label: string;
  bins: ReliabilityBin[];
  /** The run's ECE for its legend entry (the binning's own: ece or ece_quantile). */
  ece: number | null | undefined;
}

/**
 * Several runs' reliability curves over one diagonal (compare): each run's bin points joined, sized
 * by the bin's share of its run, with its own colour, dash and marker. No bars: they would hide
 * each other.
 */
export function reliabilityOverlayConfig(runs: ReliabilityRun[], options: Omit<ReliabilityOptions, 'selectedBin' | 'onBinClick'>): ChartConfiguration<'line', BinPoint[] | { x: number; y: number }[]> {
  const { palette } = options;
  const axes = kindAxes(options.kind);
  const colors = runColors(palette, runs.length, palette.blue);
  return {
    type: 'line',
    data: {
      datasets: [
        ...runs.map((run, k) => {
          const points = binPoints(run.bins);
          const maxCount = Math.max(1, ...run.bins.map((b) => b.count));
          return {
            label: `${run.label} (ECE ${formatMetric(run.ece)})`,
            data: points,
            parsing: false as const,
            borderColor: colors[k],
            backgroundColor: colors[k],
            borderWidth: scaled(palette, palette.highContrast ? 3 : 2),
            borderDash: runDash(palette, k),
            pointStyle: runPointStyle(k),
            pointRadius: points.map((p) => scaled(palette, 3 + 4 * Math.sqrt(run.bins[p.bin].count / maxCount))),
            pointBorderColor: palette.highContrast ? palette.foreground : palette.background,
            pointBorderWidth: scaled(palette, 1),
            clip: scaled(palette, 12),
            order: 1,
          };
        }),
        { ...diagonalDataset(palette), parsing: false },
      ],
    },
    options: {
      ...unitSquareOptions(axes.value, axes.target, palette),
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground, usePointStyle: true } },
        tooltip: {
          filter: (item) => item.datasetIndex < runs.length,
          callbacks: {
            label: (item) => {
              const run = runs[item.datasetIndex];
              const b = run.bins[(item.raw as BinPoint).bin];
              const interval = b.targetInterval ? ` [${formatMetric(b.targetInterval[0])}, ${formatMetric(b.targetInterval[1])}]` : '';
              return `${run.label}: ${axes.value} ${formatMetric(b.meanValue)}, ${axes.target} ${formatMetric(b.meanTarget)}${interval}, n = ${formatCount(b.count)}`;
            },
          },
        },
      },
    },
    // Each run's bins' 95% intervals, in its colour (hidden with its line).
    plugins: [errorBarsPlugin(runs.map((run, k) => ({ bins: run.bins, color: colors[k], datasetIndex: k })), palette)],
  };
}
