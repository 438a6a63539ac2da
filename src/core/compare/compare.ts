// Comparing runs of one benchmark (issue 7): align them instance by instance, then for every
// metric of the kind each run's value, the delta to the baseline (the first run), a paired
// bootstrap interval of the delta and a two-sided p-value (DeLong for auc, exact McNemar for
// accuracy, the paired bootstrap for the rest), Holm-adjusted over several candidates, and the
// agreement table. Pure: parsed files in, a plain JSON-able Comparison out (no fs, no vscode), so
// it runs in the CLI, in a worker and in tests; output formatters are separate modules.
import type { Kind, MetricName, ParseResult, PredictionSet, RowProblem, ScoreOptions } from '../types';
import { METRIC_NAMES } from '../types';
import { gatherSet, naiveResample, resampleMetrics, resolveOptions, scoreSet } from '../report';
import { FEWEST_CLUSTERS_FOR_BOOTSTRAP, meanMetrics, rowCounts } from '../errorBars';
import { clusterCodes, pairedPower, type ClusterCodes } from '../metrics/errorBars';
import { ScoreCancelledError } from '../formats/progress';
import { shellWords } from '../../common/shellQuote';
import { alignRuns, CompareError, type Alignment } from './align';
import { agreementCounts, closerCounts, correctness, type AgreementCounts, type CloserCounts } from './agreement';
import { delongTest } from './delong';
import { holm } from './holm';
import { mcnemarExact } from './mcnemar';
import { oneStratum, pairedBootstrap, type PairedDelta, type StrataResampler } from './pairedBootstrap';
import { judgeCompareProblems } from '../judges/judgeCompare';
import { lmEvalMetrics } from '../metrics/lmEvalMetrics';

export { CompareError } from './align';
export type { Alignment } from './align';

/**
 * Fewer aligned instances (clusters, with --cluster) than this: no paired bootstrap and no DeLong
 * test, as score gives no cluster-bootstrap interval below as many clusters (errorBars.ts): a
 * bootstrap over 1 instance has 1 resample, over 4 a handful of distinct ones. McNemar's exact
 * test stands at any n.
 */
export const FEWEST_ALIGNED_FOR_TESTS = FEWEST_CLUSTERS_FOR_BOOTSTRAP;

/** Resamples when the caller does not say: the issue's --bootstrap default. */
export const DEFAULT_COMPARE_RESAMPLES = 1000;

/** One run to compare: a parsed file. */
export interface CompareRunInput {
  path: string;
  parsed: ParseResult;
  /** A display name (board and panel); defaults to the path. */
  name?: string;
  /** The baseline's cluster column (--cluster): its value for each row of the set (undefined: none). */
  clusters?: { column: string; values: (string | undefined)[] };
}

export type CompareTest = 'delong' | 'mcnemar' | 'bootstrap';

/** One metric across the runs; index 0 is the baseline, whose delta, interval, p and statistic are null. */
export interface MetricComparison {
  values: (number | null)[];
  /** candidate - baseline. */
  deltas: (number | null)[];
  /** Paired percentile bootstrap interval of the delta (level `Comparison.bootstrap.level`). */
  intervals: ([number, number] | null)[];
  /** Two-sided p-value of `test`. */
  p_values: (number | null)[];
  /** Holm-adjusted over the candidates; only with two or more candidates. */
  p_values_holm?: (number | null)[];
  /** DeLong's z for auc; null otherwise. */
  statistics: (number | null)[];
  test: CompareTest;
  /**
   * Mean metrics: the smallest difference the aligned items detect at 80% power (alpha 0.05,
   * two-sided), (z_0.975 + z_0.8) * SE of the mean paired difference (clustered with clusters).
   */
  mde?: (number | null)[];
  /** Mean metrics: the items needed to detect the observed delta, ceil(((z_0.975 + z_0.8) sd(d) / |delta|)^2); null when delta = 0. */
  n_needed?: (number | null)[];
  /** Why a candidate has no p-value although the metric has a test (too few instances, a bootstrap whose resamples are all equal); null elsewhere. */
  no_test?: (string | null)[];
}

