// The judge files' two shapes of data (docs/metrics.md, "Judges"):
// - JudgeRows: what a judge reader (alpacaEval.ts, mtBench.ts, arena.ts, or any adapter with judged
//   samples: promptfoo's `score`, Inspect's model-graded scores) attaches to its ScoresSet, one
//   entry per scored row, columnar, so --where and compare's alignment gather it with the rows;
// - JudgeReport: what a report says of them (Report.judge): judged scores per model, pairwise
//   preferences and win rates, arena ratings, and the judge's own reliability. The panels read it.
// Plain data only (numbers, strings, typed arrays), like the rest of src/core/types.ts.
import type { MetricName } from '../types';

/** Verdicts that could not be read (MT-Bench's -1, an 'error' verdict, a preference outside [1, 2]). */
export interface InvalidVerdicts {
  /** How many: they are in no row of the set, and in no figure. */
  count: number;
  /** What made them invalid, in words ("score -1", "an \"error\" verdict"). */
  what: string;
  /** The first lines holding one (at most 100), for the Problems panel and the stepper. */
  lines: number[];
  /** Per model (index into `models`): how many of its verdicts were invalid. */
  byModel: number[];
}

interface RowsBase {
  /** Every model the file names, in order of first appearance; rows point into it. */
  models: string[];
  /** The judges the file names (FastChat's ["gpt-4", "single-v1"] written "gpt-4/single-v1"). */
  judges: string[];
  invalid: InvalidVerdicts;
}

/**
 * Grades on the judge's own scale (MT-Bench single, promptfoo `score`, Inspect model-graded
 * scores): row i is model[i]'s answer to question[i] (turn[i]) with the judge's score[i].
 */
export interface JudgedRows extends RowsBase {
  kind: 'judged';
  model: Int32Array;
  /** Index into `questions`: the cluster of the standard errors (the turns of one question are one cluster). */
  question: Int32Array;
  questions: string[];
  /** 1-based turn; 0 when the file has no turns. */
  turn: Int32Array;
  score: Float64Array;
  /** Index into `categories`, -1 when the question has none (question.jsonl beside the judgments). */
  category?: Int32Array;
  categories?: string[];
  /** Where the categories came from (question.jsonl). */
  categoriesPath?: string;
  /** A human's grade of the same answer on the same scale, NaN where none (judge against humans). */
  human?: Float64Array;
}

/**
 * AlpacaEval preferences: row i compares model[i] (generator_2) with baseline[i] (generator_1);
 * preference[i] in [1, 2] (2: generator_2 is better, 1.5: a draw; AlpacaEval's 0 is read as 1.5).
 */
export interface PreferenceRows extends RowsBase {
  kind: 'preference';
  baseline: Int32Array;
  model: Int32Array;
  preference: Float64Array;
  /** Length in characters of output_1 and output_2 (NaN when the file lacks the text). */
  length1: Float64Array;
  length2: Float64Array;
  /** A human's preference for the same pair on the same scale, NaN where none. */
  human?: Float64Array;
}

/**
 * Pairwise verdicts between two models: FastChat's pair judgments (each pair judged in both
 * orders) or arena battles (one verdict). outcome[i] is a's score: 1 a win, 0.5 a tie, 0 a loss.
 */
export interface PairRows extends RowsBase {
  kind: 'pair';
  a: Int32Array;
  b: Int32Array;
  outcome: Float64Array;
  /**
   * Two-order files: each order's verdict in the file's own order (FastChat maps the swapped
   * verdict back): 1 = model_1 (a), 2 = model_2 (b), 0 = tie.
   */
  g1?: Int8Array;
  g2?: Int8Array;
  question: Int32Array;
  questions: string[];
  /** 1-based turn; 0 when the file has no turns. */
  turn: Int32Array;
  /** Index into `judges` of the row's judge (arena: each voter; MT-Bench human judgments: experts and GPT-4). */
  judge: Int32Array;
  /** Length in characters of a's and b's answers, NaN when the file does not carry them. */
  lengthA: Float64Array;
  lengthB: Float64Array;
  /**
   * How many battles the verdict counts for, where the harness weighs verdicts (Arena-Hard-Auto
   * counts a strong verdict, "A>>B", as three battles); every row counts once without it.
   */
  weight?: Float64Array;
  /**
   * Files that write each order of a two-order judgment as a row of its own (Arena-Hard-Auto's two
   * games per question): 1 where a's answer was shown first, 2 where b's was. Position bias pairs
   * the two rows of one question (and pair of models).
   */
  order?: Int8Array;
  /**
   * Index into `categories` (Arena-Hard-Auto v2.0's category: hard_prompt, creative_writing, ...),
   * -1 where none: its win rates are per model, baseline and category, as its show_result.py prints them.
   */
  category?: Int32Array;
  categories?: string[];
}

