// From a parsed file to a Report: the metrics of its kind, reliability bins, ROC, per-class stats,
// per-instance columns, bootstrap intervals, and the comparison with figures the benchmark reported.
import type {
  BinarySet, BootstrapPartData, ClassStats, ConfidenceSet, InstanceColumns, MetricName, MulticlassSet, ParseResult,
  PredictionSet, ProbabilitySet, Report, RowProblem, ScoreOptions, ScoresSet, TaskMetric,
} from './types';
import { DEFAULT_OPTIONS } from './types';
import { binaryMetrics } from './metrics/binary';
import { KIND_METRICS } from '../common/metricTable';
import { gather, stableArgsort } from './metrics/sort';
import { brierBinary, brierMulticlass, logLossBinary, logLossMulticlass } from './metrics/scoring';
import {
  binIndexEqualCount, binIndexEqualWidth, ece, eceQuantile, equalCountBins, equalWidthBins, hmr, ks, mce, mceQuantile,
  withTargetIntervals,
} from './metrics/calibration';
import { SmoothBand, smoothCalibration } from './metrics/smoothCalibration';
import { classwiseEce, classwiseEceResampler } from './metrics/classwise';
import { accuracy, classStats, macroF1 } from './metrics/classification';
import { binaryErrorGroups, multiclassErrorGroups } from './metrics/errorGroups';
import { klBernoulli, mse, spearman, tvd } from './metrics/regression';
import { bootstrapCountSamples, bootstrapIntervals, percentileIntervals, type Counts } from './metrics/bootstrap';
import { bootstrapPartRange } from './bootstrapParts';
import { calibrationResampler, expandCounts, multiclassResampler, probabilityResampler } from './metrics/resample';
import { ScoreCancelledError } from './formats/progress';
import { baseName } from '../common/paths';
import { capProblems } from './problemCap';
import { statedConfidenceMetrics } from './metrics/statedConfidence';
import { reportedOnMore } from '../common/reportedOn';
import { confusionRates, RESAMPLED_RATES, rateResampler, thresholdRates, wholeSetRates } from './slices/rates';
import { decisionAccuracy, decisionAt, decisionScores } from './metrics/decisions';
import { lmEvalMetrics, withDecision } from './metrics/lmEvalMetrics';
import { attachErrorBars, attachOwnMetricErrors, attachTaskMetricErrors, clusterBootstrap, oneClusterProblem, type ReportClusters } from './errorBars';
import { attachJudge, judgeFileMetrics, judgeResampler } from './judges/judgeReport';
import { gatherJudgeRows } from './judges/rows';

type Metrics = Report['metrics'];

/** The kind a benchmark's files always have, for a file with nothing scored (generic: it depends). */
const FORMAT_KIND: Partial<Record<ParseResult['format'], Report['kind']>> = {
  folktexts: 'binary', raft: 'multiclass', 'lm-eval': 'multiclass', almanacs: 'probability',
};

