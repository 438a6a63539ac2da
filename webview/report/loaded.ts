// The report the page shows: what the 'reports' message brought, and the per-instance pages still
// on their way.
import type { Report } from '../../src/core/types';
import type { HostToWebview, ReportCharts } from '../../src/protocol';
import { reportCharts } from '../../src/common/chartData';
import { InstanceAssembler } from '../../src/common/instanceCodec';
import { normalizeReport } from './data';
import { withGroupIntervals } from '../../src/common/groupRanking';

export interface Loaded {
  path: string;
  reports: Report[];
  summary: { raft_score?: number | null };
  /** Ties 'instances' pages and 'intervals' to this report (undefined: the message had no token). */
  token: number | undefined;
  /** Chart data per report (from the host, or computed here from inline instances). */
  charts: ReportCharts[];
  /** Per-instance pages still arriving, per report (null: complete or none expected). */
  assemblers: (InstanceAssembler | null)[];
  /** performance.now() when the 'reports' message arrived, for the 'rendered' timing. */
  receivedAt: number;
  renderedPosted: boolean;
  /** The first chart's paint was marked (announceFirstChart). */
  firstChartMarked?: boolean;
  /** Reports whose 'instancesReady' was posted. */
  instancesPosted: Set<number>;
}

export function loadedFrom(message: Extract<HostToWebview, { type: 'reports' }>): Loaded {
  const reports = message.reports.map((r) => (r.instances ? normalizeReport(r) : r));
  return {
    path: message.path,
    reports,
    summary: message.summary ?? {},
    token: message.token,
    charts: reports.map((r, k) => message.charts?.[k] ?? reportCharts(r)),
    assemblers: reports.map((r, k) => {
      const scheme = message.instances?.[k];
      return scheme && !r.instances ? new InstanceAssembler(scheme) : null;
    }),
    receivedAt: performance.now(),
    renderedPosted: false,
    instancesPosted: new Set(),
  };
}

/**
 * Bootstrap intervals that arrived after the charts (the 'intervals' message), merged into the
 * reports the page holds: the intervals, the groups', the task metrics', the smoothed curve's band.
 */
export function applyIntervals(current: Loaded, message: Extract<HostToWebview, { type: 'intervals' }>): void {
  current.reports = current.reports.map((r, k) => ({
    ...r, intervals: message.reports[k].intervals ?? {}, options: { ...r.options, bootstrap: message.reports[k].bootstrap },
    groups: withGroupIntervals(r.groups, message.reports[k].groupIntervals),
    ...(message.reports[k].taskMetrics ? { taskMetrics: message.reports[k].taskMetrics } : {}),
    rough_intervals: message.reports[k].rough_intervals, interval_method: message.reports[k].interval_method ?? r.interval_method,
  }));
  // Issue 19: the smoothed curve's band, into the object its chart box draws from (kindCharts.ts).
  current.reports.forEach((r, k) => {
    const band = message.reports[k].smoothBand;
    if (band && r.smoothReliability) Object.assign(r.smoothReliability, band);
  });
}