export type JudgeRows = JudgedRows | PreferenceRows | PairRows;

// ------------------------------------------------------------------------------- the report

/** A mean with its standard error, clustered by question (docs/metrics.md#judge_score). */
export interface JudgedMean {
  n: number;
  mean: number | null;
  /** Clustered by question (Inspect's stderr(cluster=)); null below two questions. */
  se: number | null;
  /** mean ± t(questions - 1) · se. */
  interval: [number, number] | null;
  /** Questions (clusters) behind it. */
  questions: number;
}

export interface JudgedModel extends JudgedMean {
  model: string;
  /** Invalid verdicts of this model (left out of n and the mean). */
  invalid: number;
  /** By turn, in turn order (a file without turns has none). */
  turns: ({ turn: number } & JudgedMean)[];
  /** By category, in the order of question.jsonl (only with the questions file). */
  categories: ({ category: string } & JudgedMean)[];
  /** How many verdicts gave each score, lowest score first: the distribution the panel draws. */
  distribution: { score: number; count: number }[];
}

export interface JudgedSummary {
  models: JudgedModel[];
  /** Lowest and highest valid score in the file (the scale is the judge's; nothing is rescaled). */
  range: [number, number] | null;
  categoriesPath?: string;
}

/**
 * One model's win rate against its baseline (docs/metrics.md#win_rate): AlpacaEval's (each
 * annotation a preference) or Arena-Hard-Auto's (each game a verdict, a strong one three battles).
 */
export interface WinRateRow {
  model: string;
  baseline: string;
  /**
   * AlpacaEval: 100 · mean(preference - 1), a draw half, a fractional preference p counts p - 1.
   * Arena-Hard-Auto: 100 · the model's share of the battles (a tie half), strong verdicts thrice.
   */
  win_rate: number | null;
  /**
   * AlpacaEval: 100 · sd(preference - 1, ddof 1) / √n, as the leaderboard's standard_error.
   * Arena-Hard-Auto: clustered by question (a question's two games and a strong verdict's three
   * battles are not independent).
   */
  standard_error: number | null;
  /** win_rate ± 1.96 standard_error. */
  interval: [number, number] | null;
  /** The leaderboard's discrete_win_rate: each preference rounded to a win, a loss or (1.5) a draw, 100 · (wins + draws / 2) / n. */
  discrete_win_rate: number | null;
  /**
   * The leaderboard's n_wins, n_wins_base and n_draws: preference above, below and at 1.5
   * (Arena-Hard-Auto: battles won, lost and tied, a strong verdict counting three).
   */
  n_wins: number;
  n_wins_base: number;
  n_draws: number;
  n_total: number;
  /** Questions behind the figure (Arena-Hard-Auto: the clusters of its standard error). */
  questions?: number;
  /** Arena-Hard-Auto v2.0: the questions' category (its scores are per category). */
  category?: string;
  /** Arena-Hard-Auto: the games (rows) behind the figure; n_total counts battles. */
  rows?: number;
}

/**
 * Each model's wins, losses and ties, as FastChat's show_result.py prints them (docs/metrics.md#win_table):
 * FastChat's pairs under the two-order rule, arena battles as voted.
 */
export interface WinTableRow {
  model: string;
  win: number;
  loss: number;
  tie: number;
  /** win / (win + loss + tie). */
  win_rate: number | null;
  loss_rate: number | null;
  /** (win + tie / 2) / (win + loss + tie). */
  win_rate_adjusted: number | null;
}

/** One pair of models: how their verdicts went (a's wins, b's wins, ties), for the panel's bars. */
export interface PairCount {
  a: string;
  b: string;
  wins_a: number;
  wins_b: number;
  ties: number;
  n: number;
}

