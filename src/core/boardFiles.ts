// The Node side of leaderboards: score the files and folders named on a command line, name each
// result by its files' own metadata, and build the board (./compare/board.ts):
// - folktexts: the results JSON's model, task and numeric vs multiple-choice prompting (else the
//   run folder's name, `<model>__<task>__...`);
// - RAFT: the run folder (run/<task>/predictions.csv), the task its data set;
// - lm-eval: the model its results file names, else the model folder (the samples file's folder),
//   the task from the file name;
// - Inspect: the model of the log's header, the task of the log;
// - ALMANACS: the method (the file's folder) and the data set (the task);
// - lighteval: the model its results file names (config_general.model_name), else the model folders
//   of lighteval's layout (details/<org>/<model>/<date_id>/details_<task>_<date_id>.parquet), the task
//   the file's; its cells its task metrics (trad_score, …) when it has no verdict;
// - a folder of summaries only (lighteval's results_*.json, lm-eval's results JSON): their reported
//   figures, one row per model, one column per task;
// - generic: the file name.
// A folktexts aggregated-results*.csv is read as reported figures.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import type { MetricName, Report, RowProblem, ScoreOptions } from './types';
import { isDirectory } from './io';
import { maxFileBytes, parseFile, scoreFile, scorePath } from './score';
import { parquetFilesOf, withParquetAhead } from './formats/parquetAhead';
import { parseRun } from './compareFiles';
import { gatherSet, resampleMetrics, resolveOptions } from './report';
import { alignRuns, CompareError } from './compare/align';
import { CountDraws } from './metrics/bootstrap';
import { modelsOf } from './compareFiles';
import { parsePythonJson } from './formats/pythonJson';
import { rankValuesParallel, scorePathParallel } from './parallel';
import { finishJudgeBoard, judgeBoardEntries, judgeBoardMetric } from './judges/judgeBoard';
import {
  aggregatedResultsEntries, buildBoard, folktextsNaming, isAggregatedResults, isMetricName, pivotPrompting, rankIntervals, separateRevisions, taskMetricNames,
  type Board, type BoardEntry, type TaskMetricName,
} from './compare/board';
import { lightevalDeclared, type DeclaredMetrics } from './eee/taskMetrics';
import { runStampOfResults } from './formats/lmEvalResults';

export interface BoardRequest {
  /** One of our metrics, or a task metric the files log (checked against them: BoardMetricError). */
  metric?: MetricName | TaskMetricName;
  pivot?: 'prompting';
}

/** --metric names neither one of our metrics nor a task metric of the files. */
export class BoardMetricError extends Error {}

export interface BoardResult {
  board: Board;
  /** --pivot prompting without --metric: the ECE and AUC pivots (board is the first). */
  pivots?: Partial<Record<MetricName, Board>>;
}

/**
 * boardPaths with each folder's files scored on every core (parallel.ts); the same board. Only the
 * scoring of the folders' files is spread; the rank bootstrap runs here as before.
 */
export async function boardPathsAsync(paths: readonly string[], options: Partial<ScoreOptions>, request: BoardRequest = {}): Promise<BoardResult> {
  // Parquet runs are read ahead on this thread, and the board made here (the worker threads would
  // each have to read them again).
  if (parquetFilesOf(paths).length) {
    return withParquetAhead(paths, { maxFileBytes: maxFileBytes(options), format: options.format }, () => boardPaths(paths, options, request));
  }
  const scored = new Map<string, Report[]>();
  for (const path of paths) {
    if (!isDirectory(path) || scored.has(path)) continue;
    const reports = await scorePathParallel(path, options);
    if (reports) scored.set(path, reports);
  }
  const { result, rank } = boardWithoutRanks(paths, options, request, scored);
  if (rank) {
    const tasks = rankTasks(result.board, rank.entries, rank.sources, options);
    if (tasks) {
      const R = resolveOptions(options).bootstrap;
      const values = await rankValuesParallel(tasks, R, result.board.metric) ?? tasks.map((t) => drawValues(t.runs, t.rows, t.n, t.seed, R, result.board.metric));
      rankFromValues(result.board, tasks, values, R);
    }
  }
  return result;
}

/** Score `paths` and lay the results out as a board. */
export function boardPaths(paths: readonly string[], options: Partial<ScoreOptions>, request: BoardRequest = {}): BoardResult {
  const { result, rank } = boardWithoutRanks(paths, options, request);
  if (rank) rankBootstrap(result.board, rank.entries, rank.sources, options);
  return result;
}

