// The only messages that cross between the extension host and the report webview: one
// discriminated union each way, imported by both sides. Nothing crosses untyped.
import type { FormatName, MetricName, Report, SampleRecord, SampleRow } from './core/types';
import type { ReportCharts } from './common/chartData';
import type { InstancePage, InstanceScheme } from './common/instanceCodec';
import type { ChartMissingMessage, ExportChartMessage, WebviewFile } from './common/exportProtocol';

// Message parts defined where they are computed, re-exported so both sides import one module.
export type { ReportCharts } from './common/chartData';
export type { InstancePage, InstancePayload, InstanceScheme } from './common/instanceCodec';

/** Webview state kept by VS Code across reloads (getState/setState) and handed to the serializer. */
export interface PanelState {
  /** The file or folder the panel reports on. */
  path: string;
  /** Index of the report shown when a folder produced several (RAFT run folder). */
  selected?: number;
  binning?: 'equalWidth' | 'equalCount';
  stepIndex?: number;
  /** The stepper's order: file order, or the most confident mistakes first (default: binary reports). */
  stepOrder?: 'file' | 'confident';
  /** Instance table: sort column and direction, and the filters in force. */
  sort?: { column: TableColumn; descending: boolean } | null;
  filter?: TableFilter;
  /** Index into Report.groups.groups: the instance table and the stepper show that group only. */
  group?: number | null;
  /** A judge file's stepper (issue 27): which verdicts it steps through ('lowest', 'flips', 'upsets', 'loss:<model>'). */
  judgeDoubt?: string;
}

/**
 * Columns of the instance table (which ones appear depends on the report's kind). `field:NAME`: a
 * numeric text field of the instances (an agent run's turns, tool_calls and tokens, issue 29).
 */
export type TableColumn =
  | 'row' | 'line' | 'id' | 'value' | 'target' | 'confidence' | 'correct' | 'gold' | 'pred' | 'bin' | 'brier'
  | `field:${string}`;

/** Filters of the instance table; null / 'all' means "no filter on this". */
export interface TableFilter {
  correctness: 'all' | 'correct' | 'incorrect';
  /** A reliability bin of the binning shown (state.binning), from a click on the diagram. */
  bin: number | null;
  /** Class indices into Report.classes (multiclass) or 0/1 (binary). */
  gold: number | null;
  pred: number | null;
  /** The search box's query (src/common/whereTerms.ts), when one is applied. */
  query?: string;
}

export type HostToWebview =
  /** A scoring run started (a spinner and the path). */
  | { type: 'loading'; path: string }
  /**
   * Results to render. Several reports when a folder was scored (RAFT: one per task);
   * `summary.raft_score` when RAFT tasks were scored.
   *
   * From the extension, the reports come without their per-instance data (instances, texts,
   * dataLines are null/absent): what the charts need is in `charts`, computed in the scoring
   * worker, so the first chart is drawn from a message of a few kilobytes. The per-instance
   * columns follow in 'instances' pages (`instances[k]` says how they are encoded and how many
   * pages report k has). A report that does carry `instances` (the preview harness) is used as is.
   * `token` ties the pages and intervals that follow to this message.
   */
  | {
      type: 'reports'; path: string; reports: Report[]; summary: { raft_score?: number | null }; selected: number;
      token?: number; charts?: (ReportCharts | null)[]; instances?: (InstanceScheme | null)[];
      /** A bootstrap of this many resamples is computing the intervals ('intervals' follows; 'intervalsProgress' meanwhile). */
      intervalsPending?: number;
    }
  /** How far the intervals pass is (0..1), while it runs. */
  | { type: 'intervalsProgress'; token: number; fraction: number }
  /** One page of report `report`'s per-instance data (see InstanceScheme). */
  | { type: 'instances'; token: number; report: number; page: InstancePage }
  /**
   * The bootstrap pass finished: the intervals of each report (same order as 'reports'), to be
   * shown in place (the charts and the table stay as they are).
   */
  | { type: 'intervals'; token: number; reports: ReportIntervals[] }
  /** Scoring failed or was cancelled. */
  | { type: 'error'; message: string }
  /** From the "Next/Previous Misclassified Example" commands. */
  | { type: 'step'; direction: 1 | -1 }
  /** From the Export Report command: send a chart as PNG or SVG (answered by 'export' or 'chartMissing'). */
  | ExportChartMessage
  /** An export put the Markdown on the clipboard: the page says so beside "Copy as Markdown". */
  | { type: 'copied' }
  /** The answer to a 'readRecord': the row's record as the file holds it, each field as text, or why it could not be read. */
  | { type: 'record'; request: number; fields?: Record<string, string>; error?: string }
  /**
   * The answer to a 'searchConversations' (issue 29): the rows (by line) whose conversation holds
   * some of the query's text terms, and which (bit k: text term k of the query, in order).
   */
  | { type: 'conversationMatches'; search: number; rows?: { line: number; terms: number }[]; searched?: number; unread?: number; error?: string }
  /** The answer to a 'readColumn': the column's value for each instance of report `report`, or why it could not be read. */
  | { type: 'columnRead'; report: number; column: string; fromData?: boolean; values?: (string | null)[]; error?: string }
  /** The answer to a 'peekSample' (issue 29): the row's sample as read from the file, for the page's sample peek. */
  | { type: 'samplePeek'; request: number; side: SampleSide };

