// The report the page shows: what the 'reports' message brought, and the per-instance pages still
// on their way.
import type { Report } from '../../src/core/types';
import type { HostToWebview, ReportCharts } from '../../src/protocol';
import { reportCharts } from '../../src/common/chartData';
import { InstanceAssembler } from '../../src/common/instanceCodec';
import { normalizeReport } from './data';

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