export interface RunInfo {
  path: string;
  format: ParseResult['format'];
  /** Scored rows of the file (before alignment). */
  n: number;
  task?: string;
  name: string;
}

export interface Comparison {
  kind: Kind;
  task?: string;
  runs: RunInfo[];
  /** Instances in every run: every figure is computed on these only. */
  aligned: number;
  aligned_by: 'id' | 'row-order';
  /** Per run: scored rows left out of the comparison. */
  unmatched: number[];
  /** By metric name (docs/metrics.md), in METRIC_NAMES order. */
  metrics: Partial<Record<MetricName, MetricComparison>>;
  /** Per run (baseline null): the 2x2 table, or for probabilities who is closer to the truth. */
  agreement: (AgreementCounts | CloserCounts | null)[];
  /** Problems of the comparison (alignment, mismatched labels or class lists), each naming its file. */
  problems: RowProblem[];
  bootstrap: { resamples: number; seed: number; level: number };
  /** --cluster: the baseline's column and its clusters among the aligned instances (the paired bootstrap resamples them). */
  clusters?: { column: string; count: number };
  /** Run folders: one comparison per task present in every run. */
  tasks?: Record<string, Comparison>;
  /** --slices: where the candidate differs, slice by slice (src/core/compare/sliceFinder.ts), most significant first. */
  slices?: import('./compareSlices').RunSliceDelta[];
  /** Why there are no slices, in a sentence (the compare page says it instead of showing nothing). */
  slices_note?: string;
}

/** Options: score's (bins, threshold, hmrBeta, seed, progress, cancel) with bootstrap defaulting to 1000. */
export type CompareOptions = Partial<ScoreOptions>;

/** What compareRuns builds before the statistics, kept for the task-group comparison. */
interface Prepared {
  runs: readonly CompareRunInput[];
  sets: PredictionSet[];
  alignment: Alignment;
  subsets: PredictionSet[];
  problems: RowProblem[];
}

/**
 * Compare two or more runs of one benchmark; runs[0] is the baseline. Throws CompareError when the
 * runs cannot be compared (a file with nothing scored, different kinds, no instance in common).
 */
export function compareRuns(runs: readonly CompareRunInput[], options?: CompareOptions): Comparison {
  return compareRunsDetailed(runs, options).comparison;
}

/** compareRuns() and what the panel needs beside it: which row of each run is aligned instance k. */
export interface ComparisonDetail {
  comparison: Comparison;
  /** alignment.rows[r][k]: the row of run r's set holding aligned instance k (alignment.ids[k] its ID). */
  alignment: Alignment;
  /** Each run's set restricted to the aligned instances, in aligned order (for charts of each run). */
  subsets: PredictionSet[];
  /** Per run, 1 where its answer is right on aligned instance k (null for probabilities): the agreement cells. */
  correct: (Uint8Array | null)[];
}

/** compareRuns() with the aligned sets, for the compare panel (agreement cells, stepper, overlays). */
export function compareRunsDetailed(runs: readonly CompareRunInput[], options?: CompareOptions): ComparisonDetail {
  const o = compareOptions(options);
  const prep = prepare(runs);
  const comparison = buildComparison(prep, o, progressOf(o, 0, 1));
  const noAccuracy = scoreDrops(prep.subsets).has('accuracy');
  return { comparison, alignment: prep.alignment, subsets: prep.subsets, correct: prep.subsets.map((s) => (noAccuracy ? null : correctness(s, o.threshold))) };
}

function compareOptions(options?: CompareOptions): ScoreOptions {
  return resolveOptions({ ...options, bootstrap: options?.bootstrap ?? DEFAULT_COMPARE_RESAMPLES, instances: false });
}

