// The Node side of leaderboards: score the files and folders named on a command line, name each
// result by its files' own metadata, and build the board (./compare/board.ts):
// - folktexts: the results JSON's model, task and numeric vs multiple-choice prompting (else the
//   run folder's name, `<model>__<task>__...`);
// - RAFT: the run folder (run/<task>/predictions.csv), the task its data set;
// - lm-eval: the model its results file names, else the model folder (the samples file's folder),
//   the task from the file name;
// - Inspect: the model of the log's header, the task of the log;
// - ALMANACS: the method (the file's folder) and the data set (the task);
// - generic: the file name.
// A folktexts aggregated-results*.csv is read as reported figures.
import { readFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import type { MetricName, Report, RowProblem, ScoreOptions } from './types';
import { isDirectory } from './io';
import { scoreFile, scorePath } from './score';
import { modelsOf } from './compareFiles';
import { parsePythonJson } from './formats/pythonJson';
import {
  aggregatedResultsEntries, buildBoard, folktextsNaming, isAggregatedResults, pivotPrompting,
  type Board, type BoardEntry,
} from './compare/board';

export interface BoardRequest {
  metric?: MetricName;
  pivot?: 'prompting';
}

export interface BoardResult {
  board: Board;
  /** --pivot prompting without --metric: the ECE and AUC pivots (board is the first). */
  pivots?: Partial<Record<MetricName, Board>>;
}

/** Score `paths` and lay the results out as a board. */
export function boardPaths(paths: readonly string[], options: Partial<ScoreOptions>, request: BoardRequest = {}): BoardResult {
  const entries: BoardEntry[] = [];
  const problems: RowProblem[] = [];
  let reported = false;
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
        const report = scoreFile(path, { ...options, format: 'generic', mapping: { ...options.mapping, ...m.mapping } });
        entries.push({ ...entryOf(report), run: m.model });
      }
      continue;
    }
    for (const report of scorePath(path, options).reports) {
      if (report.fatal && report.n === 0) {
        // A data file the scan did not take as predictions (RAFT train.csv, ...) is information.
        problems.push({ line: 1, severity: report.notScored ? 'info' : 'warning', code: 'unscorable', path: report.path, message: `Not on the board: ${report.fatal}` });
        continue;
      }
      entries.push(entryOf(report));
    }
  }
  if (request.pivot === 'prompting') {
    const metrics: MetricName[] = request.metric ? [request.metric] : ['ece', 'auc'];
    const pivots: Partial<Record<MetricName, Board>> = {};
    for (const m of metrics) pivots[m] = withProblems(pivotPrompting(entries, m), problems);
    return { board: pivots[metrics[0]]!, pivots };
  }
  const board = buildBoard(entries, { metric: request.metric, source: reported && entries.every((e) => !e.intervals) ? 'reported' : 'computed' });
  return { board: withProblems(board, problems) };
}

function withProblems(board: Board, problems: RowProblem[]): Board {
  board.problems.unshift(...problems);
  return board;
}

/** A scored file as a board entry, named from its metadata. */
export function entryOf(r: Report): BoardEntry {
  const base = { metrics: r.metrics, intervals: r.intervals, format: r.format, kind: r.kind, path: r.path };
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
    case 'lm-eval': return { ...base, run: r.sourceModel && r.sourceModel.replace(/\//g, '__') !== folder ? r.sourceModel : folder, task: r.task ?? stem };
    // One row per model (the log header's eval.model), one column per task.
    case 'inspect': return { ...base, run: r.sourceModel ?? folder, task: r.task ?? stem };
    case 'almanacs': return { ...base, run: folder, task: r.task ?? stem };
    default: return { ...base, run: stem, task: r.task ?? 'all' };
  }
}

function readJson(path: string): unknown {
  try {
    return parsePythonJson(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
