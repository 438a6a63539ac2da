// The shared vocabulary of the metric core. Plain data only: this module (and all of src/core)
// must never import `vscode`, so it runs in the CLI, in a worker, in tests and in the extension.
import type { JudgeReport, JudgeRows } from './judges/types';
// The one per-sample record, for the sample view's messages (src/protocol.ts names it through here).
export type { AnswerSpan, SampleMessage, SampleQuery, SampleRecord, SampleRow, SampleScore } from './samples/record';

/**
 * binary / confidence / multiclass / probability: a prediction against a gold answer. scores:
 * per-sample numbers with no gold label (Ragas metrics, a judge's grades, pairwise preferences),
 * whose figures are the scores' means (Report.taskMetrics) and, for judges, Report.judge.
 */
export type Kind = 'binary' | 'multiclass' | 'confidence' | 'probability' | 'scores';
export type FormatName =
  | 'folktexts' | 'raft' | 'almanacs' | 'lm-eval' | 'inspect' | 'generic'
  // Harness adapters over the one sample record (src/core/samples/record.ts).
  | 'helm' | 'lighteval' | 'promptfoo' | 'opencompass' | 'eee'
  // LLM-as-judge files (src/core/judges/).
  | 'alpacaeval' | 'mt-bench' | 'arena' | 'arena-hard'
  // A file of figures a run reports (a results or stats file, a leaderboard table), shown as such.
  | 'summary';
export const FORMAT_NAMES: readonly FormatName[] = [
  'folktexts', 'raft', 'almanacs', 'lm-eval', 'inspect', 'generic',
  'helm', 'lighteval', 'promptfoo', 'opencompass', 'eee', 'alpacaeval', 'mt-bench', 'arena', 'arena-hard', 'summary',
];

