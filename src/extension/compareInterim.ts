// INTERIM, until the comparison core (src/core/compare, branch `compare`) lands: a comparison and
// a leaderboard in the shape of issue 7's JSON, from what the scorer already gives. Values are each
// run's own figures; accuracy gets its exact McNemar test on the aligned instances; the other
// metrics' intervals and p-values are left null (the panel says so). Replaced by the core's
// compare() and board() as soon as they exist.
import { basename, dirname } from 'node:path';
import { METRIC_NAMES, type MetricName, type Report, type ScoreOptions } from '../core/types';
import type { BoardView, ComparisonResult, MetricComparison } from '../shared/compareProtocol';
import { alignPairs } from './compareAlign';

const TESTS: Partial<Record<MetricName, string>> = { auc: 'delong', accuracy: 'mcnemar' };

/** Exact two-sided McNemar p: min(1, 2 P[X <= min(b, c)]), X ~ Binomial(b + c, 1/2). */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // log C(n, i) - n log 2, summed in a stable way.
  let logTerm = -n * Math.LN2; // i = 0
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i);
    sum += Math.exp(logTerm);
  }
  return Math.min(1, 2 * sum);
}

export function interimComparison(reports: Report[], options: Partial<ScoreOptions>): { comparison: ComparisonResult; note: string } {
  const base = reports[0];
  const alignments = reports.map((r) => alignPairs(base, r));
  const aligned = Math.min(...alignments.map((a) => a.left.length));
  const unmatched = reports.map((r, k) => (r.instances?.lines.length ?? r.n) - (k === 0 ? aligned : alignments[k].right.length));
  const metrics: Record<string, MetricComparison> = {};
  for (const m of METRIC_NAMES) {
    const values = reports.map((r) => (typeof r.metrics[m] === 'number' ? (r.metrics[m] as number) : null));
    if (values.every((v) => v === null)) continue;
    const deltas = values.map((v, k) => (k === 0 || v === null || values[0] === null ? null : v - values[0]));
    metrics[m] = {
      values, deltas, intervals: values.map(() => null), p_values: values.map(() => null),
      statistics: values.map(() => null), test: TESTS[m] ?? 'bootstrap',
    };
  }
  const agreement = reports.map((r, k) => {
    if (k === 0 || base.kind === 'probability') return null;
    const { left, right } = alignments[k];
    const counts = { both_right: 0, baseline_only: 0, candidate_only: 0, both_wrong: 0 };
    for (let t = 0; t < left.length; t++) {
      const a = base.instances!.correct[left[t]];
      const b = r.instances!.correct[right[t]];
      if (a && b) counts.both_right++;
      else if (a) counts.baseline_only++;
      else if (b) counts.candidate_only++;
      else counts.both_wrong++;
    }
    return counts;
  });
  if (metrics.accuracy) {
    metrics.accuracy.p_values = agreement.map((a) => (a ? mcnemarExact(a.baseline_only, a.candidate_only) : null));
  }
  const problems: ComparisonResult['problems'] = [];
  if (!alignments.every((a) => a.byId)) problems.push({ severity: 'warning', message: 'Not every file has instance IDs: runs were aligned by row order.' });
  unmatched.forEach((u, k) => {
    if (u > 0) problems.push({ severity: 'warning', message: `${basename(reports[k].path)}: ${u} instance${u === 1 ? '' : 's'} not in every run, left out.`, path: reports[k].path });
  });
  return {
    comparison: {
      kind: base.kind, runs: reports.map((r) => ({ path: r.path, format: r.format, n: r.n, task: r.task })),
      aligned, unmatched, metrics, agreement, problems, bootstrap: options.bootstrap ?? 0, seed: options.seed ?? 0,
    },
    note: 'Interim figures: the comparison core has not landed yet. Values are each run\'s own; only accuracy has its test (exact McNemar); other intervals and p-values are pending.',
  };
}

const HIGHER_IS_BETTER = new Set(['accuracy', 'auc', 'macro_f1', 'raft_score', 'spearman']);

function boardMetric(r: Report): MetricName {
  if (r.format === 'raft') return 'macro_f1';
  if (r.kind === 'probability') return 'mse';
  if (r.kind === 'binary') return 'auc';
  return 'accuracy';
}

/** Run and task names from the files' own layout (folktexts Model__Task__..., RAFT run/task folders). */
function runAndTask(r: Report): { run: string; task: string } {
  const file = basename(r.path);
  if (r.format === 'raft') return { run: basename(dirname(dirname(r.path))), task: r.task ?? basename(dirname(r.path)) };
  if (r.format === 'folktexts') {
    const stem = file.replace(/\.test_predictions\.csv$/i, '');
    const parts = stem.split('__');
    return parts.length >= 2 ? { run: parts[0], task: parts[1] } : { run: stem, task: 'task' };
  }
  if (r.format === 'lm-eval') return { run: basename(dirname(r.path)), task: r.task ?? file };
  return { run: file.replace(/\.[^.]+$/, ''), task: r.task ?? r.kind };
}

export function interimBoard(folder: string, reports: Report[]): BoardView {
  const scored = reports.filter((r) => !r.fatal && r.n > 0);
  const problems = reports.filter((r) => r.fatal).map((r) => `${basename(r.path)}: ${r.fatal}`);
  // The metric most files have as their headline; files of another kind are listed as problems.
  const tally = new Map<MetricName, number>();
  for (const r of scored) tally.set(boardMetric(r), (tally.get(boardMetric(r)) ?? 0) + 1);
  const metric = [...tally].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'accuracy';
  const columns: string[] = [];
  const rows = new Map<string, { values: Record<string, number | null>; intervals: Record<string, [number, number] | null> }>();
  const paths: Record<string, Record<string, string>> = {};
  for (const r of scored) {
    if (boardMetric(r) !== metric) {
      problems.push(`${basename(r.path)}: its headline metric is not ${metric}; left off the board.`);
      continue;
    }
    const { run, task } = runAndTask(r);
    if (!columns.includes(task)) columns.push(task);
    const row = rows.get(run) ?? { values: {}, intervals: {} };
    rows.set(run, row);
    row.values[task] = typeof r.metrics[metric] === 'number' ? (r.metrics[metric] as number) : null;
    row.intervals[task] = r.intervals[metric] ?? null;
    (paths[run] ??= {})[task] = r.path;
  }
  columns.sort();
  return {
    folder,
    board: {
      metric: metric === 'macro_f1' && scored.every((r) => r.format === 'raft') ? 'macro_f1' : metric,
      columns,
      rows: [...rows].sort((a, b) => a[0].localeCompare(b[0])).map(([run, row]) => {
        const vals = columns.map((c) => row.values[c]).filter((v): v is number => typeof v === 'number');
        return { run, values: row.values, intervals: row.intervals, mean: vals.length ? vals.reduce((s, v) => s + v, 0) / vals.length : null };
      }),
    },
    paths,
    higherIsBetter: HIGHER_IS_BETTER.has(metric),
    problems,
  };
}