function prepare(runs: readonly CompareRunInput[]): Prepared {
  if (runs.length < 2) throw new CompareError('A comparison needs a baseline and at least one candidate.');
  // A summary (a results file, stats.json, a leaderboard) holds figures and no samples: there is
  // nothing to pair, so no paired interval or test. Say so, plainly, rather than "nothing could be scored".
  const summaries = runs.filter((r) => r.parsed.summary);
  if (summaries.length) {
    const what = summaries.map((r) => `${r.path} is a summary (${r.parsed.summary!.source})`).join(' and ');
    throw new CompareError(`${what}: ${summaries.length === 1 ? 'it holds' : 'they hold'} figures computed elsewhere, not per-sample predictions, so there are no samples to pair and no paired interval or test to give. Compare the runs' prediction or samples files instead; the figures are side by side with: eval-lens score ${shellWords(runs.map((r) => r.path))}.`, true);
  }
  const sets = runs.map((r) => {
    const set = r.parsed.set;
    if (!set || set.n === 0) throw new CompareError(`${r.path}: nothing could be scored${r.parsed.fatal ? `: ${r.parsed.fatal}` : '.'}`);
    return set;
  });
  const kinds = new Set(sets.map((s) => s.kind));
  if (kinds.size > 1) {
    throw new CompareError(`The runs are of different kinds and cannot be compared: ${runs.map((r, i) => `${r.path} is ${sets[i].kind}`).join(', ')}.`);
  }
  // Per-sample scores without gold labels (Ragas, a judge's grades): their figures are the means of
  // the per-sample metrics, which compare does not pair (yet); say so rather than show an empty table.
  if (sets.every((s) => s.kind === 'scores' && !s.judge)) {
    const names = [...new Set(runs.flatMap((r) => (r.parsed.taskMetrics ?? []).map((t) => t.name)))];
    throw new CompareError(`${runs.map((r) => r.path).join(' and ')} are tables of per-sample scores without gold labels${names.length ? ` (${names.slice(0, 6).join(', ')})` : ''}, which are not comparable here: compare pairs figures computed from predictions against their gold labels, and does not pair the means of per-sample scores yet. Score the files side by side instead: eval-lens score ${shellWords(runs.map((r) => r.path))}.`, true);
  }
  const alignment = alignRuns(runs.map((r, i) => ({ path: r.path, set: sets[i] })));
  const subsets = sets.map((s, i) => gatherSet(s, alignment.rows[i]));
  const problems = [...alignment.problems, ...classListProblems(runs, sets), ...truthProblems(runs, subsets, alignment), ...judgeCompareProblems(runs, sets)];
  return { runs, sets, alignment, subsets, problems };
}

/** A multiclass task whose class lists differ between runs (RAFT task.json, lm-eval choices). */
function classListProblems(runs: readonly CompareRunInput[], sets: PredictionSet[]): RowProblem[] {
  const base = sets[0];
  if (base.kind !== 'multiclass') return [];
  const out: RowProblem[] = [];
  sets.forEach((s, i) => {
    if (i === 0 || s.kind !== 'multiclass') return;
    // Classes seen in a file (no task.json, no choices) differ naturally; only declared lists count.
    if (!s.classesKnown || !base.classesKnown) return;
    if (s.classes.length === base.classes.length && s.classes.every((c, k) => c === base.classes[k])) return;
    out.push({
      line: 1, severity: 'warning', code: 'unknown-class', path: runs[i].path,
      message: `The class list differs from the baseline's${runs[i].parsed.task ? ` for task ${runs[i].parsed.task}` : ''}: ${JSON.stringify(s.classes)} here, ${JSON.stringify(base.classes)} in ${runs[0].path}; metrics are still computed on each run's own classes.`,
    });
  });
  return out;
}

/** Aligned instances whose gold label (or true probability) differs from the baseline's. */
function truthProblems(runs: readonly CompareRunInput[], subsets: PredictionSet[], a: Alignment): RowProblem[] {
  const base = subsets[0];
  const out: RowProblem[] = [];
  subsets.forEach((s, r) => {
    if (r === 0) return;
    let count = 0;
    let first = -1;
    for (let k = 0; k < a.n; k++) {
      if (sameTruth(base, s, k)) continue;
      if (first < 0) first = k;
      count++;
    }
    if (!count) return;
    out.push({
      line: s.lines[first], severity: 'warning', code: 'bad-label', path: runs[r].path,
      message: `${count} aligned instance${count === 1 ? ' has' : 's have'} a different gold label than in the baseline ${runs[0].path} (first: line ${s.lines[first]}${a.ids ? `, ID ${JSON.stringify(a.ids[first])}` : ''}); each run is scored against its own labels, DeLong's test against the baseline's.`,
    });
  });
  return out;
}