/** The share of valid two-order pairs whose two verdicts differ (docs/metrics.md#position_bias). */
export interface PositionBias {
  rate: number | null;
  /** Wilson 95% interval. */
  interval: [number, number] | null;
  /** Pairs whose verdicts differ, and valid pairs. */
  differ: number;
  pairs: number;
  /** Of the pairs that differ: the answer shown first won in both orders (g1 model_1, g2 model_2). */
  first_shown: number;
  /** ... the answer shown second won in both orders (g1 model_2, g2 model_1). */
  second_shown: number;
  /** ... a win in one order and a tie in the other. */
  tie_in_one: number;
}

/** Pearson correlation of the outcome with the length difference (docs/metrics.md#length_bias). */
export interface LengthBias {
  correlation: number | null;
  /** Fisher-z 95% interval. */
  interval: [number, number] | null;
  n: number;
  /** What the difference is: characters of the second (or compared) answer minus the first's. */
  of: string;
}

/** One model's arena rating (docs/metrics.md#rating). */
export interface Rating {
  model: string;
  /** Bradley–Terry by maximum likelihood on the Elo scale (400 · log10 odds), models' mean 1000. */
  rating: number;
  /** 2.5% and 97.5% percentiles of the bootstrap refits (each centred the same way). */
  interval: [number, number] | null;
  /** 1 + the models rated strictly higher. */
  rank: number;
  /** [best, worst] nearest-rank 2.5% / 97.5% quantiles of the rank over the refits. */
  rank_interval: [number, number] | null;
  /** 1: the top model and every model not significantly below it (as the board's tiers). */
  tier: number | null;
  /** Battles the model took part in. */
  battles: number;
}

/** How the ratings' intervals were made: bootstrap resamples of the battles, and their seed. */
export interface RatingBootstrap {
  resamples: number;
  seed: number;
  /** Battles (rows) behind the fit; a tie counts half a win each way. */
  battles: number;
}

/** Judge against humans on the same samples (docs/metrics.md#kappa). */
export interface JudgeAgreement {
  /** The judge and the human side, as named in the file. */
  judge: string;
  human: string;
  /** Samples (votes) with both. */
  n: number;
  /** Share of samples where the two agree. */
  agreement: number | null;
  /** Cohen's kappa, (p_o - p_e) / (1 - p_e). */
  kappa: number | null;
  /** kappa ± 1.96 · its large-sample standard error (Fleiss, Cohen and Everitt 1969). */
  kappa_interval: [number, number] | null;
  kappa_se: number | null;
  /** The labels, and confusion[j][h]: samples the judge labelled labels[j] and the human labels[h]. */
  labels: string[];
  confusion: number[][];
}

export interface JudgeReport {
  /** judged: grades on the judge's scale; pairwise: preferences between two outputs; arena: ratings over many pairs. */
  kind: 'judged' | 'pairwise' | 'arena';
  /** The judge(s) as the file names them: the first 20 (arena files name every voter). */
  judges: string[];
  /** How many judges the file names. */
  judge_count: number;
  /** Every model the file names. */
  models: string[];
  /** Verdicts that could not be read: counted, left out of every figure. */
  invalid: number;
  invalid_what?: string;
  /** The first lines with an invalid verdict (at most 100). */
  invalid_lines?: number[];
  /** The figure a leaderboard of this file ranks its models by (groups' metric). */
  headline: MetricName;
  judged?: JudgedSummary;
  win_rates?: WinRateRow[];
  /** Whose rule the win rates follow (the panels' caption): AlpacaEval's preferences or Arena-Hard-Auto's games. */
  win_rate_rule?: 'alpacaeval' | 'arena-hard';
  win_table?: WinTableRow[];
  pairs?: PairCount[];
  position_bias?: PositionBias;
  length_bias?: LengthBias;
  /** Arena ratings, best first (more than two models). */
  ratings?: Rating[];
  rating_bootstrap?: RatingBootstrap;
  /** P(row beats column) = 1 / (1 + 10^((R_col - R_row) / 400)), models in `ratings` order. */
  win_probabilities?: number[][];
  agreement?: JudgeAgreement[];
}
