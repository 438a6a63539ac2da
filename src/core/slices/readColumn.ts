// One column's value for each scored row, read on request (options.readColumn): the report page
// searches by a column of the file (a Parquet or CSV table's `geography`, a JSON record's
// doc.subject) or of the data file joined on ID, which the page does not hold. The values come
// from where --group-by reads them (columnValues.ts, dataJoin.ts), so a search and a Group by of
// the same column see the same values, row for row.
import type { PredictionSet, Report } from '../types';
import type { FileInput } from '../formats/context';
import { ownColumnValues } from './columnValues';
import { joinDataFile } from './dataJoin';
import type { SliceSource } from './slice';

export type ColumnRead = NonNullable<Report['columnRead']>;

export function readOneColumn(
  request: { column: string; dataPath?: string }, set: PredictionSet, inputOf: () => FileInput | undefined, source: SliceSource,
): ColumnRead {
  const column = request.column;
  if (request.dataPath) {
    const joined = joinDataFile(set, request.dataPath, column, undefined, source.io);
    if ('fatal' in joined) return { column, error: joined.fatal.message };
    return { column, values: joined.values.map((v) => v ?? null) };
  }
  const input = inputOf();
  const own = input ? ownColumnValues(input, set, column, source.lineOffset ?? 0) : undefined;
  if (!own || 'missing' in own) return { column, error: `The file has no column ${JSON.stringify(column)}.` };
  return { column, values: own.values.map((v) => v ?? null) };
}
