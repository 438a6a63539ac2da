// What the report panel holds and tells: the scored result it shows, the facts tests and benchmarks
// read, and the small pure rules it applies (is a new result the same report with intervals?).
import type * as vscode from 'vscode';
import type { Report } from '../../core/types';
import type { HostToWebview, InstancePage, PanelState, ReportIntervals } from '../../protocol';
import { withGroupIntervals } from '../../common/groupRanking';
import type { PanelData } from '../worker/workerProtocol';
import { runLabel } from '../../common/paths';
import { taskMetricsToWire } from '../../common/taskMetrics';

export interface PanelScoreResult {
  reports: Report[];
  summary: { raft_score?: number | null };
  /** An intervals pass of this many resamples is running: the page says so until they come. */
  intervalsPending?: number;
  /** Chart data and encoded per-instance columns per report (the worker's 'panel' detail). */
  panel?: PanelData[];
  /** The scored file's mtime and size (see ScoreResult.stamp). */
  stamp?: { mtime: number; size: number };
}

/** Scores a file or folder; should reject (or resolve, it is then ignored) when `token` is cancelled. */
export type PanelScoreFunction = (
  path: string, token: vscode.CancellationToken, onProgress?: (fraction: number) => void,
) => Promise<PanelScoreResult>;

/** What tests and benchmarks can read about the panel (read-only). */
export interface PanelInfo {
  path: string;
  /** Type of the last message posted to the webview (or queued until it is ready). */
  lastPosted: HostToWebview['type'] | undefined;
  /** Whether the webview has said 'ready' since it last (re)loaded. */
  ready: boolean;
  /** The stepper's position as the webview last reported it ('stepped'), 0-based. */
  stepPosition: { index: number; total: number } | undefined;
  /** The last 'rendered' report: ms from the 'reports' message to the first painted chart. */
  rendered: { path: string; selected: number; ms: number; at: number } | undefined;
  /** How many 'rendered' the page has sent (a report posted twice would be painted twice). */
  renders: number;
  /** The last report whose per-instance data all arrived and whose table is built. */
  instancesReady: { path: string; selected: number; ms: number; rows: number; at: number } | undefined;
  /** Date.now() when the panel was created, when its webview last said 'ready', when the last 'reports' view was posted. */
  createdAt: number;
  readyAt: number | undefined;
  reportsPostedAt: number | undefined;
  /** The last run of 'instances' pages the host finished posting (bytes of typed data). */
  pagesPosted: { token: number; pages: number; bytes: number; ms: number; at: number } | undefined;
  /** The last line revealed on the webview's request. */
  lastRevealed: { path: string; line: number } | undefined;
  /** The last metric definition opened from a card's "?" (the docs/metrics.md URI with its fragment). */
  lastMetricDoc?: string;
  /** The last row whose sample the page asked to see (issue 29). */
  lastSampleRow?: import('../../core/types').SampleRow;
  /**
   * The last sample the page's peek drew (issue 29): from the 'peekSample' arriving here to the
   * page's 'samplePeekShown' (ms), the worker's read (ms), the page's own drawing (ms), its messages.
   */
  lastSamplePeek?: { request: number; requestToShownMs: number; readMs: number; pageMs: number; messages: number };
  /** The webview's UI state as it last reported it. */
  state: PanelState | undefined;
}

/** The same reports (same files, same numbers): a later pass only adds intervals. */
export function sameReports(a: readonly Report[], b: readonly Report[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((r, k) => {
    const o = b[k];
    if (r.path !== o.path || r.n !== o.n || r.skipped !== o.skipped || r.kind !== o.kind) return false;
    const names = new Set([...Object.keys(r.metrics), ...Object.keys(o.metrics)]) as Set<keyof Report['metrics']>;
    for (const m of names) {
      const x = r.metrics[m];
      const y = o.metrics[m];
      if (!(x === y || (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y)))) return false;
    }
    return true;
  });
}

export function isPanelState(value: unknown): value is PanelState {
  return !!value && typeof value === 'object' && typeof (value as PanelState).path === 'string';
}