/**
 * The board of `paths` (`scored`: folders' reports already made, by path), and what its rank
 * bootstrap needs when the board is computed (the caller runs it: here or on worker threads).
 */
function boardWithoutRanks(
  paths: readonly string[], options: Partial<ScoreOptions>, request: BoardRequest, scored?: ReadonlyMap<string, Report[]>,
): { result: BoardResult; rank?: { entries: BoardEntry[]; sources: Map<BoardEntry, Partial<ScoreOptions>> } } {
  const entries: BoardEntry[] = [];
  const problems: RowProblem[] = [];
  // How each entry's file is parsed again for the rank bootstrap.
  const sources = new Map<BoardEntry, Partial<ScoreOptions>>();
  let reported = false;
  // Judge files: one row per model (src/core/judges/judgeBoard.ts).
  const judged: Report[] = [];
  // Summaries (figures a run reports): on the board only when nothing else is (a folder of lighteval
  // results_*.json), so that a run's samples and its summary are not two rows.
  const summaries: Report[] = [];
  for (const path of paths) {
    if (!isDirectory(path) && isAggregatedResults(path)) {
      const got = aggregatedResultsEntries(readFileSync(path, 'utf8'), path);
      entries.push(...got.entries);
      problems.push(...got.problems);
      reported = true;
      continue;
    }
    const models = modelsOf(path);
    if (models.length) {
      // One row per model of a Prob_<model> / Pred_<model> file.
      for (const m of models) {
        const o = { ...options, format: 'generic' as const, mapping: { ...options.mapping, ...m.mapping } };
        const report = scoreFile(path, o);
        const entry = { ...entryOf(report), run: m.model };
        entries.push(entry);
        sources.set(entry, o);
      }
      continue;
    }
    for (const report of scored?.get(path) ?? scorePath(path, options).reports) {
      if (report.fatal && report.n === 0) {
        // A data file the scan did not take as predictions (RAFT train.csv, ...) is information.
        problems.push({ line: 1, severity: report.notScored ? 'info' : 'warning', code: 'unscorable', path: report.path, message: `Not on the board: ${report.fatal}` });
        continue;
      }
      // A summary's figures are the file's own, not a run scored here (formats/summary.ts).
      if (report.summary) {
        summaries.push(report);
        continue;
      }
      const perModel = judgeBoardEntries(report);
      if (perModel) { entries.push(...perModel); judged.push(report); continue; }
      const entry = entryOf(report);
      entries.push(entry);
      sources.set(entry, { ...options, format: report.format, ...(report.task !== undefined ? { task: report.task } : {}) });
    }
  }
  const fromSummaries = !entries.length && summaries.length ? summaries.flatMap(summaryEntries) : [];
  if (fromSummaries.length) {
    entries.push(...fromSummaries);
    reported = true;
  } else {
    for (const r of summaries) problems.push({ line: 1, severity: 'info', code: 'unscorable', path: r.path, message: `Not on the board: it is ${r.summary!.source}, figures a run reports, not predictions to score.` });
  }
  separateRevisions(entries);
  disambiguateRuns(entries);
  if (request.metric !== undefined && !isMetricName(request.metric) && !taskMetricNames(entries).includes(request.metric)) {
    const own = taskMetricNames(entries);
    throw new BoardMetricError(`--metric '${request.metric}' is neither one of Eval Lens's metrics nor a task metric of these files${own.length ? ` (their task metrics: ${own.join(', ')})` : ' (they log none)'}.`);
  }
  if (request.pivot === 'prompting') {
    // folktexts' pivot is of our metrics (its files log no task metric).
    if (request.metric !== undefined && !isMetricName(request.metric)) throw new BoardMetricError(`--pivot prompting takes one of Eval Lens's metrics, got '${request.metric}'.`);
    const metrics: MetricName[] = request.metric ? [request.metric] : ['ece', 'auc'];
    const pivots: Partial<Record<MetricName, Board>> = {};
    for (const m of metrics) pivots[m] = withProblems(pivotPrompting(entries, m), problems);
    return { result: { board: pivots[metrics[0]]!, pivots } };
  }
  const board = buildBoard(entries, { metric: request.metric ?? judgeBoardMetric(judged), source: reported && entries.every((e) => !e.intervals && !e.taskIntervals) ? 'reported' : 'computed' });
  finishJudgeBoard(board, judged);
  if (!board.rows.length) {
    // Never an empty table without a reason: what was found and why none of it is a row.
    const why = problems.length ? 'no file under the paths is a run to rank (see the notes below)' : 'no file under the paths was read as predictions or results';
    problems.push({ line: 1, severity: 'warning', code: 'unscorable', message: `The board is empty: ${why}.` });
  } else if (board.task_metric && board.source === 'computed') {
    // The rank bootstrap redraws our metrics from each file's set; a task's own metric is not among them.
    board.problems.push({ line: 1, severity: 'info', code: 'missing-field', message: `No rank intervals: ${board.metric} is the files' own task metric, which the rank bootstrap does not redraw.` });
    return { result: { board: withProblems(board, problems) } };
  }
  // (The rank bootstrap's problems go after these, as when it ran before they were added.)
  return { result: { board: withProblems(board, problems) }, ...(board.source === 'computed' ? { rank: { entries, sources } } : {}) };
}