export function resolveOptions(options?: Partial<ScoreOptions>): ScoreOptions {
  const o = { ...DEFAULT_OPTIONS, ...stripUndefined(options ?? {}) };
  if (!Number.isInteger(o.bins) || o.bins < 1 || o.bins > 10_000) throw new RangeError(`bins must be a whole number from 1 to 10000, got ${o.bins}`);
  if (!(o.threshold >= 0 && o.threshold <= 1)) throw new RangeError(`threshold must be in [0, 1], got ${o.threshold}`);
  if (!(o.hmrBeta >= 0)) throw new RangeError(`HMR beta must be >= 0, got ${o.hmrBeta}`);
  if (!Number.isInteger(o.bootstrap) || o.bootstrap < 0) throw new RangeError(`bootstrap must be a whole number >= 0, got ${o.bootstrap}`);
  if (o.interval !== undefined && !['bootstrap', 't', 'wilson'].includes(o.interval)) throw new RangeError(`interval must be bootstrap, t or wilson, got ${String(o.interval)}`);
  return o;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function buildReport(path: string, parsed: ParseResult, options: ScoreOptions, bars: { clusters?: ReportClusters } = {}): Report {
  const { bins, threshold, hmrBeta, bootstrap, seed } = options;
  const report: Report = {
    path,
    format: parsed.format,
    kind: parsed.set?.kind ?? parsed.kind ?? FORMAT_KIND[parsed.format] ?? 'binary',
    ...(parsed.set || parsed.kind || FORMAT_KIND[parsed.format] ? {} : { kindUnknown: true }),
    task: parsed.task,
    n: parsed.set?.n ?? 0,
    skipped: parsed.skipped,
    unlabeled: parsed.unlabeled,
    metrics: {},
    intervals: {},
    reported: parsed.reported ?? {},
    ...nonFiniteReported(parsed.reported),
    reportedPath: parsed.reportedPath,
    ...(parsed.reportedNotes ? { reportedNotes: parsed.reportedNotes } : {}),
    ...(parsed.tasks ? { tasks: parsed.tasks } : {}),
    ...(parsed.models ? { models: parsed.models, model: parsed.model } : {}),
    ...(parsed.sourceModel ? { sourceModel: parsed.sourceModel } : {}),
    problems: parsed.problems.slice(),
    bins: null,
    roc: null,
    classStats: null,
    options: { bins, threshold, hmrBeta, bootstrap, seed },
    fatal: parsed.fatal,
    instances: null,
  };
  // A summary file's figures are the report (n = 0, nothing recomputed): no fatal for it.
  if (parsed.summary) report.summary = parsed.summary;
  if (parsed.reportedOn !== undefined) report.reportedOn = parsed.reportedOn;
  const parsedSet = parsed.set;
  if (!parsedSet || parsedSet.n === 0) {
    if (!parsed.summary) report.fatal ??= 'No row of this file could be scored.';
    return capReportProblems(report);
  }
  const set = withDecision(parsedSet, options.decision);
  // A later share of a split intervals pass: only its resamples' values. The merged report is the
  // first share's (bootstrapParts.ts), so the metrics, charts and error bars are not computed again
  // here: on a million rows they were ~0.3 s of each share's CPU (issue 28.11).
  if (bootstrap > 0 && options.bootstrapPart && options.bootstrapPart.index > 0 && !bars.clusters) return laterShare(report, set, options);
  if (parsedSet.kind === 'multiclass' && parsedSet.predNorm) report.decision = set === parsedSet ? 'acc' : 'acc_norm';
  const scored = scoreSet(set, options);
  const extra = lmEvalMetrics(parsedSet);
  // acc stays lm-eval's acc under either decision; acc_norm is shown beside it.
  if (set !== parsedSet && parsedSet.kind === 'multiclass') scored.metrics.accuracy = accuracy(parsedSet.pred, parsedSet.gold);
  Object.assign(scored.metrics, extra.add);
  for (const m of extra.drop) delete scored.metrics[m];
  // lm-eval's figures come before these in METRIC_NAMES (and KIND_METRICS): keep that key order.
  for (const m of ['smece', 'smece_sigma', 'ece_classwise', 'confidence_auroc', 'confidence_brier'] as const) {
    if (!(m in scored.metrics)) continue;
    const v = scored.metrics[m];
    delete scored.metrics[m];
    scored.metrics[m] = v;
  }
  if (options.instances === false) scored.instances = null;
  // The set's own figures before a format's replace them, and its pass's sums of squares (errorBars.ts).
  const { squares, ...scoredFields } = scored;
  const own = { metrics: { ...scored.metrics }, squares };
  Object.assign(report, scoredFields);
  // A format's own definitions (Inspect's accuracy over partial credit) win over the set's.
  if (parsed.metrics) Object.assign(report.metrics, parsed.metrics);
  if (parsed.breakdown) report.breakdown = parsed.breakdown;
  if (parsed.epochs) report.epochs = parsed.epochs;
  if (parsed.taskMetrics?.length) report.taskMetrics = taskMetricsOf(parsed.taskMetrics, options);
  // A table of per-sample scores (Ragas): each row's scores are its fields too, so the instance
  // table shows, sorts, searches and exports them (its figures are their means).
  if (parsedSet.kind === 'scores' && !parsedSet.judge && parsed.taskMetrics?.length && report.instances) {
    report.texts = withScoreFields(report.texts, parsed.taskMetrics, parsedSet.n);
  }
  // With clusters (--cluster, or the items of repeated attempts) the bootstrap resamples whole clusters.
  let part: BootstrapPartData | undefined;
  if (bootstrap > 0) report.intervals = bars.clusters ? clusterIntervalsFor(set, options, bars.clusters) : intervalsFor(set, options, report.smoothReliability, (p) => { part = p; });
  const fromBootstrap = { ...report.intervals };
  if (set !== parsedSet) delete report.intervals.accuracy; // resampled under acc_norm, but accuracy stays acc
  // Free-text answers are no classes: no macro-F1 or per-class table over them (see MulticlassSet.freeText).
  if (parsedSet.kind === 'multiclass' && parsedSet.freeText) {
    const dropped: MetricName[] = parsedSet.freeText.keepAccuracy ? ['macro_f1'] : ['macro_f1', 'accuracy'];
    for (const m of dropped) { delete report.metrics[m]; delete report.intervals[m]; }
    report.classStats = null;
  }
  // A bootstrap of the set's figure is no interval for the format's own (Inspect's partial credit):
  // the format's own per-sample values give it one (issue 28.6), after the set's error bars below.
  for (const name of Object.keys(parsed.metrics ?? {}) as MetricName[]) delete report.intervals[name];
  const errors = set.kind === 'multiclass' ? multiclassErrorGroups(set) : set.kind === 'binary' ? binaryErrorGroups(set, report.options.threshold) : null;
  if (errors) report.errorGroups = errors;
  attachErrorBars(report, set, parsedSet, options, bars.clusters, own);
  attachTaskMetricErrors(report, parsed.taskMetrics, options);
  // A judge file: Report.judge, one group per model, and its figures' own intervals (src/core/judges/).
  if (parsedSet.kind === 'scores' && parsedSet.judge) attachJudge(report, parsedSet.judge, options);
  attachOwnMetricErrors(report, parsed.metricValues, options);
  // A share of a split bootstrap: the intervals still the bootstrap's are the ones a merge replaces.
  if (part) report.bootstrapPart = { ...part, keys: Object.keys(fromBootstrap).filter((k) => report.intervals[k as MetricName] === fromBootstrap[k as MetricName]) };
  if (bars.clusters && bars.clusters.count < 2) report.problems.push(oneClusterProblem(bars.clusters.column));
  report.problems.push(...undefinedMetricProblems(report), ...reportedMismatches(report));
  return capReportProblems(report);
}

/** The rows' text fields with each per-sample score after them (shortest exact decimal; NaN empty). */
function withScoreFields(texts: Report['texts'], scores: NonNullable<ParseResult['taskMetrics']>, n: number): NonNullable<Report['texts']> {
  const own = texts ?? { fields: [], values: [] };
  const added = scores.filter((m) => !own.fields.includes(m.name));
  const values = Array.from({ length: n }, (_, i) => [
    ...(own.values[i] ?? own.fields.map(() => '')),
    ...added.map((m) => (Number.isFinite(m.values[i]) ? String(m.values[i]) : '')),
  ]);
  return { fields: [...own.fields, ...added.map((m) => m.name)], values };
}

type Scored = Pick<Report, 'metrics' | 'bins' | 'roc' | 'classStats' | 'instances'> &
  Partial<Pick<Report, 'classes' | 'texts' | 'dataPath' | 'dataLines' | 'smoothReliability'>> &
  { squares?: Partial<Record<MetricName, number>> };

/** The metrics (and charts) of a whole set; `instances: false` skips the per-instance columns. */
export function scoreSet(set: PredictionSet, o: ScoreOptions): Scored {
  switch (set.kind) {
    case 'binary': return scoreBinary(set, o);
    case 'confidence': return scoreConfidence(set, o);
    case 'multiclass': return scoreMulticlass(set, o);
    case 'probability': return scoreProbability(set, o);
    case 'scores': return scoreScores(set, o);
  }
}

function scoreBinary(set: BinarySet, o: ScoreOptions): Scored {
  const r = binaryMetrics(set.score, set.label, { bins: o.bins, threshold: o.threshold, hmrBeta: o.hmrBeta });
  withTargetIntervals(r.bins.equalWidth);
  withTargetIntervals(r.bins.equalCount);
  const smoothReliability = r.smooth;
  const metrics = { ...r.metrics, ...wholeSetRates(set.score, set.label, o.threshold, o.bins) };
  // A prediction column the user named decides accuracy and the rates; calibration keeps the score.
  if (set.pred) {
    const d = decisionScores(set, o.threshold);
    const { accuracy: _accuracy, ...rates } = thresholdRates(d.score, set.label, d.threshold);
    Object.assign(metrics, { accuracy: decisionAccuracy(set, o.threshold) }, rates);
  }
  const squares = { brier: r.squares.brier, log_loss: r.squares.log_loss };
  if (o.instances === false) return { metrics, bins: r.bins, roc: r.roc, classStats: null, instances: null, squares, smoothReliability };
  const n = set.n;
  const confidence = new Float64Array(n);
  const correct = new Uint8Array(n);
  const brier = new Float64Array(n);
  const gold = new Int32Array(n);
  const pred = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = set.score[i];
    const y = set.label[i];
    const p = decisionAt(set, o.threshold, i);
    confidence[i] = s >= 0.5 ? s : 1 - s;
    correct[i] = p === y ? 1 : 0;
    brier[i] = (s - y) * (s - y);
    gold[i] = y;
    pred[i] = p;
  }
  const instances: InstanceColumns = {
    lines: set.lines,
    value: set.score,
    target: Float64Array.from(set.label),
    confidence,
    correct,
    bin: binIndexEqualWidth(set.score, o.bins),
    binQuantile: binIndexEqualCount(set.score, o.bins, r.order),
    brier,
    gold,
    pred,
    ...instanceIdsOf(set),
  };
  return { metrics, bins: r.bins, roc: r.roc, classStats: null, instances, squares, smoothReliability };
}

