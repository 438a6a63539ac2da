// --where: score only the rows whose columns and texts satisfy the terms (src/common/whereTerms.ts).
// Columns come from where --group-by finds them: the predictions file's own columns or JSON fields
// (lm-eval's doc.*, Inspect's metadata.*), the set's instance texts, or a data file joined on ID.
// What the file itself reported is about every row, so a filtered report keeps none of it.
import type { ParseResult, PredictionSet, ReportFilter, RowProblem, WhereOptions } from '../types';
import type { FileInput } from '../formats/context';
import { parseWhere, rowHolds, termColumns } from '../../common/whereTerms';
import { gatherSet } from '../report';
import { ownColumnNames, ownColumnValues, type RowValues } from './columnValues';
import { joinDataFile } from './dataJoin';
import type { SliceSource } from './slice';

export interface WhereResult {
  parsed: ParseResult;
  filter?: ReportFilter;
  /** The rows kept (indices into the unfiltered set), for a caller that carries a column of its own with them (compare: the IDs). */
  rows?: Uint32Array;
}

/** The set's per-row texts: its text fields, and the gold and predicted class names. */
function textsOf(set: PredictionSet): (i: number) => (string | undefined)[] {
  const fields = set.kind === 'multiclass' || set.kind === 'probability' ? set.texts : undefined;
  const classes = set.kind === 'multiclass' ? set.classes : undefined;
  const ids = set.ids;
  return (i) => {
    const out: (string | undefined)[] = fields ? fields.values[i].slice() : [];
    if (classes && set.kind === 'multiclass') out.push(classes[set.gold[i]], classes[set.pred[i]]);
    if (ids) out.push(ids[i]);
    return out;
  };
}

/** A column's values per row: the set's own text fields, the file's columns, or the data file's (or a sentence why none). */
export function valuesOf(set: PredictionSet, column: string, spec: Pick<WhereOptions, 'dataPath' | 'joinKey'>, input: () => FileInput | undefined, source: SliceSource): RowValues | string {
  const fields = set.kind === 'multiclass' || set.kind === 'probability' ? set.texts : undefined;
  const k = fields ? fields.fields.indexOf(column) : -1;
  if (fields && k >= 0) return fields.values.map((v) => v[k]);
  const file = input();
  const own = file ? ownColumnValues(file, set, column, source.lineOffset ?? 0) : { missing: [] as string[] };
  if ('values' in own) return own.values;
  if (spec.dataPath) {
    const joined = joinDataFile(set, spec.dataPath, column, spec.joinKey, source.io);
    if (!('fatal' in joined)) return joined.values;
    return joined.fatal.message;
  }
  return `The file has no column ${JSON.stringify(column)}${own.missing.length ? `; its columns are ${own.missing.slice(0, 30).map((c) => JSON.stringify(c)).join(', ')}` : ''}. A column of another file needs --data FILE (joined on ID).`;
}

/**
 * The rows of `parsed` that satisfy `spec.terms`, as a parse result of their own; `filter` says how
 * many of how many. A term that cannot be read (a bad regex, a missing column) makes the result
 * fatal with that sentence: a filter that silently kept every row would mislead.
 */
export function applyWhere(parsed: ParseResult, spec: WhereOptions, source: SliceSource): WhereResult {
  const set = parsed.set;
  if (!set || !spec.terms.length) return { parsed };
  const fatal = (message: string): WhereResult => {
    const problem: RowProblem = { line: 1, severity: 'error', code: 'bad-filter', message };
    return { parsed: { ...parsed, set: null, problems: [...parsed.problems, problem], fatal: message } };
  };
  const query = parseWhere(...spec.terms);
  if ('error' in query) return fatal(`--where: ${query.error}.`);
  let input: FileInput | undefined | null = null;
  const inputOnce = () => (input === null ? (input = source.input()) : input);
  const columns = new Map<string, RowValues>();
  for (const column of termColumns(query.terms)) {
    const values = valuesOf(set, column, spec, inputOnce, source);
    if (typeof values === 'string') return fatal(values);
    columns.set(column, values);
  }
  let texts = textsOf(set);
  // A table without text fields: plain text and /regex/ look through every column of the file.
  const hasTextFields = (set.kind === 'multiclass' || set.kind === 'probability') && !!set.texts;
  if (!hasTextFields && query.terms.some((t) => t.kind !== 'column')) {
    const file = inputOnce();
    const all = file ? ownColumnNames(file, set).map((c) => ownColumnValues(file, set, c, source.lineOffset ?? 0)).flatMap((v) => ('values' in v ? [v.values] : [])) : [];
    const base = texts;
    texts = (i) => [...base(i), ...all.map((v) => v[i])];
  }
  const keep: number[] = [];
  for (let i = 0; i < set.n; i++) {
    if (rowHolds(query.terms, (c) => columns.get(c)?.[i], () => texts(i))) keep.push(i);
  }
  const rows = Uint32Array.from(keep);
  const filter: ReportFilter = { where: spec.terms.slice(), n: rows.length, of: set.n };
  const subset = gatherSet(set, rows);
  const note: RowProblem = {
    line: 1, severity: 'info', code: 'filtered',
    message: `--where ${spec.terms.map((t) => JSON.stringify(t)).join(' --where ')}: ${rows.length} of ${set.n} rows scored${parsed.reported && Object.keys(parsed.reported).length ? '; the figures the file reports are about every row, so none is shown beside these' : ''}.`,
  };
  return {
    parsed: {
      ...parsed,
      set: rows.length ? subset : null,
      problems: [...parsed.problems, note],
      ...(rows.length ? {} : { fatal: `No row satisfies --where ${spec.terms.map((t) => JSON.stringify(t)).join(' --where ')} (of ${set.n} rows).` }),
      // File-level figures and a format's own whole-file definitions do not describe a subset.
      reported: {}, reportedPath: undefined, reportedNotes: undefined, metrics: undefined, breakdown: undefined,
      taskMetrics: parsed.taskMetrics?.map((t) => ({ name: t.name, values: Float64Array.from(keep, (i) => t.values[i]) })),
    },
    filter,
    rows,
  };
}
