// The report page's search by a column of the file that the page does not hold (issue 28.1): the
// file is read again in the scoring worker with the report's own options (format, mapping, model,
// data file) and options.readColumn, so the values line up with the page's instances row for row.
// No intervals, no per-instance data come back: only the column (Report.columnRead).
import type { ReportScoring } from '../worker/scoring';

export async function readColumnForSearch(
  scoring: ReportScoring, path: string, report: number, column: string, fromData: boolean,
): Promise<{ values?: (string | null)[]; error?: string }> {
  const options = scoring.optionsFor(path);
  const dataPath = options.listColumns?.dataPath;
  if (fromData && !dataPath) return { error: 'no data file is joined to this report' };
  const result = await scoring.score(path, {
    ...options, bootstrap: 0, instances: false, groupBy: undefined, cluster: undefined,
    readColumn: { column, ...(fromData ? { dataPath } : {}) },
  }, undefined, undefined, undefined, 'summary');
  const read = result.reports[report]?.columnRead;
  if (!read) return { error: result.reports[report]?.fatal ?? 'the file was not read' };
  return read.values ? { values: read.values } : { error: read.error ?? 'the column could not be read' };
}
