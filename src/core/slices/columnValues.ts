// The group column's value for each scored row, read on request only: the parsers keep the columns
// they score, and this reads one more column when --group-by asks for it (so a file scored without
// grouping costs no more memory). Sources, in order: the set's own instance texts (RAFT train.csv
// columns, ALMANACS question fields), then the predictions file itself (CSV/TSV columns, or JSON
// fields by dotted path such as doc.subject), matched to scored rows by line.
import type { PredictionSet } from '../types';
import { sourceOf, type FileInput } from '../formats/context';
import { forEachCsvRecordIn, sniffDelimiter } from '../formats/csv';
import { firstNonSpaceByte, forEachJsonRecord } from '../formats/jsonl';
import { DETECT_HEAD_BYTES } from '../formats/detect';

/** Per scored row: its value (undefined when the row has none). */
export type RowValues = (string | undefined)[];

export type ColumnLookup =
  | { values: RowValues }
  | { missing: string[] };

/** The header field that names `column`: exact first, then ignoring case and surrounding blanks. */
export function findColumn(header: readonly string[], column: string): number {
  const exact = header.indexOf(column);
  if (exact !== -1) return exact;
  const want = column.trim().toLowerCase();
  return header.findIndex((h) => h.trim().toLowerCase() === want);
}

/** A JSON value as group text: strings as they are, numbers and booleans as JSON writes them. */
function jsonText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** record[path], where a key may itself hold dots ("doc.subject" as one key wins over doc → subject). */
export function fieldAt(record: unknown, path: string): { found: boolean; value?: unknown } {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { found: false };
  const obj = record as Record<string, unknown>;
  if (path in obj) return { found: true, value: obj[path] };
  const dot = path.indexOf('.');
  for (let i = dot; i !== -1; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i);
    if (head in obj) {
      const inner = fieldAt(obj[head], path.slice(i + 1));
      if (inner.found) return inner;
    }
  }
  return { found: false };
}

/** The column's values for each row of `set`, or the columns that were there instead. */
export function ownColumnValues(input: FileInput, set: PredictionSet, column: string, lineOffset = 0): ColumnLookup {
  const texts = 'texts' in set ? set.texts : undefined;
  if (texts) {
    const k = findColumn(texts.fields, column);
    if (k !== -1) return { values: texts.values.map((row) => row[k]) };
  }
  const found = isZipInput(input) ? { missing: [] } : isJsonInput(input) ? jsonColumn(input, set, column, lineOffset) : csvColumn(input, set, column, lineOffset);
  if ('missing' in found && texts) found.missing.push(...texts.fields.filter((f) => !found.missing.includes(f)));
  return found;
}

/**
 * A zip archive (an Inspect .eval log): no header or record of its own to read as text. Its columns
 * are the instance text fields the reader took out of it; read as CSV, its bytes made "columns" of
 * raw zip bytes (PK\u0003\u0004…_journal/start.json…).
 */
export function isZipInput(input: FileInput): boolean {
  if (input.givenText !== undefined) return input.givenText.startsWith('PK\u0003\u0004');
  // A large zip on disk is read by range: its first bytes, not the whole file.
  const b = input.ranges ? input.ranges.read(0, 4) : input.bytes;
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
}

export function isJsonInput(input: FileInput): boolean {
  if (input.givenText !== undefined) {
    const c = input.givenText.replace(/^\uFEFF/, '').trimStart()[0];
    return c === '{' || c === '[';
  }
  const at = firstNonSpaceByte(input.bytes, 0);
  const b = at === -1 ? -1 : input.bytes[at];
  return b === 0x7b || b === 0x5b;
}

/** Rows by line: the value of each line's record, for lines that hold a scored row. */
function valuesByLine(set: PredictionSet, lineOffset: number): { need: Map<number, number>; values: RowValues } {
  const need = new Map<number, number>();
  for (let i = 0; i < set.n; i++) need.set(set.lines[i] + lineOffset, i);
  return { need, values: new Array<string | undefined>(set.n) };
}

function csvColumn(input: FileInput, set: PredictionSet, column: string, lineOffset: number): ColumnLookup {
  const head = input.givenText ?? new TextDecoder().decode(input.bytes.subarray(0, DETECT_HEAD_BYTES));
  const delimiter = sniffDelimiter(head.replace(/^\uFEFF/, ''));
  const { need, values } = valuesByLine(set, lineOffset);
  let col = -2;
  let header: string[] = [];
  forEachCsvRecordIn(sourceOf(input), delimiter, (rec) => {
    if (col === -2) {
      header = rec.fields;
      col = findColumn(header, column);
      return col !== -1;
    }
    const i = need.get(rec.line);
    if (i !== undefined && col < rec.fields.length) values[i] = rec.fields[col];
    return true;
  });
  if (col < 0) return { missing: header.filter((h) => h !== '') };
  return { values };
}

