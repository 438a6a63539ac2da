// RFC 4180 reader: quoted fields may hold the delimiter, doubled quotes and line breaks (RAFT texts
// do); records end in LF or CRLF; a leading UTF-8 BOM is dropped. Each record keeps the 1-based line
// it starts on and the column of each field, so problems can point at the exact spot.
import type { RowProblem } from '../types';

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
export function forEachCsvRecord(input: string, delimiter: string, onRecord: (rec: CsvRecord) => void | boolean): RowProblem[] {
  const text = stripBom(input);
  const problems: RowProblem[] = [];
  const delim = delimiter.charCodeAt(0);
  const len = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;

  while (i < len) {
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
      if (i >= len) { endOfRecord = true; break; }
      const c = text.charCodeAt(i);
      if (c === delim) { i++; if (i >= len) { rec.columns.push(i - lineStart + 1); rec.fieldLines.push(line); rec.fields.push(''); endOfRecord = true; } continue; }
      // LF or CRLF ends the record.
      i += c === 13 ? 2 : 1;
      line++;
      lineStart = i;
      endOfRecord = true;
    }
    const blank = rec.fields.length === 1 && rec.fields[0] === '';
    if (!blank && onRecord(rec) === false) break;
  }
  return problems;
}

/** Pick the delimiter of a delimited text file: tab when the header has tabs and no commas. */
export function sniffDelimiter(text: string): string {
  const nl = text.indexOf('\n');
  const first = nl === -1 ? text : text.slice(0, nl);
  const tabs = first.split('\t').length - 1;
  const commas = first.split(',').length - 1;
  return tabs > commas ? '\t' : ',';
}