/** Every metric name, as docs/metrics.md defines it and the JSON output spells it. */
export const METRIC_NAMES = [
  'accuracy', 'auc', 'macro_f1', 'raft_score', 'brier', 'nbr', 'log_loss', 'ece', 'ece_quantile',
  'mce', 'mce_quantile', 'ks', 'hmr', 'r_o', 'r_u', 'hmr_beta', 'mse', 'tvd', 'kl', 'spearman',
  // lm-eval: acc_norm (docs/metrics.md, lm-eval conventions) and the perplexity of single-continuation tasks.
  'acc_norm', 'perplexity',
  'stderr', // Inspect's standard error of the mean score
  // Calibration beyond bins (issue 19): smooth ECE and its bandwidth, classwise ECE.
  'smece', 'smece_sigma', 'ece_classwise',
  // LLM-as-judge files (src/core/judges/; docs/metrics.md, "Judges"): per model in Report.groups.
  'judge_score', 'win_rate', 'win_rate_adjusted', 'rating', 'position_bias', 'length_bias', 'agreement', 'kappa',
  // A stated confidence of the answer (issue 26): AUROC and Brier of it against correctness.
  'confidence_auroc', 'confidence_brier',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/**
 * Whole-set figures of a binary set at the threshold (folktexts' evaluate_binary_predictions), and
 * ece_scaled (ece after min-max scaling of the scores): keys of `metrics` beside METRIC_NAMES.
 */
export const RATE_NAMES = ['tpr', 'fnr', 'fpr', 'tnr', 'balanced_accuracy', 'precision', 'ppr', 'ece_scaled'] as const;
export type RateName = (typeof RATE_NAMES)[number];

export type Severity = 'error' | 'warning' | 'info';

/** Stable problem codes: shown in the Problems panel and used by quick fixes. */
export type ProblemCode =
  | 'not-a-number'        // a numeric field holds text
  | 'not-finite'          // NaN, inf, -inf
  | 'field-too-long'      // a numeric field longer than MAX_NUMERIC_CHARS: not parsed
  | 'out-of-range'        // a probability outside [0, 1]
  | 'percent-probability' // "73%" where a probability in [0, 1] is expected (quick-fixable)
  | 'bad-label'           // a binary label that is not 0/1
  | 'unknown-class'       // a class that is not one of the task's classes
  | 'missing-field'       // an empty or absent required field
  | 'column-count'        // a CSV row with the wrong number of columns
  | 'duplicate-id'        // an ID seen before in the same file
  | 'probs-not-normalised'// class probabilities that do not sum to 1
  | 'empty-file'          // nothing but (at most) a header
  | 'json-parse'          // a JSON line / document that does not parse
  | 'unterminated-quote'  // a quoted CSV field that never closes
  | 'no-gold'             // a prediction whose ID has no gold label (hidden test split); info
  | 'missing-gold-data'   // RAFT predictions without train.csv / task.json to score against
  | 'reported-mismatch'   // a figure in results.bench-*.json that disagrees with the recomputed one
  | 'reported-subset'     // the file holds part of the samples its results file's figures are over; info
  | 'undefined-metric'    // e.g. AUC with only one class present
  | 'unscorable'          // nothing in the file could be scored
  | 'more-problems'       // the list was cut: a summary of how many more there are
  | 'unmatched-id'        // --group-by with a data file: predictions whose ID has no data row
  | 'group-column'        // --group-by: the column is missing, or the groups cannot be formed
  | 'best-threshold'      // --threshold best: which threshold was chosen, or why none could be
  | 'incomplete-log'      // an Inspect log that was cancelled or errored: scored on the samples it has; info
  | 'unknown-reducer'     // an Inspect epoch reducer that is not one of Inspect's built-in ones
  | 'bad-filter'          // --where: a term that cannot be read (a bad regex, a column the file lacks)
  | 'filtered'            // --where: how many rows of how many were scored; info
  | 'invalid-verdict';    // a judge's verdict that could not be read (MT-Bench's -1, an "error"): counted, left out

export interface RowProblem {
  /** 1-based line of the file the row came from (the first line of a multi-line CSV record). */
  line: number;
  /** 1-based column (character) within that line, when known. */
  column?: number;
  /** 1-based end column, when known (for a precise squiggle). */
  endColumn?: number;
  severity: Severity;
  code: ProblemCode;
  message: string;
  /** Which file, when the problem is in a companion file (train.csv, task.json, results json). */
  path?: string;
  /** On a 'more-problems' summary: how many problems it stands for, so later caps can add them up. */
  omitted?: number;
}

interface SetBase {
  /** Rows that were scored. Every column below has this length. */
  n: number;
  /** 1-based source line of each scored row, for hover, diagnostics and "Reveal". */
  lines: Uint32Array;
  /** Instance identifiers, when the file has them (RAFT `ID`, lm-eval `doc_id`, ...). */
  ids?: string[];
  /** Instance identifiers when every one is a whole number (folktexts' index), instead of `ids`. */
  idNumbers?: Float64Array;
}

/** score = P(y = 1), label in {0, 1}. */
export interface BinarySet extends SetBase {
  kind: 'binary';
  score: Float64Array;
  label: Uint8Array;
  /**
   * The file's own decision per row (0/1), from a prediction column the user named (--map pred=…):
   * it decides accuracy, the rates at the threshold, the error groups and each instance's
   * correctness, where score >= threshold decides otherwise. Calibration keeps the score.
   */
  pred?: Uint8Array;
}

/** Confidence of the system's own answer, and whether that answer was correct. */
export interface ConfidenceSet extends SetBase {
  kind: 'confidence';
  confidence: Float64Array;
  correct: Uint8Array;
}

/** Gold and predicted class as indices into `classes`. */
export interface MulticlassSet extends SetBase {
  kind: 'multiclass';
  classes: string[];
  /** True when `classes` is the task's full class list (RAFT task.json), not just the classes seen. */
  classesKnown: boolean;
  /**
   * The first `declaredClasses` of `classes` are the ones the task declares (HELM's output_mapping
   * letters); the rest are answers outside them (a model that wrote prose). macro-F1 averages over
   * the declared ones only, while an outside answer still counts against its gold class's recall.
   */
  declaredClasses?: number;
  gold: Int32Array;
  pred: Int32Array;
  /** p(pred), when the file has it (or probs do). */
  confidence?: Float64Array;
  /** n x classes.length, row-major, when the file has full class probabilities. */
  probs?: Float64Array;
  /** Text fields of each instance, for the misclassified-example stepper (RAFT texts, lm-eval docs). */
  texts?: { fields: string[]; values: string[][] };
  /** Where the instance texts and gold labels came from (RAFT train.csv), with each row's line there. */
  dataPath?: string;
  dataLines?: Uint32Array;
  /** lm-eval multiple choice: the acc_norm choice of each row (argmax of loglikelihood / choice length). */
  predNorm?: Int32Array;
  /** lm-eval single-continuation tasks: the loglikelihood of each row's target continuation. */
  continuationLoglik?: Float64Array;
  /**
   * The answers are free text, not labels (a model-graded scorer, or more distinct targets or
   * answers than half the samples): no macro-F1 or per-class view is computed over them. `reason`
   * says why in a sentence; without `keepAccuracy`, label accuracy is left out too.
   */
  freeText?: { reason: string; keepAccuracy: boolean };
}

/** ALMANACS: predicted P(Yes) against the model's true P(Yes). */
export interface ProbabilitySet extends SetBase {
  kind: 'probability';
  predProb: Float64Array;
  goldProb: Float64Array;
  /** Optional free text per row (ALMANACS `reasoning`, the question). */
  texts?: { fields: string[]; values: string[][] };
}

/**
 * Per-sample numbers without a gold label: the numbers themselves are in ParseResult.taskMetrics
 * (one column per metric, NaN where a sample has none), and the report's figures are their means.
 */
export interface ScoresSet extends SetBase {
  kind: 'scores';
  /** Text fields of each instance (the question, the answer, the judge's explanation). */
  texts?: { fields: string[]; values: string[][] };
  /** A judge file's per-row judge columns (src/core/judges/types.ts): the judge figures and Report.judge. */
  judge?: JudgeRows;
}

export type PredictionSet = BinarySet | ConfidenceSet | MulticlassSet | ProbabilitySet | ScoresSet;

/** What a format parser returns. */
export interface ParseResult {
  format: FormatName;
  /** Benchmark task, e.g. the RAFT dataset name or the lm-eval task. */
  task?: string;
  /** null when nothing could be scored; then `fatal` says why in one sentence. */
  set: PredictionSet | null;
  problems: RowProblem[];
  /** Data rows left out because of problems. */
  skipped: number;
  /** Rows without a gold label (RAFT hidden test split): counted, not scored, not "skipped". */
  unlabeled: number;
  /** Figures the benchmark reported itself (folktexts results.bench-*.json), by our metric name. */
  reported?: Record<string, number | null>;
  /** Where `reported` came from. */
  reportedPath?: string;
  /** One sentence per reported figure whose name matches a recomputed one but whose definition differs. */
  reportedNotes?: Record<string, string>;
  /** Every task the file holds (an lm-eval simple_evaluate dump); `task` is the one parsed (ScoreOptions.task). */
  tasks?: string[];
  /** Every model of a table holding several side by side (Prob_LogReg, Prob_SVM, ...); `model` is the one scored. */
  models?: string[];
  model?: string;
  /** The kind the file would have had, when nothing was scored (a RAFT file of test-split IDs is multiclass). */
  kind?: Kind;
  fatal?: string;
  /** Figures the format defines itself (Inspect's accuracy and stderr over score values): they replace the set's. */
  metrics?: Partial<Record<MetricName, number | null>>;
  /**
   * The per-sample values whose mean is one of `metrics` (Inspect's accuracy over C/I/P score
   * values, after the epoch reducer): its standard error and interval are computed from them.
   */
  metricValues?: Partial<Record<MetricName, Float64Array>>;
  /** Per-scorer, per-epoch and reduced figures (Inspect logs). */
  breakdown?: BreakdownRow[];
  /** Per-sample numeric metrics the task logged itself (lm-eval's mae, f1, bleu, ...), one value per instance (NaN: not logged). */
  taskMetrics?: { name: string; values: Float64Array; reported?: number | null }[];
  /** Inspect: the epochs per sample, the samples they ran on, and the reducer that turned them into one score. */
  epochs?: { count: number; reducer: string; samples: number };
  /** The model that made the predictions, as the file's own metadata names it (Inspect's eval.model, lm-eval's model_name or pretrained=). */
  sourceModel?: string;
  /** A summary file (results, stats, a leaderboard table): its figures, also in `reported` by name. */
  summary?: SummaryInfo;
  /** The samples the `reported` figures were computed on (lm-eval's n-samples), when the file is a subset of them. */
  reportedOn?: number;
  /**
   * The first rows' values of the file's columns (index i: scored row i), from a reader whose file
   * has no text to read them from again (a Parquet table read straight into typed columns): Group
   * by and Cluster by judge which columns to offer on it (slices/offeredColumns.ts).
   */
  columnSample?: Record<string, (string | undefined)[]>;
}

/**
 * A file of figures a run reports (lm-eval or lighteval results, HELM stats.json, a leaderboard or
 * a table of metrics per model, task or threshold), read as such: nothing is recomputed, the
 * figures are shown as the file gives them (formats/summary.ts).
 */
export interface SummaryInfo {
  /** What the file is, in a few words ("lighteval results", "HELM stats.json", "a table of metrics per model"). */
  source: string;
  /** The harness that wrote it, when known (lm-eval, lighteval, HELM, folktexts, AlpacaEval, OpenCompass). */
  harness?: string;
  figures: SummaryFigure[];
}

/** One figure of a summary; `name` is its key in Report.reported ("arc_easy/acc", "test/exact_match"). */
export interface SummaryFigure {
  name: string;
  metric: string;
  /** The task, dataset, model or threshold the row of the file stands for. */
  task?: string;
  model?: string;
  split?: string;
  /** The samples the figure was computed on, when the file says. */
  n?: number;
  value: number | null;
}

/** A metric the task logged per sample (lm-eval), under its own name. */
export interface TaskMetric {
  name: string;
  /** Instances that logged a value (not NaN). */
  n: number;
  mean: number | null;
  /** Percentile bootstrap interval of the mean, when the report computes intervals. */
  interval?: [number, number];
  /** The task's own figure for it (results file), when there is one; NaN or Infinity kept. */
  reported?: number | null;
}

/** One row of a report's breakdown: a named subset (scorer, epoch, reduction) and its figures. */
export interface BreakdownRow {
  label: string;
  n: number;
  metrics: Record<string, number | null>;
}

/** Column mapping for generic files: which column holds what. */
export interface ColumnMapping {
  score?: string;
  label?: string;
  confidence?: string;
  correct?: string;
  pred?: string;
  gold?: string;
  id?: string;
}

export interface ScoreOptions {
  /** Force a format instead of detecting it. */
  format?: FormatName;
  /** Reliability bins for ece/mce and the diagrams. Default 10. */
  bins: number;
  /** Binary decision threshold. Default 0.5. */
  threshold: number;
  /** HMR beta. Default 1. */
  hmrBeta: number;
  /** Bootstrap resamples; 0 = no intervals. */
  bootstrap: number;
  seed: number;
  /** RAFT data folder: DIR/<task>/train.csv, task.json. */
  raftData?: string;
  /** ALMANACS: the field holding the true probability. */
  goldKey?: string;
  mapping?: ColumnMapping;
  /**
   * Build per-instance columns (hover, instance table, stepper). The CLI turns this off: on a
   * million rows the columns cost more than the metrics themselves. Default true.
   */
  instances?: boolean;
  /**
   * Files larger than this many bytes are not read: the report's `fatal` says so instead of
   * running out of memory. Default 2 GiB (the evalLens.maxFileSizeMB setting, --max-file-mb).
   */
  maxFileBytes?: number;
  /** Binary sets: use folktexts' best threshold (min fpr + 1 - tpr on the ROC points) instead of `threshold`. */
  bestThreshold?: boolean;
  /** Metrics per group of a column (src/core/slices/). */
  groupBy?: GroupByOptions;
  /** List the columns a report could be grouped by (Report.groupColumns): the file's, and this data file's. */
  listColumns?: { dataPath?: string };
  /**
   * One column's value for each scored row (Report.columnRead): the report page's search by a
   * column of the file, or of this data file joined on ID.
   */
  readColumn?: { column: string; dataPath?: string };
  /**
   * Called while a file is parsed (phase 'parse', fraction of its bytes, every 64 KB to 1 MB of
   * input) and around scoring (phase 'score': 0, then 1). Fractions grow within a phase and each
   * phase ends with 1. Not serialised: Report.options keeps the numeric options only.
   */
  onProgress?: (fraction: number, phase: 'parse' | 'score') => void;
  /**
   * Called with each report and the parse it was built from, as scoring finishes (eval-lens convert
   * writes the per-sample set: choice probabilities, integer IDs, per-sample metrics). Not serialised.
   */
  onScored?: (report: Report, parsed: ParseResult) => void;
  /** Checked as often as onProgress is called: returning true throws a ScoreCancelledError. */
  shouldCancel?: () => boolean;
  /**
   * Parses of unchanged files kept between calls (the extension's scoring worker keeps one:
   * src/core/parseCache.ts); scoreFile asks it instead of parsing. Not serialised.
   */
  parseCache?: ParseCache;
  /**
   * Compute only this share of the bootstrap's resamples (index of count, side by side in resample
   * order) and keep their values in Report.bootstrapPart, for mergeBootstrapParts
   * (src/core/bootstrapParts.ts): a pass split between threads gives the intervals of the whole.
   * `span`: this share is parts index .. index + span - 1 at once (default 1).
   */
  bootstrapPart?: { index: number; count: number; span?: number };
  /** lm-eval multiple choice: which choice is the prediction for the calibration views (default 'acc'). */
  decision?: 'acc' | 'acc_norm';
  /** Which task of a file holding several (an lm-eval simple_evaluate dump); default the first. */
  task?: string;
  /** Which model of a table holding several models' columns; default the first. */
  model?: string;
  /** How intervals are made (docs/metrics.md#interval_method): 'bootstrap' (default), 't' or 'wilson'. */
  interval?: 'bootstrap' | 't' | 'wilson';
  /** Clustered standard errors and intervals by a column (the same sources as groupBy). */
  cluster?: ClusterOptions;
  /** --where: score only the rows that satisfy these terms (src/common/whereTerms.ts). */
  where?: WhereOptions;
  /** --slices: the slices whose metric differs from the rest of the file (score) or between runs (compare). */
  slices?: SlicesOptions;
}

/** What one share of a split bootstrap keeps (see ScoreOptions.bootstrapPart). */
export interface BootstrapPartData {
  index: number;
  count: number;
  /** The parts this share holds, from index on (default 1). */
  span?: number;
  /** Each metric's values over this share's resamples, in resample order. */
  lists: Record<string, number[]>;
  /** The metrics whose interval in Report.intervals is the bootstrap's, as computed (not replaced by another method). */
  keys: string[];
  /** Each resample's smoothed reliability curve (the band of Report.smoothReliability). */
  curves?: (number | null)[][];
}

/**
 * ScoreOptions.parseCache (src/core/parseCache.ts has the one the worker keeps): the parse of `path`
 * under `options`, a kept one when nothing it read has changed, else `parse(io)`'s. `io` is the
 * companion reader (formats/context.ts CompanionReader), spelt out here so this file stays free of
 * Node types.
 */
export interface ParseCache {
  parse(path: string, options: ScoreOptions, io: ParseCacheReader, parse: (io: ParseCacheReader) => ParseResult): ParseResult;
}
type ParseCacheReader = { readText(path: string): string | undefined; list(dir: string): string[] | undefined };

/** score --slices: one slice against the rest of the file (JSON `results[i].slices[k]`). */
export interface SliceContrast {
  column: string;
  value: string;
  /** Rows in the slice. */
  n: number;
  metric: MetricName;
  /** The metric on the slice and on every other row. */
  slice: number | null;
  rest: number | null;
  /** slice - rest. */
  delta: number | null;
  /** Bootstrap interval of the delta (95%), when the report computes intervals. */
  interval: [number, number] | null;
  p_value: number | null;
  p_holm: number | null;
  test: 'fisher' | 'bootstrap';
}

export type SliceTest = 'mcnemar' | 'delong' | 'bootstrap';

/** compare --slices: one slice's paired difference (JSON `comparison.slices[i]`; src/core/compare/sliceFinder.ts). */
export interface SliceDelta {
  column: string;
  value: string;
  /** Aligned instances in the slice. */
  n: number;
  metric: MetricName;
  baseline: number | null;
  candidate: number | null;
  /** candidate - baseline on the slice. */
  delta: number | null;
  /** Paired percentile bootstrap interval of the delta (95%). */
  interval: [number, number] | null;
  p_value: number | null;
  /** Holm-adjusted over every slice tested (all columns). */
  p_holm: number | null;
  test: SliceTest;
}

/** --slices COL[,COL…] | auto, --slice-metric M, with --data FILE for a data file's columns. */
export interface SlicesOptions {
  columns: string[] | 'auto';
  metric?: MetricName;
  dataPath?: string;
  joinKey?: string;
  /** Quantile groups of a numeric column (--group-bins), default 4. */
  bins?: number;
}

/** --where TERMS (repeatable, AND-ed), with --data FILE for columns of a data file joined on ID. */
export interface WhereOptions {
  terms: string[];
  dataPath?: string;
  joinKey?: string;
}

/** Report.filter: the --where terms, the rows that satisfy them, and the rows scored before them. */
export interface ReportFilter {
  where: string[];
  n: number;
  of: number;
}

/** --cluster COL: a column of the predictions file, or of a data file joined on ID (as GroupByOptions). */
export interface ClusterOptions {
  column: string;
  dataPath?: string;
  joinKey?: string;
}

/** Report.clusters (docs/metrics.md#clusters): clustered standard errors and design effects. */
export interface ClustersResult {
  column: string;
  count: number;
  /** Rows without a value in the column: each is a cluster of its own, counted in `count`. */
  singletons?: number;
  /**
   * Fewer than 30 clusters (issue 28.5): the means' intervals are t intervals with count − 1 degrees
   * of freedom on the clustered SE, not cluster-bootstrap percentiles (which have a handful of
   * distinct resamples); below 5 clusters the other metrics get no interval at all.
   */
  few?: { means: 't'; others: 'bootstrap' | 'none' };
  standard_errors: Partial<Record<MetricName, number | null>>;
  design_effect: Partial<Record<MetricName, number | null>>;
}

/** Report.repeats (docs/metrics.md#repeats): several attempts at one item. */
export interface RepeatsResult {
  items: number;
  attempts: Record<string, number>;
  pass_at_k: Record<string, number>;
  pass_hat_k: Record<string, number>;
  within_item_variance: number | null;
  between_item_variance: number | null;
  flaky_items: number;
}

export interface GroupByOptions {
  /** Column of the predictions file (a dotted path such as doc.subject in JSON) or of the data file. */
  column: string;
  /** A CSV/TSV file joined to the predictions on their IDs (folktexts' task data, RAFT train.csv). */
  dataPath?: string;
  /** The data file's ID column; default its first column when unnamed (pandas' index), else ID/id. */
  joinKey?: string;
  /** Quantile groups of a numeric column with more than 20 distinct values. Default 4. */
  bins?: number;
}

/** One group of a --group-by split. */
export interface GroupSlice {
  /** The column's value as written in the file, or a quantile range such as "[25, 37)". */
  value: string;
  n: number;
  metrics: Partial<Record<MetricName | RateName, number | null>>;
  intervals: Partial<Record<MetricName | RateName, [number, number]>>;
  /** Fewer than 30 rows: its figures are noisy. */
  small?: boolean;
  /** Fewer than 4% of the rows: left out of the fairness figures, as folktexts does (min_group_size). */
  excludedFromFairness?: boolean;
  /** The group's equal-width reliability diagram (for the overlaid per-group diagrams). */
  bins?: ReliabilityBin[];
  /** The group's smoothed reliability diagram (for the overlaid per-group smooth diagrams). */
  smoothReliability?: SmoothReliability;
  /** The means of the per-sample metrics over the group's rows (a scores table's figures), with their intervals. */
  taskMetrics?: TaskMetric[];
}

export interface GroupsResult {
  column: string;
  /** Where the column came from: the predictions file itself, or the data file joined on ID. */
  source: 'predictions' | 'data';
  dataPath?: string;
  /** Predictions left out: no data row for their ID (or no value for the column). */
  unmatched: number;
  /** Predictions left out because their ID is on more than one row of the data file. */
  ambiguous?: number;
  /** Quantile groups: the edges used. */
  edges?: number[];
  groups: GroupSlice[];
  /** folktexts' fairness keys (binary sets, at least two groups); ece_diff = largest ECE gap. */
  fairness: Record<string, number>;
  /**
   * Per scored row, its index into `groups` (-1: left out), in the narrowest signed array that holds
   * them (one byte a row up to 127 groups: it travels to the report). Only with per-instance columns (not in --json).
   */
  rowGroup?: Int8Array | Int16Array | Int32Array;
}

export const DEFAULT_OPTIONS: ScoreOptions = { bins: 10, threshold: 0.5, hmrBeta: 1, bootstrap: 0, seed: 0 };

/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  /** Bin edges: [lo, hi) except the last equal-width bin, which is closed. For equal-count bins, the min and max value inside. */
  lo: number;
  hi: number;
  count: number;
  /** Mean of the binned value (score or confidence); NaN-free: empty bins have count 0 and null means. */
  meanValue: number | null;
  meanTarget: number | null;
  /** |meanValue - meanTarget|, null for an empty bin. */
  gap: number | null;
  /**
   * Wilson 95% interval of meanTarget, the bin's fraction positive (correct, for top-label), over
   * its count; absent for an empty bin and for targets that are not 0/1 (probability kind).
   */
  targetInterval?: [number, number];
}