function sameTruth(a: PredictionSet, b: PredictionSet, k: number): boolean {
  if (a.kind === 'binary' && b.kind === 'binary') return a.label[k] === b.label[k];
  if (a.kind === 'multiclass' && b.kind === 'multiclass') return a.classes[a.gold[k]] === b.classes[b.gold[k]];
  if (a.kind === 'probability' && b.kind === 'probability') return Math.abs(a.goldProb[k] - b.goldProb[k]) <= 1e-12;
  return true; // confidence sets carry correctness only
}

/** Progress of the bootstrap as the 'score' phase, mapped into [from, to); checks for cancel. */
function progressOf(o: ScoreOptions, from: number, to: number): ((done: number, total: number) => void) | undefined {
  if (!o.onProgress && !o.shouldCancel) return undefined;
  return (done, total) => {
    if (o.shouldCancel?.()) throw new ScoreCancelledError();
    if (done % 16 === 0 || done === total) o.onProgress?.(from + ((to - from) * done) / total, 'score');
  };
}

function buildComparison(prep: Prepared, o: ScoreOptions, progress?: (done: number, total: number) => void): Comparison {
  const { runs, sets, alignment, subsets } = prep;
  const kind = sets[0].kind;
  const dropped = scoreDrops(subsets);
  const values = subsets.map((s) => {
    const v: Record<string, number | null | undefined> = { ...scoreSet(s, { ...o, instances: false }).metrics };
    for (const name of dropped) delete v[name];
    return v;
  });
  const clusters = alignedClusters(prep);
  const units = clusters ? clusters.count : alignment.n;
  const few = units < FEWEST_ALIGNED_FOR_TESTS;
  const boot = o.bootstrap > 0 && !few
    ? pairedBootstrap([clusters ? clusters.count : alignment.n], subsets.map((s) => (clusters ? clusterStratum(s, o, clusters) : oneStratum(resampleMetrics(s, o)))), {
      resamples: o.bootstrap, seed: o.seed, onResample: progress && ((d) => progress(d, o.bootstrap)),
    })
    : {};
  const power = pairedPowers(subsets, values, o, clusters);
  // Without accuracy (free text and no verdict, a corpus-level metric's pairs) a row's "right" is an
  // exact match nothing reports: no McNemar, no agreement table over it.
  const correct = subsets.map((s) => (dropped.has('accuracy') ? null : correctness(s, o.threshold)));
  const metrics: Comparison['metrics'] = {};
  for (const name of METRIC_NAMES) {
    if (values.every((v) => v[name] === undefined)) continue;
    const test: CompareTest = name === 'auc' && kind === 'binary' ? 'delong' : name === 'accuracy' && correct[0] ? 'mcnemar' : 'bootstrap';
    const mc = emptyMetric(values.map((v) => v[name] ?? null), test, boot[name]);
    for (let c = 1; c < runs.length; c++) {
      if (test === 'delong') {
        if (few) continue;
        const base = subsets[0];
        const cand = subsets[c];
        if (base.kind !== 'binary' || cand.kind !== 'binary') continue;
        const d = delongTest(base.score, cand.score, base.label);
        mc.p_values[c] = d ? d.p : null;
        mc.statistics[c] = d ? d.z : null;
      } else if (test === 'mcnemar') {
        const t = agreementCounts(correct[0]!, correct[c]!);
        mc.p_values[c] = mcnemarExact(t.baseline_only, t.candidate_only);
      }
    }
    const noTest = noTestReasons(mc, boot[name], few ? units : undefined, clusters !== undefined);
    if (noTest) mc.no_test = noTest;
    if (runs.length > 2) mc.p_values_holm = [null, ...holm(mc.p_values.slice(1))];
    if (power[name]) Object.assign(mc, power[name]);
    metrics[name] = mc;
  }
  if (!Object.keys(metrics).length) refuseTaskMetricsOnly(runs);
  const agreement = subsets.map((s, c) => {
    if (c === 0) return null;
    const b = subsets[0];
    if (b.kind === 'probability' && s.kind === 'probability') return closerCounts(b, s);
    return correct[0] && correct[c] ? agreementCounts(correct[0], correct[c]!) : null;
  });
  return {
    kind,
    ...(runs[0].parsed.task ? { task: runs[0].parsed.task } : {}),
    runs: runs.map(runInfo),
    aligned: alignment.n,
    aligned_by: alignment.by,
    unmatched: alignment.unmatched,
    metrics,
    agreement,
    problems: [
      ...(Object.keys(metrics).length ? prep.problems : [...prep.problems, ...nothingComparedProblems(runs, subsets)]),
      ...(few && Object.keys(metrics).length ? [fewAlignedProblem(units, clusters !== undefined, metrics)] : []),
    ],
    bootstrap: { resamples: o.bootstrap, seed: o.seed, level: 0.95 },
    ...(clusters ? { clusters: { column: clusters.column, count: clusters.count } } : {}),
  };
}