/** One task's runs, aligned, for the rank bootstrap: what a worker needs to redo a run's draws. */
export interface RankTask {
  runs: { row: number; path: string; set: NonNullable<ReturnType<typeof parseFile>['set']>; options: Partial<ScoreOptions> }[];
  rows: Uint32Array[];
  n: number;
  seed: number;
}

/**
 * rank_interval and tier (docs/metrics.md#rank_interval): each task's files are parsed again and
 * aligned by ID; every resample draws each task's aligned items once (the same draw for every run,
 * task t from the seed mixed with t) and every row's mean over its tasks is recomputed.
 */
function rankBootstrap(board: Board, entries: readonly BoardEntry[], sources: Map<BoardEntry, Partial<ScoreOptions>>, options: Partial<ScoreOptions>): void {
  const tasks = rankTasks(board, entries, sources, options);
  if (!tasks) return;
  const R = resolveOptions(options).bootstrap;
  rankFromValues(board, tasks, tasks.map((t) => drawValues(t.runs, t.rows, t.n, t.seed, R, board.metric)), R);
}

/** The rank bootstrap's tasks, or undefined when there is none to run (a problem says why, where one should). */
export function rankTasks(board: Board, entries: readonly BoardEntry[], sources: Map<BoardEntry, Partial<ScoreOptions>>, options: Partial<ScoreOptions>): RankTask[] | undefined {
  const o = resolveOptions({ ...options, instances: false });
  if (o.bootstrap <= 0 || board.rows.length < 2) return undefined;
  const rowOf = new Map(board.rows.map((r, j) => [r.run, j]));
  const tasks: RankTask[] = [];
  let t = 0;
  for (const task of board.columns) {
    const seen = new Set<number>();
    const runs: RankTask['runs'] = [];
    for (const e of entries) {
      const row = rowOf.get(e.run);
      if (e.task !== task || row === undefined || seen.has(row) || !e.path || board.rows[row].values[task] === null) continue;
      // The entry the board kept for this run and task (of two runs of one model, the newest).
      if (board.rows[row].paths[task] !== undefined && board.rows[row].paths[task] !== e.path) continue;
      seen.add(row);
      const so = sources.get(e);
      if (!so) return undefined;
      const parsed = parseRun(e.path, resolveOptions(so));
      if (!parsed.set || parsed.set.n === 0) return undefined;
      runs.push({ row, path: e.path, set: parsed.set, options: so });
    }
    if (!runs.length) continue;
    let alignment;
    try {
      alignment = alignRuns(runs.map((r) => ({ path: r.path, set: r.set })));
    } catch (err) {
      if (err instanceof CompareError) {
        board.problems.push({ line: 1, severity: 'info', code: 'missing-field', message: `No rank intervals: the ${task} runs cannot be aligned item by item (${err.message})` });
        return undefined;
      }
      throw err;
    }
    if (alignment.n === 0) return undefined;
    tasks.push({ runs, rows: alignment.rows, n: alignment.n, seed: t === 0 ? o.seed : mixSeed(o.seed, t) });
    t++;
  }
  return tasks;
}

/**
 * Each run's `metric` on each of R draws of a task's aligned items (NaN where it is undefined):
 * the draws are made once and every run scored on each in turn, as the serial loop always did; a
 * worker given some of the runs computes exactly their values.
 */
