// Parquet tables (hyparquet, pure JavaScript, with hyparquet-compressors for snappy, zstd, gzip,
// brotli, lz4). A Parquet file is turned, one row group at a time, into text the existing readers
// score: a flat table (every column a plain value) into CSV, read column by column (no row objects:
// the fast path for a million predictions), a nested one (lm-eval samples with `doc`/`arguments`
// structs and `resps` lists) into JSON Lines. So every check of those readers applies. Row k of the
// file is line k of the JSON Lines text, or line k + 1 of the CSV (after its header); problems are
// reported against line 1 of the Parquet file with "row k" in their message, because lines of a
// binary file mean nothing. hyparquet reads asynchronously, so this is the core's one async path.
import { parquetMetadata, parquetRead, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { Compressors } from 'hyparquet';
import { checkDeclared, inflateLimit } from './boundedInflate';
import type { FileMetaData } from 'hyparquet';
import type { ParseResult, PredictionSet, RowProblem, ScoreOptions } from '../types';
import { ScoreCancelledError, sizeText } from './progress';
import { detectFormat, DETECT_HEAD_BYTES, formatForMapping, lfsPointer, lfsPointerReason } from './detect';
import type { CompanionReader } from './context';
import { planTableHead, PLAN_HEAD_BYTES, type ColumnPlan } from './generic';
import { decodable, decodeColumnChunk } from './parquetColumns';
import { defineLazyIds, TextIdLog } from './numericCsv';
import type { SchemaElement } from 'hyparquet';
import { baseName } from '../../common/paths';
import { LIGHTEVAL_UNREAD } from './lightevalDetails';

/** What the synchronous front door says of a Parquet file (hyparquet only reads asynchronously). */
export const PARQUET_NEEDS_ASYNC = 'This Parquet table was not read: Parquet is read only where files are scored in full (eval-lens score, plot, compare and board, and the editor\'s report), and this path reads text files only.';

export function isParquetPath(path: string): boolean {
  return /\.parquet$/i.test(path);
}

/** The path the text readers see: same folder (companions), same stem, `.csv` or `.jsonl`. */
export function textTwin(path: string, as: 'csv' | 'jsonl'): string {
  return path.replace(/\.parquet$/i, `.${as}`);
}

/**
 * The text of a Parquet file: `as` says which; `headerLines` is how many lines come before row 1
 * (CSV: the header), so row = line - headerLines.
 */
export type ParquetText = { text: string; as: 'csv' | 'jsonl'; headerLines: number; rows: number; groups: number } | { fatal: string };

const decoder = new TextDecoder('utf-8');

/** JSON for Parquet values: INT64 arrives as BigInt, binary as bytes. */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return decoder.decode(value);
  return value;
}

function copyOf(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

function metadataOf(bytes: Uint8Array): FileMetaData | string {
  try {
    return parquetMetadata(bytes);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The rows of a Parquet file as CSV (flat) or JSON Lines (nested), read row group by row group (the row objects of one
 * group are dropped before the next is read). Progress covers [0, share] of the parse; a corrupt
 * footer or page is a `fatal` sentence, never an exception.
 */
export async function parquetToText(path: string, bytes: Uint8Array, options: Pick<ScoreOptions, 'onProgress' | 'shouldCancel' | 'format' | 'maxFileBytes'>, share: number): Promise<ParquetText> {
  const name = baseName(path);
  const read = metadataOf(bytes);
  if (typeof read === 'string') {
    // Reached by paths that skip the decision on the file's head (compare's and board's read-ahead,
    // scoring one .parquet): a Git LFS pointer gets the same sentence there as in a folder walk.
    const pointer = bytes.length < 1024 ? lfsPointer(decoder.decode(bytes)) : undefined;
    return { fatal: pointer ? lfsPointerReason(path, pointer) : `${name} is not a readable Parquet file (${sizeText(bytes.length)}): ${read}.` };
  }
  // A harness's columns that its reader never reads are not decoded at all (lighteval's few-shot docs).
  const metadata = options.format === 'lighteval' ? withoutColumns(read, LIGHTEVAL_UNREAD) : read;
  const total = Number(metadata.num_rows);
  // hyparquet reads from an ArrayBuffer-like: the file's own bytes, without copying when possible.
  // (Not Buffer#slice: that is a view of the same, possibly larger, memory. Node 24's readFileSync
  // returns such views, which hyparquet would read past the file's end.)
  const file = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : copyOf(bytes);
  const columns = parquetSchema(metadata).children;
  const flat = columns.every((c) => c.children.length === 0 && c.element.repetition_type !== 'REPEATED');
  const jsonOnly = options.format === 'almanacs' || options.format === 'lm-eval' || options.format === 'lighteval';
  if (flat && !jsonOnly && !(await readAsJson(path, file, metadata))) return flatToCsv(name, file, metadata, columns.map((c) => c.element.name), options, share);
  const parts: string[] = [];
  let start = 0;
  for (const group of metadata.row_groups) {
    if (options.shouldCancel?.()) throw new ScoreCancelledError();
    const end = start + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, compressors: boundedCompressors(options.maxFileBytes), rowStart: start, rowEnd: end });
    } catch (e) {
      return { fatal: `${name}: rows ${start + 1}-${end} cannot be read: ${e instanceof Error ? e.message : String(e)}.` };
    }
    const lines = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) lines[i] = JSON.stringify(rows[i], replacer);
    parts.push(lines.join('\n'));
    start = end;
    options.onProgress?.(share * Math.min(0.999, start / Math.max(1, total)), 'parse');
  }
  return { text: parts.join('\n'), as: 'jsonl', headerLines: 0, rows: start, groups: metadata.row_groups.length };
}

