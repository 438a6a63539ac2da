// Messages between the extension host and the scoring worker (dist/scoreWorker.js). Kept apart
// from both sides so neither imports the other: the host bundle stays free of the metric core.
import type { ColumnMapping, FormatName, Report, SampleQuery, SampleRecord, ScoreOptions } from '../../core/types';
import type { TableRoles } from '../../core/tableRoles';
import type { InstancePayload, ReportCharts } from '../../protocol';
import type { BoardView, CompareView } from '../../common/compareProtocol';
import type { StepTime } from './threadCpu';

export interface ScoreSummary {
  raft_score?: number | null;
}

/** A report as the panel gets it: chart data and its per-instance columns, encoded in pages. */
export interface PanelData {
  charts: ReportCharts;
  instances: InstancePayload | null;
}

export interface ScoreResult {
  reports: Report[];
  summary: ScoreSummary;
  /**
   * With detail 'panel': one entry per report. The reports themselves then carry no per-instance
   * data (instances null, no texts or dataLines): it is all here, ready for the webview.
   */
  panel?: PanelData[];
  /**
   * mtime and size of the file scored, when it was read from disk and did not change during the
   * read: a panel compares it with the file later to notice a change its watcher missed.
   */
  stamp?: { mtime: number; size: number };
  /** Where the time went (ms): in the worker scoring and encoding (and by step), and the whole round trip. */
  timings?: { scoreMs: number; encodeMs: number; roundTripMs: number; steps?: StepTime[] };
}

/**
 * How much comes back: 'full' every per-instance column (hover, reveal), 'summary' none (metrics,
 * bins, class stats, problems: the tree and diagnostics of closed files, the intervals pass),
 * 'panel' the report panel's form (see ScoreResult.panel).
 */
export type Detail = 'full' | 'summary' | 'panel';

/** Fields every request may carry. `nice`: lower this worker thread's priority to it first (Linux). */
interface RequestBase {
  nice?: number;
}

export type WorkerRequest = RequestBase & (
  /**
   * Score a file or folder from disk, or (with `text`) an unsaved buffer of the file at `path`.
   * `maxBytes` guards against files too large to hold in memory. `progress`: send 'progress'
   * replies while parsing.
   */
  | {
      type: 'score'; id: number; path: string; text?: string; options: Partial<ScoreOptions>; maxBytes?: number;
      /** Default 'full'. */
      detail?: Detail;
      progress?: boolean;
      /**
       * The share of the progress that parsing stands for (default 0.9): the intervals pass spends
       * most of its time resampling, after the parse.
       */
      parseShare?: number;
    }
  /** Which format each file is, from its name and first kilobytes (null: not predictions). */
  | { type: 'detect'; id: number; paths: string[]; maxBytes?: number }
  /**
   * Score small made-up tables the way a report is scored (parse, metrics, chart data, instance
   * encoding), so that V8 has compiled that code before the first real file (workerPool.prepare).
   */
  | { type: 'warmUp'; id: number }
  /** Compare runs (files or run folders; the first is the baseline), with 'progress' replies. */
  | { type: 'compare'; id: number; paths: string[]; options: Partial<ScoreOptions>; maxBytes?: number }
  /** The leaderboard of a folder's runs, with 'progress' replies. */
  | { type: 'board'; id: number; path: string; options: Partial<ScoreOptions>; maxBytes?: number }
  /** A table's column roles ("Map columns…"), with the user's mapping so far. */
  | { type: 'roles'; id: number; path: string; mapping?: ColumnMapping; maxBytes?: number }
  /** The sample view (issue 29): each query's whole sample, read from its file now. */
  | { type: 'sample'; id: number; queries: SampleQuery[]; maxBytes?: number }
  /** The text terms of `query` looked for inside every sample's conversation in the file, with 'progress' replies. */
  | { type: 'searchConversations'; id: number; path: string; format: FormatName; query: string; maxBytes?: number }
);

/** One sample query's answer: the record, or why it could not be read. */
export type SampleReply = { record: SampleRecord; from: 'file' | 'texts' } | { error: string };

export type WorkerReply =
  | {
      type: 'scored'; id: number; result: ScoreResult;
      /** mtime and size of the file before and after scoring: different means it changed mid-read. */
      mtimeBefore?: number; mtimeAfter?: number; sizeBefore?: number; sizeAfter?: number;
      /** ms the worker spent, by step (for logs and benchmarks): wall and the worker thread's CPU. */
      timings?: { scoreMs: number; encodeMs: number; steps?: StepTime[] };
      /** Bytes of parses the worker keeps for later requests (the pool keeps such a worker longer). */
      kept?: number;
    }
  | { type: 'detected'; id: number; formats: (FormatName | null)[]; reasons?: (string | null)[] }
  | { type: 'warmedUp'; id: number; ms: number }
  | { type: 'compared'; id: number; view: CompareView; ms: number }
  | { type: 'boarded'; id: number; view: BoardView; ms: number }
  | { type: 'roles'; id: number; roles: TableRoles }
  | { type: 'sampled'; id: number; answers: SampleReply[]; ms: number }
  | { type: 'conversations'; id: number; rows?: { line: number; terms: number }[]; searched?: number; unread?: number; error?: string }
  /** The request failed; `tooLarge` when the size guard refused it. */
  | { type: 'failed'; id: number; message: string; tooLarge?: boolean; notApplicable?: boolean }
  /** Fraction of the job done (parse 0-0.9, metrics 0.9-1), sent at each whole percent. */
  | { type: 'progress'; id: number; fraction: number };

/** A result without per-instance data: metrics, bins, class stats and problems only. */
export function summaryOnly(result: ScoreResult): ScoreResult {
  return {
    summary: result.summary,
    reports: result.reports.map(withoutInstances),
  };
}

export function withoutInstances(r: Report): Report {
  // Each row's group is per-instance data too.
  return { ...r, instances: null, roc: null, texts: undefined, dataLines: undefined, ...(r.groups ? { groups: { ...r.groups, rowGroup: undefined } } : {}) };
}
