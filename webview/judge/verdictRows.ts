// A judge file's rows as the stepper reads them (issue 27): which models a row compares, its
// question and turn, and its verdict, read from the row's text fields (the file's own field names,
// which the judge readers keep: src/core/judges/mtBench.ts, alpacaEval.ts, arena.ts), and the lists
// of verdicts a user doubts: the lowest grades, a model's losses, the pairs whose verdict flips
// with the order, the battles the lower-rated model won. Pure: no DOM (unit-tested against the
// core's own reading of the same files, JudgeRows).
import type { Report } from '../../src/core/types';

/**
 * judged: a grade on the judge's scale (MT-Bench single); preference: AlpacaEval (generator_2
 * against its baseline generator_1); orders: a pair judged in both orders (FastChat pair files);
 * battle: one verdict per pair (arena battles, MT-Bench human judgments); games: Arena-Hard-Auto,
 * one row per game of a model against its baseline (game 1 shows the baseline as Assistant A and
 * the model as B, game 2 swaps them; the verdict is a label such as "A>>B").
 */
export type VerdictKind = 'judged' | 'preference' | 'orders' | 'battle' | 'games';

/** A two-order verdict in the file's own order: a (model_1) won, b (model_2) won, a tie. */
export type Side = 'a' | 'b' | 'tie';

export interface VerdictRows {
  kind: VerdictKind;
  n: number;
  /** Row i's text in field `name` ('' when the row has none). */
  text(i: number, name: string): string;
  /** The model judged (judged), the model against its baseline (preference), or a and b (pairs). */
  models(i: number): string[];
  question(i: number): string;
  /** 1-based turn, 0 when the file has none. */
  turn(i: number): number;
  /** judged: the grade; preference: the preference in [1, 2] (AlpacaEval's 0 read as a draw, 1.5). */
  value(i: number): number;
  /** Pairs and preferences: the first model's score, 1 a win, 0.5 a tie, 0 a loss (a fractional preference: p - 1). */
  outcome(i: number): number;
  /** Two-order files: each order's verdict, in the file's own order. */
  orders(i: number): [Side | null, Side | null];
}

const ORDER_SIDE: Record<string, Side> = { model_1: 'a', model_2: 'b', tie: 'tie' };
const BATTLE_OUTCOME: Record<string, number> = { model_a: 1, model_b: 0, tie: 0.5, 'tie (bothbad)': 0.5 };
/** Arena-Hard-Auto's labels: Assistant A's score (its show_result.py's label_to_score). */
const LABEL_A: Record<string, number> = {
  'A>B': 1, 'A>>B': 1, 'A=B': 0.5, 'A<<B': 0, 'A<B': 0, 'B>A': 0, 'B>>A': 0, 'B=A': 0.5, 'B<<A': 1, 'B<A': 1,
};

/** A game's label as Arena-Hard-Auto reads it (upper case, brackets dropped), or null. */
export function gameLabel(text: string): string | null {
  const bare = text.trim().toUpperCase().replace(/^\[+/, '').replace(/\]+$/, '').trim();
  return bare in LABEL_A ? bare : null;
}

/** The kind of a judge report's rows, told by the fields its reader keeps; null when none fits. */
export function verdictKind(fields: readonly string[]): VerdictKind | null {
  const has = (f: string) => fields.includes(f);
  if (has('g1_winner') && has('g2_winner') && has('model_1') && has('model_2')) return 'orders';
  if (has('game') && has('baseline') && has('score') && has('model')) return 'games';
  if (has('winner') && has('model_a') && has('model_b')) return 'battle';
  if (has('preference') && has('generator_2')) return 'preference';
  if (has('score') && has('model')) return 'judged';
  return null;
}

function numberOf(text: string): number {
  const t = text.trim();
  return t === '' ? NaN : Number(t);
}

