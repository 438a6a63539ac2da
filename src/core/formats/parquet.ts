// Parquet tables (hyparquet, pure JavaScript, with hyparquet-compressors for snappy, zstd, gzip,
// brotli, lz4). A Parquet file is turned, one row group at a time, into JSON Lines text with one row
// per line, and that text goes through the JSON Lines readers of the formats whose records fit a
// table (generic predictions, lm-eval samples with nested `doc`/`arguments`/`resps`, ALMANACS).
// So every check of those readers applies, and line k of the text is row k of the file: problems
// are then reported against line 1 of the Parquet file with "row k" in their message, because lines
// of a binary file mean nothing. hyparquet reads asynchronously, so this is the core's one async path.
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { FileMetaData } from 'hyparquet';
import type { ParseResult, RowProblem, ScoreOptions } from '../types';
import { ScoreCancelledError, sizeText } from './progress';
import { baseName } from './detect';

/** What the synchronous front door says of a Parquet file (hyparquet only reads asynchronously). */
export const PARQUET_NEEDS_ASYNC = 'Parquet files are read asynchronously: score them with scorePathAsync / scoreFileAsync (the CLI and the extension do).';

export function isParquetPath(path: string): boolean {
  return /\.parquet$/i.test(path);
}

/** The path the JSON Lines readers see: same folder (companions), same stem, `.jsonl`. */
export function jsonlTwin(path: string): string {
  return path.replace(/\.parquet$/i, '.jsonl');
}

export type ParquetText = { text: string; rows: number; groups: number } | { fatal: string };

const decoder = new TextDecoder('utf-8');

/** JSON for Parquet values: INT64 arrives as BigInt, binary as bytes. */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return decoder.decode(value);
  return value;
}

function metadataOf(bytes: Uint8Array): FileMetaData | string {
  try {
    return parquetMetadata(bytes);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The rows of a Parquet file as JSON Lines, read row group by row group (the row objects of one
 * group are dropped before the next is read). Progress covers [0, share] of the parse; a corrupt
 * footer or page is a `fatal` sentence, never an exception.
 */
export async function parquetToJsonl(path: string, bytes: Uint8Array, options: Pick<ScoreOptions, 'onProgress' | 'shouldCancel'>, share: number): Promise<ParquetText> {
  const name = baseName(path);
  const metadata = metadataOf(bytes);
  if (typeof metadata === 'string') return { fatal: `${name} is not a readable Parquet file (${sizeText(bytes.length)}): ${metadata}.` };
  const total = Number(metadata.num_rows);
  // hyparquet reads from an ArrayBuffer-like: the file's own bytes, without copying when possible.
  const file = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.slice().buffer as ArrayBuffer);
  const parts: string[] = [];
  let start = 0;
  for (const group of metadata.row_groups) {
    if (options.shouldCancel?.()) throw new ScoreCancelledError();
    const end = start + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, compressors, rowStart: start, rowEnd: end });
    } catch (e) {
      return { fatal: `${name}: rows ${start + 1}-${end} cannot be read: ${e instanceof Error ? e.message : String(e)}.` };
    }
    const lines = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) lines[i] = JSON.stringify(rows[i], replacer);
    parts.push(lines.join('\n'));
    start = end;
    options.onProgress?.(share * Math.min(0.999, start / Math.max(1, total)), 'parse');
  }
  return { text: parts.join('\n'), rows: start, groups: metadata.row_groups.length };
}

/** Problems about the file as a whole, not one row: they keep their message as it is. */
const FILE_LEVEL = new Set(['more-problems', 'reported-mismatch', 'undefined-metric', 'unscorable', 'empty-file', 'missing-gold-data']);

/**
 * The JSON Lines text's problems told against the Parquet file: line 1, the row in the message
 * (line k of the text is row k), and the file's own name where the text's twin name appears.
 */
export function rowProblems(problems: RowProblem[], twin: string, path: string): RowProblem[] {
  const twinName = baseName(twin);
  const name = baseName(path);
  return problems.map((p) => {
    if (p.path && p.path !== twin) return p; // a companion file's problem keeps its lines
    const message = p.message.split(twinName).join(name);
    const row = FILE_LEVEL.has(p.code) ? '' : `row ${p.line}: `;
    return { ...p, path: undefined, line: 1, column: undefined, endColumn: undefined, message: row + message };
  });
}

/** A Parquet file's parse result when the rows themselves could not be read. */
export function parquetFatal(message: string): ParseResult {
  return { format: 'generic', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
}