/** ece/mce/ks/hmr of a top-label confidence against correctness (one sort, shared). */
/**
 * The set's IDs for its instances: its text IDs, else its numeric ones (folktexts' index without a
 * joined data file keeps only numbers; the table, search and CSV export show them all the same).
 */
function instanceIdsOf(set: { ids?: string[]; idNumbers?: Float64Array }): { ids?: string[]; idNumbers?: Float64Array } {
  const ids = set.ids;
  if (ids) return { ids };
  return set.idNumbers ? { idNumbers: set.idNumbers } : {};
}

function calibrationMetrics(conf: Float64Array, correct: Uint8Array, o: ScoreOptions) {
  const target = Float64Array.from(correct);
  const order = stableArgsort(conf);
  const h = hmr(conf, correct, o.hmrBeta);
  const metrics: Metrics = {
    ece: ece(conf, target, o.bins),
    ece_quantile: eceQuantile(conf, target, o.bins, order),
    mce: mce(conf, target, o.bins),
    mce_quantile: mceQuantile(conf, target, o.bins, order),
    ks: ks(conf, target, order),
    hmr: h.hmr,
    r_o: h.r_o,
    r_u: h.r_u,
    hmr_beta: h.hmr_beta,
  };
  const bins = {
    equalWidth: withTargetIntervals(equalWidthBins(conf, target, o.bins)),
    equalCount: withTargetIntervals(equalCountBins(conf, target, o.bins, order)),
  };
  const smooth = smoothInOrder(conf, correct, order);
  metrics.smece = smooth ? smooth.result.smece : null;
  metrics.smece_sigma = smooth ? smooth.result.sigma : null;
  return {
    metrics, bins, target, binIndex: binIndexEqualWidth(conf, o.bins), binQuantile: binIndexEqualCount(conf, o.bins, order),
    smoothReliability: smooth ? smooth.curve : null,
  };
}

