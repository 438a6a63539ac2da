// The rows' clusters for clustered error bars (issue 18): --cluster COL reads COL from the same
// places as --group-by (the predictions file's own columns or JSON fields, instance texts, a data
// file joined on ID), and a table whose IDs repeat with an epoch / attempt / repeat / sample_index
// column (or Inspect's epochs) is clustered by item unless --cluster says otherwise.
import type { ClusterOptions, ParseResult, PredictionSet, RepeatsResult, RowProblem } from '../types';
import type { CompanionReader, FileInput } from '../formats/context';
import { ownColumnValues, type RowValues } from './columnValues';
import { joinDataFile } from './dataJoin';
import { clusterCodes } from '../metrics/errorBars';
import { ATTEMPT_COLUMNS, inspectSampleIds, repeatedItems, repeatsOf, type ReportClusters } from '../errorBars';

/** The values of a column for each row of the set, or a problem saying why there are none. */
export function columnValuesFor(
  set: PredictionSet, spec: ClusterOptions, input: () => FileInput | undefined, io: CompanionReader, lineOffset = 0,
): { values: RowValues; problems: RowProblem[] } | { fatal: RowProblem } {
  if (spec.dataPath) {
    const joined = joinDataFile(set, spec.dataPath, spec.column, spec.joinKey, io);
    if ('fatal' in joined) return joined;
    return { values: joined.values, problems: joined.problems };
  }
  const own = ownInput(input, set, spec.column, lineOffset);
  if ('missing' in own) {
    return {
      fatal: {
        line: 1, severity: 'error', code: 'group-column',
        message: `The file has no column ${JSON.stringify(spec.column)} to cluster by${own.missing.length ? `; its columns are ${own.missing.slice(0, 30).map((c) => JSON.stringify(c)).join(', ')}` : ''}. A column of another file needs --data FILE (joined on ID).`,
      },
    };
  }
  return { values: own.values, problems: [] };
}

function ownInput(input: () => FileInput | undefined, set: PredictionSet, column: string, lineOffset: number) {
  const file = input();
  return file ? ownColumnValues(file, set, column, lineOffset) : { missing: [] as string[] };
}

/** --cluster: the rows' clusters (rows without a value are clusters of their own, with a warning). */
export function clustersFor(
  set: PredictionSet, spec: ClusterOptions, input: () => FileInput | undefined, io: CompanionReader, lineOffset = 0,
): { clusters?: ReportClusters; problems: RowProblem[] } {
  const got = columnValuesFor(set, spec, input, io, lineOffset);
  if ('fatal' in got) return { problems: [got.fatal] };
  // An empty cell is no value (as a row without a data row is): a cluster of its own, not one
  // cluster of every empty row.
  const codes = clusterCodes(Array.from(got.values, (v) => (v === '' ? undefined : v)));
  const problems = got.problems.slice();
  if (codes.missing) {
    problems.push({ line: 1, severity: 'warning', code: 'unmatched-id', message: `${codes.missing} row${codes.missing === 1 ? ' has' : 's have'} no value in ${JSON.stringify(spec.column)}; each counts as a cluster of its own.` });
  }
  return { clusters: { column: spec.column, code: codes.code, count: codes.count, ...(codes.missing ? { singletons: codes.missing } : {}) }, problems };
}

/**
 * Repeated attempts: IDs that repeat with an attempt column (epoch, attempt, repeat, sample_index),
 * or Inspect's epochs. The items as clusters (column: the ID column's name, 'id'), the repeats
 * figures, and whether the duplicate-ID warnings are explained (so the caller can drop them).
 */
export function repeatsFor(
  parsed: ParseResult, threshold: number, input: () => FileInput | undefined, lineOffset = 0,
): { clusters: ReportClusters; repeats: RepeatsResult | null; attemptColumn: string; items: string[] } | null {
  const set = parsed.set;
  if (!set || set.n < 2) return null;
  let ids: readonly string[] | undefined = set.ids;
  let attemptColumn: string | undefined;
  const inspect = parsed.format === 'inspect' ? inspectSampleIds(set.ids) : null;
  if (inspect) {
    ids = inspect;
    attemptColumn = 'epoch';
  }
  const items = repeatedItems(ids, ids ? undefined : set.idNumbers);
  if (!items) return null;
  if (!attemptColumn) {
    const file = input();
    if (!file) return null;
    for (const name of ATTEMPT_COLUMNS) {
      const got = ownColumnValues(file, set, name, lineOffset);
      if ('values' in got && got.values.some((v) => v !== undefined)) { attemptColumn = name; break; }
    }
    if (!attemptColumn) return null;
  }
  return {
    clusters: { column: 'id', code: items.item, count: items.items },
    repeats: repeatsOf(set, threshold, items.item, items.items),
    attemptColumn,
    items: items.names,
  };
}
