// The compare and leaderboard jobs of the scoring worker: every file is read, scored and aligned
// here, never on the extension host's thread. What comes back is small: the comparison document,
// each run's chart data (bins, a thinned ROC curve, a histogram, class stats) and the aligned
// instances of each agreement cell up to a cap, as display strings.
import { basename, dirname } from 'node:path';
import { nodeCompanionReader, scorePath } from '../core/index';
import type { Report, ScoreOptions } from '../core/types';
import {
  type Agreement, type AgreementCell, type BoardView, type CompareRunView, type CompareView,
  type PairRow, type PairTable,
} from '../shared/compareProtocol';
import { decimateCurve, reportCharts } from '../shared/chartData';
import { alignPairs } from './compareAlign';
import { interimBoard, interimComparison } from './compareInterim';

/** Aligned instances sent per agreement cell: the discordant cells are what people read. */
export const PAIR_CAP = 2000;

export type Progress = (fraction: number) => void;

/** Scores each run (a file or a run folder) with per-instance columns; progress spread over the runs. */
function scoreRuns(paths: string[], options: Partial<ScoreOptions>, progress: Progress): Report[] {
  const reports: Report[] = [];
  paths.forEach((path, k) => {
    const onProgress = (f: number, phase: 'parse' | 'score') => progress(0.9 * ((k + (phase === 'parse' ? 0.9 * f : 0.9 + 0.1 * f)) / paths.length));
    const result = scorePath(path, { ...options, bootstrap: 0, instances: true, onProgress }, nodeCompanionReader);
    const scored = result.reports.filter((r) => !r.fatal || r.n > 0);
    if (!scored.length) throw new Error(`${path}: ${result.reports[0]?.fatal ?? 'no prediction file found'}`);
    if (scored.length > 1) throw new Error(`${path} holds ${scored.length} prediction files; pick one file per run to compare.`);
    reports.push(scored[0]);
  });
  return reports;
}

function runLabel(r: Report): string {
  if (r.format === 'raft') return `${basename(dirname(dirname(r.path)))}/${r.task ?? basename(dirname(r.path))}`;
  if (r.format === 'folktexts') return basename(r.path).replace(/\.test_predictions\.csv$/i, '').replace(/__.*$/, '');
  if (r.format === 'lm-eval') return `${basename(dirname(r.path))}/${r.task ?? basename(r.path)}`;
  return basename(r.path);
}

function runView(r: Report): CompareRunView {
  const roc = r.roc ? decimateCurve(r.roc.fpr, r.roc.tpr, 1500) : null;
  return {
    path: r.path, label: runLabel(r), kind: r.kind, bins: r.bins,
    roc: roc ? { fpr: roc.x, tpr: roc.y } : null,
    histogram: reportCharts(r).histogram,
    classStats: r.classStats,
  };
}

function classText(r: Report, k: number): string {
  if (k < 0) return '—';
  return r.kind === 'multiclass' ? r.classes?.[k] ?? String(k) : String(k);
}

function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/** Baseline vs one candidate: the agreement counts and the aligned instances, capped per cell. */
export function pairTable(base: Report, cand: Report, candidate: number): PairTable {
  const { left, right } = alignPairs(base, cand);
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
      id: a.ids?.[i] ?? String(i + 1),
      cell,
      lines: [a.lines[i], b.lines[j]],
      gold: classText(base, a.gold[i]),
      preds: [classText(base, a.pred[i]), classText(cand, b.pred[j])],
      values: base.kind === 'binary' ? [finite(a.value[i]), finite(b.value[j])] : [finite(a.confidence[i]), finite(b.confidence[j])],
    };
    if (texts) row.texts = texts.values[textsFromBase ? i : j] ?? [];
    rows.push(row);
  }
  return { candidate, counts, cap: PAIR_CAP, rows, textFields: texts?.fields ?? [], paths: [base.path, cand.path] };
}

/** The compare job: score, align, compare, and shape for the panel. */
export function compareJob(paths: string[], options: Partial<ScoreOptions>, progress: Progress): CompareView {
  if (paths.length < 2) throw new Error('Compare needs two runs or more: a baseline and at least one candidate.');
  const reports = scoreRuns(paths, options, progress);
  const kinds = new Set(reports.map((r) => r.kind));
  if (kinds.size > 1) throw new Error(`These runs are of different kinds (${reports.map((r) => `${basename(r.path)}: ${r.kind}`).join(', ')}); only runs of the same kind compare.`);
  const { comparison, note } = interimComparison(reports, options);
  progress(0.97);
  if (comparison.aligned === 0) throw new Error('These runs have no instance in common (by ID, or by row when no file has IDs).');
  const correctKind = reports[0].kind !== 'probability';
  const pairs = correctKind ? reports.slice(1).map((r, k) => pairTable(reports[0], r, k + 1)) : [];
  progress(1);
  return { comparison, runs: reports.map(runView), pairs, note };
}

/** The leaderboard job for a folder. */
export function boardJob(folder: string, options: Partial<ScoreOptions>, progress: Progress): BoardView {
  const result = scorePath(folder, { ...options, instances: false, onProgress: (f) => progress(0.95 * f) }, nodeCompanionReader);
  progress(1);
  return interimBoard(folder, result.reports);
}
