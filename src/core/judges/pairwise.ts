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

/**
 * FastChat's show_result.py table: every model's wins, losses and ties over the valid pairs (a
 * weighted row, Arena-Hard-Auto's strong verdict, counts as its weight in battles).
 */
export function winTable(rows: PairRows): WinTableRow[] {
  const win = new Float64Array(rows.models.length);
  const loss = new Float64Array(rows.models.length);
  const tie = new Float64Array(rows.models.length);
  for (let i = 0; i < rows.outcome.length; i++) {
    const o = rows.outcome[i];
    const a = rows.a[i];
    const b = rows.b[i];
    const k = rows.weight ? rows.weight[i] : 1;
    if (o === 1) { win[a] += k; loss[b] += k; } else if (o === 0) { win[b] += k; loss[a] += k; } else { tie[a] += k; tie[b] += k; }
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
    const k = rows.weight ? rows.weight[i] : 1;
    if (o === 1) c.wins_a += k; else if (o === 0) c.wins_b += k; else if (o === 0.5) c.ties += k;
    else { c.wins_a += k * o; c.wins_b += k * (1 - o); }
    c.n += k;
  }
  return [...byPair.values()];
}

/** AlpacaEval rows as pair counts (generator_2 against generator_1; a preference of 1.5 a draw). */
export function preferencePairCounts(rows: PreferenceRows): PairCount[] {
  return winRates(rows).map((w) => ({ a: w.model, b: w.baseline, wins_a: w.n_wins, wins_b: w.n_wins_base, ties: w.n_draws, n: w.n_total }));
}

/** The position bias of a two-order judge: the share of valid pairs whose two verdicts differ. */
export function positionBias(rows: PairRows): PositionBias | undefined {
  const orders = rows.order ? pairedOrders(rows) : rows.g1 && rows.g2 ? { g1: rows.g1, g2: rows.g2 } : undefined;
  if (!orders) return undefined;
  const pairs = orders.g1.length;
  if (rows.order && !pairs) return undefined;
  let differ = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < pairs; i++) {
    const g1 = orders.g1[i];
    const g2 = orders.g2[i];
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

/**
 * Rows that are one order each (PairRows.order): the verdicts of the questions judged in both
 * orders, as FastChat's two-order files hold them (g1: a shown first, g2: b shown first; 1 = a won,
 * 2 = b won, 0 = a tie). A question whose other order was invalid is not a pair.
 */
export function pairedOrders(rows: PairRows): { g1: Int8Array; g2: Int8Array } {
  const byKey = new Map<string, [number, number]>();
  for (let i = 0; i < rows.outcome.length; i++) {
    const ord = rows.order![i];
    if (ord !== 1 && ord !== 2) continue;
    const key = `${rows.question[i]}\u0000${rows.a[i]}\u0000${rows.b[i]}\u0000${rows.judge[i]}`;
    let v = byKey.get(key);
    if (!v) byKey.set(key, (v = [-1, -1]));
    const o = rows.outcome[i];
    v[ord - 1] = o === 1 ? 1 : o === 0 ? 2 : 0;
  }
  const both = [...byKey.values()].filter(([x, y]) => x >= 0 && y >= 0);
  return { g1: Int8Array.from(both, (v) => v[0]), g2: Int8Array.from(both, (v) => v[1]) };
}

/** The position-bias share of a resample (rows weighted by w); none for rows that are one order each. */
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
  if (rows.kind === 'pair') return { a: rows.a, b: rows.b, outcome: rows.outcome, models: rows.models.length, ...(rows.weight ? { weight: rows.weight } : {}) };
  return { a: rows.model, b: rows.baseline, outcome: rows.preference.map((p) => p - 1), models: rows.models.length };
}

/**
 * Arena-Hard-Auto's score of each model against its baseline (rows whose b is the baseline, one
 * row per game: PairRows.order): 100 · the model's battles won, a tie half, over its battles, a
 * strong verdict counting as three battles (its show_result.py: the mean of the exploded battle
 * scores, which its Bradley–Terry fit on the model and the baseline alone reproduces). The
 * standard error is clustered by question: sqrt(C / (C - 1) · Σ_q (Σ_{i∈q} w_i (s_i - R))²) / Σ w.
 */
export function baselineWinRates(rows: PairRows): WinRateRow[] {
  const groups = new Map<string, { a: number; b: number; c: number; rows: number[] }>();
  for (let i = 0; i < rows.outcome.length; i++) {
    const c = rows.category ? rows.category[i] : -1;
    const key = `${rows.a[i]}\u0000${rows.b[i]}\u0000${c}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { a: rows.a[i], b: rows.b[i], c, rows: [] }));
    g.rows.push(i);
  }
  return [...groups.values()].map((g) => {
    let total = 0;
    let scored = 0;
    let wins = 0;
    let losses = 0;
    let draws = 0;
    for (const i of g.rows) {
      const k = rows.weight ? rows.weight[i] : 1;
      const o = rows.outcome[i];
      total += k;
      scored += k * o;
      if (o === 1) wins += k; else if (o === 0) losses += k; else draws += k;
    }
    const rate = total > 0 ? scored / total : NaN;
    const residual = new Map<number, number>();
    for (const i of g.rows) {
      const k = rows.weight ? rows.weight[i] : 1;
      residual.set(rows.question[i], (residual.get(rows.question[i]) ?? 0) + k * (rows.outcome[i] - rate));
    }
    const C = residual.size;
    let ss = 0;
    for (const e of residual.values()) ss += e * e;
    const se = C > 1 && total > 0 ? (100 * Math.sqrt((ss * C) / (C - 1))) / total : null;
    const winRate = total > 0 ? 100 * rate : null;
    return {
      model: rows.models[g.a], baseline: rows.models[g.b], win_rate: winRate, standard_error: se,
      interval: winRate !== null && se !== null ? [winRate - Z_975 * se, winRate + Z_975 * se] : null,
      discrete_win_rate: winRate, n_wins: wins, n_wins_base: losses, n_draws: draws, n_total: total, questions: C, rows: g.rows.length,
      ...(g.c >= 0 && rows.categories ? { category: rows.categories[g.c] } : {}),
    };
  });
}

/** A resample's Arena-Hard-Auto score (percent) of rows weighted by w (one model against one baseline). */
export function weightedBaselineWinRate(rows: PairRows, w: ArrayLike<number>): number | null {
  let s = 0;
  let n = 0;
  for (let i = 0; i < rows.outcome.length; i++) {
    const k = w[i] * (rows.weight ? rows.weight[i] : 1);
    s += k * rows.outcome[i];
    n += k;
  }
  return n > 0 ? (100 * s) / n : null;
}