/**
 * Why each candidate has no p-value where the metric has a test: too few aligned instances (below
 * FEWEST_ALIGNED_FOR_TESTS; McNemar's exact test excepted), or a bootstrap whose resamples all gave
 * the same delta. Undefined when every candidate has its test.
 */
function noTestReasons(mc: MetricComparison, boot: PairedDelta[] | undefined, fewUnits: number | undefined, clustered: boolean): (string | null)[] | undefined {
  const reasons = mc.values.map((_, c): string | null => {
    if (c === 0 || mc.p_values[c] !== null || mc.values[c] === null || mc.values[0] === null) return null;
    if (fewUnits !== undefined && mc.test !== 'mcnemar') return `${fewUnits} aligned ${clustered ? 'cluster' : 'instance'}${fewUnits === 1 ? '' : 's'}, fewer than ${FEWEST_ALIGNED_FOR_TESTS}`;
    if (mc.test === 'bootstrap' && boot?.[c - 1]?.constant) return 'every resample gives the same delta';
    return null;
  });
  return reasons.some((r) => r !== null) ? reasons : undefined;
}

/** The note of a comparison on too few instances: what is and is not given, and why. */
function fewAlignedProblem(units: number, clustered: boolean, metrics: Comparison['metrics']): RowProblem {
  const what = clustered ? `cluster${units === 1 ? '' : 's'}` : `instance${units === 1 ? '' : 's'}`;
  const mcnemar = metrics.accuracy?.test === 'mcnemar' ? '; exact McNemar\'s test on accuracy stands (it is exact at any n)' : '';
  return {
    line: 1, severity: 'warning', code: 'missing-field',
    message: `Only ${units} aligned ${what}: no interval of the delta and no bootstrap or DeLong test, which need at least ${FEWEST_ALIGNED_FOR_TESTS} (a paired bootstrap over fewer has almost no distinct resamples)${mcnemar}. The deltas are shown as they are.`,
  };
}

/**
 * Runs whose only figures are the task's own per-sample metrics (lm-eval generations: bleu_acc,
 * rouge1_max, … beside free-text answers): compare pairs the figures computed from predictions
 * against gold labels, and refuses the means of per-sample scores (the scores kind, prepare());
 * these are the same, so it refuses them the same way rather than print an empty table.
 */
function refuseTaskMetricsOnly(runs: readonly CompareRunInput[]): void {
  const names = runs.map((r) => (r.parsed.taskMetrics ?? []).map((t) => t.name));
  if (names.some((n) => !n.length)) return;
  const shared = names[0].filter((n) => names.every((list) => list.includes(n)));
  throw new CompareError(`${runs.map((r) => r.path).join(' and ')} have free-text answers and no figure compare pairs (no label accuracy, no macro-F1): their figures are the task's own per-sample metrics${shared.length ? ` (${shared.slice(0, 6).join(', ')}${shared.length > 6 ? ', …' : ''})` : ''}, means of per-sample scores, which compare does not pair yet. Score the files side by side instead: eval-lens score ${shellWords(runs.map((r) => r.path))}.`, true);
}

