// `eval-lens plot FILE --chart C --out FIG.png|FIG.svg`: one of the panel's charts as a figure for a
// paper or a pull request, drawn from the same chart definitions (src/charts) headless.
import { parseArgs } from 'node:util';
import { existsSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { ChartConfiguration } from 'chart.js';
import { scorePathAsync } from '../core/scoreAsync';
import { CHART_NAMES, chartUnavailableMessage, type ChartName } from '../core/availableCharts';
import { baseName } from '../common/paths';
import type { Report } from '../core/types';
import { reportCharts } from '../common/chartData';
import { reliabilityConfig, reliabilityOverlayConfig } from '../charts/reliability';
import { rocConfig, rocOverlayConfig } from '../charts/roc';
import { confidenceHistogramConfig } from '../charts/histogram';
import { probabilityScatterConfig } from '../charts/scatter';
import type { Palette } from '../charts/palette';
import { number, UsageError, type CliOutput } from './args';
import { SCORING_OPTIONS, scoringOptions } from './scoreOptions';
import { SLICE_OPTIONS, sliceOptions } from './sliceArgs';
import { groupReliabilityConfig } from '../charts/groupReliability';
import { smoothReliabilityConfig } from '../charts/smoothReliability';
import { worstGroupIndex } from '../common/groupRanking';
import { printPalette, renderChart, type FigureFormat } from './render';

/** The charts plot draws: the core's list, so plot, the panel and the messages name the same ones. */
export const CHARTS = CHART_NAMES;
export type { ChartName };

export const PLOT_USAGE = `Usage: eval-lens plot FILE... --chart CHART --out FIG.png|FIG.svg [options]

Draws one of the report panel's charts as a figure (PNG or SVG), sized for one column of a
two-column paper at any pixel size (8 pt labels). Several FILEs (runs of one benchmark, the
baseline first) are overlaid in one reliability diagram (binned or smoothed) or one ROC chart.

Options:
  --chart C         reliability | roc | histogram | scatter | groups (every group's reliability
                    curve; needs --group-by COL, and --data FILE, --join-key, --group-bins as for score)
                    | smooth-reliability (the kernel-smoothed curve at smECE's bandwidth, its
                    95% bootstrap band: --bootstrap N, 200 by default; the density of scores)
  --out PATH        the figure to write; .png or .svg
  --binning B       reliability bins: width (equal-width, default) | count (equal-count)
  --theme T         light (default) | dark
  --width W         pixels (default 1200)
  --height H        pixels (default 800)
  --bins N, --threshold T, --format F, --raft-data DIR, --gold-key K, --map FIELD=COL,
  --max-file-mb N   as for score
  -h, --help        this help

Exit status: 0 when the figure was written, 2 when the file has nothing to draw, 1 on a usage error.`;

/**
 * Why a chart cannot be drawn for a report, in one sentence ending in a period, or null when it
 * can: the core's availability (which names the charts the file can give instead), and for the
 * charts drawn from per-instance values, whether any of them is finite.
 */
function unavailable(chart: ChartName, r: Report): string | null {
  const why = chartUnavailableMessage(chart, r);
  if (why) return why;
  if (chart === 'histogram' && !reportCharts(r).histogram) {
    return `the confidence histogram needs a confidence for each answer, and none of ${baseName(r.path)}'s is a finite number.`;
  }
  if (chart === 'scatter' && !reportCharts(r).scatter) {
    return `the scatter needs predicted and true probabilities, and ${baseName(r.path)} has no pair of finite ones.`;
  }
  return null;
}

/** The chart definition for a report, exactly as the panel builds it. */
export function chartConfig(chart: ChartName, r: Report, palette: Palette, binning: 'width' | 'count'): ChartConfiguration {
  switch (chart) {
    case 'reliability': {
      const bins = binning === 'count' ? r.bins!.equalCount : r.bins!.equalWidth;
      return reliabilityConfig(bins, { kind: r.kind, palette, equalWidth: binning === 'width' }) as ChartConfiguration;
    }
    case 'roc':
      return rocConfig(r.roc!, r.metrics.auc, palette) as ChartConfiguration;
    case 'histogram': {
      // plot checks first (unavailable): a report without a finite confidence never gets here.
      return confidenceHistogramConfig(reportCharts(r).histogram!, palette) as ChartConfiguration;
    }
    case 'scatter':
      return probabilityScatterConfig(reportCharts(r).scatter!, palette) as ChartConfiguration;
    case 'groups':
      return groupReliabilityConfig(r.kind, r.groups!.groups, worstGroupIndex(r.kind, r.groups!.groups), palette) as ChartConfiguration;
    case 'smooth-reliability':
      return smoothReliabilityConfig([{ label: runLabels([r.path])[0], smooth: r.smoothReliability! }], { kind: r.kind, palette }) as ChartConfiguration;
  }
}

/** Overlaid runs: every run's curve in one chart, named by what tells their paths apart. */
export function overlayConfig(chart: 'reliability' | 'roc' | 'smooth-reliability', reports: Report[], palette: Palette, binning: 'width' | 'count'): ChartConfiguration {
  const labels = runLabels(reports.map((r) => r.path));
  if (chart === 'smooth-reliability') {
    return smoothReliabilityConfig(reports.map((r, k) => ({ label: labels[k], smooth: r.smoothReliability! })), { kind: reports[0].kind, palette }) as ChartConfiguration;
  }
  if (chart === 'roc') return rocOverlayConfig(reports.map((r, k) => ({ label: labels[k], roc: r.roc!, auc: r.metrics.auc })), palette) as ChartConfiguration;
  const runs = reports.map((r, k) => ({
    label: labels[k],
    bins: binning === 'count' ? r.bins!.equalCount : r.bins!.equalWidth,
    ece: binning === 'count' ? r.metrics.ece_quantile : r.metrics.ece,
  }));
  return reliabilityOverlayConfig(runs, { kind: reports[0].kind, palette, equalWidth: binning === 'width' }) as ChartConfiguration;
}

/** A file's name without its extension and the formats' fixed endings (.test_predictions.csv, predictions.csv). */
function stem(path: string): string {
  const base = path.split(/[\\/]+/).filter(Boolean).pop() ?? path;
  return base.replace(/\.(csv|tsv|jsonl|json)$/i, '').replace(/(^|\.)(test_)?predictions$/i, '');
}

/** Long names are cut in the middle: runs usually differ at the start (model) or the end (seed). */
function shorten(label: string, max = 36): string {
  return label.length <= max ? label : `${label.slice(0, max / 2 - 1)}…${label.slice(label.length - max / 2)}`;
}

/**
 * Names that tell runs apart in a legend: the file names without their fixed endings when those
 * differ, else the path segments left once the start and end all runs share are cut.
 */
export function runLabels(paths: string[]): string[] {
  const stems = paths.map(stem);
  if (stems.every(Boolean) && new Set(stems).size === stems.length) return stems.map((s) => shorten(s));
  if (new Set(paths).size !== paths.length) return paths.map((p, k) => shorten(`${stem(p) || p} (${k + 1})`));
  const parts = paths.map((p) => p.split(/[\\/]+/).filter(Boolean));
  let head = 0;
  while (parts.every((q) => head < q.length - 1 && q[head] === parts[0][head])) head++;
  let tail = 0;
  while (parts.every((q) => tail < q.length - head - 1 && q[q.length - 1 - tail] === parts[0][parts[0].length - 1 - tail])) tail++;
  return parts.map((q) => shorten(q.slice(head, q.length - tail).join('/')));
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback?: T): T {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`plot needs --${name} (${allowed.join(' | ')}).`);
  }
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got '${value}'.`);
  return value as T;
}

function pixels(name: string, raw: string | undefined, fallback: number): number {
  const v = number(name, raw, true) ?? fallback;
  if (v < 100 || v > 10_000) throw new UsageError(`--${name} takes a whole number of pixels from 100 to 10000, got '${raw}'.`);
  return v;
}

export async function plotCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      ...SCORING_OPTIONS,
      ...SLICE_OPTIONS,
      chart: { type: 'string' },
      out: { type: 'string' },
      binning: { type: 'string' },
      theme: { type: 'string' },
      width: { type: 'string' },
      height: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: PLOT_USAGE + '\n', stderr: '' };
  if (!positionals.length) throw new UsageError('plot needs a FILE.');
  const chart = oneOf('chart', values.chart, CHARTS);
  if (positionals.length > 1 && chart !== 'reliability' && chart !== 'roc' && chart !== 'smooth-reliability') {
    throw new UsageError(`several FILEs are overlaid in --chart reliability, smooth-reliability or roc only; --chart ${chart} takes one FILE.`);
  }
  if (!values.out) throw new UsageError('plot needs --out FIG.png or FIG.svg.');
  const format = extname(values.out).slice(1).toLowerCase() as FigureFormat;
  if (format !== 'png' && format !== 'svg') throw new UsageError(`--out must end in .png or .svg, got '${values.out}'.`);
  const binning = oneOf('binning', values.binning, ['width', 'count'] as const, 'width');
  const theme = oneOf('theme', values.theme, ['light', 'dark'] as const, 'light');
  const size = { width: pixels('width', values.width, 1200), height: pixels('height', values.height, 800) };
  // The histogram and the scatter draw from the per-instance columns.
  if (chart === 'groups' && values['group-by'] === undefined) throw new UsageError('--chart groups needs --group-by COL (and --data FILE when the column is in another file).');
  const options = scoringOptions(values, {
    ...sliceOptions(values), instances: chart === 'histogram' || chart === 'scatter',
    // The smoothed diagram's 95% band comes from the bootstrap: 200 resamples unless --bootstrap says.
    ...(chart === 'smooth-reliability' ? { bootstrap: 200 } : {}),
  });

  const reports: Report[] = [];
  for (const file of positionals) {
    if (!existsSync(file)) return { code: 2, stdout: '', stderr: `eval-lens: ${file}: no such file or folder.\n` };
    // As score reads it: Parquet too.
    const found = (await scorePathAsync(file, options)).reports;
    if (found.length !== 1) {
      return { code: 2, stdout: '', stderr: `eval-lens: ${file}: plot draws one prediction file per FILE; found ${found.length}.\n` };
    }
    const why = unavailable(chart, found[0]);
    if (why) return { code: 2, stdout: '', stderr: `eval-lens: cannot draw --chart ${chart}: ${why}\n` };
    reports.push(found[0]);
  }
  const kinds = new Set(reports.map((r) => r.kind));
  if (kinds.size > 1) return { code: 2, stdout: '', stderr: `eval-lens: cannot overlay runs of different kinds (${[...kinds].join(', ')}).\n` };
  const palette = printPalette(theme, size.width);
  const config = reports.length > 1 ? overlayConfig(chart as 'reliability' | 'roc' | 'smooth-reliability', reports, palette, binning) : chartConfig(chart, reports[0], palette, binning);
  const figure = await renderChart(config, palette, size, format);
  writeFileSync(values.out, figure.bytes);
  return { code: 0, stdout: '', stderr: `eval-lens: wrote ${values.out} (${chart}, ${size.width}×${size.height}, ${format.toUpperCase()}).\n` };
}