/**
 * The file's metadata without the columns at or below the `drop` paths (from the root): hyparquet
 * then neither reads their pages nor puts them in the rows. Parents keep their other children.
 */
export function withoutColumns(metadata: FileMetaData, drop: readonly (readonly string[])[]): FileMetaData {
  const dropped = (path: readonly string[]) => drop.some((d) => d.length <= path.length && d.every((part, k) => part === path[k]));
  const source = metadata.schema;
  const schema: SchemaElement[] = [];
  let at = 0;
  const skip = (children: number) => {
    for (let k = 0; k < children; k++) skip(source[at++].num_children ?? 0);
  };
  // The schema is a depth-first list; each element says how many children follow it.
  const walk = (path: readonly string[], root: boolean): boolean => {
    const element = source[at++];
    const here = root ? [] : [...path, element.name];
    const children = element.num_children ?? 0;
    if (!root && dropped(here)) { skip(children); return false; }
    const copy = { ...element };
    schema.push(copy);
    let kept = 0;
    for (let k = 0; k < children; k++) if (walk(here, false)) kept++;
    if (children) copy.num_children = kept;
    return true;
  };
  walk([], true);
  const row_groups = metadata.row_groups.map((g) => ({ ...g, columns: g.columns.filter((c) => !dropped(c.meta_data?.path_in_schema ?? [])) }));
  return { ...metadata, schema, row_groups };
}

/** Whether a flat table's first row, as JSON, is a format only the JSON Lines readers know (ALMANACS). */
async function readAsJson(path: string, file: ArrayBuffer, metadata: FileMetaData): Promise<boolean> {
  if (!metadata.row_groups.length) return false;
  try {
    const [first] = await parquetReadObjects({ file, metadata, compressors: boundedCompressors(undefined), rowStart: 0, rowEnd: 1 });
    const format = detectFormat(textTwin(path, 'jsonl'), JSON.stringify(first ?? {}, replacer));
    return format !== null && format !== 'generic';
  } catch {
    return false; // the full read says what is wrong
  }
}

