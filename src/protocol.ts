// The only messages that cross between the extension host and the report webview: one
// discriminated union each way, imported by both sides. Nothing crosses untyped.
import type { Report } from './core/types';

/** Webview state kept by VS Code across reloads (getState/setState) and handed to the serializer. */
export interface PanelState {
  /** The file or folder the panel reports on. */
  path: string;
  /** Index of the report shown when a folder produced several (RAFT run folder). */
  selected?: number;
  binning?: 'equalWidth' | 'equalCount';
  stepIndex?: number;
  /** Instance table: sort column and direction, and the filters in force. */
  sort?: { column: TableColumn; descending: boolean } | null;
  filter?: TableFilter;
}

/** Columns of the instance table (which ones appear depends on the report's kind). */
export type TableColumn =
  | 'row' | 'line' | 'id' | 'value' | 'target' | 'confidence' | 'correct' | 'gold' | 'pred' | 'bin' | 'brier';

/** Filters of the instance table; null / 'all' means "no filter on this". */
export interface TableFilter {
  correctness: 'all' | 'correct' | 'incorrect';
  /** A reliability bin of the binning shown (state.binning), from a click on the diagram. */
  bin: number | null;
  /** Class indices into Report.classes (multiclass) or 0/1 (binary). */
  gold: number | null;
  pred: number | null;
}

export type HostToWebview =
  /** A scoring run started (a spinner and the path). */
  | { type: 'loading'; path: string }
  /**
   * Results to render. Several reports when a folder was scored (RAFT: one per task);
   * `summary.raft_score` when RAFT tasks were scored. Per-instance columns travel as typed arrays.
   */
  | { type: 'reports'; path: string; reports: Report[]; summary: { raft_score?: number | null }; selected: number }
  /** Scoring failed or was cancelled. */
  | { type: 'error'; message: string }
  /** From the "Next/Previous Misclassified Example" commands. */
  | { type: 'step'; direction: 1 | -1 };

export type WebviewToHost =
  /** The webview's script runs and listens: the host posts nothing before this. */
  | { type: 'ready'; state?: PanelState }
  /** Persist UI state (also kept by the webview itself with setState). */
  | { type: 'state'; state: PanelState }
  /** Jump to a row: in the predictions file or in the data file (RAFT train.csv). */
  | { type: 'reveal'; path: string; line: number }
  /** The stepper moved: the host mirrors "7 of 23" for the commands' enablement. */
  | { type: 'stepped'; index: number; total: number }
  /**
   * The first chart of a 'reports' message has been painted: `ms` since that message arrived.
   * Lets the host (and tests, benchmarks) measure command-to-first-chart.
   */
  | { type: 'rendered'; path: string; selected: number; ms: number };

export const WEBVIEW_VIEW_TYPE = 'evalLens.report';