function scoreConfidence(set: ConfidenceSet, o: ScoreOptions): Scored {
  const cal = calibrationMetrics(set.confidence, set.correct, o);
  const n = set.n;
  const brier = new Float64Array(n);
  for (let i = 0; i < n; i++) brier[i] = (set.confidence[i] - set.correct[i]) ** 2;
  const metrics: Metrics = {
    accuracy: mean(cal.target),
    brier: brierBinary(set.confidence, set.correct),
    log_loss: logLossBinary(set.confidence, set.correct),
    ...cal.metrics,
    ...statedConfidenceMetrics(set.confidence, set.correct),
  };
  const instances: InstanceColumns = {
    lines: set.lines,
    value: set.confidence,
    target: cal.target,
    confidence: set.confidence,
    correct: set.correct,
    bin: cal.binIndex,
    binQuantile: cal.binQuantile,
    brier,
    gold: new Int32Array(n).fill(-1),
    pred: new Int32Array(n).fill(-1),
    ...instanceIdsOf(set),
  };
  return { metrics, bins: cal.bins, roc: null, classStats: null, instances, smoothReliability: cal.smoothReliability };
}

/** Class indices the macro mean runs over: the declared classes, all known classes, else the union seen in gold and pred. */
function classesForMean(set: MulticlassSet): number[] | undefined {
  if (set.declaredClasses !== undefined) return Array.from({ length: set.declaredClasses }, (_, c) => c);
  if (set.classesKnown) return undefined;
  const seen = new Set<number>();
  for (let i = 0; i < set.n; i++) { seen.add(set.gold[i]); seen.add(set.pred[i]); }
  return [...seen].sort((a, b) => a - b);
}

/** 1 where a multiclass row's prediction is its gold class. */
function correctOf(set: MulticlassSet): Uint8Array {
  const correct = new Uint8Array(set.n);
  for (let i = 0; i < set.n; i++) correct[i] = set.gold[i] === set.pred[i] ? 1 : 0;
  return correct;
}

/** Top-label confidence of a multiclass set: the file's own, else probs[pred]. */
function multiclassConfidence(set: MulticlassSet): Float64Array | undefined {
  if (set.confidence) return set.confidence;
  if (!set.probs) return undefined;
  const k = set.classes.length;
  const c = new Float64Array(set.n);
  for (let i = 0; i < set.n; i++) c[i] = set.probs[i * k + set.pred[i]];
  return c;
}