/**
 * Several columns of a CSV/TSV file in one pass (--slices auto reads every column: one pass each
 * would parse a million-row file again per column). Other inputs: ownColumnValues per column.
 */
export function ownColumnsValues(input: FileInput, set: PredictionSet, columns: readonly string[], lineOffset = 0): Map<string, ColumnLookup> {
  const out = new Map<string, ColumnLookup>();
  const texts = 'texts' in set ? set.texts : undefined;
  const rest = columns.filter((c) => !(texts && findColumn(texts.fields, c) !== -1));
  if (isZipInput(input) || isJsonInput(input) || rest.length < 2) {
    for (const c of columns) out.set(c, ownColumnValues(input, set, c, lineOffset));
    return out;
  }
  for (const c of columns) if (!rest.includes(c)) out.set(c, ownColumnValues(input, set, c, lineOffset));
  const head = input.givenText ?? new TextDecoder().decode(input.bytes.subarray(0, DETECT_HEAD_BYTES));
  const delimiter = sniffDelimiter(head.replace(/^\uFEFF/, ''));
  const need = new Map<number, number>();
  for (let i = 0; i < set.n; i++) need.set(set.lines[i] + lineOffset, i);
  let cols: number[] | null = null;
  let header: string[] = [];
  const values = rest.map(() => new Array<string | undefined>(set.n));
  forEachCsvRecordIn(sourceOf(input), delimiter, (rec) => {
    if (!cols) {
      header = rec.fields;
      cols = rest.map((c) => findColumn(header, c));
      return cols.some((k) => k !== -1);
    }
    const i = need.get(rec.line);
    if (i === undefined) return true;
    for (let k = 0; k < cols.length; k++) if (cols[k] >= 0 && cols[k] < rec.fields.length) values[k][i] = rec.fields[cols[k]];
    return true;
  });
  rest.forEach((c, k) => out.set(c, cols && cols[k] >= 0 ? { values: values[k] } : { missing: header.filter((h) => h !== '') }));
  return out;
}

function jsonColumn(input: FileInput, set: PredictionSet, column: string, lineOffset: number): ColumnLookup {
  const { need, values } = valuesByLine(set, lineOffset);
  let seen = false;
  const keys = new Set<string>();
  forEachJsonRecord(sourceOf(input), (value, span) => {
    const i = need.get(span.line);
    if (i === undefined) return;
    const at = fieldAt(value, column);
    if (at.found) { seen = true; values[i] = jsonText(at.value); }
    else if (!seen && keys.size < 50 && typeof value === 'object' && value !== null) for (const k of Object.keys(value)) keys.add(k);
  });
  if (!seen) return { missing: [...keys] };
  return { values };
}

/** How many columns a list offers at most (a JSON record may have hundreds of keys). */
export const MAX_LISTED = 200;

/**
 * The columns of the predictions file a report can be grouped by: its instance text fields, the
 * CSV header, or the first JSON record's keys (scalar fields, and the scalar fields of nested
 * objects one level down as parent.key, such as doc.subject).
 */
export function ownColumnNames(input: FileInput, set: PredictionSet): string[] {
  const out = new Set<string>();
  const texts = 'texts' in set ? set.texts : undefined;
  for (const f of texts?.fields ?? []) out.add(f);
  if (isZipInput(input)) return [...out].slice(0, MAX_LISTED);
  if (isJsonInput(input)) {
    forEachJsonRecord(sourceOf(input), (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
      for (const [k, v] of Object.entries(value)) {
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
          for (const [k2, v2] of Object.entries(v)) if (isScalar(v2)) out.add(`${k}.${k2}`);
        } else if (isScalar(v)) out.add(k);
      }
      return false; // the first record names them
    });
  } else {
    const head = input.givenText ?? new TextDecoder().decode(input.bytes.subarray(0, DETECT_HEAD_BYTES));
    forEachCsvRecordIn(sourceOf(input), sniffDelimiter(head.replace(/^\uFEFF/, '')), (rec) => {
      for (const f of rec.fields) if (f.trim() !== '') out.add(f);
      return false;
    });
  }
  return [...out].slice(0, MAX_LISTED);
}

function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}
