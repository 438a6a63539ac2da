// The smoothed reliability diagram (issue 19; docs/metrics.md#smece): the kernel-smoothed mean target
// r̂(t) against the value t at σ*, with its 95% bootstrap band (pointwise, at the same σ*), the
// density of the values as a shaded band along the bottom (on its own axis, right), and the y = x
// diagonal. For several runs (compare) or groups, each gets its curve, band and density in its own
// colour and dash. Points where less than one row's weight lies near t are null: gaps in the curve.
// Drawn with Chart.js lines and the Filler plugin only (no Path2D: the SVG export replays on svgcanvas).
import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { Kind, SmoothReliability } from '../core/types';
import { formatMetric, kindAxes } from '../common/format';
import { diagonalDataset, unitSquareOptions } from './common';
import { runColors, runDash } from './runs';
import { scaled, withAlpha, type Palette } from './palette';

export interface SmoothRun {
  label: string;
  smooth: SmoothReliability;
  /** Drawn thicker (the worst group). */
  emphasis?: boolean;
}

export interface SmoothReliabilityOptions {
  kind: Kind;
  palette: Palette;
  /** The runs' colours (default: the compare page's run colours, the first in blue). */
  colors?: string[];
}

type Point = { x: number; y: number | null };

/** The density takes at most the bottom fifth of the plot: its axis runs to five times the largest density, or a little more. */
const DENSITY_SHARE = 0.2;

/**
 * The density axis' top and tick step: the top rounded up to a multiple of a round step (1, 2, 2.5
 * or 5 times a power of ten, at most 5 steps), so the ticks are evenly spaced up to the top. Chart.js
 * adds a max that is no multiple of its step as one more tick, which crowded the last two ("80", "86").
 */
export function densityAxis(maxDensity: number): { max: number; stepSize: number } {
  const top = Math.max(1e-9, maxDensity / DENSITY_SHARE);
  const raw = top / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const stepSize = [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw - 1e-12)!;
  // Round away float noise (2.5 * 0.01 = 0.025000000000000001).
  const round = (v: number) => Number(v.toPrecision(12));
  return { max: round(Math.ceil(top / stepSize - 1e-9) * stepSize), stepSize: round(stepSize) };
}

/** (t, value) points, null kept as a gap. */
export function curvePoints(t: readonly number[], values: readonly (number | null)[] | undefined): Point[] {
  if (!values) return [];
  return t.map((x, q) => ({ x, y: values[q] ?? null }));
}

/** The legend's and the data table's name of a run's curve. */
export function smoothCurveLabel(run: SmoothRun, single: boolean): string {
  // σ* = smECE at the fixed point: the bandwidth is the same figure.
  const figures = `smECE ${formatMetric(run.smooth.smece)}${single ? ` = bandwidth σ*` : ''}`;
  return single ? `Smoothed curve (${figures})` : `${run.label} (${figures})`;
}