/** One CSV field: numbers as they print, booleans as 1/0, null empty, text quoted when it must be. */
function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  const s = v instanceof Uint8Array ? decoder.decode(v) : v instanceof Date ? v.toISOString() : String(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A flat table as CSV, one row group at a time, from its decoded columns. */
async function flatToCsv(
  name: string, file: ArrayBuffer, metadata: FileMetaData, names: string[],
  options: Pick<ScoreOptions, 'onProgress' | 'shouldCancel' | 'maxFileBytes'>, share: number,
): Promise<ParquetText> {
  const compressors = boundedCompressors(options.maxFileBytes);
  const total = Number(metadata.num_rows);
  const parts: string[] = [names.map(csvField).join(',')];
  let start = 0;
  for (const group of metadata.row_groups) {
    if (options.shouldCancel?.()) throw new ScoreCancelledError();
    const end = start + Number(group.num_rows);
    const cols = names.map(() => new Array<unknown>(end - start).fill(null));
    const index = new Map(names.map((n, i) => [n, i]));
    try {
      await parquetRead({
        file, metadata, compressors, rowStart: start, rowEnd: end,
        // Chunks may reach outside the group: each says where it starts.
        onChunk: ({ columnName, columnData, rowStart }) => {
          const col = cols[index.get(columnName)!];
          for (let i = 0; i < columnData.length; i++) {
            const at = rowStart + i - start;
            if (at >= 0 && at < col.length) col[at] = columnData[i];
          }
        },
      });
    } catch (e) {
      return { fatal: `${name}: rows ${start + 1}-${end} cannot be read: ${e instanceof Error ? e.message : String(e)}.` };
    }
    const lines = new Array<string>(end - start);
    for (let r = 0; r < lines.length; r++) {
      let line = csvField(cols[0][r]);
      for (let c = 1; c < cols.length; c++) line += `,${csvField(cols[c][r])}`;
      lines[r] = line;
    }
    parts.push(lines.join('\n'));
    start = end;
    options.onProgress?.(share * Math.min(0.999, start / Math.max(1, total)), 'parse');
  }
  return { text: parts.join('\n') + '\n', as: 'csv', headerLines: 1, rows: start, groups: metadata.row_groups.length };
}

/** Rows read for the head the plan and the detection are made from (as CSV, at least PLAN_HEAD_BYTES). */
const HEAD_ROWS = 8192;

/** A label or correctness value the CSV text would carry as 0 or 1, as that number; else -1. */
function zeroOne(v: unknown): number {
  if (v === 0 || v === 1) return v;
  if (v === 0n || v === 1n) return Number(v);
  if (v === true) return 1;
  if (v === false) return 0;
  return -1;
}

/** An ID as the CSV text would carry it and the reader trim it ('' for none). */
function idText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (v instanceof Uint8Array) return decoder.decode(v).trim();
  if (v instanceof Date) return v.toISOString();
  return String(v).trim();
}

/** Whether some ID repeats: one prefix and a canonical integer in a bitset, else a Set. */
function idsRepeat(ids: string[]): boolean {
  const n = ids.length;
  if (n === 0) return false;
  const first = ids[0];
  let prefix = first.length;
  while (prefix > 0 && first.charCodeAt(prefix - 1) >= 48 && first.charCodeAt(prefix - 1) <= 57) prefix--;
  const head = first.slice(0, prefix);
  const values = new Uint32Array(n);
  let max = 0;
  let simple = true;
  for (let i = 0; i < n && simple; i++) {
    const id = ids[i];
    const digits = id.length - prefix;
    if (digits < 1 || digits > 9 || (digits > 1 && id.charCodeAt(prefix) === 48) || !id.startsWith(head)) { simple = false; break; }
    let v = 0;
    for (let k = prefix; k < id.length; k++) {
      const d = id.charCodeAt(k) - 48;
      if (d < 0 || d > 9) { simple = false; break; }
      v = v * 10 + d;
    }
    values[i] = v;
    if (v > max) max = v;
  }
  if (simple && max <= 64 * n + (1 << 22)) {
    const seen = new Uint32Array((max >>> 5) + 1);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      const bit = 1 << (v & 31);
      if (seen[v >>> 5] & bit) return true;
      seen[v >>> 5] |= bit;
    }
    return false;
  }
  return new Set(ids).size !== n;
}

/**
 * A flat Parquet table of binary or confidence predictions read straight into typed columns: the
 * plan comes from the head of the CSV text parquetToText would make (so the same columns, kind and
 * detection), then only the planned columns are decoded, one row group at a time. Undefined when
 * this path does not give exactly what the CSV text would (another format, multiclass, several
 * models, any row the CSV reader would warn about or skip, a repeated ID): the caller then takes
 * parquetToText. The result's lines are rows (1-based), as scoreParquet makes them.
 */
