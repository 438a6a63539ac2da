// Messages between the extension host and the compare / leaderboard webview (dist/compare.js), and
// the comparison and board documents as the CLI's --json prints them (issue 7's contract). Both
// sides import this file; nothing crosses untyped.
import type { ClassStats, FormatName, Kind, ReliabilityBin, RowProblem, SliceDelta, SmoothReliability } from '../core/types';
import type { ConfidenceHistogram } from './chartData';
import type { ChartMissingMessage, ExportChartMessage, WebviewFile } from './exportProtocol';

// ---------------------------------------------------------------------------------------------
// The comparison (`eval-lens compare --json` → .comparison)

/** One metric across runs; index 0 is the baseline (its delta, interval and p-value are null). */
export interface MetricComparison {
  values: (number | null)[];
  deltas: (number | null)[];
  /** Paired percentile bootstrap 95% interval of each delta. */
  intervals: ([number, number] | null)[];
  /** Two-sided p-value of each delta, by `test`. */
  p_values: (number | null)[];
  /** The test statistic (DeLong's z for auc), when the test has one. */
  statistics?: (number | null)[];
  /** 'delong' | 'mcnemar' | 'bootstrap' */
  test: string;
  /** Holm-adjusted over the candidates, with more than one candidate. */
  p_values_holm?: (number | null)[];
  /** Mean metrics (issue 18): the smallest difference these items detect (80% power, α 0.05), per candidate (index 0 null). */
  mde?: (number | null)[];
  /** The items that would make the observed delta significant (null when it is 0). */
  n_needed?: (number | null)[];
}

/** Baseline vs one candidate, for kinds with a notion of correct. */
export interface Agreement {
  both_right: number;
  baseline_only: number;
  candidate_only: number;
  both_wrong: number;
}

export interface ComparisonRun {
  path: string;
  format: FormatName;
  n: number;
  task?: string;
}

export interface ComparisonResult {
  kind: Kind;
  runs: ComparisonRun[];
  /** Instances present in every run (every figure is computed on them only). */
  aligned: number;
  /** Per run: its instances left out because another run lacks them. */
  unmatched: number[];
  metrics: Partial<Record<string, MetricComparison>>;
  /** 'id', or 'row-order' when no file has IDs (with a warning in problems). */
  aligned_by?: string;
  /** Per run (null for the baseline). Null too for kinds without a notion of correct. */
  agreement: (Agreement | Record<string, number> | null)[];
  problems: RowProblem[];
  bootstrap?: { resamples: number; seed: number; level: number };
  /** Run folders: one comparison per task present in every run. */
  tasks?: Record<string, ComparisonResult>;
  /** "Where it differs" (compare --slices): each slice's paired delta and test, most significant first. */
  slices?: ComparisonSlice[];
  /** Why "Where it differs" has no slices, in a sentence (the page says it instead of showing nothing). */
  slices_note?: string;
}

/** One slice of comparison.slices (docs/metrics.md#comparison_slices); `run` names the candidate when there are several. */
export type ComparisonSlice = SliceDelta & { run?: string };

export interface ComparisonDocument {
  version: 1;
  comparison: ComparisonResult;
}

// ---------------------------------------------------------------------------------------------
// The leaderboard (`eval-lens board --json` → .board)

export interface BoardRow {
  run: string;
  values: Record<string, number | null>;
  intervals: Record<string, [number, number] | null>;
  mean: number | null;
  /** Files behind the cells, by task. */
  paths?: Record<string, string>;
  /** 1 + the rows with a strictly better mean (issue 18). */
  rank?: number | null;
  /** [best, worst] rank over bootstrap resamples of the items (2.5% and 97.5%). */
  rank_interval?: [number, number] | null;
  /** 1: the top row and every row not significantly worse than it (Holm); then 2 on the rest, … */
  tier?: number | null;
}

export interface BoardResult {
  metric: string;
  /** 'raft_score' for RAFT boards of macro_f1. */
  mean_of?: string;
  columns: string[];
  rows: BoardRow[];
}

// ---------------------------------------------------------------------------------------------
// What the compare panel draws

/** One run's charts, made in the worker from its report (on the aligned instances when the core gives them). */
export interface CompareRunView {
  path: string;
  /** Short name for legends and headers ("Mistral-7B-sim", "run-2"). */
  label: string;
  kind: Kind;
  bins: { equalWidth: ReliabilityBin[]; equalCount: ReliabilityBin[] } | null;
  /** The ROC curve thinned to at most a couple of thousand points. */
  roc: { fpr: number[]; tpr: number[] } | null;
  histogram: ConfidenceHistogram | null;
  classStats: ClassStats | null;
  /** The smoothed reliability curve at the run's σ* (with its band when the runs were bootstrapped); issue 19. */
  smoothReliability?: SmoothReliability | null;
}

export type AgreementCell = keyof Agreement;
export const AGREEMENT_CELLS: readonly AgreementCell[] = ['both_right', 'baseline_only', 'candidate_only', 'both_wrong'];

/** One aligned instance, baseline and candidate side by side (display strings, made in the worker). */
export interface PairRow {
  id: string;
  cell: AgreementCell;
  /** Line of the instance in each run's file. */
  lines: [number, number];
  gold: string;
  preds: [string, string];
  /** Each run's score or confidence of its answer (null when the file has none). */
  values: [number | null, number | null];
  /** The instance's text fields (RAFT texts, lm-eval docs), when a run's file or data has them. */
  texts?: string[];
  /** The instance's slice in each of PairTable.sliceColumns ("Where it differs" filters by one). */
  slices?: (string | undefined)[];
}

