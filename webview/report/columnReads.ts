// The search box's columns of the file that the page does not hold (issue 28.1): a table's own
// columns (a Parquet or CSV `geography`) and the joined data file's are on offer to Group by, but
// the page only has the instances' scored values. A search term naming one asks the host, which
// reads that column for every instance (options.readColumn, in the scoring worker), and the search
// runs again when it answers. Pure but for `post`.
import type { Report } from '../../src/core/types';
import type { HostToWebview } from '../../src/protocol';
import { post } from '../common/vscodeApi';

type ColumnRead = Extract<HostToWebview, { type: 'columnRead' }>;
export type ColumnAnswer = { values?: (string | null)[]; error?: string };

/** Where a column the report offers comes from: the file itself, the joined data file, or neither (undefined). */
export function offeredSource(report: Report, column: string): 'predictions' | 'data' | undefined {
  const offered = report.groupColumns;
  if (offered?.predictions.includes(column)) return 'predictions';
  if (offered?.data?.includes(column)) return 'data';
  return undefined;
}

const waiting = new Map<string, ((a: ColumnAnswer) => void)[]>();

const key = (report: number, column: string, fromData: boolean) => JSON.stringify([report, column, fromData]);

/** Asks the host for a column's values of report `reportIndex` (one request per column at a time). */
export function readColumn(reportIndex: number, column: string, fromData: boolean): Promise<ColumnAnswer> {
  const k = key(reportIndex, column, fromData);
  return new Promise((resolve) => {
    const queue = waiting.get(k);
    if (queue) { queue.push(resolve); return; }
    waiting.set(k, [resolve]);
    post({ type: 'readColumn', report: reportIndex, column, fromData });
  });
}

/** The host's answer (main.ts routes 'columnRead' here). */
export function receiveColumnRead(message: ColumnRead): void {
  const k = key(message.report, message.column, !!message.fromData);
  const queue = waiting.get(k);
  if (!queue) return;
  waiting.delete(k);
  for (const resolve of queue) resolve({ values: message.values, error: message.error });
}