export async function parquetTypedColumns(
  path: string, bytes: Uint8Array, options: ScoreOptions, io: CompanionReader, share: number,
): Promise<ParseResult | undefined> {
  if (options.format !== undefined && options.format !== 'generic') return undefined;
  const metadata = metadataOf(bytes);
  if (typeof metadata === 'string') return undefined;
  const total = Number(metadata.num_rows);
  if (total === 0) return undefined;
  const file = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : copyOf(bytes);
  const columns = parquetSchema(metadata).children;
  if (!columns.every((c) => c.children.length === 0 && c.element.repetition_type !== 'REPEATED')) return undefined;
  const names = columns.map((c) => c.element.name);
  if (await readAsJson(path, file, metadata)) return undefined;
  const compressors = boundedCompressors(options.maxFileBytes);
  // The head of the CSV text: the header and the first rows, until PLAN_HEAD_BYTES.
  let headRows: Record<string, unknown>[];
  try {
    headRows = await parquetReadObjects({ file, metadata, compressors, rowStart: 0, rowEnd: Math.min(total, HEAD_ROWS) });
  } catch {
    return undefined;
  }
  let headText = names.map(csvField).join(',');
  let r = 0;
  for (; r < headRows.length && headText.length <= PLAN_HEAD_BYTES; r++) headText += `\n${names.map((n) => csvField(headRows[r][n])).join(',')}`;
  const all = r === total;
  if (all) headText += '\n';
  const headBytes = new TextEncoder().encode(headText);
  if (!all && headBytes.length < PLAN_HEAD_BYTES) return undefined;
  const twin = textTwin(path, 'csv');
  const detected = options.format ?? formatForMapping(detectFormat(twin, headText.slice(0, DETECT_HEAD_BYTES)), options.mapping) ?? 'generic';
  if (detected !== 'generic') return undefined;
  const cut = headBytes.subarray(0, PLAN_HEAD_BYTES);
  const plan = planTableHead(twin, cut, cut.length === headBytes.length, { options, io });
  if (!plan || plan.names.length !== names.length || plan.names.some((n, i) => n !== names[i])) return undefined;

  const lines = new Uint32Array(total);
  for (let i = 0; i < total; i++) lines[i] = i + 1;
  const setOf = (value: Float64Array, target: Uint8Array, ids?: string[]): PredictionSet => (plan.kind === 'binary'
    ? { kind: 'binary', n: total, lines, score: value, label: target, ...(ids ? { ids } : {}) }
    : { kind: 'confidence', n: total, lines, confidence: value, correct: target, ...(ids ? { ids } : {}) });

  // The pages themselves (parquetColumns.ts) when every planned column is of a shape it reads.
  const direct = decodeDirect(file, metadata, columns.map((c) => c.element), names, plan, total, compressors, options);
  if (direct) {
    const set = setOf(direct.value, direct.target);
    const log = direct.ids;
    if (log) {
      if (log.repeats().length) return undefined; // duplicate-ID warnings: the text path words them
      defineLazyIds(set, () => log.strings());
    }
    return { format: 'generic', set, problems: [], skipped: 0, unlabeled: 0, kind: plan.kind, columnSample: sampleOf(headRows, names) };
  }

  const wanted = [...new Set([plan.value, plan.target, ...(plan.id !== undefined ? [plan.id] : [])])];
  const value = new Float64Array(total);
  const target = new Uint8Array(total);
  const ids: string[] | undefined = plan.id !== undefined ? new Array<string>(total) : undefined;
  let clean = true;
  let start = 0;
  for (const group of metadata.row_groups) {
    if (options.shouldCancel?.()) throw new ScoreCancelledError();
    const end = start + Number(group.num_rows);
    try {
      await parquetRead({
        file, metadata, compressors, rowStart: start, rowEnd: end, columns: wanted,
        onChunk: ({ columnName, columnData, rowStart }) => {
          if (!clean) return;
          const from = Math.max(start, rowStart);
          const to = Math.min(end, rowStart + columnData.length);
          if (columnName === plan.value) {
            for (let row = from; row < to; row++) {
              const v = columnData[row - rowStart];
              // A number in [0, 1] prints and reads back as itself (-0 prints as 0).
              if (typeof v !== 'number' || !(v >= 0 && v <= 1)) { clean = false; return; }
              value[row] = v + 0;
            }
          }
          if (columnName === plan.target) {
            for (let row = from; row < to; row++) {
              const t = zeroOne(columnData[row - rowStart]);
              if (t < 0) { clean = false; return; }
              target[row] = t;
            }
          }
          if (ids && columnName === plan.id) {
            for (let row = from; row < to; row++) {
              const id = idText(columnData[row - rowStart]);
              if (id === '') { clean = false; return; }
              ids[row] = id;
            }
          }
        },
      });
    } catch {
      return undefined; // parquetToText words the failure
    }
    if (!clean) return undefined;
    start = end;
    options.onProgress?.(share * Math.min(0.999, start / total), 'parse');
  }
  if (start !== total || (ids && idsRepeat(ids))) return undefined;
  return { format: 'generic', set: setOf(value, target, ids), problems: [], skipped: 0, unlabeled: 0, kind: plan.kind, columnSample: sampleOf(headRows, names) };
}