function scoreMulticlass(set: MulticlassSet, o: ScoreOptions): Scored {
  const n = set.n;
  const k = set.classes.length;
  const correct = correctOf(set);
  const stats: ClassStats = classStats(set.gold, set.pred, k, set.classes);
  const metrics: Metrics = {
    accuracy: accuracy(set.pred, set.gold),
    macro_f1: macroF1(set.gold, set.pred, k, classesForMean(set)),
  };
  const brier = new Float64Array(n).fill(NaN);
  if (set.probs) {
    metrics.brier = brierMulticlass(set.probs, k, set.gold);
    metrics.nbr = metrics.brier / 2;
    metrics.log_loss = logLossMulticlass(set.probs, k, set.gold);
    stats.ece = classwiseEce(set.probs, k, set.gold, o.bins).perClass;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < k; j++) s += (set.probs[i * k + j] - (j === set.gold[i] ? 1 : 0)) ** 2;
      brier[i] = s;
    }
  }
  const conf = multiclassConfidence(set);
  let bins: Report['bins'] = null;
  let bin: Int16Array = new Int16Array(n).fill(-1);
  let binQuantile: Int16Array = new Int16Array(n).fill(-1);
  let smoothReliability: Report['smoothReliability'] = null;
  if (conf) {
    const cal = calibrationMetrics(conf, correct, o);
    Object.assign(metrics, cal.metrics);
    bins = cal.bins;
    smoothReliability = cal.smoothReliability;
    bin = cal.binIndex;
    binQuantile = cal.binQuantile;
  }
  // Classwise ECE, the mean of classes.ece, after the top-label metrics (METRIC_NAMES order).
  if (stats.ece) metrics.ece_classwise = meanOrNull(stats.ece);
  // The answer's stated confidence, when it is the file's only probability (no class probabilities).
  if (set.confidence && !set.probs) Object.assign(metrics, statedConfidenceMetrics(set.confidence, correct));
  const instances: InstanceColumns = {
    lines: set.lines,
    value: conf ?? new Float64Array(n).fill(NaN),
    target: Float64Array.from(correct),
    confidence: conf ?? new Float64Array(n).fill(NaN),
    correct,
    bin,
    binQuantile,
    brier,
    gold: set.gold,
    pred: set.pred,
    ...instanceIdsOf(set),
  };
  return {
    metrics, bins, roc: null, classStats: stats, instances, smoothReliability,
    classes: set.classes, texts: set.texts, dataPath: set.dataPath, dataLines: set.dataLines,
  };
}

function scoreProbability(set: ProbabilitySet, o: ScoreOptions): Scored {
  const n = set.n;
  const metrics: Metrics = {
    mse: mse(set.predProb, set.goldProb),
    tvd: tvd(set.predProb, set.goldProb),
    kl: klBernoulli(set.predProb, set.goldProb),
    spearman: spearman(set.predProb, set.goldProb),
  };
  const order = stableArgsort(set.predProb);
  const bins = { equalWidth: equalWidthBins(set.predProb, set.goldProb, o.bins), equalCount: equalCountBins(set.predProb, set.goldProb, o.bins, order) };
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) sq[i] = (set.predProb[i] - set.goldProb[i]) ** 2;
  const instances: InstanceColumns = {
    lines: set.lines,
    value: set.predProb,
    target: set.goldProb,
    confidence: new Float64Array(n).fill(NaN),
    correct: new Uint8Array(n).fill(1),
    bin: binIndexEqualWidth(set.predProb, o.bins),
    binQuantile: binIndexEqualCount(set.predProb, o.bins, order),
    // For probabilities the per-instance squared error plays the Brier contribution's part.
    brier: sq,
    gold: new Int32Array(n).fill(-1),
    pred: new Int32Array(n).fill(-1),
    ...instanceIdsOf(set),
  };
  return { metrics, bins, roc: null, classStats: null, instances, texts: set.texts };
}

/**
 * Per-sample scores have no set metric: their means are the report's taskMetrics. The instance
 * columns still carry each row's line and ID (the table, search and the stepper read them).
 */
function scoreScores(set: ScoresSet, o: ScoreOptions): Scored {
  const none = { metrics: set.judge ? judgeFileMetrics(set.judge) : {}, bins: null, roc: null, classStats: null };
  if (o.instances === false) return { ...none, instances: null };
  const n = set.n;
  const nan = () => new Float64Array(n).fill(NaN);
  const instances: InstanceColumns = {
    lines: set.lines, value: nan(), target: nan(), confidence: nan(), correct: new Uint8Array(n),
    bin: new Int16Array(n).fill(-1), binQuantile: new Int16Array(n).fill(-1), brier: nan(),
    gold: new Int32Array(n).fill(-1), pred: new Int32Array(n).fill(-1), ...instanceIdsOf(set),
  };
  return { ...none, instances, texts: set.texts };
}

/** Mean of the values, null when any is null or there are none. */
function meanOrNull(a: (number | null)[]): number | null {
  let s = 0;
  for (const v of a) {
    if (v === null) return null;
    s += v;
  }
  return a.length ? s / a.length : null;
}

function mean(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s / a.length;
}

// Bootstrap intervals: the columns are sorted once, and each resample (the multiplicities of the
// drawn rows, metrics/bootstrap.ts) is one O(n) weighted pass (metrics/resample.ts). Every headline
// metric of the kind gets an interval.