/**
 * The smoothed reliability diagram (docs/metrics.md#smece): the kernel-smoothed mean target
 * against the value at σ*, the density of the values, and a bootstrap band.
 */
export interface SmoothReliability {
  /** σ*, the bandwidth of the curve, and smECE at it. */
  sigma: number;
  smece: number;
  /** Where the curve is given: t_m = m / 256, m = 0..256. */
  t: number[];
  /**
   * t - Σ_i K(t, f_i)(f_i - y_i) / Σ_i K(t, f_i): the smoothed mean target near value t (relplot's
   * centred regression), so that smECE = ∫ |curve(t) - t| density(t) dt, clipped to [0, 1] (near the
   * ends the estimate can pass them). null where less than one row's weight lies near t
   * (Σ_i K(t, f_i) σ √(2π) < 1): there it estimates nothing.
   */
  curve: (number | null)[];
  /** Kernel density of the values, Σ_i K(t, f_i) / n (integrates to 1 over [0, 1]; uniform = 1). */
  density: number[];
  /** 95% pointwise percentile band of the curve over the bootstrap resamples, at the same σ (with bootstrap only). */
  lower?: (number | null)[];
  upper?: (number | null)[];
  /** Resamples behind the band. */
  resamples?: number;
}

export interface RocCurve {
  fpr: number[];
  tpr: number[];
  thresholds: number[];
}

