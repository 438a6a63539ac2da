// What a report says of a judge file (Report.judge, Report.groups, its figures and problems),
// from the JudgeRows its reader attached to the set. One result per file: `n` counts the valid
// verdicts over every model, and every per-model figure is a row of Report.groups (column
// 'model'), never one figure over several models. The file's own figures (Report.metrics) are
// those that describe the whole file: a model's figure when the file holds one model (or one
// model against one baseline), the judge's position and length bias, its agreement with humans.
import type { GroupSlice, GroupsResult, MetricName, Report, RowProblem, ScoreOptions } from '../types';
import type { Counts } from '../metrics/bootstrap';
import { fitRatings, ratingCaveats, ratingRows, winProbabilities } from './bradleyTerry';
import { agreementsOf, isHumanJudge } from './humanAgreement';
import { judgedSummary, weightedMeanScore } from './judged';
import {
  baselineWinRates, battlesOf, pairCounts, pairLengthBias, positionBias, preferenceLengthBias, preferencePairCounts, winTable,
  weightedBaselineWinRate, weightedPositionBias, weightedWinRate, winRates,
} from './pairwise';
import type { JudgeReport, JudgeRows } from './types';
import { compactModels, judgeRowCount } from './rows';

type Figures = Partial<Record<MetricName, number | null>>;

/** Bootstrap resamples of the arena ratings when --bootstrap does not say (the Chatbot Arena notebook's 1,000). */
export const DEFAULT_RATING_RESAMPLES = 1000;

/** Judges named in Report.judge (an arena file names every voter). */
const JUDGES_LISTED = 20;

/** Groups below this many verdicts are marked small (as --group-by marks them). */
const SMALL = 30;

/** The figures that describe the whole file (see the file comment). */
export function judgeFileMetrics(rows: JudgeRows): Figures {
  const out: Figures = {};
  switch (rows.kind) {
    case 'judged':
      if (rows.models.length === 1) out.judge_score = weightedMeanScore(rows, ones(rows.score.length));
      break;
    case 'preference': {
      const combos = winRates(rows);
      if (combos.length === 1) out.win_rate = combos[0].win_rate;
      const lb = preferenceLengthBias(rows);
      if (lb) out.length_bias = lb.correlation;
      break;
    }
    case 'pair': {
      // Arena-Hard-Auto's games (one model against its baseline): its score is the file's figure.
      if (rows.order) {
        const combos = baselineWinRates(rows);
        if (combos.length === 1) out.win_rate = combos[0].win_rate;
      }
      const pb = positionBias(rows);
      if (pb) out.position_bias = pb.rate;
      const lb = pairLengthBias(rows);
      if (lb) out.length_bias = lb.correlation;
      break;
    }
  }
  const agreement = agreementsOf(rows)[0];
  if (agreement) { out.agreement = agreement.agreement; out.kappa = agreement.kappa; }
  return out;
}

/** A resample's file figures (rows weighted by w): what compare's paired bootstrap and --bootstrap draw. */
export function judgeResampler(rows: JudgeRows): (w: Counts) => Record<string, number | null> {
  switch (rows.kind) {
    case 'judged':
      return rows.models.length === 1 ? (w) => ({ judge_score: weightedMeanScore(rows, w) }) : () => ({});
    case 'preference': {
      const single = winRates(rows).length === 1;
      return single ? (w) => ({ win_rate: weightedWinRate(rows.preference, w) }) : () => ({});
    }
    case 'pair':
      if (rows.order) return baselineWinRates(rows).length === 1 ? (w) => ({ win_rate: weightedBaselineWinRate(rows, w) }) : () => ({});
      return rows.g1 ? (w) => ({ position_bias: weightedPositionBias(rows, w) }) : () => ({});
  }
}

/**
 * Report.judge, the per-model groups, the file's judge figures with their intervals and standard
 * errors (which replace any bootstrap of them: these are the clustered or analytic ones the docs
 * define), and the problems: invalid verdicts, ratings that cannot be trusted, mixed judges.
 */
