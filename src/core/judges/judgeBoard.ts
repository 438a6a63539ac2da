// A judge file on a leaderboard (`eval-lens board`): one row per model, from the report's per-model
// groups, under the file's task (its name); the arena ratings bring their own rank intervals and
// tiers (over the battles' bootstrap), which the board keeps instead of a rank bootstrap of its own.
// AlpacaEval's column is its annotator config and baseline instead: a win rate means nothing
// without both (AlpacaEval 1 is alpaca_eval_gpt4 against text_davinci_003, AlpacaEval 2
// weighted_alpaca_eval_gpt4_turbo against gpt4_1106_preview), and every file is `annotations.json`.
import type { MetricName, Report, RowProblem } from '../types';
import type { Board, BoardEntry } from '../compare/board';
import { baseName, dirName } from '../../common/paths';

/** The board entries of a judge report (one per model), or undefined for any other report. */
export function judgeBoardEntries(r: Report): BoardEntry[] | undefined {
  if (!r.judge || !r.groups || r.groups.column !== 'model') return undefined;
  const task = r.task ?? baseName(r.path).replace(/\.[^.]*$/, '');
  return r.groups.groups.map((g) => ({
    run: g.value, task: alpacaEvalTask(r, g.value) ?? task, format: r.format, kind: r.kind, path: r.path,
    metrics: g.metrics as Partial<Record<MetricName, number | null>>,
    intervals: g.intervals as Partial<Record<MetricName, [number, number]>>,
  }));
}

/**
 * An AlpacaEval model's column: "<annotator config> vs <baseline>". The config is the one the
 * annotations name (their `annotator` field), else the folder AlpacaEval writes them under
 * (results/<model>/<annotator>/annotations.json); the baseline is the model's generator_1.
 */
export function alpacaEvalTask(r: Report, model: string): string | undefined {
  if (r.judge?.win_rate_rule !== 'alpacaeval') return undefined;
  const annotator = r.judge.judges.length === 1 ? r.judge.judges[0] : baseName(dirName(r.path)) || 'annotations';
  const baselines = [...new Set((r.judge.win_rates ?? []).filter((w) => w.model === model).map((w) => w.baseline))].sort();
  return baselines.length ? `${annotator} vs ${baselines.join(' + ')}` : annotator;
}

/**
 * A board of AlpacaEval columns no row spans: the row means (and so the ranks) then set win rates
 * of different annotators or baselines against each other, which is not a comparison. Said once.
 */
export function incomparableJudgeColumns(board: Board, reports: readonly Report[]): RowProblem | undefined {
  if (board.columns.length < 2 || !reports.some((r) => r.judge?.win_rate_rule === 'alpacaeval')) return undefined;
  const filled = (c: string) => board.rows.filter((row) => row.values[c] !== null && row.values[c] !== undefined).length;
  // Some pair of rows shares no column: their ranks compare different benchmarks.
  const cellsOf = board.rows.map((row) => new Set(board.columns.filter((c) => row.values[c] !== null && row.values[c] !== undefined)));
  const disjoint = cellsOf.some((a, i) => a.size && cellsOf.some((b, j) => j > i && b.size && ![...a].some((c) => b.has(c))));
  if (!disjoint) return undefined;
  return {
    line: 1, severity: 'warning', code: 'missing-field',
    message: `These win rates come from ${board.columns.length} annotator configs or baselines (${board.columns.map((c) => `${c}: ${filled(c)} model${filled(c) === 1 ? '' : 's'}`).join('; ')}); a win rate is comparable only within its column, so ranks between rows with no column in common say nothing.`,
  };
}

/** What a board of judge reports needs beyond buildBoard: the arena's own rank intervals, a warning for AlpacaEval columns no row spans. */
export function finishJudgeBoard(board: Board, reports: readonly Report[]): void {
  withRatingRanks(board, reports);
  const warning = incomparableJudgeColumns(board, reports);
  if (warning) board.problems.push(warning);
}

/** The metric a board of these judge reports ranks by when none is asked for: the first one's headline. */
export function judgeBoardMetric(reports: readonly Report[]): MetricName | undefined {
  return reports.find((r) => r.judge)?.judge?.headline;
}

/** A board of one arena file's ratings takes the ratings' rank intervals and tiers. */
export function withRatingRanks(board: Board, reports: readonly Report[]): void {
  if (board.metric !== 'rating' || board.columns.length !== 1 || reports.length !== 1) return;
  const ratings = reports[0].judge?.ratings;
  if (!ratings) return;
  const byModel = new Map(ratings.map((r) => [r.model, r]));
  for (const row of board.rows) {
    const r = byModel.get(row.run);
    if (!r) continue;
    row.rank_interval = r.rank_interval;
    row.tier = r.tier;
  }
}