export function drawValues(runs: readonly { set: RankTask['runs'][number]['set']; options: Partial<ScoreOptions> }[], rows: readonly Uint32Array[], n: number, seed: number, R: number, metric: MetricName): Float64Array[] {
  const resamplers = runs.map((r, i) => resampleMetrics(gatherSet(r.set, rows[i]), resolveOptions({ ...r.options, instances: false })));
  const out = runs.map(() => new Float64Array(R));
  const draws = new CountDraws(n, seed);
  for (let r = 0; r < R; r++) {
    const w = draws.next();
    for (let i = 0; i < runs.length; i++) {
      const v = resamplers[i](w)[metric];
      out[i][r] = typeof v === 'number' && Number.isFinite(v) ? v : NaN;
    }
  }
  return out;
}

/** The rows' resampled means (over the tasks of each row's board mean) and their rank intervals. */
export function rankFromValues(board: Board, tasks: readonly RankTask[], values: readonly Float64Array[][], R: number): void {
  const sums = board.rows.map(() => new Float64Array(R));
  const counts = board.rows.map(() => new Uint32Array(R));
  tasks.forEach((task, t) => {
    task.runs.forEach((run, i) => {
      const v = values[t][i];
      const s = sums[run.row];
      const c = counts[run.row];
      for (let r = 0; r < R; r++) {
        if (v[r] === v[r]) { s[r] += v[r]; c[r]++; } else s[r] = NaN;
      }
    });
  });
  // A row's resampled mean is over the tasks its board mean is over; NaN when one is undefined.
  const samples = board.rows.map((row, j) => sums[j].map((s, r) => (counts[j][r] === row.cells ? s / row.cells : NaN)));
  rankIntervals(board.rows, samples, board.better);
}

