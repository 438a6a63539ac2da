// The win/tie/loss bar of each pair of models (issue 27, "Pairwise"): one horizontal bar per pair,
// split into the first-named model's wins, the ties and the second-named model's wins, each as a
// share of the pair's valid verdicts, with its count written in the segment where it fits. The
// three parts differ by position, by pattern (ties dotted, the second model's wins hatched) and by
// the words of the legend, not by colour alone.
import type { ChartConfiguration, Plugin } from 'chart.js';
import { formatCount } from '../common/format';
import { scaled, withAlpha, type Palette } from './palette';
import { patternPlugin } from './patterns';
import { shortLabel } from './classes';

/** A pair's counts, as Report.judge.pairs carries them (a's wins, b's wins, ties). */
export interface PairTally {
  a: string;
  b: string;
  wins_a: number;
  wins_b: number;
  ties: number;
  n: number;
}

export interface PairShares {
  labels: string[];
  /** Percent of each pair's verdicts: a's wins, ties, b's wins (they sum to 100 where n > 0). */
  winsA: number[];
  ties: number[];
  winsB: number[];
}

/** "a vs b" for each pair, and the three shares in percent. */
export function pairShares(pairs: readonly PairTally[]): PairShares {
  const pct = (count: number, n: number) => (n > 0 ? (100 * count) / n : 0);
  return {
    labels: pairs.map((p) => `${shortLabel(p.a, 24)} vs ${shortLabel(p.b, 24)}`),
    winsA: pairs.map((p) => pct(p.wins_a, p.n)),
    ties: pairs.map((p) => pct(p.ties, p.n)),
    winsB: pairs.map((p) => pct(p.wins_b, p.n)),
  };
}

/** At most this many pairs are drawn (the most judged first); the table lists them all. */
export const MAX_PAIRS_DRAWN = 40;

/** The pairs a chart draws: all of them up to MAX_PAIRS_DRAWN, else the ones with the most verdicts. */
export function pairsToDraw<T extends PairTally>(pairs: readonly T[]): T[] {
  if (pairs.length <= MAX_PAIRS_DRAWN) return [...pairs];
  return [...pairs].map((p, k) => ({ p, k })).sort((x, y) => y.p.n - x.p.n || x.k - y.k).slice(0, MAX_PAIRS_DRAWN).sort((x, y) => x.k - y.k).map((x) => x.p);
}

/** Each segment's count, written in the middle of the segment when it is wide enough to hold it. */
function countLabels(pairs: readonly PairTally[], palette: Palette): Plugin<'bar'> {
  const counts = (d: number, i: number) => (d === 0 ? pairs[i].wins_a : d === 1 ? pairs[i].ties : pairs[i].wins_b);
  return {
    id: 'segmentCounts',
    afterDatasetsDraw(chart) {
      const { ctx } = chart;
      ctx.save();
      ctx.font = `600 ${Math.round(scaled(palette, Math.max(11, palette.fontSize * 0.85)))}px ${palette.fontFamily}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let d = 0; d < 3; d++) {
        if (!chart.isDatasetVisible(d)) continue;
        chart.getDatasetMeta(d).data.forEach((bar, i) => {
          const count = counts(d, i);
          if (!count) return;
          const { x, y, base } = bar.getProps(['x', 'y', 'base'], true) as { x: number; y: number; base: number };
          const text = formatCount(count);
          const width = Math.abs(x - base);
          if (ctx.measureText(text).width + scaled(palette, 8) > width) return;
          // A plate of the background behind the number: it reads on any fill and pattern.
          const w = ctx.measureText(text).width + scaled(palette, 6);
          const h = scaled(palette, palette.fontSize * 1.2);
          const cx = (x + base) / 2;
          ctx.fillStyle = withAlpha(palette.background, 0.85);
          ctx.fillRect(cx - w / 2, y - h / 2, w, h);
          ctx.fillStyle = palette.foreground;
          ctx.fillText(text, cx, y);
        });
      }
      ctx.restore();
    },
  };
}

export function winTieLossConfig(pairs: readonly PairTally[], palette: Palette): ChartConfiguration<'bar'> {
  const shares = pairShares(pairs);
  const border = scaled(palette, palette.highContrast ? 2 : 1);
  const fill = (c: string) => withAlpha(c, palette.highContrast ? 0.55 : 0.8);
  return {
    type: 'bar',
    data: {
      labels: shares.labels,
      datasets: [
        { label: 'First-named model wins (plain, left)', data: shares.winsA, backgroundColor: fill(palette.blue), borderColor: palette.blue, borderWidth: border, stack: 'pair' },
        { label: 'Ties (dotted, middle)', data: shares.ties, backgroundColor: fill(palette.muted), borderColor: palette.muted, borderWidth: border, stack: 'pair' },
        { label: 'Second-named model wins (hatched, right)', data: shares.winsB, backgroundColor: fill(palette.orange), borderColor: palette.orange, borderWidth: border, stack: 'pair' },
      ],
    },
    plugins: [patternPlugin(['plain', 'dots', 'diagonal'], palette), countLabels(pairs, palette)],
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true, min: 0, max: 100, grid: { color: palette.grid, lineWidth: scaled(palette, 1) }, ticks: { color: palette.foreground }, title: { display: true, text: 'Share of the pair\'s verdicts (%)', color: palette.foreground } },
        y: { stacked: true, grid: { display: false }, ticks: { color: palette.foreground, autoSkip: false }, title: { display: true, text: 'Pair', color: palette.foreground } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: palette.foreground } },
        tooltip: {
          callbacks: {
            title: (items) => {
              const p = pairs[items[0]?.dataIndex ?? 0];
              return p ? `${p.a} vs ${p.b} (${formatCount(p.n)} verdicts)` : '';
            },
            label: (item) => {
              const p = pairs[item.dataIndex];
              const what = item.datasetIndex === 0 ? `${p.a} wins` : item.datasetIndex === 1 ? 'ties' : `${p.b} wins`;
              const count = item.datasetIndex === 0 ? p.wins_a : item.datasetIndex === 1 ? p.ties : p.wins_b;
              return `${what}: ${formatCount(count)} (${(item.raw as number).toFixed(1)}%)`;
            },
          },
        },
      },
    },
  };
}
