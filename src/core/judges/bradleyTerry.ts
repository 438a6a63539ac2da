// Arena ratings (docs/metrics.md#rating): Bradley–Terry by maximum likelihood over pairwise
// verdicts, as the Chatbot Arena notebook fits it (a logistic regression without intercept on rows
// +ln 10 for model_a, -ln 10 for model_b; a tie counts half a win each way), on the Elo scale
// R = 400 · log10 odds, centred so that the models' mean rating is 1000. Intervals are percentile
// bootstraps over the battles: each resample draws the battles with replacement (the project's
// seeded draws, metrics/bootstrap.ts) and is refitted and centred the same way. Ranks, rank
// intervals and tiers are the board's (compare/board.ts), over the refits.
//
// The fit is Newton's method on the battles aggregated by pair (a p × p system per step, p the
// number of models), so a refit costs the same whatever the number of battles. A very weak ridge
// (1e-6 on the natural-log scale, as sklearn's LogisticRegression with C = 1e6) keeps the
// likelihood's maximum finite when a model won (or lost) every battle it played; on any other
// data it moves no rating by more than a hundredth of a point.
import { CountDraws, percentile, type Counts } from '../metrics/bootstrap';
import { rankIntervals, type BoardRow } from '../compare/board';
import type { Rating } from './types';

/** Points per unit of natural log-odds: 400 / ln 10 (Elo's scale and base). */
export const ELO_PER_LOGIT = 400 / Math.LN10;
/** The models' mean rating. */
export const MEAN_RATING = 1000;
const RIDGE = 1e-6;

/** Battles: a[i] against b[i], outcome[i] = a's score (1 win, 0.5 tie, 0 loss; fractions allowed). */
export interface Battles {
  a: Int32Array;
  b: Int32Array;
  outcome: Float64Array;
  /** Number of models (indices run 0..models-1). */
  models: number;
  /** How many battles each row counts for (Arena-Hard-Auto's strong verdicts: 3); 1 without it. */
  weight?: Float64Array;
}

/**
 * Pair totals: score[i * p + j] = what i scored against j (wins + ties / 2), over the battles
 * weighted by w (each battle once without w) and by each row's own weight.
 */
export function pairTotals(battles: Battles, w?: Counts): Float64Array {
  const p = battles.models;
  const score = new Float64Array(p * p);
  const { a, b, outcome, weight } = battles;
  for (let i = 0; i < a.length; i++) {
    const k = (w ? w[i] : 1) * (weight ? weight[i] : 1);
    if (k === 0) continue;
    const o = outcome[i];
    score[a[i] * p + b[i]] += k * o;
    score[b[i] * p + a[i]] += k * (1 - o);
  }
  return score;
}

/**
 * The maximum-likelihood strengths θ (natural log-odds: P(i beats j) = 1 / (1 + e^(θ_j - θ_i)))
 * of pair totals, with mean 0. `start` warms the iteration (a bootstrap refit starts from the fit).
 */
export function fitStrengths(score: Float64Array, p: number, start?: Float64Array): Float64Array {
  const theta = start ? Float64Array.from(start) : new Float64Array(p);
  const grad = new Float64Array(p);
  const hess = new Float64Array(p * p);
  const step = new Float64Array(p);
  let ll = logLikelihood(score, p, theta);
  for (let iter = 0; iter < 200; iter++) {
    // Gradient and negated Hessian of the penalised log-likelihood.
    grad.fill(0);
    hess.fill(0);
    for (let i = 0; i < p; i++) {
      grad[i] -= RIDGE * theta[i];
      hess[i * p + i] += RIDGE;
      for (let j = i + 1; j < p; j++) {
        const n = score[i * p + j] + score[j * p + i];
        if (n === 0) continue;
        const pij = sigmoid(theta[i] - theta[j]);
        const g = score[i * p + j] - n * pij;
        grad[i] += g;
        grad[j] -= g;
        const h = n * pij * (1 - pij);
        hess[i * p + i] += h;
        hess[j * p + j] += h;
        hess[i * p + j] -= h;
        hess[j * p + i] -= h;
      }
    }
    let gmax = 0;
    for (let i = 0; i < p; i++) gmax = Math.max(gmax, Math.abs(grad[i]));
    if (gmax < 1e-11) break;
    if (!choleskySolve(hess, p, grad, step)) break;
    // Backtracking: a full Newton step unless it lowers the likelihood.
    let t = 1;
    let next = ll;
    const trial = new Float64Array(p);
    for (let k = 0; k < 40; k++) {
      for (let i = 0; i < p; i++) trial[i] = theta[i] + t * step[i];
      next = logLikelihood(score, p, trial);
      if (next >= ll - 1e-12 * Math.abs(ll)) break;
      t /= 2;
    }
    let moved = 0;
    for (let i = 0; i < p; i++) { moved = Math.max(moved, Math.abs(trial[i] - theta[i])); theta[i] = trial[i]; }
    ll = next;
    if (moved < 1e-13) break;
  }
  // The likelihood does not see a shift of every θ: centre them (the ridge already nearly does).
  let mean = 0;
  for (let i = 0; i < p; i++) mean += theta[i];
  mean /= p;
  for (let i = 0; i < p; i++) theta[i] -= mean;
  return theta;
}

/** Elo-scale ratings of strengths: 400 · θ / ln 10 + 1000 (θ has mean 0). */
export function toRatings(theta: Float64Array): Float64Array {
  return theta.map((t) => ELO_PER_LOGIT * t + MEAN_RATING);
}

