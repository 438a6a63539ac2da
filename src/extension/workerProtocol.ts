// Messages between the extension host and the scoring worker (dist/scoreWorker.js). Kept apart
// from both sides so neither imports the other: the host bundle stays free of the metric core.
import type { FormatName, Report, ScoreOptions } from '../core/types';

export interface ScoreSummary {
  raft_score?: number | null;
}

export interface ScoreResult {
  reports: Report[];
  summary: ScoreSummary;
}

export type WorkerRequest =
  /**
   * Score a file or folder from disk, or (with `text`) an unsaved buffer of the file at `path`.
   * `maxBytes` guards against files too large to hold in memory.
   */
  | {
      type: 'score'; id: number; path: string; text?: string; options: Partial<ScoreOptions>; maxBytes?: number;
      /** 'summary': leave out the per-instance columns (less to copy and to keep). Default 'full'. */
      detail?: 'full' | 'summary';
    }
  /** Which format each file is, from its name and first kilobytes (null: not predictions). */
  | { type: 'detect'; id: number; paths: string[]; maxBytes?: number };

export type WorkerReply =
  | {
      type: 'scored'; id: number; result: ScoreResult;
      /** mtime of the file before and after scoring: different means it changed mid-read. */
      mtimeBefore?: number; mtimeAfter?: number;
    }
  | { type: 'detected'; id: number; formats: (FormatName | null)[] }
  /** The request failed; `tooLarge` when the size guard refused it. */
  | { type: 'failed'; id: number; message: string; tooLarge?: boolean }
  /** Reserved for streaming parsers: fraction of the file done. */
  | { type: 'progress'; id: number; fraction: number };

/** A result without per-instance data: metrics, bins, class stats and problems only. */
export function summaryOnly(result: ScoreResult): ScoreResult {
  return {
    summary: result.summary,
    reports: result.reports.map((r) => ({ ...r, instances: null, roc: null, texts: undefined, dataLines: undefined })),
  };
}