export type WebviewToHost =
  /** The webview's script runs and listens: the host posts nothing before this. */
  | { type: 'ready'; state?: PanelState }
  /** Persist UI state (also kept by the webview itself with setState). */
  | { type: 'state'; state: PanelState }
  /** Jump to a row: in the predictions file or in the data file (RAFT train.csv). */
  | { type: 'reveal'; path: string; line: number }
  /** A metric card's "?": open the metric's entry in the extension's own docs/metrics.md. */
  | { type: 'openMetricDoc'; metric: MetricName }
  /** "Export…" and "Copy as Markdown": the host asks where to save (or copies) and writes; the webview writes nothing. */
  | { type: 'export'; request: ExportRequest; answers?: number }
  /** An 'exportChart' named a chart the page does not show. */
  | ChartMissingMessage
  /** "Compare with…" in the report's header: pick a run to compare this report's file with. */
  | { type: 'compareWith'; path: string }
  /** A link in a judge's explanation was clicked: the host opens it (http, https, mailto only). */
  | { type: 'openLink'; url: string }
  /**
   * A judge file's stepper (issue 27): the record on line `line` of report `report`'s file, whole
   * (the page's texts are cut at 4,000 characters); answered by 'record' with the same `request`.
   */
  | { type: 'readRecord'; report: number; line: number; request: number }
  /** The stepper moved: the host mirrors "7 of 23" for the commands' enablement. */
  | { type: 'stepped'; index: number; total: number }
  /**
   * The first chart of a 'reports' message has been painted: `ms` since that message arrived.
   * Lets the host (and tests, benchmarks) measure command-to-first-chart.
   */
  | { type: 'rendered'; path: string; selected: number; ms: number; token?: number }
  /**
   * Every page of the selected report's per-instance data has arrived and the table (and stepper)
   * are built: `ms` since the 'reports' message arrived.
   */
  | { type: 'instancesReady'; path: string; selected: number; ms: number; rows: number }
  /** "Group by": a column of the predictions file (fromData false) or of the joined data file; null for none. */
  | { type: 'groupBy'; column: string | null; fromData?: boolean }
  /** "Cluster by" (issue 18): clustered standard errors and intervals by a column, as --cluster; null for none. */
  | { type: 'clusterBy'; column: string | null; fromData?: boolean }
  /** "Join data file…": the host asks for a CSV to join on ID. */
  | { type: 'pickDataFile' }
  /** "Model" of a file holding several models' columns (Report.models): score this one. */
  | { type: 'chooseModel'; model: string }
  /** "Compare models": compare the models of the report's file with each other. */
  | { type: 'compareModels' }
  /** "Map columns…": pick the table's gold, score and prediction columns (evalLens.mapColumns), then re-score. */
  | { type: 'mapColumns' }
  /** Open the sample view (issue 29) in its own tab on a row of report `report` (the sample peek's "Open in its own tab"). */
  | { type: 'openSample'; report: number; row: SampleRow }
  /**
   * Show a row's sample in the page itself, below the table or the stepper that asked (issue 29: a
   * row's click, the stepper's "Open sample"); answered by 'samplePeek' with the same `request`.
   */
  | { type: 'peekSample'; report: number; row: SampleRow; request: number }
  /** The sample peek of `request` is on the page: `ms` since its message arrived, and how many messages it shows. */
  | { type: 'samplePeekShown'; request: number; ms: number; messages: number }
  /**
   * The search box's plain-text and /regex/ terms, to be looked for inside every sample's
   * conversation in the file (answered by 'conversationMatches' with the same `search`).
   */
  | { type: 'searchConversations'; report: number; search: number; query: string }
  /**
   * The search names a column of the file (or of the joined data file, fromData) that the page does
   * not hold (issue 28.1): read its value for each instance of report `report` ('columnRead' answers).
   */
  | { type: 'readColumn'; report: number; column: string; fromData?: boolean };

