// Pairwise preferences (docs/metrics.md, "Judges"):
// - AlpacaEval's win rate of each model against its baseline, as its leaderboard computes it
//   (alpaca_eval/metrics/helpers.py, describe_head2head): x = preference - 1 (a draw 0.5, a
//   fractional preference its fraction), win_rate = 100 · mean(x), standard_error = 100 · sd(x,
//   ddof 1) / √n, and the counts of x above, below and at 0.5;
// - FastChat's two-order rule, per model as show_result.py prints it (win only where both orders
//   agree, otherwise a tie; pairs with an "error" verdict were never rows);
// - the win/tie/loss count of every pair of models, the position bias of a two-order judge, and
//   the length bias (the correlation of the outcome with the length difference);
// - the battles the arena ratings are fitted on, from either kind of rows.
import { wilsonInterval, Z_975 } from '../metrics/errorBars';
import type { Battles } from './bradleyTerry';
import type { LengthBias, PairCount, PairRows, PositionBias, PreferenceRows, WinTableRow, WinRateRow } from './types';

/** AlpacaEval's win rate of each (model, baseline) combination, in the file's order. */
export function winRates(rows: PreferenceRows): WinRateRow[] {
  const groups = new Map<string, { model: number; baseline: number; rows: number[] }>();
  for (let i = 0; i < rows.preference.length; i++) {
    const key = `${rows.model[i]}\u0000${rows.baseline[i]}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { model: rows.model[i], baseline: rows.baseline[i], rows: [] }));
    g.rows.push(i);
  }
  return [...groups.values()].map((g) => winRateOf(rows.preference, g.rows, rows.models[g.model], rows.models[g.baseline]));
}

function winRateOf(preference: Float64Array, idx: readonly number[], model: string, baseline: string): WinRateRow {
  const n = idx.length;
  let sum = 0;
  let wins = 0;
  let losses = 0;
  let draws = 0;
  for (const i of idx) {
    const x = preference[i] - 1;
    sum += x;
    if (x > 0.5) wins++;
    else if (x < 0.5) losses++;
    else draws++;
  }
  const mean = n ? sum / n : NaN;
  let ss = 0;
  for (const i of idx) { const d = preference[i] - 1 - mean; ss += d * d; }
  const se = n > 1 ? (100 * Math.sqrt(ss / (n - 1))) / Math.sqrt(n) : null;
  const winRate = n ? 100 * mean : null;
  return {
    model, baseline, win_rate: winRate, standard_error: se,
    interval: winRate !== null && se !== null ? [winRate - Z_975 * se, winRate + Z_975 * se] : null,
    discrete_win_rate: n ? (100 * (wins + draws / 2)) / n : null,
    n_wins: wins, n_wins_base: losses, n_draws: draws, n_total: n,
  };
}

/** A resample's win rate (percent) of the preferences weighted by w. */
export function weightedWinRate(preference: Float64Array, w: ArrayLike<number>): number | null {
  let s = 0;
  let n = 0;
  for (let i = 0; i < preference.length; i++) { s += w[i] * (preference[i] - 1); n += w[i]; }
  return n > 0 ? (100 * s) / n : null;
}

/** FastChat's show_result.py table: every model's wins, losses and ties over the valid pairs. */
export function winTable(rows: PairRows): WinTableRow[] {
  const win = new Float64Array(rows.models.length);
  const loss = new Float64Array(rows.models.length);
  const tie = new Float64Array(rows.models.length);
  for (let i = 0; i < rows.outcome.length; i++) {
    const o = rows.outcome[i];
    const a = rows.a[i];
    const b = rows.b[i];
    if (o === 1) { win[a]++; loss[b]++; } else if (o === 0) { win[b]++; loss[a]++; } else { tie[a]++; tie[b]++; }
  }
  return rows.models.map((model, m) => {
    const pairs = win[m] + loss[m] + tie[m];
    return {
      model, win: win[m], loss: loss[m], tie: tie[m],
      win_rate: pairs ? win[m] / pairs : null,
      loss_rate: pairs ? loss[m] / pairs : null,
      win_rate_adjusted: pairs ? (win[m] + tie[m] / 2) / pairs : null,
    };
  }).filter((r) => r.win + r.loss + r.tie > 0);
}

/** Win/tie/loss counts of every pair of models (a the model named first in the file). */
export function pairCounts(rows: PairRows): PairCount[] {
  const byPair = new Map<string, PairCount>();
  for (let i = 0; i < rows.outcome.length; i++) {
    const a = rows.a[i];
    const b = rows.b[i];
    const flip = byPair.has(`${b}\u0000${a}`);
    const key = flip ? `${b}\u0000${a}` : `${a}\u0000${b}`;
    let c = byPair.get(key);
    if (!c) byPair.set(key, (c = { a: rows.models[a], b: rows.models[b], wins_a: 0, wins_b: 0, ties: 0, n: 0 }));
    const o = flip ? 1 - rows.outcome[i] : rows.outcome[i];
    if (o === 1) c.wins_a++; else if (o === 0) c.wins_b++; else if (o === 0.5) c.ties++;
    else { c.wins_a += o; c.wins_b += 1 - o; }
    c.n++;
  }
  return [...byPair.values()];
}

/** AlpacaEval rows as pair counts (generator_2 against generator_1; a preference of 1.5 a draw). */
export function preferencePairCounts(rows: PreferenceRows): PairCount[] {
  return winRates(rows).map((w) => ({ a: w.model, b: w.baseline, wins_a: w.n_wins, wins_b: w.n_wins_base, ties: w.n_draws, n: w.n_total }));
}

/** The position bias of a two-order judge: the share of valid pairs whose two verdicts differ. */
export function positionBias(rows: PairRows): PositionBias | undefined {
  if (!rows.g1 || !rows.g2) return undefined;
  const pairs = rows.g1.length;
  let differ = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < pairs; i++) {
    const g1 = rows.g1[i];
    const g2 = rows.g2[i];
    if (g1 === g2) continue;
    differ++;
    // In the first order model_1 is shown first; in the second, model_2 is.
    if (g1 === 1 && g2 === 2) first++;
    else if (g1 === 2 && g2 === 1) second++;
  }
  return {
    rate: pairs ? differ / pairs : null, interval: wilsonInterval(differ, pairs), differ, pairs,
    first_shown: first, second_shown: second, tie_in_one: differ - first - second,
  };
}

/** The position-bias share of a resample (rows weighted by w). */
export function weightedPositionBias(rows: PairRows, w: ArrayLike<number>): number | null {
  if (!rows.g1 || !rows.g2) return null;
  let differ = 0;
  let n = 0;
  for (let i = 0; i < rows.g1.length; i++) { n += w[i]; if (rows.g1[i] !== rows.g2[i]) differ += w[i]; }
  return n > 0 ? differ / n : null;
}

/**
 * Pearson's correlation of y (the outcome of the second answer, or of a) with x (its length minus
 * the other's), over the rows with both lengths; Fisher's z interval.
 */
export function lengthBias(y: Float64Array, x: Float64Array, of: string): LengthBias | undefined {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < y.length; i++) { if (x[i] === x[i]) { n++; sx += x[i]; sy += y[i]; } }
  if (n < 3) return undefined;
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < y.length; i++) {
    if (x[i] !== x[i]) continue;
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx; syy += dy * dy; sxy += dx * dy;
  }
  const r = sxx > 0 && syy > 0 ? Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))) : null;
  let interval: [number, number] | null = null;
  if (r !== null && n > 3 && Math.abs(r) < 1) {
    const z = Math.atanh(r);
    const h = Z_975 / Math.sqrt(n - 3);
    interval = [Math.tanh(z - h), Math.tanh(z + h)];
  }
  return { correlation: r, interval, n, of };
}

/** The length bias of preference rows: generator_2's x = preference - 1 against len(output_2) - len(output_1). */
export function preferenceLengthBias(rows: PreferenceRows): LengthBias | undefined {
  const y = rows.preference.map((p) => p - 1);
  const x = rows.length2.map((l2, i) => l2 - rows.length1[i]);
  return lengthBias(y, x, 'characters of output_2 minus output_1; the outcome is preference - 1');
}

/** The length bias of pair rows: a's outcome against len(a's answer) - len(b's). */
export function pairLengthBias(rows: PairRows): LengthBias | undefined {
  const x = rows.lengthA.map((la, i) => la - rows.lengthB[i]);
  return lengthBias(rows.outcome, x, "characters of model_a's answer minus model_b's; the outcome is model_a's (1 win, 0.5 tie, 0 loss)");
}

/** The battles of either kind of rows (AlpacaEval: generator_2 against generator_1, its score preference - 1). */
export function battlesOf(rows: PairRows | PreferenceRows): Battles {
  if (rows.kind === 'pair') return { a: rows.a, b: rows.b, outcome: rows.outcome, models: rows.models.length };
  return { a: rows.model, b: rows.baseline, outcome: rows.preference.map((p) => p - 1), models: rows.models.length };
}
