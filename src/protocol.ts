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
  | { type: 'stepped'; index: number; total: number };

export const WEBVIEW_VIEW_TYPE = 'evalLens.report';
