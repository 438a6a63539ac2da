// The compare and leaderboard jobs of the scoring worker: every file is read, scored and aligned
// here, never on the extension host's thread. What comes back is small: the comparison document,
// each run's chart data (bins, a thinned ROC curve, a histogram, class stats) and the aligned
// instances of each agreement cell up to a cap, as display strings.
import { basename, dirname, relative } from 'node:path';
import { boardPaths } from '../../core/boardFiles';
import { compareRunsDetailed } from '../../core/compare/compare';
import { comparePaths, modelRuns, withoutRowOrderNote } from '../../core/compareFiles';
import { isDirectory, nodeCompanionReader } from '../../core/io';
import { comparisonSlices } from '../../core/compare/compareSlices';
import { buildReport, resolveOptions } from '../../core/report';
import { parseFile } from '../../core/score';
import type { Report, ScoreOptions } from '../../core/types';
import { reportCharts } from '../../common/chartData';
import { decimateCurve, ROC_CHART_POINTS } from '../../common/curves';
import { instanceId } from '../../common/instanceIds';
import type {
  Agreement, AgreementCell, BoardView, ComparisonResult, CompareRunView, CompareView, PairRow, PairTable,
} from '../../common/compareProtocol';

/** Aligned instances sent per agreement cell: the discordant cells are what people read. */
export const PAIR_CAP = 2000;

export type Progress = (fraction: number) => void;

function runLabel(r: Report): string {
  if (r.format === 'raft') return `${basename(dirname(dirname(r.path)))}/${r.task ?? basename(dirname(r.path))}`;
  if (r.format === 'folktexts') return basename(r.path).replace(/\.test_predictions\.csv$/i, '').replace(/__.*$/, '');
  if (r.format === 'lm-eval') return `${basename(dirname(r.path))}/${r.task ?? basename(r.path)}`;
  return basename(r.path);
}

function runView(r: Report): CompareRunView {
  const roc = r.roc ? decimateCurve(r.roc.fpr, r.roc.tpr, ROC_CHART_POINTS) : null;
  return {
    path: r.path, label: runLabel(r), kind: r.kind, bins: r.bins,
    roc: roc ? { fpr: roc.x, tpr: roc.y } : null,
    histogram: reportCharts(r).histogram,
    classStats: r.classStats,
    smoothReliability: r.smoothReliability ?? null,
  };
}