export interface ClassStats {
  classes: string[];
  precision: number[];
  recall: number[];
  f1: number[];
  support: number[];
  /** confusion[g][p] = count of gold g predicted p. */
  confusion: number[][];
  /** Per class (with class probabilities): equal-width ECE of p_c against 1[gold = c] (docs/metrics.md#ece_classwise). */
  ece?: (number | null)[];
}

/** Per-instance values, columnar, for charts, hover and the instance table. */
export interface InstanceColumns {
  lines: Uint32Array;
  /** The binned value: score (binary), confidence (multiclass/confidence), pred_prob (probability). NaN when unknown. */
  value: Float64Array;
  /** The calibration target: label (binary), correct (multiclass/confidence), gold_prob (probability). */
  target: Float64Array;
  /** Top-label confidence c (binary: max(s, 1 - s)). NaN when unknown. */
  confidence: Float64Array;
  /** 1 when the predicted class is right (probability kind: all 1). */
  correct: Uint8Array;
  /** Equal-width bin index of `value`, and equal-count bin index. -1 when value is NaN. */
  bin: Int16Array;
  binQuantile: Int16Array;
  /** Brier contribution of the instance (binary: (s - y)^2; multiclass: sum_k (p_k - 1[k=gold])^2). NaN when unknown. */
  brier: Float64Array;
  /** Class indices (multiclass) or 0/1 (binary) of gold and prediction; -1 when not applicable. */
  gold: Int32Array;
  pred: Int32Array;
  ids?: string[];
  /**
   * The IDs when the set has them only as numbers (SetBase.idNumbers: folktexts' index without a
   * joined data file), instead of `ids`; read either through src/common/instanceIds.ts.
   */
  idNumbers?: Float64Array;
}