export function smoothReliabilityConfig(runs: readonly SmoothRun[], options: SmoothReliabilityOptions): ChartConfiguration<'line', Point[]> {
  const { palette } = options;
  const axes = kindAxes(options.kind);
  const single = runs.length === 1;
  const colors = options.colors ?? runColors(palette, runs.length, palette.blue);
  const maxDensity = Math.max(1e-9, ...runs.flatMap((r) => r.smooth.density));
  const density = densityAxis(maxDensity);
  const datasets: ChartDataset<'line', Point[]>[] = [];
  // Per run: the band (lower, then upper filled down to it), the density, then the curve on top.
  const curveIndex: number[] = [];
  runs.forEach((run, k) => {
    const color = colors[k];
    const s = run.smooth;
    const name = single ? '' : `${run.label}: `;
    if (s.lower && s.upper) {
      const lowerIndex = datasets.length;
      datasets.push({
        label: `${name}95% band, lower`,
        data: curvePoints(s.t, s.lower),
        borderColor: withAlpha(color, 0.5),
        borderWidth: scaled(palette, palette.highContrast ? 1 : 0.5),
        pointRadius: 0, pointHoverRadius: 0, fill: false, spanGaps: false, order: 3,
      });
      datasets.push({
        label: `${name}95% bootstrap band (${s.resamples ?? 0} resamples)`,
        data: curvePoints(s.t, s.upper),
        borderColor: withAlpha(color, 0.5),
        borderWidth: scaled(palette, palette.highContrast ? 1 : 0.5),
        backgroundColor: withAlpha(color, single ? 0.22 : 0.12),
        pointRadius: 0, pointHoverRadius: 0, fill: lowerIndex, spanGaps: false, order: 3,
      });
    }
    datasets.push({
      label: `${name}Density of ${axes.valueShort === 'score' ? 'scores' : `${axes.valueShort}s`} (right axis)`,
      data: s.t.map((x, q) => ({ x, y: s.density[q] })),
      yAxisID: 'density',
      borderColor: withAlpha(color, 0.8),
      borderWidth: scaled(palette, 1),
      borderDash: single ? [] : runDash(palette, k),
      backgroundColor: withAlpha(color, single ? 0.25 : 0.1),
      pointRadius: 0, pointHoverRadius: 0, fill: 'origin', order: 4,
    });
    curveIndex.push(datasets.length);
    datasets.push({
      label: smoothCurveLabel(run, single),
      data: curvePoints(s.t, s.curve),
      borderColor: color,
      backgroundColor: color,
      borderWidth: scaled(palette, (palette.highContrast ? 3 : 2) + (run.emphasis ? 1.5 : 0)),
      borderDash: runDash(palette, k),
      pointRadius: 0, pointHoverRadius: scaled(palette, 4), fill: false, spanGaps: false, order: 1,
    });
  });
  const diagonalIndex = datasets.length;
  datasets.push({ ...diagonalDataset(palette), parsing: false } as unknown as ChartDataset<'line', Point[]>);
  const value = axes.value.replace(/^Mean (\w)/, (_, c: string) => c.toUpperCase());
  const anyBand = runs.some((r) => r.smooth.lower);
  if (!single) {
    // One legend entry says what the shading and the bottom lines are (no data: no table either).
    datasets.push({
      label: `${anyBand ? 'Shaded: 95% bands; ' : ''}bottom: densities`,
      data: [],
      order: 11,
      borderColor: palette.muted,
      backgroundColor: withAlpha(palette.muted, 0.25),
      borderWidth: scaled(palette, 1),
      pointRadius: 0,
    });
  }
  const legendExtra = datasets.length - 1;
  const base = unitSquareOptions(value, `Smoothed ${axes.target.toLowerCase()}`, palette);
  return {
    type: 'line',
    data: { datasets },
    options: {
      ...base,
      parsing: false,
      scales: {
        ...base.scales,
        density: {
          type: 'linear',
          position: 'right',
          min: 0,
          max: density.max,
          grid: { display: false },
          border: { color: palette.highContrast ? palette.foreground : palette.grid, width: scaled(palette, 1) },
          ticks: { color: palette.foreground, stepSize: density.stepSize },
          title: { display: true, text: 'Density', color: palette.foreground },
        },
      },
      interaction: { mode: 'nearest', intersect: false, axis: 'x' },
      plugins: {
        legend: {
          position: 'bottom',
          // Several runs: one entry a run (its curve; the shading is its band, the bottom its density:
          // the axis titles say so), so the legend stays short.
          labels: {
            color: palette.foreground,
            filter: (item) => (single ? !String(item.text).endsWith('95% band, lower') : [...curveIndex, diagonalIndex, legendExtra].includes(item.datasetIndex ?? -1)),
          },
        },
        tooltip: {
          filter: (item) => curveIndex.includes(item.datasetIndex),
          callbacks: {
            label: (item) => {
              const k = curveIndex.indexOf(item.datasetIndex);
              const s = runs[k].smooth;
              const q = item.dataIndex;
              const band = s.lower?.[q] != null && s.upper?.[q] != null ? ` [${formatMetric(s.lower[q])}, ${formatMetric(s.upper[q])}]` : '';
              return `${single ? '' : `${runs[k].label}: `}r̂(${formatMetric(s.t[q])}) = ${formatMetric(s.curve[q])}${band}, density ${formatMetric(s.density[q])}`;
            },
          },
        },
      },
    },
  };
}

/**
 * The numbers behind the diagram at a readable resolution (every `step`-th of the 257 points:
 * t = 0, 1/32, ..., 1 by default): t, r̂(t), the band, the density. For the data table.
 */
export function smoothTableRows(s: SmoothReliability, step = 8): { t: number; curve: number | null; lower: number | null; upper: number | null; density: number }[] {
  const rows = [];
  for (let q = 0; q < s.t.length; q += step) {
    rows.push({ t: s.t[q], curve: s.curve[q], lower: s.lower?.[q] ?? null, upper: s.upper?.[q] ?? null, density: s.density[q] });
  }
  return rows;
}