/** A different 32-bit seed for task t (as the paired bootstrap's strata). */
function mixSeed(seed: number, t: number): number {
  let h = (seed + Math.imul(t, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function withProblems(board: Board, problems: RowProblem[]): Board {
  board.problems.unshift(...problems);
  return board;
}

/** A scored file as a board entry, named from its metadata. */
export function entryOf(r: Report): BoardEntry {
  const own = (r.taskMetrics ?? []).filter((t) => typeof t.mean === 'number' && Number.isFinite(t.mean));
  const taskIntervals = Object.fromEntries(own.filter((t) => t.interval).map((t) => [t.name, t.interval!]));
  const declared = r.format === 'lighteval' && r.reportedPath && r.task ? lightevalDeclared(r.reportedPath, r.task, readText) : undefined;
  const base = {
    metrics: r.metrics, intervals: r.intervals, format: r.format, kind: r.kind, path: r.path,
    ...(own.length ? { taskMetrics: Object.fromEntries(own.map((t) => [t.name, t.mean])) } : {}),
    ...(Object.keys(taskIntervals).length ? { taskIntervals } : {}),
    ...(declared ? { declared } : {}),
  };
  const folder = basename(dirname(r.path));
  const stem = basename(r.path, extname(r.path));
  switch (r.format) {
    case 'folktexts': {
      const named = r.reportedPath ? folktextsNaming(readJson(r.reportedPath)) : {};
      const parts = folder.split('__');
      const model = named.model ?? (parts.length >= 2 ? parts[0] : stem.replace(/\.test_predictions$/i, ''));
      const task = named.task ?? (parts.length >= 2 ? parts[1] : r.task ?? 'all');
      const run = named.prompting ? `${model} · ${named.prompting}` : model;
      return { ...base, run, task, model, ...(named.prompting ? { prompting: named.prompting } : {}) };
    }
    case 'raft': return { ...base, run: basename(dirname(dirname(r.path))), task: r.task ?? folder };
    // The model its results file names, else the model folder lm-eval writes the samples into.
    case 'lm-eval': return { ...base, run: r.sourceModel && r.sourceModel.replace(/\//g, '__') !== folder ? r.sourceModel : folder, task: r.task ?? stem, ...lmEvalRun(r.reportedPath) };
    // One row per model (the log header's eval.model), one column per task.
    case 'inspect': return { ...base, run: r.sourceModel ?? folder, task: r.task ?? stem };
    case 'almanacs': return { ...base, run: folder, task: r.task ?? stem };
    // The model its results file names, else the model folders of lighteval's layout.
    case 'lighteval': return { ...base, run: r.sourceModel ?? lightevalModelOfPath(r.path) ?? stem, task: r.task ?? stem };
    default: return { ...base, run: stem, task: r.task ?? 'all' };
  }
}

/**
 * Two files of different folders that would be the same run and task (run-a/scores.csv and
 * run-b/scores.csv; two logs of one model) are two runs, named by their folders, not one run whose
 * second result is dropped. A file's own name stands for its run only while it tells the runs apart.
 */
export function disambiguateRuns(entries: BoardEntry[]): void {
  const byCell = new Map<string, BoardEntry[]>();
  for (const e of entries) {
    const key = `${e.run}\u0000${e.task}`;
    const list = byCell.get(key);
    if (list) list.push(e); else byCell.set(key, [e]);
  }
  for (const list of byCell.values()) {
    const folders = list.map((e) => (e.path ? basename(dirname(e.path)) : ''));
    if (list.length < 2 || new Set(folders).size !== list.length) continue;
    list.forEach((e, k) => {
      const stem = e.path ? basename(e.path, extname(e.path)) : '';
      // The generic reader names a run by its file's stem: there the folder is the run's name.
      e.run = e.run === stem ? folders[k] : `${e.run} (${folders[k]})`;
    });
  }
}

/**
 * lighteval's details/<org>/<model>/<date_id>/details_<task>_<date_id>.<ext> and
 * results/<org>/<model>/results_<date_id>.json: the folders between details/ (results/) and the
 * date folder or file are the model's name, as lighteval wrote it (EvaluationTracker).
 */
export function lightevalModelOfPath(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const k = Math.max(parts.lastIndexOf('details'), parts.lastIndexOf('results'));
  if (k < 0) return undefined;
  const model = parts.slice(k + 1, -1);
  if (model.length && /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}/.test(model[model.length - 1])) model.pop();
  return model.length ? model.join('/') : undefined;
}

/**
 * A summary's reported figures as board entries: one per task (not lighteval's "all" average), the
 * figures under their metric names (their _stderr left out), the row its model.
 */
function summaryEntries(r: Report): BoardEntry[] {
  const byTask = new Map<string, Record<string, number | null>>();
  for (const f of r.summary?.figures ?? []) {
    if (!f.task || f.task === 'all' || /_stderr$/.test(f.metric)) continue;
    const figures = byTask.get(f.task) ?? byTask.set(f.task, {}).get(f.task)!;
    figures[f.metric] = typeof f.value === 'number' && Number.isFinite(f.value) ? f.value : null;
  }
  const run = r.sourceModel ?? (r.summary?.harness === 'lighteval' ? lightevalModelOfPath(r.path) : undefined) ?? basename(r.path, extname(r.path));
  return [...byTask].map(([task, taskMetrics]) => {
    const declared: DeclaredMetrics | undefined = r.summary?.harness === 'lighteval' ? lightevalDeclared(r.path, task, readText) : undefined;
    return { run, task, metrics: {}, taskMetrics, format: r.format, path: r.path, ...(declared ? { declared } : {}), ...(r.summary?.harness === 'lm-eval' ? lmEvalRun(r.path) : {}) };
  });
}

/** An lm-eval run's revision and date, from its results file (read once, not once per task; by path and mtime, as the extension lives on). */
const runStamps = new Map<string, Pick<BoardEntry, 'revision' | 'date' | 'source'>>();
function lmEvalRun(resultsPath: string | undefined): Pick<BoardEntry, 'revision' | 'date' | 'source'> {
  if (!resultsPath) return {};
  let mtime = 0;
  try { mtime = statSync(resultsPath).mtimeMs; } catch { return {}; }
  const key = `${resultsPath}\u0000${mtime}`;
  let stamp = runStamps.get(key);
  if (!stamp) {
    const doc = readJson(resultsPath);
    stamp = { ...runStampOfResults(doc && typeof doc === 'object' && !Array.isArray(doc) ? doc as Record<string, unknown> : undefined, resultsPath), source: resultsPath };
    if (runStamps.size > 64) runStamps.clear();
    runStamps.set(key, stamp);
  }
  return stamp;
}

function readText(path: string): string | undefined {
  try { return readFileSync(path, 'utf8'); } catch { return undefined; }
}

function readJson(path: string): unknown {
  try {
    return parsePythonJson(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