/**
 * The metrics `score` does not show for a set, left out of the whole comparison when any run lacks
 * them rather than paired and called significant. Two rules, the ones report.ts applies:
 *  - lmEvalMetrics(set).drop, the very function score calls (one continuation per sample, asdiv and
 *    lambada: a macro-F1 over {greedy, not greedy} means nothing);
 *  - free-text answers (MulticlassSet.freeText: a harness's own verdicts, HELM's
 *    per_instance_stats.json, lm-eval's corpus-level pairs): they are no classes, so no macro-F1
 *    over them (the right answers against "(no answer)"), nor, without a verdict, an accuracy.
 */
export function scoreDrops(sets: readonly PredictionSet[]): Set<MetricName> {
  const out = new Set<MetricName>();
  for (const s of sets) {
    for (const m of lmEvalMetrics(s).drop) out.add(m);
    if (s.kind !== 'multiclass' || !s.freeText) continue;
    out.add('macro_f1');
    if (!s.freeText.keepAccuracy) out.add('accuracy');
  }
  return out;
}

/**
 * When no figure is left to pair, why, in the runs' own words: the first note each run's file gave
 * on an undefined metric (a corpus-level f1 not recomputed, free text without a verdict).
 */
function nothingComparedProblems(runs: readonly CompareRunInput[], subsets: readonly PredictionSet[]): RowProblem[] {
  const out: RowProblem[] = [];
  runs.forEach((r, i) => {
    const note = r.parsed.problems.find((p) => p.code === 'undefined-metric');
    const s = subsets[i];
    const why = note?.message ?? (s.kind === 'multiclass' && s.freeText ? s.freeText.reason : undefined);
    if (why) out.push({ line: note?.line ?? 1, severity: 'info', code: 'undefined-metric', path: r.path, message: `No figure of this run is compared: ${why}` });
  });
  return out;
}

/** The baseline's clusters among the aligned instances (rows without a value: clusters of their own). */
function alignedClusters(prep: Prepared): (ClusterCodes & { column: string }) | undefined {
  const spec = prep.runs[0].clusters;
  if (!spec) return undefined;
  const rows = prep.alignment.rows[0];
  const codes = clusterCodes(Array.from(rows, (r) => spec.values[r]));
  return { column: spec.column, code: codes.code, count: codes.count };
}

/** A run's metrics when the paired bootstrap draws clusters: the drawn clusters' rows, scored as a set. */
function clusterStratum(set: PredictionSet, o: ScoreOptions, clusters: ClusterCodes): StrataResampler {
  const score = naiveResample(set, o);
  const w = new Uint32Array(set.n);
  return (ws) => score(rowCounts(clusters, ws[0], w));
}

/** mde and n_needed of every mean metric, per candidate, from the per-instance paired differences. */
function pairedPowers(subsets: PredictionSet[], values: Record<string, number | null | undefined>[], o: ScoreOptions, clusters?: ClusterCodes): Partial<Record<MetricName, { mde: (number | null)[]; n_needed: (number | null)[] }>> {
  const out: Partial<Record<MetricName, { mde: (number | null)[]; n_needed: (number | null)[] }>> = {};
  const n = subsets[0].n;
  const perRun = subsets.map((s) => new Map(meanMetrics(s, o).map((m) => [m.name, m])));
  const base = new Float64Array(n);
  const cand = new Float64Array(n);
  for (const [name, m0] of perRun[0]) {
    if (!matches(base, m0, values[0][name])) continue;
    const mde: (number | null)[] = [null];
    const needed: (number | null)[] = [null];
    for (let c = 1; c < subsets.length; c++) {
      const mc = perRun[c].get(name);
      if (!mc || !matches(cand, mc, values[c][name])) { mde.push(null); needed.push(null); continue; }
      for (let i = 0; i < n; i++) cand[i] -= base[i];
      const p = pairedPower(cand, clusters);
      mde.push(p.mde);
      needed.push(p.n_needed);
    }
    out[name] = { mde, n_needed: needed };
  }
  return out;
}

/** Fills `into` with the metric's per-instance values; true when their mean is the run's figure. */
function matches(into: Float64Array, m: { fill(out: Float64Array): void }, figure: number | null | undefined): boolean {
  if (typeof figure !== 'number') return false;
  m.fill(into);
  let s = 0;
  for (let i = 0; i < into.length; i++) s += into[i];
  return Math.abs(s / into.length - figure) <= 1e-9 * Math.max(1, Math.abs(figure));
}