/** A judge report's rows, or null when it has no judge, no texts or fields no reader writes. */
export function verdictRows(report: Report): VerdictRows | null {
  const texts = report.texts;
  if (!report.judge || !texts || !texts.fields.length) return null;
  const kind = verdictKind(texts.fields);
  if (!kind) return null;
  const index = new Map(texts.fields.map((f, k) => [f, k]));
  const text = (i: number, name: string): string => {
    const k = index.get(name);
    const v = k === undefined ? undefined : texts.values[i]?.[k];
    return typeof v === 'string' ? v : v == null ? '' : String(v);
  };
  const preference = (i: number) => {
    const p = numberOf(text(i, 'preference'));
    return p === 0 ? 1.5 : p;
  };
  const orders = (i: number): [Side | null, Side | null] => [ORDER_SIDE[text(i, 'g1_winner')] ?? null, ORDER_SIDE[text(i, 'g2_winner')] ?? null];
  return {
    kind,
    n: texts.values.length,
    text,
    models: (i) => {
      switch (kind) {
        case 'judged': return [text(i, 'model')];
        case 'preference': return [text(i, 'generator_2'), text(i, 'generator_1')];
        case 'orders': return [text(i, 'model_1'), text(i, 'model_2')];
        case 'battle': return [text(i, 'model_a'), text(i, 'model_b')];
        case 'games': return [text(i, 'model'), text(i, 'baseline')];
      }
    },
    question: (i) => text(i, kind === 'preference' ? 'instruction' : 'question_id'),
    turn: (i) => {
      const t = numberOf(text(i, 'turn'));
      return Number.isInteger(t) && t > 0 ? t : 0;
    },
    value: (i) => (kind === 'judged' ? numberOf(text(i, 'score')) : kind === 'preference' ? preference(i) : NaN),
    outcome: (i) => {
      switch (kind) {
        case 'judged': return NaN;
        case 'preference': return preference(i) - 1;
        case 'battle': return BATTLE_OUTCOME[text(i, 'winner')] ?? NaN;
        case 'games': {
          // The model is Assistant B in game 1 and Assistant A in game 2.
          const label = gameLabel(text(i, 'score'));
          if (label === null) return NaN;
          return text(i, 'game') === '2' ? LABEL_A[label] : 1 - LABEL_A[label];
        }
        case 'orders': {
          // FastChat's two-order rule: a win only where both orders name the same winner.
          const [g1, g2] = orders(i);
          if (g1 === null || g2 === null) return NaN;
          return g1 === 'a' && g2 === 'a' ? 1 : g1 === 'b' && g2 === 'b' ? 0 : 0.5;
        }
      }
    },
    orders,
  };
}

// ---------------------------------------------------------------------------------------------
// The verdicts a user doubts

/** Row indices ordered by `key` ascending, NaN left out, ties in file order. */
function orderedBy(rows: number[], key: (i: number) => number): Uint32Array {
  return Uint32Array.from(rows.filter((i) => Number.isFinite(key(i))).sort((x, y) => key(x) - key(y) || x - y));
}

function allRows(view: VerdictRows): number[] {
  return Array.from({ length: view.n }, (_, i) => i);
}

/** Judged: every valid grade, the lowest first. */
export function lowestScores(view: VerdictRows): Uint32Array {
  return orderedBy(allRows(view), (i) => view.value(i));
}

/**
 * The rows `model` lost: a pair or battle it lost (under the two-order rule for pair files), an
 * AlpacaEval annotation preferring its baseline (the clearest loss first: preference 1 before 1.4).
 */
export function lossesOf(view: VerdictRows, model: string): Uint32Array {
  const rows = allRows(view).filter((i) => {
    const [a, b] = view.models(i);
    const o = view.outcome(i);
    if (view.kind === 'preference' || view.kind === 'games') return a === model && o < 0.5;
    return (a === model && o === 0) || (b === model && o === 1);
  });
  return view.kind === 'preference' ? orderedBy(rows, (i) => view.outcome(i)) : Uint32Array.from(rows);
}

/**
 * Two-order files: the pairs whose two verdicts differ (a win in one order and a tie in the other
 * included); Arena-Hard-Auto: both games of each question whose two games disagree on the model.
 */
export function orderFlips(view: VerdictRows): Uint32Array {
  if (view.kind === 'games') return gameFlips(view);
  if (view.kind !== 'orders') return new Uint32Array(0);
  return Uint32Array.from(allRows(view).filter((i) => {
    const [g1, g2] = view.orders(i);
    return g1 !== null && g2 !== null && g1 !== g2;
  }));
}

function gameFlips(view: VerdictRows): Uint32Array {
  const byQuestion = new Map<string, number[]>();
  for (let i = 0; i < view.n; i++) {
    const key = `${view.models(i).join('\u0000')}\u0000${view.question(i)}`;
    const rows = byQuestion.get(key);
    if (rows) rows.push(i);
    else byQuestion.set(key, [i]);
  }
  const out: number[] = [];
  for (const rows of byQuestion.values()) {
    if (rows.length === 2 && view.outcome(rows[0]) !== view.outcome(rows[1])) out.push(...rows);
  }
  return Uint32Array.from(out.sort((x, y) => x - y));
}