/** The calibration metrics a multiclass set adds when it has a confidence (KIND_METRICS has every kind's list). */
const CALIBRATION_KEYS = ['ece', 'ece_quantile', 'mce', 'mce_quantile', 'ks', 'hmr', 'r_o', 'r_u', 'hmr_beta', 'smece', 'smece_sigma'] as const;
/** A multiclass file's stated confidence (no class probabilities): its AUROC and Brier against correctness. */
const STATED_CONFIDENCE_KEYS = ['confidence_auroc', 'confidence_brier'] as const;

/**
 * The metrics of one resample, given as multiplicities. With `band`, each resample's smoothed
 * reliability curve at band.sigma is kept for the report's bootstrap band (metrics/smoothCalibration.ts).
 */
export function resampleMetrics(set: PredictionSet, o: ScoreOptions, band?: SmoothBand): (w: Counts) => Record<string, number | null> {
  switch (set.kind) {
    case 'binary': {
      if (hasNaN(set.score)) return naiveResample(set, o);
      const cal = calibrationResampler(set.score, set.label, { bins: o.bins, hmrBeta: o.hmrBeta, mode: 'binary', threshold: o.threshold, band });
      const d = decisionScores(set, o.threshold);
      // The rates from the calibration pass's bin sums when the threshold is a bin edge (0.5, the
      // default): one O(n) walk of each resample less (~10% of a resample, issue 28.11).
      const confusion = set.pred ? null : cal.confusionAt(d.threshold);
      const rates = confusion ? () => confusionRates(...confusion()) : rateResampler(d.score as Float64Array, set.label, d.threshold);
      if (!set.pred) return (w) => ({ ...cal(w), ...rates(w) });
      // The named prediction column's accuracy, resampled with the same multiplicities.
      const hit = Uint8Array.from(set.pred, (p, i) => (p === set.label[i] ? 1 : 0));
      return (w) => {
        let h = 0, t = 0;
        for (let i = 0; i < hit.length; i++) { h += hit[i] * w[i]; t += w[i]; }
        return { ...cal(w), ...rates(w), accuracy: t ? h / t : null };
      };
    }
    case 'confidence': {
      if (hasNaN(set.confidence)) return naiveResample(set, o);
      const cal = calibrationResampler(set.confidence, set.correct, { bins: o.bins, hmrBeta: o.hmrBeta, mode: 'topLabel', band });
      return (w) => pick(cal(w), KIND_METRICS.confidence.computed);
    }
    case 'multiclass': {
      const conf = multiclassConfidence(set);
      if (conf && hasNaN(conf)) return naiveResample(set, o);
      const k = set.classes.length;
      const mcOnly = multiclassResampler({ gold: set.gold, pred: set.pred, k, include: classesForMean(set), probs: set.probs });
      const classwise = set.probs && classwiseEceResampler(set.probs, k, set.gold, o.bins);
      const mc = classwise ? (w: Counts) => ({ ...mcOnly(w), ...classwise(w) }) : mcOnly;
      if (!conf) return mc;
      const cal = calibrationResampler(conf, correctOf(set), { bins: o.bins, hmrBeta: o.hmrBeta, mode: 'topLabel', band });
      const keys = set.probs ? CALIBRATION_KEYS : [...CALIBRATION_KEYS, ...STATED_CONFIDENCE_KEYS];
      return (w) => ({ ...mc(w), ...pick(cal(w), keys) });
    }
    case 'probability':
      return probabilityResampler(set.predProb, set.goldProb);
    case 'scores':
      return set.judge ? judgeResampler(set.judge) : () => ({});
  }
}

/**
 * The reference path, for sets with NaN values (which parsers never produce): the resample's rows
 * gathered in ascending row order and scored as a whole set.
 */
export function naiveResample(set: PredictionSet, o: ScoreOptions): (w: Counts) => Record<string, number | null> {
  const keys = resampledKeys(set);
  return (w) => {
    const idx = expandCounts(w);
    const metrics = scoreSet(gatherSet(set, idx), { ...o, instances: false }).metrics;
    return pick(metrics, keys);
  };
}

/** The metrics a resample of this set reports (those resampleMetrics returns). */
function resampledKeys(set: PredictionSet): readonly string[] {
  // Binary sets also bootstrap folktexts' rates at the threshold (slices/rates.ts).
  return set.kind === 'binary' ? [...KIND_METRICS.binary.computed, ...RESAMPLED_RATES] : KIND_METRICS[set.kind].computed;
}

