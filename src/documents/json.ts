// The JSON documents of `eval-lens score`, `compare` and `board` (--json), which the panels' exports
// write too: one home, so a file saved from VS Code and the CLI's output are the same document.
import type { GroupsResult, Report } from '../core/types';
import type { Comparison } from '../core/compare/compare';
import type { BoardResult } from '../core/boardFiles';
import type { ScoreResult } from '../core/score';
import { reportMetricNames } from './metricOrder';
import { nonFiniteText } from '../core/formats/pythonJson';

/** The --json document: version 1, one result per file, and a summary. Per-instance columns stay out. */
export function toJson(reports: Report[], summary: ScoreResult['summary']) {
  return {
    version: 1,
    results: reports.map((r) => ({
      path: r.path,
      format: r.format,
      kind: r.kindUnknown || r.notScored ? null : r.kind,
      ...(r.notScored ? { notScored: true } : {}),
      ...(r.task ? { task: r.task } : {}),
      n: r.n,
      ...(r.filter ? { filter: r.filter } : {}),
      skipped: r.skipped,
      unlabeled: r.unlabeled,
      metrics: orderedMetrics(r),
      intervals: r.intervals,
      ...(r.standard_errors ? { standard_errors: r.standard_errors } : {}),
      ...(r.interval_method ? { interval_method: r.interval_method } : {}),
      ...(r.rough_intervals ? { rough_intervals: true } : {}),
      ...(r.clusters ? { clusters: r.clusters } : {}),
      ...(r.repeats ? { repeats: r.repeats } : {}),
      ...(r.kind === 'binary' && r.n > 0 ? { threshold: r.options.threshold } : {}),
      ...(r.groups ? { groups: groupsJson(r.groups) } : {}),
      reported: r.reported,
      ...(r.reportedNonFinite ? { reportedNonFinite: r.reportedNonFinite } : {}),
      ...(r.reportedOn !== undefined ? { reportedOn: r.reportedOn } : {}),
      ...(r.summary ? { summary: summaryJson(r.summary) } : {}),
      ...(r.reportedNotes ? { reportedNotes: r.reportedNotes } : {}),
      ...(r.taskMetrics?.length ? { taskMetrics: r.taskMetrics.map(taskMetricJson) } : {}),
      ...(r.epochs ? { epochs: r.epochs } : {}),
      ...(r.sourceModel ? { sourceModel: r.sourceModel } : {}),
      ...(r.tasks ? { tasks: r.tasks } : {}),
      ...(r.models ? { models: r.models, model: r.model } : {}),
      ...(r.decision ? { decision: r.decision } : {}),
      ...(r.fatal ? { fatal: r.fatal } : {}),
      problems: r.problems,
      bins: r.bins,
      ...(r.smoothReliability ? { smoothReliability: r.smoothReliability } : {}),
      roc: r.roc,
      ...(r.classStats ? { classes: r.classStats } : {}),
      ...(r.errorGroups ? { error_groups: r.errorGroups } : {}),
      ...(r.slices ? { slices: r.slices } : {}),
      ...(r.breakdown ? { breakdown: r.breakdown } : {}),
      ...(r.judge ? judgeJson(r.judge) : {}),
    })),
    summary,
  };
}

/** A summary file's figures, each value as `reported` holds it (a non-finite one as its spelling). */
function summaryJson(s: NonNullable<Report['summary']>) {
  return { ...s, figures: s.figures.map((f) => (f.value === null || Number.isFinite(f.value) ? f : { ...f, value: pythonNumber(f.value) })) };
}

/**
 * A judge file's figures (docs/metrics.md, "Judges"): `judge` as Report.judge, and the arena
 * ratings also at the result's top level, `ratings: [{model, rating, interval, rank, rank_interval, ...}]`.
 */
function judgeJson(j: NonNullable<Report['judge']>) {
  return { judge: j, ...(j.ratings ? { ratings: j.ratings } : {}) };
}

/** A figure JSON can carry: NaN and infinities as Python's json spells them ("Infinity"), as reportedNonFinite does. */
function pythonNumber(v: number): number | 'NaN' | 'Infinity' | '-Infinity' {
  return (nonFiniteText(v) as 'NaN' | 'Infinity' | '-Infinity' | undefined) ?? v;
}

/** A task's own per-sample metric: {name, n, mean, interval?, reported?}, a non-finite figure as its spelling. */
function taskMetricJson(t: NonNullable<Report['taskMetrics']>[number]) {
  return {
    name: t.name,
    n: t.n,
    mean: t.mean === null ? null : pythonNumber(t.mean),
    ...(t.interval ? { interval: t.interval.map(pythonNumber) } : {}),
    ...(t.reported !== undefined ? { reported: t.reported === null ? null : pythonNumber(t.reported) } : {}),
  };
}

function orderedMetrics(r: Report): Report['metrics'] {
  const out: Report['metrics'] = {};
  for (const name of reportMetricNames(r)) {
    const v = r.metrics[name]!;
    out[name] = v === null || Number.isFinite(v) ? v : null;
  }
  return out;
}

/** The groups as --json prints them: non-finite figures as null, like the file's own metrics. */
export function groupsJson(g: GroupsResult): GroupsResult {
  const clean = <T extends Record<string, unknown>>(m: T): T =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'number' && !Number.isFinite(v) ? null : v])) as T;
  const { rowGroup: _rows, ...rest } = g;
  return { ...rest, groups: g.groups.map((s) => ({ ...s, metrics: clean(s.metrics) })), fairness: clean(g.fairness) };
}

/** The --json document: {"version": 1, "comparison": ...}, non-finite numbers as null. */
export function compareJson(comparison: Comparison) {
  return { version: 1, comparison };
}

/** The --json document: {"version": 1, "board": ...} (and the pivots for --pivot prompting). */
export function boardJson(result: BoardResult) {
  return { version: 1, board: result.board, ...(result.pivots ? { pivots: result.pivots } : {}) };
}
