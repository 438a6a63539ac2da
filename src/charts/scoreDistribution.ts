// The judge's grades per model (issue 27, "Judged scores"): for each score the judge gave, the share
// of each model's valid verdicts that got it, as grouped bars. Shares, not counts, so that models
// with different numbers of valid verdicts (FastChat drops score -1) compare; the tooltip gives
// the count. Each model's bars carry a pattern as well as a colour, named in its legend label.
import type { ChartConfiguration } from 'chart.js';
import { formatCount } from '../common/format';
import { scaled, withAlpha, type Palette } from './palette';
import { PATTERN_WORDS, patternOf, patternPlugin } from './patterns';
import { shortLabel } from './classes';

/** One model's distribution, as Report.judge.judged.models[k] carries it (lowest score first). */
export interface ModelDistribution {
  model: string;
  distribution: readonly { score: number; count: number }[];
}

export interface DistributionShares {
  /** Every score any model got, ascending. */
  scores: number[];
  series: { model: string; n: number; counts: number[]; shares: number[] }[];
}

/** Integer scales this wide or narrower show every whole score between the lowest and the highest given. */
const WHOLE_SCALE = 20;

/**
 * The scores the axis shows: every score a model got, and on a small scale (MT-Bench's 1-10) every
 * whole score between the lowest and the highest too, so that a score nobody got is an empty slot
 * rather than a gap the eye does not see.
 */
export function distributionScores(models: readonly ModelDistribution[]): number[] {
  const given = new Set(models.flatMap((m) => m.distribution.map((d) => d.score)));
  if (given.size) {
    const lo = Math.ceil(Math.min(...given));
    const hi = Math.floor(Math.max(...given));
    if (hi - lo <= WHOLE_SCALE) for (let s = lo; s <= hi; s++) given.add(s);
  }
  return [...given].sort((a, b) => a - b);
}

/** The scores' union and each model's count and share (percent of its valid verdicts) at each. */
export function distributionShares(models: readonly ModelDistribution[]): DistributionShares {
  const scores = distributionScores(models);
  const at = new Map(scores.map((s, k) => [s, k]));
  const series = models.map((m) => {
    const counts = scores.map(() => 0);
    for (const d of m.distribution) counts[at.get(d.score)!] += d.count;
    const n = counts.reduce((a, b) => a + b, 0);
    return { model: m.model, n, counts, shares: counts.map((c) => (n ? (100 * c) / n : 0)) };
  });
  return { scores, series };
}

/** The series colours, in order (a pattern goes with each: see patterns.ts). */
export function seriesColours(palette: Palette): string[] {
  return [palette.blue, palette.orange, palette.purple, palette.green, palette.yellow, palette.red];
}

/** A score as an axis label: 7, 7.5 (never 7.0). */
export function scoreLabel(score: number): string {
  return String(Math.round(score * 1000) / 1000);
}

export function scoreDistributionConfig(models: readonly ModelDistribution[], palette: Palette): ChartConfiguration<'bar'> {
  const { scores, series } = distributionShares(models);
  const colours = seriesColours(palette);
  const patterns = series.map((_, k) => patternOf(k));
  return {
    type: 'bar',
    data: {
      labels: scores.map(scoreLabel),
      datasets: series.map((s, k) => {
        const colour = colours[k % colours.length];
        return {
          label: `${shortLabel(s.model, 40)} (n = ${formatCount(s.n)}, ${PATTERN_WORDS[patterns[k]]})`,
          data: s.shares,
          backgroundColor: withAlpha(colour, palette.highContrast ? 0.55 : 0.8),
          borderColor: colour,
          borderWidth: scaled(palette, palette.highContrast ? 2 : 1),
        };
      }),
    },
    plugins: [patternPlugin(patterns, palette)],
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { grid: { display: false }, ticks: { color: palette.foreground }, title: { display: true, text: 'Judge score', color: palette.foreground } },
        y: { beginAtZero: true, grid: { color: palette.grid, lineWidth: scaled(palette, 1) }, ticks: { color: palette.foreground }, title: { display: true, text: 'Share of the model\'s valid verdicts (%)', color: palette.foreground } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          callbacks: {
            title: (items) => `score ${items[0]?.label ?? ''}`,
            label: (item) => {
              const s = series[item.datasetIndex];
              return `${s.model}: ${s.shares[item.dataIndex].toFixed(1)}% (${formatCount(s.counts[item.dataIndex])} of ${formatCount(s.n)})`;
            },
          },
        },
      },
    },
  };
}