/** The aligned instances of baseline vs one candidate, by agreement cell, at most `cap` a cell. */
export interface PairTable {
  candidate: number;
  counts: Agreement;
  cap: number;
  rows: PairRow[];
  textFields: string[];
  /** The columns of comparison.slices, in the order of PairRow.slices. */
  sliceColumns?: string[];
  /** The file each run's lines refer to (for reveal). */
  paths: [string, string];
}

export interface CompareView {
  comparison: ComparisonResult;
  runs: CompareRunView[];
  /** One per candidate (index 1..), for kinds with a notion of correct. */
  pairs: PairTable[];
  /** Where the comparison came from: the core's compare(), or a note why a figure is missing. */
  note?: string;
}

/** Board plus where each cell's file is, so a click can open its report. */
export interface BoardView {
  folder: string;
  board: BoardResult;
  /** paths[run][task] */
  paths: Record<string, Record<string, string>>;
  /** Whether a higher value of the metric is better (for the sort and the legend). */
  higherIsBetter: boolean;
  problems: string[];
}

// ---------------------------------------------------------------------------------------------
// Messages

/** What the page keeps (setState) so that VS Code can restore it after a reload: what to compute again. */
export type CompareRestoreState = { mode: 'compare'; paths: string[] } | { mode: 'board'; folder: string };

export type CompareHostToWebview =
  | { type: 'loading'; title: string; detail: string }
  | { type: 'comparison'; view: CompareView; restore?: CompareRestoreState }
  | { type: 'board'; view: BoardView; restore?: CompareRestoreState }
  /** `notApplicable`: the files were read, but compare has no comparison of their kind (the message says why). */
  | { type: 'error'; message: string; notApplicable?: boolean }
  /** From the Export Comparison command: send a chart as PNG or SVG (answered by 'export' or 'chartMissing'). */
  | ExportChartMessage
  /** An export put the Markdown on the clipboard: the page says so beside "Copy as Markdown". */
  | { type: 'copied' };

export type CompareWebviewToHost =
  | { type: 'ready' }
  /** Open a run's file at a line (only files of the view in place). */
  | { type: 'reveal'; path: string; line: number }
  /** Open a run's report (leaderboard cell, run header). */
  | { type: 'openReport'; path: string }
  /** Compare two leaderboard rows on a task. */
  /** Two ticked runs of the board: on one task, or (task null) the whole runs, every task. */
  | { type: 'compareRows'; runs: [string, string]; task: string | null }
  /** The sample view (issue 29): aligned instance `id` of candidate `candidate`, baseline and candidate side by side. */
  | { type: 'openSamples'; candidate: number; id: string }
  /** The view is painted: `ms` since its message arrived (tests wait on it). */
  | { type: 'rendered'; view: 'comparison' | 'board'; ms: number }
  /** The instance table's filter changed (tests check what a click did). */
  | { type: 'filtered'; cell: AgreementCell | null; rows: number }
  /** "Export…": the host builds the document (as `eval-lens compare`) and asks where to save it. */
  | { type: 'export'; request: CompareExportRequest; answers?: number }
  /** An 'exportChart' named a chart the page does not show. */
  | ChartMissingMessage;

/**
 * What the compare panel's "Export…" asks for: the CLI's `compare --markdown`, `--json` or `--csv`
 * (the metrics), built by the host; or a file only the webview can make (the aligned instances as
 * filtered, a chart's PNG or SVG).
 */
export type CompareExportRequest =
  | { format: 'markdown'; to: 'file' | 'clipboard' }
  | { format: 'json' }
  | { format: 'csv' }
  | { format: 'file'; file: WebviewFile };

export const COMPARE_VIEW_TYPE = 'evalLens.compare';
export const BOARD_VIEW_TYPE = 'evalLens.board';

/**
 * The significance wording: text carries it, colour only repeats it. `floor`: the smallest p the
 * test can give other than 0 (a paired bootstrap of N resamples: 2 / N), so a p of 0 reads as
 * "p < floor" rather than as an impossible certainty.
 */
export function significanceText(p: number | null | undefined, alpha = 0.05, floor?: number): { text: string; significant: boolean | null } {
  if (p === null || p === undefined || Number.isNaN(p)) return { text: 'no test', significant: null };
  const fmt = (x: number) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));
  const shown = p === 0 ? `p < ${fmt(floor ?? Number.MIN_VALUE)}` : `p = ${fmt(p)}`;
  return p < alpha ? { text: `significant (${shown})`, significant: true } : { text: `n.s. (${shown})`, significant: false };
}

/** A restore state read back from VS Code (it was the page's): its shape checked, or undefined. */
export function restoreStateOf(state: unknown): CompareRestoreState | undefined {
  if (!state || typeof state !== 'object') return undefined;
  const s = state as { mode?: unknown; paths?: unknown; folder?: unknown };
  if (s.mode === 'compare' && Array.isArray(s.paths) && s.paths.length >= 1 && s.paths.every((p) => typeof p === 'string' && p)) {
    return { mode: 'compare', paths: s.paths as string[] };
  }
  if (s.mode === 'board' && typeof s.folder === 'string' && s.folder) return { mode: 'board', folder: s.folder };
  return undefined;
}