function runInfo(r: CompareRunInput): RunInfo {
  return {
    path: r.path, format: r.parsed.format, n: r.parsed.set?.n ?? 0,
    ...(r.parsed.task ? { task: r.parsed.task } : {}), name: r.name ?? r.path,
  };
}

/** Values and deltas filled in; the paired bootstrap's intervals and (for its metrics) p-values. */
function emptyMetric(values: (number | null)[], test: CompareTest, boot: PairedDelta[] | undefined): MetricComparison {
  const base = values[0];
  return {
    values,
    deltas: values.map((v, c) => (c === 0 || v === null || base === null ? null : v - base)),
    intervals: values.map((_, c) => (c === 0 ? null : boot?.[c - 1]?.interval ?? null)),
    p_values: values.map((_, c) => (c === 0 || test !== 'bootstrap' ? null : boot?.[c - 1]?.p ?? null)),
    statistics: values.map(() => null),
    test,
  };
}

/** A run folder: its files, one per task (RAFT: one predictions file per data set). */
export interface CompareGroupInput {
  path: string;
  name?: string;
  files: CompareRunInput[];
}

/**
 * Compare run folders task by task (tasks present in every run), plus `raft_score` (the mean
 * macro_f1 over those tasks) with a bootstrap stratified by task: each resample redraws every
 * task's instances within that task. runs[0] is the baseline.
 */
export function compareGroups(groups: readonly CompareGroupInput[], options?: CompareOptions): Comparison {
  const o = compareOptions(options);
  if (groups.length < 2) throw new CompareError('A comparison needs a baseline and at least one candidate.');
  const problems: RowProblem[] = [];
  const byTask = groups.map((g) => {
    const m = new Map<string, CompareRunInput>();
    for (const f of [...g.files].sort((a, b) => filePreference(a) - filePreference(b))) {
      if (!f.parsed.set || f.parsed.set.n === 0) continue;
      const task = taskName(f);
      const kept = m.get(task);
      // Two files of one folder with the same task (a HELM run's per_instance_stats.json and
      // scenario_state.json) hold the same instances: one is compared, and the other is named,
      // rather than the last one read silently replacing the first, or both counted twice.
      if (kept) problems.push({ line: 1, severity: 'info', code: 'filtered', path: f.path, message: `${fileName(f.path)} holds the same task (${task}) as ${fileName(kept.path)} beside it: the task is compared on ${fileName(kept.path)} only.` });
      else m.set(task, f);
    }
    return m;
  });
  const tasks = [...byTask[0].keys()].filter((t) => byTask.every((m) => m.has(t))).sort();
  if (!tasks.length) {
    throw new CompareError(`The run folders have no task in common: ${groups.map((g, i) => `${g.path}: ${[...byTask[i].keys()].join(', ') || 'nothing scored'}`).join('; ')}.`);
  }
  groups.forEach((g, i) => {
    const extra = [...byTask[i].keys()].filter((t) => !tasks.includes(t));
    if (extra.length) {
      problems.push({ line: 1, severity: 'warning', code: 'missing-field', path: g.path, message: `Task${extra.length === 1 ? '' : 's'} ${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} not in every run and left out of the comparison.` });
    }
  });
  const preps = tasks.map((t) => prepare(groups.map((g, i) => ({ ...byTask[i].get(t)!, name: g.name ?? g.path }))));
  const perTask: Record<string, Comparison> = {};
  const steps = tasks.length + 1;
  preps.forEach((p, t) => {
    perTask[tasks[t]] = buildComparison(p, o, progressOf(o, t / steps, (t + 1) / steps));
    problems.push(...perTask[tasks[t]].problems);
  });
  const compared = tasks.map((t) => byTask[0].get(t)!.parsed.format);
  const format = compared[0];
  const kind = preps[0].sets[0].kind;
  const metrics: Comparison['metrics'] = {};
  // raft_score is RAFT's figure (the mean macro-F1 over its tasks), as on the board: not a HELM
  // run's or any other folder's, whose one task's macro-F1 it would repeat under RAFT's name.
  if (kind === 'multiclass' && compared.every((f) => f === 'raft')) metrics.raft_score = raftScoreComparison(preps, perTask, tasks, o, progressOf(o, tasks.length / steps, 1));
  // One task in common and no figure over the tasks (a HELM run folder holds one run): the
  // comparison is that task's, with the folders' names, as for its files named on their own.
  if (tasks.length === 1 && !Object.keys(metrics).length) return { ...perTask[tasks[0]], problems };
  const agreement = groups.map((_, c) => (c === 0 ? null : sumAgreement(tasks.map((t) => perTask[t].agreement[c]))));
  return {
    kind,
    runs: groups.map((g, i) => ({ path: g.path, format, n: sum(tasks.map((t) => byTask[i].get(t)!.parsed.set!.n)), name: g.name ?? g.path })),
    aligned: sum(tasks.map((t) => perTask[t].aligned)),
    aligned_by: tasks.every((t) => perTask[t].aligned_by === 'id') ? 'id' : 'row-order',
    unmatched: groups.map((_, i) => sum(tasks.map((t) => perTask[t].unmatched[i]))),
    metrics,
    agreement,
    problems,
    bootstrap: { resamples: o.bootstrap, seed: o.seed, level: 0.95 },
    tasks: perTask,
  };
}

