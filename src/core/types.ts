// The shared vocabulary of the metric core. Plain data only: this module (and all of src/core)
// must never import `vscode`, so it runs in the CLI, in a worker, in tests and in the extension.

export type Kind = 'binary' | 'multiclass' | 'confidence' | 'probability';
export type FormatName = 'folktexts' | 'raft' | 'almanacs' | 'lm-eval' | 'generic';
export const FORMAT_NAMES: readonly FormatName[] = ['folktexts', 'raft', 'almanacs', 'lm-eval', 'generic'];

/** Every metric name of ../shared/METRICS.md, exactly. */
export const METRIC_NAMES = [
  'accuracy', 'auc', 'macro_f1', 'raft_score', 'brier', 'nbr', 'log_loss', 'ece', 'ece_quantile',
  'mce', 'mce_quantile', 'ks', 'hmr', 'r_o', 'r_u', 'hmr_beta', 'mse', 'tvd', 'kl', 'spearman',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export type Severity = 'error' | 'warning' | 'info';

/** Stable problem codes: shown in the Problems panel and used by quick fixes. */
export type ProblemCode =
  | 'not-a-number'        // a numeric field holds text
  | 'not-finite'          // NaN, inf, -inf
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
  | 'undefined-metric'    // e.g. AUC with only one class present
  | 'unscorable'          // nothing in the file could be scored
  | 'more-problems';      // the list was cut: a summary of how many more there are

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
}

/** ALMANACS: predicted P(Yes) against the model's true P(Yes). */
export interface ProbabilitySet extends SetBase {
  kind: 'probability';
  predProb: Float64Array;
  goldProb: Float64Array;
  /** Optional free text per row (ALMANACS `reasoning`, the question). */
  texts?: { fields: string[]; values: string[][] };
}

export type PredictionSet = BinarySet | ConfidenceSet | MulticlassSet | ProbabilitySet;

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
  /** Figures the benchmark reported itself (folktexts results.bench-*.json), by METRICS.md name. */
  reported?: Record<string, number | null>;
  /** Where `reported` came from. */
  reportedPath?: string;
  fatal?: string;
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
  /**
   * Called while a file is parsed (phase 'parse', fraction of its bytes, every 64 KB to 1 MB of
   * input) and around scoring (phase 'score': 0, then 1). Fractions grow within a phase and each
   * phase ends with 1. Not serialised: Report.options keeps the numeric options only.
   */
  onProgress?: (fraction: number, phase: 'parse' | 'score') => void;
  /** Checked as often as onProgress is called: returning true throws a ScoreCancelledError. */
  shouldCancel?: () => boolean;
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
}

export interface Report {
  path: string;
  format: FormatName;
  kind: Kind;
  task?: string;
  n: number;
  skipped: number;
  unlabeled: number;
  metrics: Partial<Record<MetricName, number | null>>;
  intervals: Partial<Record<MetricName, [number, number]>>;
  reported: Record<string, number | null>;
  reportedPath?: string;
  problems: RowProblem[];
  /** Reliability diagrams: equal-width and equal-count binnings of `instances.value` against `instances.target`. */
  bins: { equalWidth: ReliabilityBin[]; equalCount: ReliabilityBin[] } | null;
  roc: RocCurve | null;
  classStats: ClassStats | null;
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
}