export const WEBVIEW_VIEW_TYPE = 'evalLens.report';

export interface ReportIntervals {
  intervals: Report['intervals'];
  /** Resamples they came from (Report.options.bootstrap). */
  bootstrap: number;
  /** --group-by: each group's intervals, in the order of Report.groups.groups. */
  groupIntervals?: Report['intervals'][];
  /** The smoothed reliability curve's 95% bootstrap band (Report.smoothReliability's lower, upper, resamples). */
  smoothBand?: { lower: (number | null)[]; upper: (number | null)[]; resamples: number };
  /** The task's own metrics with their intervals (Report.taskMetrics; to the page as taskMetricsToWire spells them). */
  taskMetrics?: Report['taskMetrics'];
  /** Fewer than 30 instances (or clusters) behind these intervals (Report.rough_intervals). */
  rough_intervals?: boolean;
  interval_method?: Report['interval_method'];
}

/**
 * What the panel exports. Markdown and JSON the host builds from the reports it holds (`report`: the
 * one shown, or all); the CSV of the instance table as filtered and a chart's PNG or SVG only the
 * webview has, so it sends their content with a suggested file name (WebviewFile).
 */
export type ExportRequest =
  | { format: 'markdown'; to: 'file' | 'clipboard'; report: number | 'all' }
  | { format: 'json'; report: number | 'all' }
  | WebviewFile;

// ---------------------------------------------------------------------------------------------
// The sample view (issue 29): its own panel beside the report, one sample or two side by side.

export const SAMPLE_VIEW_TYPE = 'evalLens.sample';

/** One side of the sample view: which run and row, and the sample's record as read from the file. */
export interface SampleSide {
  /** The run's name (its file, or the compare page's label). */
  label: string;
  path: string;
  format: FormatName;
  row: SampleRow;
  record?: SampleRecord;
  /** 'texts': the format keeps no more than the report's row, so the record is made of it. */
  from?: 'file' | 'texts';
  /** Why the sample could not be read. */
  error?: string;
}

export type SampleHostToWebview =
  /** A sample is being read (the panel says which). */
  | { type: 'loading'; labels: string[] }
  /** One sample, or two runs' same sample side by side (the compare page). `token` ties 'shown' to it. */
  | { type: 'samples'; token: number; sides: SampleSide[] };

export type SampleWebviewToHost =
  | { type: 'ready' }
  /** A link in a score's explanation or a message was clicked: the host opens it (http, https, mailto only). */
  | { type: 'openLink'; url: string }
  /** "Reveal in file" on side `side`. */
  | { type: 'reveal'; side: number }
  /** The samples of `token` are on the page: `ms` since their message arrived, and how many messages it shows. */
  | { type: 'shown'; token: number; ms: number; messages: number };