/**
 * Which of a folder's files with the same task is compared (lowest first): a HELM run's
 * per_instance_stats.json holds the run's own per-instance scores (every metric, every scenario,
 * annotators' too), scenario_state.json only exact match recomputed, display_predictions.json the
 * metrics its groups display. Otherwise the order the folder lists them.
 */
function filePreference(f: CompareRunInput): number {
  if (f.parsed.format !== 'helm') return 0;
  const name = fileName(f.path);
  return name === 'per_instance_stats.json' ? 0 : name === 'scenario_state.json' ? 1 : 2;
}

/** The task a file is of: its own metadata, else its file name. */
function taskName(f: CompareRunInput): string {
  return f.parsed.task ?? fileName(f.path);
}

function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function raftScoreComparison(
  preps: Prepared[], perTask: Record<string, Comparison>, tasks: string[], o: ScoreOptions,
  progress?: (done: number, total: number) => void,
): MetricComparison {
  const runs = preps[0].runs.length;
  const values = Array.from({ length: runs }, (_, c) => meanOrNull(tasks.map((t) => perTask[t].metrics.macro_f1?.values[c] ?? null)));
  let boot: PairedDelta[] | undefined;
  if (o.bootstrap > 0) {
    const resamplers: StrataResampler[] = Array.from({ length: runs }, (_, c) => {
      const perStratum = preps.map((p) => resampleMetrics(p.subsets[c], o));
      return (ws) => ({ raft_score: meanOrNull(perStratum.map((f, t) => f(ws[t]).macro_f1 ?? null)) });
    });
    boot = pairedBootstrap(preps.map((p) => p.alignment.n), resamplers, {
      resamples: o.bootstrap, seed: o.seed, onResample: progress && ((d) => progress(d, o.bootstrap)),
    }).raft_score;
  }
  const mc = emptyMetric(values, 'bootstrap', boot);
  if (runs > 2) mc.p_values_holm = [null, ...holm(mc.p_values.slice(1))];
  return mc;
}

function meanOrNull(xs: (number | null)[]): number | null {
  if (!xs.length || xs.some((x) => x === null)) return null;
  return sum(xs as number[]) / xs.length;
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function sumAgreement(parts: (AgreementCounts | CloserCounts | null)[]): AgreementCounts | null {
  if (!parts.length || parts.some((p) => p === null || !('both_right' in p))) return null;
  const out: AgreementCounts = { both_right: 0, baseline_only: 0, candidate_only: 0, both_wrong: 0 };
  for (const p of parts as AgreementCounts[]) {
    out.both_right += p.both_right;
    out.baseline_only += p.baseline_only;
    out.candidate_only += p.candidate_only;
    out.both_wrong += p.both_wrong;
  }
  return out;
}
