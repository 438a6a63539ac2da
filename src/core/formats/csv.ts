// RFC 4180 reader: quoted fields may hold the delimiter, doubled quotes and line breaks (RAFT texts
// do); records end in LF or CRLF; a leading UTF-8 BOM is dropped. Each record keeps the 1-based line
// it starts on and the column of each field, so problems can point at the exact spot.
import type { RowProblem } from '../types';
import type { TextSource } from './context';
import { MAX_STRING_LENGTH, NO_PROGRESS, type ParseProgress, isStringTooLong, sizeText } from './progress';

export interface CsvRecord {
  fields: string[];
  /** 1-based line on which the record starts. */
  line: number;
  /** 1-based column (within the line where the field starts) of each field. */
  columns: number[];
  /** 1-based line on which each field starts (differs from `line` after a quoted newline). */
  fieldLines: number[];
}

export interface CsvTable {
  header: string[];
  /** Data records (the header excluded). Blank lines are skipped. */
  records: CsvRecord[];
  problems: RowProblem[];
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Split a whole CSV/TSV text into records. The first record is the header. */
export function parseCsv(input: string, delimiter = ','): CsvTable {
  const all: CsvRecord[] = [];
  const problems = forEachCsvRecord(input, delimiter, (rec) => { all.push(rec); });
  const header = all.length ? all[0].fields : [];
  return { header, records: all.slice(1), problems };
}

/**
 * The same reader as a stream: `onRecord` gets each non-blank record in order (the header first),
 * and may keep it. A caller that looks at each record once and lets it go holds no more than one
 * record in memory, which for a million-row file is the difference between seconds of garbage
 * collection and none. Returning false from `onRecord` stops the scan. Returns the problems
 * (unterminated quotes) met so far.
 */
export function forEachCsvRecord(input: string, delimiter: string, onRecord: (rec: CsvRecord) => void | boolean, progress: ParseProgress = NO_PROGRESS): RowProblem[] {
  const text = stripBom(input);
  const problems: RowProblem[] = [];
  progress.begin(text.length);
  scanRecords(text, delimiter, { line: 1 }, true, onRecord, problems, progress);
  return problems;
}

export interface CsvScan {
  /** Unterminated quotes, as forEachCsvRecord returns them. */
  problems: RowProblem[];
  /** One sentence when the file could not be read to its end (a record too large for one string). */
  fatal?: string;
}

/** Bytes decoded per step of forEachCsvRecordIn (a chunk ends after a line break). */
export const CSV_CHUNK_BYTES = 1024 * 1024;

/**
 * forEachCsvRecord over a file's bytes without decoding the file into one string (V8 cannot make
 * one longer than ~512 MB): the bytes are decoded a chunk at a time, each chunk ending just after a
 * line break, and a record whose quoted field runs past a chunk is read again with the next chunk
 * appended. The records, lines, columns and problems are those forEachCsvRecord gives on the
 * decoded text. A text source (an editor buffer) is read as it is.
 */
export function forEachCsvRecordIn(
  source: TextSource, delimiter: string, onRecord: (rec: CsvRecord) => void | boolean, progress: ParseProgress = NO_PROGRESS,
  chunkBytes = CSV_CHUNK_BYTES,
): CsvScan {
  if (typeof source === 'string') return { problems: forEachCsvRecord(source, delimiter, onRecord, progress) };
  const bytes = source;
  const len = bytes.length;
  const problems: RowProblem[] = [];
  const state = { line: 1 };
  let pos = textStart(bytes);
  let carry = '';
  progress.begin(len, pos);
  for (;;) {
    // Grow the step with the carried record, so a long quoted field is rescanned O(log n) times.
    let end = Math.min(len, pos + Math.max(chunkBytes, 2 * carry.length));
    if (end < len) {
      const lf = bytes.lastIndexOf(10, end - 1);
      if (lf >= pos) end = lf + 1;
      else {
        const next = bytes.indexOf(10, end);
        end = next === -1 ? len : next + 1;
      }
    }
    const final = end >= len;
    let text: string;
    try {
      const chunk = chunkDecoder.decode(bytes.subarray(pos, end));
      text = carry ? carry + chunk : chunk;
    } catch (e) {
      if (!isStringTooLong(e)) throw e;
      const fatal = carry
        ? `A quoted field opened on line ${state.line} does not close within ${sizeText(MAX_STRING_LENGTH)}, more than fits in one JavaScript string, so the file cannot be read past it.`
        : `Line ${state.line} is longer than fits in one JavaScript string (${sizeText(MAX_STRING_LENGTH)}), so the file cannot be read past it.`;
      return { problems, fatal };
    }
    const r = scanRecords(text, delimiter, state, final, onRecord, problems, NO_PROGRESS);
    if (r.stopped || final) break;
    carry = r.consumed < text.length ? text.slice(r.consumed) : '';
    pos = end;
    if (pos >= progress.next) progress.at(pos);
  }
  return { problems };
}

/** Decodes chunks that start after a line break: a BOM there is text, as in a whole-file decode. */
const chunkDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Byte offset where a file's text starts for the readers: after a UTF-8 BOM, and after a second one
 * (the decoder of FileInput.text() drops the first, stripBom the second).
 */
export function textStart(bytes: Uint8Array): number {
  let i = 0;
  for (let k = 0; k < 2; k++) {
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3;
    else break;
  }
  return i;
}

/**
 * The records of `text`, which starts at the start of line `state.line`. Unless `final`, a record
 * that reaches the end of the text (a quoted field still open) is not handed on: `consumed` is
 * where it starts, and `state.line` its line, for the caller to try again with more text.
 */
function scanRecords(
  text: string, delimiter: string, state: { line: number }, final: boolean,
  onRecord: (rec: CsvRecord) => void | boolean, problems: RowProblem[], progress: ParseProgress,
): { consumed: number; stopped: boolean } {
  const delim = delimiter.charCodeAt(0);
  const len = text.length;
  let i = 0;
  let line = state.line;
  let lineStart = 0;
  const unfinished = (recordStart: number, recordLine: number) => {
    state.line = recordLine;
    return { consumed: recordStart, stopped: false };
  };

  while (i < len) {
    if (i >= progress.next) progress.at(i);
    const recordStart = i;
    const rec: CsvRecord = { fields: [], line, columns: [], fieldLines: [] };
    let endOfRecord = false;
    while (!endOfRecord) {
      rec.columns.push(i - lineStart + 1);
      rec.fieldLines.push(line);
      if (text.charCodeAt(i) === 34 /* " */) {
        const openLine = line;
        const openCol = i - lineStart + 1;
        i++;
        let value = '';
        let chunkStart = i;
        let closed = false;
        while (i < len) {
          const c = text.charCodeAt(i);
          if (c === 34) {
            if (text.charCodeAt(i + 1) === 34) { value += text.slice(chunkStart, i + 1); i += 2; chunkStart = i; continue; }
            value += text.slice(chunkStart, i);
            i++;
            closed = true;
            break;
          }
          if (c === 10) { line++; lineStart = i + 1; }
          i++;
        }
        if (!closed) {
          if (!final) return unfinished(recordStart, rec.line);
          value += text.slice(chunkStart, i);
          problems.push({ line: openLine, column: openCol, severity: 'error', code: 'unterminated-quote', message: `A quoted field opened on line ${openLine} never closes; the rest of the file is read as part of it.` });
        }
        // Characters between the closing quote and the delimiter are kept (lenient, as pandas does).
        let tail = '';
        const tailStart = i;
        while (i < len) {
          const c = text.charCodeAt(i);
          if (c === delim || c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) break;
          i++;
        }
        if (i > tailStart) tail = text.slice(tailStart, i);
        rec.fields.push(value + tail);
      } else {
        const start = i;
        while (i < len) {
          const c = text.charCodeAt(i);
          if (c === delim || c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) break;
          i++;
        }
        rec.fields.push(text.slice(start, i));
      }
      if (i >= len) {
        if (!final) return unfinished(recordStart, rec.line);
        endOfRecord = true;
        break;
      }
      const c = text.charCodeAt(i);
      if (c === delim) {
        i++;
        if (i >= len) {
          if (!final) return unfinished(recordStart, rec.line);
          rec.columns.push(i - lineStart + 1); rec.fieldLines.push(line); rec.fields.push(''); endOfRecord = true;
        }
        continue;
      }
      // LF or CRLF ends the record.
      i += c === 13 ? 2 : 1;
      line++;
      lineStart = i;
      endOfRecord = true;
    }
    const blank = rec.fields.length === 1 && rec.fields[0] === '';
    if (!blank && onRecord(rec) === false) {
      state.line = line;
      return { consumed: i, stopped: true };
    }
  }
  state.line = line;
  return { consumed: i, stopped: false };
}

/** Pick the delimiter of a delimited text file: tab when the header has tabs and no commas. */
export function sniffDelimiter(text: string): string {
  const nl = text.indexOf('\n');
  const first = nl === -1 ? text : text.slice(0, nl);
  const tabs = first.split('\t').length - 1;
  const commas = first.split(',').length - 1;
  return tabs > commas ? '\t' : ',';
}