/** The set's rows at idx, in that order. */
export function gatherSet(set: PredictionSet, idx: Uint32Array): PredictionSet {
  const n = idx.length;
  const lines = gather(set.lines, idx);
  switch (set.kind) {
    case 'binary': return { ...set, n, lines, ids: undefined, idNumbers: undefined, score: gather(set.score, idx), label: gather(set.label, idx), pred: set.pred && gather(set.pred, idx) };
    case 'confidence': return { ...set, n, lines, ids: undefined, idNumbers: undefined, confidence: gather(set.confidence, idx), correct: gather(set.correct, idx) };
    case 'multiclass': {
      const k = set.classes.length;
      const probs = set.probs && gatherRows(set.probs, k, idx);
      // Every per-row column goes with its rows: a column left whole (lm-eval's acc_norm choices,
      // which --decision acc_norm reads as the prediction) would describe other rows.
      return {
        ...set, n, lines, ids: undefined, idNumbers: undefined, gold: gather(set.gold, idx), pred: gather(set.pred, idx), probs,
        confidence: set.confidence && gather(set.confidence, idx), texts: undefined,
        dataLines: set.dataLines && gather(set.dataLines, idx),
        predNorm: set.predNorm && gather(set.predNorm, idx),
        continuationLoglik: set.continuationLoglik && gather(set.continuationLoglik, idx),
      };
    }
    case 'probability': return { ...set, n, lines, ids: undefined, idNumbers: undefined, predProb: gather(set.predProb, idx), goldProb: gather(set.goldProb, idx), texts: undefined };
    case 'scores': return { ...set, n, lines, ids: undefined, idNumbers: undefined, texts: undefined, judge: set.judge && gatherJudgeRows(set.judge, idx) };
  }
}

function gatherRows(probs: Float64Array, k: number, idx: Uint32Array): Float64Array {
  const out = new Float64Array(idx.length * k);
  for (let i = 0; i < idx.length; i++) out.set(probs.subarray(idx[i] * k, idx[i] * k + k), i * k);
  return out;
}

function hasNaN(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== a[i]) return true;
  return false;
}

function pick(m: Partial<Record<string, number | null>>, keys: readonly string[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const key of keys) if (m[key] !== undefined) out[key] = m[key] as number | null;
  return out;
}

/**
 * Called after each resample: cancellation between resamples (an intervals pass on a large file can
 * take seconds), and progress (phase 'score', the share of resamples done) for the page's
 * "computing intervals… N%", about a hundred times a pass.
 */
function resampleHook(o: ScoreOptions, resamples = o.bootstrap): ((done: number) => void) | undefined {
  if (!o.shouldCancel && !o.onProgress) return undefined;
  const every = Math.max(1, Math.floor(resamples / 100));
  return (done) => {
    if (o.shouldCancel?.()) throw new ScoreCancelledError();
    if (o.onProgress && done % every === 0 && done < resamples) o.onProgress(done / resamples, 'score');
  };
}

/**
 * A later share of a split bootstrap (index > 0): its range of the resamples and, where the whole
 * set has a smoothed reliability curve, each resample's curve at the set's σ* (the band). σ* is
 * found as scoreSet finds it, from the values in stable sorted order, so the curves are the ones
 * the single pass draws.
 */
function laterShare(report: Report, set: PredictionSet, o: ScoreOptions): Report {
  const calibrated = calibrationColumns(set);
  const whole = calibrated && calibrated.value.length > 0 ? smoothInOrder(calibrated.value, calibrated.target, stableArgsort(calibrated.value))?.curve : null;
  let part: BootstrapPartData | undefined;
  report.intervals = intervalsFor(set, o, whole ?? undefined, (p) => { part = p; });
  if (part) report.bootstrapPart = { ...part, keys: [] };
  return report;
}

/** The (value, 0/1 target) columns whose smoothed reliability curve a report of `set` draws, if any. */
function calibrationColumns(set: PredictionSet): { value: Float64Array; target: Uint8Array } | null {
  switch (set.kind) {
    case 'binary': return { value: set.score, target: set.label };
    case 'confidence': return { value: set.confidence, target: set.correct };
    case 'multiclass': {
      const conf = multiclassConfidence(set);
      return conf ? { value: conf, target: correctOf(set) } : null;
    }
    default: return null;
  }
}

/** Smooth ECE and its curve from the values in ascending `order` (NaN sorts last and stays out). */
function smoothInOrder(value: Float64Array, target: Uint8Array, order: Uint32Array): ReturnType<typeof smoothCalibration> {
  const sorted = gather(value, order);
  let finite = sorted.length;
  while (finite > 0 && sorted[finite - 1] !== sorted[finite - 1]) finite--;
  return smoothCalibration(sorted.subarray(0, finite), gather(target, order).subarray(0, finite));
}

/** Bootstrap intervals resampling whole clusters: the drawn rows scored as a set (the reference path). */
function clusterIntervalsFor(set: PredictionSet, o: ScoreOptions, clusters: ReportClusters): Report['intervals'] {
  const onResample = resampleHook(o);
  return clusterBootstrap(clusters, o.bootstrap, o.seed, naiveResample(set, o), onResample) as Report['intervals'];
}

/**
 * The set's bootstrap intervals. With o.bootstrapPart, only that share of the resamples (their
 * values go to `onPart` for mergeBootstrapParts; the intervals returned are the share's own).
 */