/** The head rows' values as text, per column (every row is scored on this path: row i is scored row i). */
function sampleOf(rows: Record<string, unknown>[], names: string[]): Record<string, (string | undefined)[]> {
  const text = (v: unknown) => (v === null || v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return Object.fromEntries(names.map((n) => [n, rows.map((r) => text(r[n]))]));
}

/**
 * The planned columns of every row group decoded from their pages into typed columns (and the IDs
 * as bytes), or undefined when some column or value is not of a shape parquetColumns.ts reads.
 */
function decodeDirect(
  file: ArrayBuffer, metadata: FileMetaData, elements: SchemaElement[], names: string[], plan: ColumnPlan, total: number,
  compressors: Compressors, options: Pick<ScoreOptions, 'shouldCancel'>,
): { value: Float64Array; target: Uint8Array; ids?: TextIdLog } | undefined {
  const at = (name: string) => names.indexOf(name);
  const v = at(plan.value);
  const t = at(plan.target);
  const d = plan.id === undefined ? -1 : at(plan.id);
  if (!decodable(elements[v], 'number') || !decodable(elements[t], 'zeroOne') || (d >= 0 && !decodable(elements[d], 'bytes'))) return undefined;
  const value = new Float64Array(total);
  const target = new Uint8Array(total);
  const ids = d >= 0 ? new TextIdLog(total) : undefined;
  let start = 0;
  try {
    for (const group of metadata.row_groups) {
      if (options.shouldCancel?.()) throw new ScoreCancelledError();
      const rows = Number(group.num_rows);
      if (!decodeColumnChunk(file, group.columns[v], elements[v], { kind: 'number', out: value }, start, rows, compressors)) return undefined;
      if (!decodeColumnChunk(file, group.columns[t], elements[t], { kind: 'zeroOne', out: target }, start, rows, compressors)) return undefined;
      if (ids && !decodeColumnChunk(file, group.columns[d], elements[d], { kind: 'bytes', out: ids }, start, rows, compressors)) return undefined;
      start += rows;
    }
  } catch (e) {
    if (e instanceof ScoreCancelledError) throw e;
    return undefined; // hyparquet's reader says what is wrong
  }
  if (start !== total || (ids && ids.count !== total)) return undefined;
  return { value, target, ids };
}

/** Problems about the file as a whole, not one row: they keep their message as it is. */
const FILE_LEVEL = new Set(['more-problems', 'reported-mismatch', 'undefined-metric', 'unscorable', 'empty-file', 'missing-gold-data']);

/**
 * The JSON Lines text's problems told against the Parquet file: line 1, the row in the message
 * (line k of the text is row k), and the file's own name where the text's twin name appears.
 */
export function rowProblems(problems: RowProblem[], twin: string, path: string, headerLines: number): RowProblem[] {
  const twinName = baseName(twin);
  const name = baseName(path);
  return problems.map((p) => {
    if (p.path && p.path !== twin) return p; // a companion file's problem keeps its lines
    const message = p.message.split(twinName).join(name);
    const row = FILE_LEVEL.has(p.code) || p.line <= headerLines ? '' : `row ${p.line - headerLines}: `;
    return { ...p, path: undefined, line: 1, column: undefined, endColumn: undefined, message: row + message };
  });
}

/**
 * The top-level column names of a Parquet file, from its schema (no row is read), as the header of
 * its CSV twin names them; [] when the footer cannot be read.
 */
export function parquetColumnNames(bytes: Uint8Array): string[] {
  const metadata = metadataOf(bytes);
  if (typeof metadata === 'string') return [];
  return parquetSchema(metadata).children.map((c) => c.element.name).filter((n) => n.trim() !== '');
}

/** A Parquet file's parse result when the rows themselves could not be read. */
export function parquetFatal(message: string): ParseResult {
  return { format: 'generic', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
}

/**
 * hyparquet's decompressors, each refusing a page whose header declares more than 256 MB (or the
 * file size limit) before it allocates or inflates anything; hyparquet itself refuses a page that
 * inflates to another size than it declared.
 */
function boundedCompressors(maxFileBytes: number | undefined): Compressors {
  const limit = inflateLimit(maxFileBytes);
  const bounded: Compressors = {};
  for (const [codec, inflate] of Object.entries(compressors) as [keyof Compressors, NonNullable<Compressors[keyof Compressors]>][]) {
    bounded[codec] = (input: Uint8Array, outputLength: number) => {
      checkDeclared(`a ${codec} page of the Parquet file`, outputLength, limit);
      return inflate(input, outputLength);
    };
  }
  return bounded;
}