export function attachJudge(report: Report, rows: JudgeRows, o: ScoreOptions): void {
  const judge = judgeReportOf(rows, o);
  report.judge = judge;
  report.groups = groupsOf(judge);
  const figures = judgeFileMetrics(rows);
  const se: Record<string, number> = { ...(report.standard_errors ?? {}) };
  for (const [name, value] of Object.entries(figures) as [MetricName, number | null][]) {
    report.metrics[name] = value;
    delete report.intervals[name];
  }
  const only = judge.judged?.models.length === 1 ? judge.judged.models[0] : undefined;
  if (only && only.interval) report.intervals.judge_score = only.interval;
  if (only && only.se !== null) se.judge_score = only.se;
  const rate = judge.win_rates?.length === 1 ? judge.win_rates[0] : undefined;
  if (rate?.interval) report.intervals.win_rate = rate.interval;
  if (rate?.standard_error != null) se.win_rate = rate.standard_error;
  if (judge.position_bias?.interval) report.intervals.position_bias = judge.position_bias.interval;
  if (judge.length_bias?.interval) report.intervals.length_bias = judge.length_bias.interval;
  const agreement = judge.agreement?.[0];
  if (agreement?.kappa_interval) report.intervals.kappa = agreement.kappa_interval;
  if (agreement?.kappa_se != null) se.kappa = agreement.kappa_se;
  report.standard_errors = se;
  report.problems.push(...judgeProblems(rows, judge));
}

/** Report.judge of the rows (ratings with bootstrap intervals when more than two models). */
export function judgeReportOf(rows: JudgeRows, o: Pick<ScoreOptions, 'bootstrap' | 'seed'>): JudgeReport {
  const base = {
    judges: rows.judges.slice(0, JUDGES_LISTED), judge_count: rows.judges.length, models: rows.models, invalid: rows.invalid.count,
    ...(rows.invalid.count ? { invalid_what: rows.invalid.what, invalid_lines: rows.invalid.lines } : {}),
  };
  const agreement = agreementsOf(rows);
  const withAgreement = agreement.length ? { agreement } : {};
  if (rows.kind === 'judged') {
    return { kind: 'judged', ...base, headline: 'judge_score', judged: judgedSummary(rows), ...withAgreement };
  }
  const ratings = ratingsOf(rows, o);
  const kind = ratings ? 'arena' : 'pairwise';
  if (rows.kind === 'preference') {
    const lb = preferenceLengthBias(rows);
    return {
      kind, ...base, headline: 'win_rate', win_rates: winRates(rows), win_rate_rule: 'alpacaeval', pairs: preferencePairCounts(rows),
      ...(lb ? { length_bias: lb } : {}), ...(ratings ?? {}), ...withAgreement,
    };
  }
  const pb = positionBias(rows);
  const lb = pairLengthBias(rows);
  // Games against a baseline (Arena-Hard-Auto): each model's score against it, as its leaderboard gives it.
  const against = rows.order ? { win_rates: baselineWinRates(rows), win_rate_rule: 'arena-hard' as const } : {};
  return {
    kind, ...base, headline: ratings ? 'rating' : rows.order ? 'win_rate' : 'win_rate_adjusted', ...against, win_table: winTable(rows), pairs: pairCounts(rows),
    ...(pb ? { position_bias: pb } : {}), ...(lb ? { length_bias: lb } : {}), ...(ratings ?? {}), ...withAgreement,
  };
}

/** Arena ratings over more than two models (none otherwise: two models are one pair's win rate). */
function ratingsOf(rows: Exclude<JudgeRows, { kind: 'judged' }>, o: Pick<ScoreOptions, 'bootstrap' | 'seed'>): Pick<JudgeReport, 'ratings' | 'rating_bootstrap' | 'win_probabilities'> | undefined {
  // Models whose every verdict was invalid played no battle: no rating to give them.
  rows = compactModels(rows);
  if (rows.models.length < 3) return undefined;
  // Games against baselines (Arena-Hard-Auto): ratings rank the models judged, so it takes two of
  // them; one model against two baselines (v2.0's categories) is two scores, not a leaderboard.
  if (rows.kind === 'pair' && rows.order && new Set(rows.a).size < 2) return undefined;
  const battles = battlesOf(rows);
  if (!battles.a.length) return undefined;
  const resamples = o.bootstrap > 0 ? o.bootstrap : DEFAULT_RATING_RESAMPLES;
  const fit = fitRatings(battles, resamples, o.seed);
  const ratings = ratingRows(rows.models, battles, fit);
  return {
    ratings,
    rating_bootstrap: { resamples, seed: o.seed, battles: battles.a.length },
    win_probabilities: winProbabilities(ratings.map((r) => r.rating)),
  };
}