/** P(row beats column) from ratings, as Elo reads them. */
export function winProbabilities(ratings: ArrayLike<number>): number[][] {
  const p = ratings.length;
  return Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => 1 / (1 + 10 ** ((ratings[j] - ratings[i]) / 400))));
}

export interface RatingsResult {
  /** In the input's model order. */
  ratings: Float64Array;
  /** Bootstrap refits: samples[m][r] is model m's rating in resample r (absent without resamples). */
  samples?: Float64Array[];
}

/** The ratings of the battles and, with resamples > 0, their refits over battle resamples (seeded). */
export function fitRatings(battles: Battles, resamples: number, seed: number, onResample?: (done: number) => void): RatingsResult {
  const p = battles.models;
  const theta = fitStrengths(pairTotals(battles), p);
  const ratings = toRatings(theta);
  if (!(resamples > 0) || battles.a.length === 0) return { ratings };
  const samples = Array.from({ length: p }, () => new Float64Array(resamples));
  const draws = new CountDraws(battles.a.length, seed);
  for (let r = 0; r < resamples; r++) {
    const refit = fitStrengths(pairTotals(battles, draws.next()), p, theta);
    for (let m = 0; m < p; m++) samples[m][r] = ELO_PER_LOGIT * refit[m] + MEAN_RATING;
    onResample?.(r + 1);
  }
  return { ratings, samples };
}

/**
 * The leaderboard of the fit: models best first, each with its percentile interval, rank, rank
 * interval and tier (the board's rules, over the refits), and how many battles it played.
 */
export function ratingRows(models: readonly string[], battles: Battles, fit: RatingsResult): Rating[] {
  const played = new Uint32Array(models.length);
  for (let i = 0; i < battles.a.length; i++) { played[battles.a[i]]++; played[battles.b[i]]++; }
  const order = models.map((_, m) => m).sort((x, y) => fit.ratings[y] - fit.ratings[x] || models[x].localeCompare(models[y]));
  const rows: BoardRow[] = order.map((m) => ({ run: models[m], values: {}, intervals: {}, mean: fit.ratings[m], cells: 1, paths: {} }));
  if (fit.samples) rankIntervals(rows, order.map((m) => fit.samples![m]), 'higher');
  return order.map((m, k) => {
    let ahead = 0;
    for (let j = 0; j < models.length; j++) if (fit.ratings[j] > fit.ratings[m]) ahead++;
    const sorted = fit.samples ? Float64Array.from(fit.samples[m]).sort() : undefined;
    return {
      model: models[m],
      rating: fit.ratings[m],
      interval: sorted && sorted.length ? [percentile(sorted, 0.025), percentile(sorted, 0.975)] : null,
      rank: 1 + ahead,
      rank_interval: rows[k].rank_interval ?? null,
      tier: rows[k].tier ?? null,
      battles: played[m],
    };
  });
}

/**
 * Models that won, or lost, every battle they played (their maximum-likelihood rating is
 * unbounded), and the groups of models that never met another group (ratings across groups are
 * not comparable). Said as problems by the caller.
 */
export function ratingCaveats(battles: Battles): { unbeaten: number[]; winless: number[]; components: number } {
  const p = battles.models;
  const scored = new Float64Array(p);
  const played = new Float64Array(p);
  const parent = Int32Array.from({ length: p }, (_, i) => i);
  const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  for (let i = 0; i < battles.a.length; i++) {
    const a = battles.a[i];
    const b = battles.b[i];
    scored[a] += battles.outcome[i];
    scored[b] += 1 - battles.outcome[i];
    played[a]++;
    played[b]++;
    parent[find(a)] = find(b);
  }
  const unbeaten: number[] = [];
  const winless: number[] = [];
  const roots = new Set<number>();
  for (let m = 0; m < p; m++) {
    if (played[m] === 0) continue;
    roots.add(find(m));
    if (scored[m] === played[m]) unbeaten.push(m);
    else if (scored[m] === 0) winless.push(m);
  }
  return { unbeaten, winless, components: roots.size };
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** log σ(x), stable for large |x|. */
function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

function logLikelihood(score: Float64Array, p: number, theta: ArrayLike<number>): number {
  let ll = 0;
  for (let i = 0; i < p; i++) {
    ll -= (RIDGE / 2) * theta[i] * theta[i];
    for (let j = 0; j < p; j++) {
      const s = score[i * p + j];
      if (s !== 0) ll += s * logSigmoid(theta[i] - theta[j]);
    }
  }
  return ll;
}

/** Solves A x = b for a symmetric positive definite A (p × p, row-major; overwritten). False when not positive definite. */
function choleskySolve(A: Float64Array, p: number, b: Float64Array, x: Float64Array): boolean {
  for (let j = 0; j < p; j++) {
    let d = A[j * p + j];
    for (let k = 0; k < j; k++) d -= A[j * p + k] * A[j * p + k];
    if (!(d > 0)) return false;
    const ljj = Math.sqrt(d);
    A[j * p + j] = ljj;
    for (let i = j + 1; i < p; i++) {
      let s = A[i * p + j];
      for (let k = 0; k < j; k++) s -= A[i * p + k] * A[j * p + k];
      A[i * p + j] = s / ljj;
    }
  }
  for (let i = 0; i < p; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= A[i * p + k] * x[k];
    x[i] = s / A[i * p + i];
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < p; k++) s -= A[k * p + i] * x[k];
    x[i] = s / A[i * p + i];
  }
  return true;
}