/** Misclassified rows counted by (gold, predicted) pair; gold is null for free-text answers, grouped by answer. */
export interface ErrorGroup {
  gold: string | null;
  predicted: string;
  count: number;
}

export interface Report {
  path: string;
  format: FormatName;
  kind: Kind;
  task?: string;
  n: number;
  skipped: number;
  unlabeled: number;
  metrics: Partial<Record<MetricName | RateName, number | null>>;
  intervals: Partial<Record<MetricName | RateName, [number, number]>>;
  reported: Record<string, number | null>;
  /**
   * Reported figures that are not finite (NaN, Infinity, -Infinity, as Python writes them), by name:
   * `reported` holds them as numbers, which JSON cannot carry, so a JSON report keeps their spelling here.
   */
  reportedNonFinite?: Record<string, 'NaN' | 'Infinity' | '-Infinity'>;
  reportedPath?: string;
  /** See ParseResult.reportedNotes. */
  reportedNotes?: Record<string, string>;
  /** See ParseResult.tasks. */
  tasks?: string[];
  /** See ParseResult.models: the models of the file, and the one this report scores. */
  models?: string[];
  model?: string;
  /** True when the kind is not known (nothing scored, and the file does not say): show no kind. */
  kindUnknown?: boolean;
  /** A data file a folder scan looked at and did not take as predictions (its reason is `fatal`). */
  notScored?: boolean;
  /** The decision rule the calibration views use, when the file offers a choice (lm-eval acc / acc_norm). */
  decision?: 'acc' | 'acc_norm';
  problems: RowProblem[];
  /** Reliability diagrams: equal-width and equal-count binnings of `instances.value` against `instances.target`. */
  bins: { equalWidth: ReliabilityBin[]; equalCount: ReliabilityBin[] } | null;
  roc: RocCurve | null;
  classStats: ClassStats | null;
  /** The smoothed reliability diagram at σ* (kinds with a confidence; docs/metrics.md#smece). */
  smoothReliability?: SmoothReliability | null;
  /** The mistakes by (gold, predicted) pair, most frequent first (every pair; see metrics/errorGroups.ts). */
  errorGroups?: ErrorGroup[];
  /** --where: the terms and how many rows of how many satisfy them. */
  filter?: ReportFilter;
  /** score --slices: each slice against the rest of the file, most significant first. */
  slices?: SliceContrast[];
  /** Only the options that change numbers. */
  options: { bins: number; threshold: number; hmrBeta: number; bootstrap: number; seed: number };
  fatal?: string;
  /** Not printed by the CLI's --json: the per-instance columns. */
  instances: InstanceColumns | null;
  /** Class names (multiclass), so the UI can name gold/pred indices. */
  classes?: string[];
  /** Instance text fields (RAFT), for the stepper, and their data file. */
  texts?: { fields: string[]; values: string[][] };
  dataPath?: string;
  dataLines?: Uint32Array;
  /** --group-by: metrics per group and fairness figures. */
  groups?: GroupsResult;
  /** With options.listColumns: the columns the report can be grouped by (of the file, of the data file). */
  /** `unjoinable`: the rows have no IDs, so no data file can be joined to them. */
  groupColumns?: { predictions: string[]; data?: string[]; dataPath?: string; unjoinable?: true };
  /** With options.readColumn: the column's value for each instance (null where a row has none), or why it cannot be read. */
  columnRead?: { column: string; values?: (string | null)[]; error?: string };
  /** Per-scorer, per-epoch and reduced figures (Inspect logs). */
  breakdown?: BreakdownRow[];
  /** See ParseResult.taskMetrics: each metric's mean over the instances, its interval (with a bootstrap) and the task's reported figure. */
  taskMetrics?: TaskMetric[];
  /** See ParseResult.epochs. */
  epochs?: { count: number; reducer: string; samples: number };
  /** See ParseResult.sourceModel. */
  sourceModel?: string;
  /** Standard error of each mean-over-instances metric (and a task's own per-sample metric), unclustered (docs/metrics.md#standard_errors). */
  standard_errors?: Partial<Record<MetricName, number>> & Record<string, number>;
  /** How `intervals` were made (ScoreOptions.interval). */
  interval_method?: 'bootstrap' | 't' | 'wilson';
  /** Fewer than 30 instances (or clusters) behind the intervals: they are rough. */
  rough_intervals?: boolean;
  /** --cluster (or the items of repeated attempts): clustered standard errors; `intervals` are the clustered ones. */
  clusters?: ClustersResult;
  /** Several attempts at one item (Inspect epochs, an epoch/attempt/repeat/sample_index column). */
  repeats?: RepeatsResult;
  /**
   * Not printed by the CLI's --json (per-row, like `instances`): each scored row's item (an index
   * into `items`) and the flaky items (some but not all attempts right), for the stepper.
   */
  repeatRows?: { items: string[]; row: Int32Array; flaky: number[] };
  /** LLM-as-judge files: judged scores, pairwise preferences, arena ratings (src/core/judges/). */
  judge?: JudgeReport;
  /** See ParseResult.summary: a summary file's figures (n is 0, nothing is recomputed; no fatal). */
  summary?: SummaryInfo;
  /** See ParseResult.reportedOn: the samples the reported figures were computed on, when this file holds fewer. */
  reportedOn?: number;
  /** A share of the bootstrap (ScoreOptions.bootstrapPart): its resamples' values, to be merged. */
  bootstrapPart?: BootstrapPartData;
}
