// The judge charts on the panel's canvases (the definitions are in src/charts/) and the rows the
// forest plots draw, made from Report.judge (pure, unit-tested).
import type { Report } from '../../src/core/types';
import { Chart } from '../common/charts/common';
import type { Palette } from '../../src/charts/palette';
import { scoreDistributionConfig } from '../../src/charts/scoreDistribution';
import { forestConfig, type ForestRow } from '../../src/charts/forest';
import { winTieLossConfig, type PairTally } from '../../src/charts/winTieLoss';
import { shortLabel } from '../../src/charts/classes';

type Judge = NonNullable<Report['judge']>;
type JudgedModel = NonNullable<Judge['judged']>['models'][number];
type Rating = NonNullable<Judge['ratings']>[number];

/** Each model's mean over all turns (group 0, circle), then per turn (group = turn: triangle, square, ...). */
export function judgedForestRows(models: readonly JudgedModel[]): ForestRow[] {
  const rows: ForestRow[] = [];
  for (const m of models) {
    // The model's name is cut, never what the row is (a long name would push "turn 2" off the axis).
    const name = shortLabel(m.model, 26);
    rows.push({ label: `${name} · all turns`, full: `${m.model}, all turns (n = ${m.n})`, estimate: m.mean, interval: m.interval, group: 0 });
    if (m.turns.length > 1 || (m.turns.length === 1 && m.turns[0].n !== m.n)) {
      for (const t of m.turns) rows.push({ label: `${name} · turn ${t.turn}`, full: `${m.model}, turn ${t.turn} (n = ${t.n})`, estimate: t.mean, interval: t.interval, group: t.turn });
    }
  }
  return rows;
}

/** The ratings, best first, as forest rows. */
export function ratingForestRows(ratings: readonly Rating[]): ForestRow[] {
  return ratings.map((r) => ({ label: `${r.rank}. ${r.model}`, full: `${r.model} (rank ${r.rank}, ${r.battles} battles)`, estimate: r.rating, interval: r.interval }));
}

export function scoreDistributionChart(canvas: HTMLCanvasElement, models: readonly JudgedModel[], palette: Palette): Chart {
  return new Chart(canvas, scoreDistributionConfig(models, palette));
}

export function judgedMeansChart(canvas: HTMLCanvasElement, models: readonly JudgedModel[], palette: Palette): Chart {
  return new Chart(canvas, forestConfig(judgedForestRows(models), { valueTitle: 'Mean judge score', rowTitle: 'Model and turn', estimateName: 'Mean' }, palette));
}

export function ratingsForestChart(canvas: HTMLCanvasElement, ratings: readonly Rating[], palette: Palette): Chart {
  return new Chart(canvas, forestConfig(ratingForestRows(ratings), {
    valueTitle: 'Rating (Elo scale)', rowTitle: 'Model (rank)', estimateName: 'Rating', digits: 1,
    reference: { value: 1000, label: 'Models\' mean rating, 1000 (dashed)' },
  }, palette));
}

export function winTieLossChart(canvas: HTMLCanvasElement, pairs: readonly PairTally[], palette: Palette): Chart {
  return new Chart(canvas, winTieLossConfig(pairs, palette));
}