/** One group per model, best first by the file's headline figure. */
function groupsOf(judge: JudgeReport): GroupsResult {
  const groups: GroupSlice[] = [];
  const rating = new Map((judge.ratings ?? []).map((r) => [r.model, r]));
  const withRating = (model: string, slice: GroupSlice): GroupSlice => {
    const r = rating.get(model);
    if (r) {
      slice.metrics.rating = r.rating;
      if (r.interval) slice.intervals.rating = r.interval;
    }
    return slice;
  };
  if (judge.judged) {
    for (const m of judge.judged.models) {
      groups.push({
        value: m.model, n: m.n, metrics: { judge_score: m.mean, stderr: m.se },
        intervals: m.interval ? { judge_score: m.interval } : {}, ...(m.n < SMALL ? { small: true } : {}),
      });
    }
  } else if (judge.win_rates) {
    const several = new Set(judge.win_rates.map((w) => w.model)).size < judge.win_rates.length;
    const name = (w: (typeof judge.win_rates)[number]) => `${w.model} vs ${w.baseline}${w.category ? ` (${w.category})` : ''}`;
    for (const w of judge.win_rates) {
      groups.push(withRating(w.model, {
        value: several ? name(w) : w.model, n: w.rows ?? w.n_total,
        metrics: { win_rate: w.win_rate, stderr: w.standard_error }, intervals: w.interval ? { win_rate: w.interval } : {},
        ...((w.rows ?? w.n_total) < SMALL ? { small: true } : {}),
      }));
    }
    // The baseline(s) have no win rate of their own, but a rating when there are ratings.
    for (const r of judge.ratings ?? []) {
      if (!judge.win_rates.some((w) => w.model === r.model)) groups.push(withRating(r.model, { value: r.model, n: r.battles, metrics: {}, intervals: {} }));
    }
  } else if (judge.win_table) {
    for (const t of judge.win_table) {
      const pairs = t.win + t.loss + t.tie;
      groups.push(withRating(t.model, {
        value: t.model, n: pairs, metrics: { win_rate: t.win_rate, win_rate_adjusted: t.win_rate_adjusted }, intervals: {},
        ...(pairs < SMALL ? { small: true } : {}),
      }));
    }
  }
  const key: MetricName = judge.ratings ? 'rating' : judge.headline;
  groups.sort((x, y) => (y.metrics[key] ?? -Infinity) - (x.metrics[key] ?? -Infinity));
  return { column: 'model', source: 'predictions', unmatched: 0, groups, fairness: {} };
}

function judgeProblems(rows: JudgeRows, judge: JudgeReport): RowProblem[] {
  const out: RowProblem[] = [];
  const inv = rows.invalid;
  if (inv.count) {
    const total = inv.count + judgeRowCount(rows);
    const byModel = rows.models.map((m, k) => [m, inv.byModel[k] ?? 0] as const).filter(([, c]) => c > 0);
    const perModel = rows.models.length > 1 && byModel.length ? `; by model: ${byModel.map(([m, c]) => `${m} ${c}`).join(', ')}` : '';
    out.push({
      line: inv.lines[0] ?? 1, severity: 'warning', code: 'invalid-verdict',
      message: `${inv.count} of ${total} verdicts are ${inv.what}: left out of n and of every figure${rows.kind === 'judged' ? ", as FastChat's show_result.py drops them" : ''} (first on line${inv.lines.length === 1 ? '' : 's'} ${inv.lines.slice(0, 5).join(', ')}${inv.count > 5 ? ', …' : ''})${perModel}.`,
    });
  }
  if (judge.ratings && rows.kind !== 'judged') {
    const played = compactModels(rows);
    const caveats = ratingCaveats(battlesOf(played));
    for (const m of caveats.unbeaten) out.push({ line: 1, severity: 'info', code: 'undefined-metric', message: `${played.models[m]} won every battle it played: its maximum-likelihood rating is unbounded, and the rating shown is held finite by a very weak prior (docs/metrics.md#rating).` });
    for (const m of caveats.winless) out.push({ line: 1, severity: 'info', code: 'undefined-metric', message: `${played.models[m]} lost every battle it played: its maximum-likelihood rating is unbounded below, and the rating shown is held finite by a very weak prior (docs/metrics.md#rating).` });
    if (caveats.components > 1) out.push({ line: 1, severity: 'warning', code: 'undefined-metric', message: `The models fall into ${caveats.components} groups that never met one another: ratings compare models within a group only.` });
  }
  if (rows.kind === 'pair') {
    const humans = rows.judges.filter(isHumanJudge).length;
    if (humans && humans < rows.judges.length && judge.ratings) {
      out.push({ line: 1, severity: 'info', code: 'filtered', message: `The ratings and win counts are over the votes of every judge in the file (${humans} human, ${rows.judges.length - humans} model); the agreement table sets the model judge against the humans.` });
    }
  }
  return out;
}

function ones(n: number): Float64Array {
  return new Float64Array(n).fill(1);
}