function intervalsFor(set: PredictionSet, o: ScoreOptions, smooth?: Report['smoothReliability'], onPart?: (part: BootstrapPartData) => void): Report['intervals'] {
  const [from, to] = o.bootstrapPart ? bootstrapPartRange(o.bootstrap, o.bootstrapPart) : [0, o.bootstrap];
  const onResample = resampleHook(o, to - from);
  // The smoothed reliability curve's band: each resample's curve at the whole set's σ*.
  const band = smooth ? new SmoothBand(smooth.sigma) : undefined;
  const lists = bootstrapCountSamples(set.n, from, to, o.seed, resampleMetrics(set, o, band), onResample);
  const intervals = percentileIntervals(lists) as Report['intervals'];
  if (smooth && band && band.count > 0) Object.assign(smooth, band.finish());
  if (o.bootstrapPart) onPart?.({ ...o.bootstrapPart, lists, keys: [], ...(band ? { curves: band.kept.slice() } : {}) });
  return intervals;
}

function undefinedMetricProblems(report: Report): RowProblem[] {
  if (report.kind === 'binary' && report.metrics.auc === null) {
    return [{ line: 1, severity: 'warning', code: 'undefined-metric', message: 'AUC is undefined: every scored row has the same label.' }];
  }
  if (report.kind === 'probability' && report.metrics.spearman === null) {
    return [{ line: 1, severity: 'warning', code: 'undefined-metric', message: 'Spearman correlation is undefined: the predicted or the true probabilities are all equal.' }];
  }
  return [];
}

/** Mean (and, with a bootstrap, its percentile interval) of each metric a task logged per sample. */
function taskMetricsOf(list: NonNullable<ParseResult['taskMetrics']>, o: ScoreOptions): TaskMetric[] {
  return list.map(({ name, values, reported }) => {
    // A row that did not log the metric holds NaN; an infinite value (mae: Infinity) is kept, as numpy's mean keeps it.
    const finite = values.filter((v) => !Number.isNaN(v));
    const n = finite.length;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += finite[i];
    const out: TaskMetric = { name, n, mean: n ? sum / n : null };
    if (o.bootstrap > 0 && n > 1) {
      const iv = bootstrapIntervals(n, o.bootstrap, o.seed, (idx) => {
        let t = 0;
        for (let i = 0; i < n; i++) t += finite[idx[i]];
        return { mean: t / n };
      }).mean;
      if (iv) out.interval = iv;
    }
    if (reported !== undefined) out.reported = reported;
    return out;
  });
}

/** The reported figures that are NaN or infinite, spelt as Python writes them (JSON cannot hold them). */
function nonFiniteReported(reported: Record<string, number | null> | undefined): { reportedNonFinite?: Record<string, 'NaN' | 'Infinity' | '-Infinity'> } {
  const out: Record<string, 'NaN' | 'Infinity' | '-Infinity'> = {};
  for (const [name, v] of Object.entries(reported ?? {})) {
    if (typeof v === 'number' && !Number.isFinite(v)) out[name] = Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  }
  return Object.keys(out).length ? { reportedNonFinite: out } : {};
}

/** Agreement within rounding: a benchmark that printed 4 decimals should not be flagged. */
export function agrees(reported: number, recomputed: number): boolean {
  return Math.abs(reported - recomputed) <= Math.max(5e-4, 1e-3 * Math.abs(recomputed));
}

function reportedMismatches(report: Report): RowProblem[] {
  const out: RowProblem[] = [];
  // Figures over more samples than the file holds are not comparable (reportedOn.ts).
  if (reportedOnMore(report)) return out;
  for (const [name, value] of Object.entries(report.reported)) {
    const mine = report.metrics[name as MetricName];
    // A NaN or infinite figure is shown as the file gives it, not flagged against a finite one.
    if (value === null || !Number.isFinite(value) || mine === null || mine === undefined) continue;
    if (!agrees(value, mine)) {
      // A difference the definitions explain is information, not a warning.
      const note = report.reportedNotes?.[name];
      out.push({
        line: 1, severity: note ? 'info' : 'warning', code: 'reported-mismatch',
        message: `${name}: ${report.reportedPath ? baseName(report.reportedPath) : 'the results file'} reports ${fmt(value)}, recomputed from this file ${fmt(mine)}.${note ? ` ${note}` : ''}`,
      });
    }
  }
  return out;
}

/** Names of reported figures that disagree with the recomputed ones (for the UI). */
export function disagreeingReported(report: Report): string[] {
  if (reportedOnMore(report)) return [];
  return Object.entries(report.reported)
    .filter(([name, v]) => v !== null && Number.isFinite(v) && typeof report.metrics[name as MetricName] === 'number' && !agrees(v, report.metrics[name as MetricName] as number))
    .map(([name]) => name);
}


function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}

/** The report with its problems capped (problemCap.ts). */
function capReportProblems(report: Report): Report {
  report.problems = capProblems(report.problems);
  return report;
}