export function titleFor(path: string): string {
  return path ? `Eval Lens: ${runLabel(path)}` : 'Eval Lens';
}

/** A result's bootstrap intervals, as the 'intervals' message carries them. */
export function reportIntervals(reports: readonly Report[]): ReportIntervals[] {
  return reports.map((r) => ({
    intervals: r.intervals, bootstrap: r.options.bootstrap, ...(r.groups ? { groupIntervals: r.groups.groups.map((g) => g.intervals) } : {}),
    ...(r.taskMetrics ? { taskMetrics: r.taskMetrics } : {}),
    ...(r.rough_intervals ? { rough_intervals: true } : {}), ...(r.interval_method ? { interval_method: r.interval_method } : {}),
    ...(r.smoothReliability?.lower && r.smoothReliability.upper ? { smoothBand: { lower: r.smoothReliability.lower, upper: r.smoothReliability.upper, resamples: r.smoothReliability.resamples ?? 0 } } : {}),
  }));
}

/** `report` with the intervals of a later pass over the same numbers. */
export function withIntervals(report: Report, intervals: ReportIntervals): Report {
  return {
    ...report, intervals: intervals.intervals, options: { ...report.options, bootstrap: intervals.bootstrap }, groups: withGroupIntervals(report.groups, intervals.groupIntervals),
    ...(intervals.taskMetrics ? { taskMetrics: intervals.taskMetrics } : {}),
    rough_intervals: intervals.rough_intervals, ...(intervals.interval_method ? { interval_method: intervals.interval_method } : {}),
    ...(intervals.smoothBand && report.smoothReliability ? { smoothReliability: { ...report.smoothReliability, ...intervals.smoothBand } } : {}),
  };
}

/**
 * The 'reports' view of a result, and its instance pages in the order they should travel: the
 * selected report's first (its table is the one the user waits for). The report the webview last
 * showed for this path stays selected.
 */
export function reportsView(path: string, result: PanelScoreResult, saved: PanelState | undefined, token: number): { view: HostToWebview; pages: { report: number; page: InstancePage }[] } {
  const selected = saved?.path === path && saved.selected !== undefined && saved.selected < result.reports.length ? saved.selected : 0;
  const base = { type: 'reports' as const, path, reports: result.reports, summary: result.summary, selected, token, ...(result.intervalsPending ? { intervalsPending: result.intervalsPending } : {}) };
  const panel = result.panel;
  // Reports with their columns inline (small results from elsewhere) travel as they are.
  if (!panel || panel.length !== result.reports.length) return { view: base, pages: [] };
  const order = [selected, ...result.reports.map((_, k) => k).filter((k) => k !== selected)];
  return {
    view: { ...base, charts: panel.map((p) => p.charts), instances: panel.map((p) => p.instances?.scheme ?? null) },
    pages: order.flatMap((k) => (panel[k].instances?.pages ?? []).map((page) => ({ report: k, page }))),
  };
}

/**
 * A message as the webview gets it: a webview message is JSON, which has no NaN or Infinity, so a
 * task metric's non-finite figures travel as their spelling (taskMetricsToWire; the page reads both).
 */
export function forWebview(message: HostToWebview): HostToWebview {
  const wire = <T extends { taskMetrics?: Report['taskMetrics'] }>(x: T): T =>
    (x.taskMetrics ? { ...x, taskMetrics: taskMetricsToWire(x.taskMetrics) as unknown as Report['taskMetrics'] } : x);
  if (message.type === 'reports') return { ...message, reports: message.reports.map(wire) };
  if (message.type === 'intervals') return { ...message, reports: message.reports.map(wire) };
  return message;
}

/** Files the webview may ask to open: the reports' own files only, never an arbitrary path. */
export function mayOpen(result: PanelScoreResult | undefined, path: string): boolean {
  if (typeof path !== 'string' || !result) return false;
  return result.reports.some((r) => r.path === path || r.dataPath === path || r.reportedPath === path || r.problems.some((p) => p.path === path));
}