/** Battles the lower-rated model won, the biggest upset (rating gap) first. */
export function upsets(view: VerdictRows, ratings: readonly { model: string; rating: number }[]): Uint32Array {
  const rating = new Map(ratings.map((r) => [r.model, r.rating]));
  const gap = (i: number): number => {
    const [a, b] = view.models(i);
    const ra = rating.get(a);
    const rb = rating.get(b);
    const o = view.outcome(i);
    if (ra === undefined || rb === undefined || (o !== 0 && o !== 1)) return NaN;
    const winner = o === 1 ? ra : rb;
    const loser = o === 1 ? rb : ra;
    return winner < loser ? -(loser - winner) : NaN; // ascending on -gap: the largest gap first
  };
  return orderedBy(allRows(view), gap);
}

export interface DoubtChoice {
  /** 'lowest', 'flips', 'upsets' or 'loss:<model>'. */
  key: string;
  label: string;
  rows: Uint32Array;
}

/** The lists the stepper offers for a view, the default first. */
export function doubtChoices(view: VerdictRows, report: Report): DoubtChoice[] {
  const judge = report.judge;
  const out: DoubtChoice[] = [];
  if (view.kind === 'judged') out.push({ key: 'lowest', label: 'Lowest scores first', rows: lowestScores(view) });
  if (view.kind === 'orders') out.push({ key: 'flips', label: 'Pairs that flip with the order', rows: orderFlips(view) });
  if (view.kind === 'games') out.push({ key: 'flips', label: 'Questions whose two games disagree (both games)', rows: orderFlips(view) });
  if (judge?.ratings?.length && view.kind !== 'judged') out.push({ key: 'upsets', label: 'Upsets: the lower-rated model won', rows: upsets(view, judge.ratings) });
  if (view.kind !== 'judged') {
    const models = view.kind === 'preference' || view.kind === 'games'
      ? [...new Set(Array.from({ length: view.n }, (_, i) => view.models(i)[0]))]
      : judge?.ratings?.map((r) => r.model) ?? judge?.models ?? [];
    for (const m of models) {
      out.push({ key: `loss:${m}`, label: view.kind === 'preference' || view.kind === 'games' ? `Losses of ${m} to its baseline` : `Losses of ${m}`, rows: lossesOf(view, m) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Words

function sideName(view: VerdictRows, i: number, side: Side | null): string {
  const [a, b] = view.models(i);
  return side === 'a' ? `${a} wins` : side === 'b' ? `${b} wins` : side === 'tie' ? 'a tie' : 'no verdict';
}

/** The row's verdict in words ("score 3", "gpt4 preferred (preference 1.00)", "tie under the two-order rule"). */
export function verdictWords(view: VerdictRows, i: number): string {
  const [first, second] = view.models(i);
  switch (view.kind) {
    case 'judged': return `score ${view.text(i, 'score')}`;
    case 'preference': {
      const p = view.value(i);
      const raw = view.text(i, 'preference');
      if (!Number.isFinite(p)) return `preference ${raw}`;
      const said = p === 1.5 ? 'a draw' : p > 1.5 ? `${first} preferred` : `${second} (the baseline) preferred`;
      return `${said} (preference ${raw})`;
    }
    case 'battle': {
      const w = view.text(i, 'winner');
      const o = view.outcome(i);
      return o === 1 ? `${first} wins (${w})` : o === 0 ? `${second} wins (${w})` : w === 'tie (bothbad)' ? 'a tie, both bad' : `a tie (${w})`;
    }
    case 'games': {
      const o = view.outcome(i);
      const label = view.text(i, 'score');
      const said = o === 1 ? `${first} wins` : o === 0 ? `${second} (the baseline) wins` : Number.isFinite(o) ? 'a tie' : 'no readable verdict';
      const strong = /(>>|<<)/.test(label) ? ' clearly' : '';
      return `${label}: ${said}${o === 0 || o === 1 ? strong : ''} (game ${view.text(i, 'game')}: Assistant A is ${view.text(i, 'game') === '2' ? first : second})`;
    }
    case 'orders': {
      const [g1, g2] = view.orders(i);
      const o = view.outcome(i);
      const rule = o === 1 ? `${first} wins` : o === 0 ? `${second} wins` : 'a tie';
      return g1 === g2 ? `${rule} in both orders` : `${rule} under the two-order rule (order 1: ${sideName(view, i, g1)}; order 2: ${sideName(view, i, g2)})`;
    }
  }
}

/** Each order's verdict in words (two-order files). */
export function orderWords(view: VerdictRows, i: number): [string, string] {
  const [g1, g2] = view.orders(i);
  return [sideName(view, i, g1), sideName(view, i, g2)];
}