function classText(r: Report, k: number): string {
  if (k < 0) return '—';
  return r.kind === 'multiclass' ? r.classes?.[k] ?? String(k) : String(k);
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/**
 * Baseline vs one candidate: the agreement counts and the aligned instances (the core's alignment:
 * `left[k]` and `right[k]` are the rows of aligned instance k in each run), capped per cell.
 */
export function pairTable(base: Report, cand: Report, left: Uint32Array, right: Uint32Array, candidate: number, ids?: string[], slices?: Record<string, (string | undefined)[]>): PairTable {
  const sliceColumns = slices ? Object.keys(slices) : [];
  const a = base.instances!;
  const b = cand.instances!;
  const counts: Agreement = { both_right: 0, baseline_only: 0, candidate_only: 0, both_wrong: 0 };
  const rows: PairRow[] = [];
  const texts = base.texts?.fields.length ? base.texts : cand.texts?.fields.length ? cand.texts : undefined;
  const textsFromBase = texts === base.texts;
  for (let k = 0; k < left.length; k++) {
    const i = left[k];
    const j = right[k];
    const cell: AgreementCell = a.correct[i] ? (b.correct[j] ? 'both_right' : 'baseline_only') : b.correct[j] ? 'candidate_only' : 'both_wrong';
    if (counts[cell]++ >= PAIR_CAP) continue;
    const row: PairRow = {
      id: ids?.[k] ?? instanceId(a, i) ?? `row ${i + 1}`,
      cell,
      lines: [a.lines[i], b.lines[j]],
      gold: classText(base, a.gold[i]),
      preds: [classText(base, a.pred[i]), classText(cand, b.pred[j])],
      values: base.kind === 'binary' ? [finite(a.value[i]), finite(b.value[j])] : [finite(a.confidence[i]), finite(b.confidence[j])],
    };
    if (texts) row.texts = texts.values[textsFromBase ? i : j] ?? [];
    if (sliceColumns.length) row.slices = sliceColumns.map((c) => slices![c][k]);
    rows.push(row);
  }
  return { candidate, counts, cap: PAIR_CAP, rows, textFields: texts?.fields ?? [], paths: [base.path, cand.path], ...(sliceColumns.length ? { sliceColumns } : {}) };
}

/**
 * The compare job. Files: each is parsed once; the core compares them (alignment by ID, paired
 * bootstrap, DeLong, McNemar, Holm) and the same parses give each run's charts and the aligned
 * instances. Run folders (RAFT): the core's task-by-task comparison, without per-instance views.
 */
export function compareJob(paths: string[], options: Partial<ScoreOptions>, progress: Progress): CompareView {
  const o = resolveOptions({ ...options, bootstrap: 0, instances: true });
  // One file with several models' columns: each model is a run.
  const models = paths.length === 1 ? modelRuns(paths[0], o) : [];
  if (paths.length < 2 && !models.length) throw new Error('Compare needs two runs or more: a baseline and at least one candidate.');
  if (paths.some((p) => isDirectory(p))) {
    const comparison = comparePaths(paths, { ...options, onProgress: (f) => progress(f) }) as ComparisonResult;
    return { comparison, runs: [], pairs: [], note: 'Run folders are compared task by task; open two task files to see their charts and instances side by side.' };
  }
  const runs = models.length ? models.map((m) => ({ path: paths[0], name: m.name, options: m.options })) : paths.map((path) => ({ path, name: undefined, options: o }));
  const parsed = runs.map((r, k) => parseFile(r.path, { ...r.options, onProgress: (f, phase) => progress(phase === 'parse' ? (0.4 * (k + f)) / runs.length : (0.4 * (k + 1)) / runs.length) }));
  const detail = compareRunsDetailed(runs.map((r, k) => ({ path: r.path, name: r.name, parsed: parsed[k] })), { ...options, onProgress: (f) => progress(0.4 + 0.5 * f) });
  const comparison = models.length ? withoutRowOrderNote(detail.comparison) : detail.comparison;
  // "Where it differs": every column of the baseline file with few values (or numeric, cut in
  // quartiles), each slice's paired test, Holm over all (src/core/compare/sliceFinder.ts).
  // The baseline's joined data file ("Join data file…" in its report) gives its columns too (issue 28.4).
  let sliceLabels: Record<string, (string | undefined)[]> | undefined;
  if (!models.length && comparison.kind !== 'probability') {
    const dataPath = options.listColumns?.dataPath;
    const spec = { columns: 'auto' as const, ...(dataPath ? { dataPath } : {}) };
    const found = comparisonSlices(detail, runs.map((r, k) => ({ path: r.path, name: r.name, parsed: parsed[k] })), spec, resolveOptions({ ...options, instances: false }), nodeCompanionReader);
    if (found.slices.length) {
      comparison.slices = found.slices;
      sliceLabels = found.labels;
    } else {
      const file = basename(runs[0].path);
      comparison.slices_note = found.problems.length
        ? `Where it differs: ${found.problems[0].message}`
        : `Where it differs: no column of ${file}${dataPath ? ` or of its data file ${basename(dataPath)}` : ''} has few enough values (or numbers) to slice by${dataPath ? '' : '; "Join data file…" in its report adds the columns of a data file joined on ID'}.`;
    }
  } else if (comparison.kind === 'probability') {
    comparison.slices_note = 'Where it differs: slices are tested on right/wrong answers, and probabilities have none.';
  }
  const reports = parsed.map((p, k) => buildReport(runs[k].path, p, runs[k].options));
  progress(0.95);
  const { alignment } = detail;
  const pairs: PairTable[] = [];
  if (comparison.kind !== 'probability' && reports.every((r) => r.instances)) {
    for (let c = 1; c < reports.length; c++) pairs.push(pairTable(reports[0], reports[c], alignment.rows[0], alignment.rows[c], c, alignment.ids, sliceLabels));
  }
  // The overlaid charts show what the metric table measures: the aligned instances only. When a
  // run has rows the others lack, its charts are drawn from its aligned subset.
  const charted = reports.map((r, k) => (detail.subsets[k].n === (parsed[k].set?.n ?? 0)
    ? r
    : buildReport(runs[k].path, { ...parsed[k], set: detail.subsets[k] }, runs[k].options)));
  progress(1);
  const views = charted.map((r, k) => ({ ...runView(r), ...(runs[k].name ? { label: runs[k].name } : {}) }));
  return { comparison: comparison as ComparisonResult, runs: views, pairs };
}

function pathBelow(folder: string, path: string): string {
  const rel = relative(folder, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** The leaderboard job: the core's board of the runs below a folder, and each cell's file. */
export function boardJob(folder: string, options: Partial<ScoreOptions>, progress: Progress): BoardView {
  const { board } = boardPaths([folder], { ...options, instances: false, onProgress: (f) => progress(0.95 * f) });
  progress(1);
  return {
    folder,
    board,
    paths: Object.fromEntries(board.rows.map((r) => [r.run, r.paths])),
    higherIsBetter: board.better === 'higher',
    // Named by their place below the folder: runs' files often share one name (results_<time>.json).
    problems: board.problems.map((p) => `${p.path ? `${pathBelow(folder, p.path)}: ` : ''}${p.message}`),
  };
}
