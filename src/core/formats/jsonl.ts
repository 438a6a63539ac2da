// JSON Lines and JSON-array documents, each record tagged with the 1-based line it starts on, so a
// problem in record 512 points at its line. A line that does not parse is a problem, not a failure.
//
// JSON Lines are read from the bytes one line at a time: each line's slice is decoded and parsed on
// its own, handed to a callback, and let go, so a parser that keeps only the columns it needs holds
// memory for those columns, not for the file (lm-eval sample logs reach hundreds of MB, and V8
// cannot make a string longer than ~512 MB). A record's fields are located later from its span
// (byte offsets of its line), by decoding that one line again.
//
// A JSON document (an array of records, or one object wrapping them) cannot be parsed piecewise
// with JSON.parse: it is still decoded and parsed whole, and one too large for a string is a fatal.
import type { RowProblem } from '../types';
import type { TextSource } from './context';
import { stripBom, textStart } from './csv';
import { longNumberOffsets, longNumberProblem, positionOf } from './longNumbers';
import { MAX_STRING_LENGTH, NO_PROGRESS, type ParseProgress, isStringTooLong, sizeText } from './progress';
import { MAX_PROBLEMS, moreProblems } from '../problemCap';
import { parsePythonJson } from './pythonJson';

export interface JsonRecord {
  value: unknown;
  /** 1-based line where the record starts. */
  line: number;
}

export interface JsonRecords {
  records: JsonRecord[];
  problems: RowProblem[];
  /** 'lines' for JSON Lines, 'array' for a JSON array, 'object' for one top-level object. */
  shape: 'lines' | 'array' | 'object';
}

/** Where a record sits: its line, and (JSON Lines) the offsets of that line in the source. */
export interface JsonSpan {
  line: number;
  /** Offset of the line's first byte (or character, for a text source). */
  start: number;
  /** Offset of the line's end (its LF, or the end of the source). */
  end: number;
}

export interface KeyPosition { line: number; column: number; endColumn: number }

/** What a pass over the records found, besides the records themselves. */
export interface JsonScan {
  shape: 'lines' | 'array' | 'object';
  /**
   * 'json-parse' problems in line order: lines (or array elements) that do not parse. At most
   * MAX_PROBLEMS (problemCap.ts) are listed, then one 'more-problems' summary.
   */
  problems: RowProblem[];
  /** Lines (elements) that did not parse, all of them: the records left out. */
  badRecords: number;
  /** Records handed to the callback. */
  records: number;
  /** One sentence when the file cannot be read at all (a JSON document too large for one string). */
  fatal?: string;
  /** Where a top-level key of the record at `span` is written (its quoted name), when found. */
  locate(span: JsonSpan, key: string): KeyPosition | undefined;
}

/** Gets each record in file order; returning false stops the pass. */
export type JsonRecordHandler = (value: unknown, span: JsonSpan) => void | boolean;


/** Read JSON Lines, or a single JSON document (an array of records, or one object holding one). */
export function readJsonRecords(input: TextSource): JsonRecords {
  const records: JsonRecord[] = [];
  const scan = forEachJsonRecord(input, (value, span) => { records.push({ value, line: span.line }); });
  return { records, problems: scan.problems, shape: scan.shape };
}

/**
 * The streaming reader: every record, in file order, to `onRecord`. JSON Lines (the usual case, and
 * any file whose first non-blank character is not '[' and whose first line parses on its own) are
 * read line by line; a JSON array or a single object is parsed whole (see the file comment).
 */
export function forEachJsonRecord(source: TextSource, onRecord: JsonRecordHandler, progress: ParseProgress = NO_PROGRESS): JsonScan {
  return typeof source === 'string' ? readText(stripBom(source), onRecord, progress) : readBytes(source, onRecord, progress);
}

// ---------------------------------------------------------------------------------------------
// Problems

class ParseProblems {
  readonly list: RowProblem[] = [];
  bad = 0;
  private dropped = 0;

  add(p: RowProblem): void {
    this.bad++;
    if (this.list.length < MAX_PROBLEMS) this.list.push(p);
    else this.dropped++;
  }

  /** A note that is not a left-out record. */
  note(p: RowProblem): void {
    this.list.push(p);
  }

  finish(): RowProblem[] {
    if (this.dropped) {
      this.list.push(moreProblems(this.list, this.dropped));
      this.dropped = 0;
    }
    return this.list;
  }
}

/** A JSON line holding a number literal too long to read: one problem, and the record is left out. */
function tooLongNumber(raw: string, line: number, problems: ParseProblems): boolean {
  const at = longNumberOffsets(raw, 1);
  if (!at.length) return false;
  problems.add(longNumberProblem(raw, at[0], line, at[0] + 1));
  return true;
}

function lineProblem(line: number, e: unknown): RowProblem {
  return { line, column: 1, severity: 'error', code: 'json-parse', message: `Line ${line} is not valid JSON: ${shortError(e)}.` };
}

function shortError(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s+/g, ' ').slice(0, 120).replace(/\.$/, '');
}

// ---------------------------------------------------------------------------------------------
// A text source (an editor buffer, a detection head): the whole text is there already.

function readText(text: string, onRecord: JsonRecordHandler, progress: ParseProgress): JsonScan {
  const first = text.search(/\S/);
  if (first !== -1 && text[first] === '[') return readArray(text, onRecord, progress);
  if (first !== -1 && text[first] === '{' && !looksLikeJsonLines(text, first)) {
    const whole = readObject(text, first, onRecord);
    if (whole) return whole;
  }
  return readTextLines(text, onRecord, progress);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** JSON Lines when the first non-blank line parses on its own and another object line follows. */
function looksLikeJsonLines(text: string, first: number): boolean {
  const end = text.indexOf('\n', first);
  if (end === -1) return false;
  try {
    parsePythonJson(text.slice(first, end));
  } catch {
    return false;
  }
  return /\S/.test(text.slice(end));
}

/** One top-level object: its record array ({"samples": [...]}) or itself. Undefined when it does not parse. */
function readObject(text: string, first: number, onRecord: JsonRecordHandler): JsonScan | undefined {
  let value: unknown;
  try {
    value = parsePythonJson(text);
  } catch {
    // Treat as JSON Lines so each bad line is reported on its own.
    return undefined;
  }
  const line = lineAt(text, first);
  const values = findRecordArray(value) ?? [value];
  const scan = documentScan('object', text, new ParseProblems());
  for (const v of values) {
    scan.records++;
    if (onRecord(v, { line, start: first, end: first }) === false) break;
  }
  return scan;
}

/** A top-level object that wraps the records: {"samples": [...]}, {"data": [...]}, {"predictions": [...]}. */
function findRecordArray(value: unknown): unknown[] | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const key of ['samples', 'predictions', 'records', 'data', 'results', 'rows']) {
    const v = (value as Record<string, unknown>)[key];
    if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object')) return v;
  }
  return undefined;
}

function documentScan(shape: 'array' | 'object', text: string, problems: ParseProblems): JsonScan {
  let locator: JsonKeyLocator | undefined;
  return {
    shape,
    problems: problems.finish(),
    badRecords: problems.bad,
    records: 0,
    locate: (span, key) => (locator ??= new JsonKeyLocator(text)).find(span.line, key),
  };
}

function readTextLines(text: string, onRecord: JsonRecordHandler, progress: ParseProgress): JsonScan {
  const problems = new ParseProblems();
  let records = 0;
  let line = 0;
  let start = 0;
  progress.begin(text.length);
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    line++;
    const lineStart = start;
    const raw = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (end >= progress.next) progress.at(end);
    if (!raw.trim()) { if (end === text.length) break; continue; }
    let value: unknown;
    try {
      value = parsePythonJson(raw);
    } catch (e) {
      problems.add(lineProblem(line, e));
      if (end === text.length) break;
      continue;
    }
    if (tooLongNumber(raw, line, problems)) { if (end === text.length) break; continue; }
    records++;
    if (onRecord(value, { line, start: lineStart, end }) === false) break;
    if (end === text.length) break;
  }
  return {
    shape: 'lines', problems: problems.finish(), badRecords: problems.bad, records,
    locate: (span, key) => locateInLine(text.slice(span.start, span.end), span.line, key),
  };
}

/**
 * A JSON array: parse it whole for the values, and find where each top-level element starts with a
 * small scanner (strings and nesting only), so each record gets its line. If the whole document
 * does not parse, scan element by element and report the bad ones.
 */
function readArray(text: string, onRecord: JsonRecordHandler, progress: ParseProgress): JsonScan {
  const spans = topLevelElementSpans(text);
  const problems = new ParseProblems();
  const values: { value: unknown; line: number; start: number }[] = [];
  let whole: unknown[] | undefined;
  try {
    const v = parsePythonJson(text);
    if (Array.isArray(v)) whole = v;
  } catch {
    whole = undefined;
  }
  if (whole && whole.length === spans.length) {
    // Elements holding a number literal too long to read are left out, each with a problem.
    const long = longNumberOffsets(text);
    let k = 0;
    whole.forEach((value, i) => {
      const span = spans[i];
      while (k < long.length && long[k] < span.start) k++;
      if (k < long.length && long[k] <= span.end) {
        const at = positionOf(text, long[k], span.start - span.column + 1, span.line);
        problems.add(longNumberProblem(text, long[k], at.line, at.column));
        return;
      }
      values.push({ value, line: span.line, start: span.start });
    });
  } else {
    progress.begin(text.length);
    for (const span of spans) {
      if (span.start >= progress.next) progress.at(span.start);
      try {
        values.push({ value: parsePythonJson(text.slice(span.start, span.end)), line: span.line, start: span.start });
      } catch (e) {
        problems.add({ line: span.line, column: span.column, severity: 'error', code: 'json-parse', message: `The array element on line ${span.line} is not valid JSON: ${shortError(e)}.` });
      }
    }
    if (!spans.length || (whole === undefined && !problems.bad)) {
      problems.add({ line: 1, column: 1, severity: 'error', code: 'json-parse', message: 'The file starts like a JSON array but does not parse as one.' });
    }
  }
  const scan = documentScan('array', text, problems);
  for (const r of values) {
    scan.records++;
    if (onRecord(r.value, { line: r.line, start: r.start, end: r.start }) === false) break;
  }
  return scan;
}

interface Span { start: number; end: number; line: number; column: number }

function topLevelElementSpans(text: string): Span[] {
  const spans: Span[] = [];
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let inString = false;
  let current: Span | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) { line++; lineStart = i + 1; }
    if (inString) {
      if (c === 92) i++; // backslash escapes the next character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    if (depth === 1 && !current && c !== 44 && c !== 93 && c > 32) {
      current = { start: i, end: i, line, column: i - lineStart + 1 };
    }
    if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) { if (current) { current.end = i; spans.push(current); current = undefined; } break; }
    }
    if (depth === 1 && c === 44 && current) { current.end = i; spans.push(current); current = undefined; }
  }
  if (current) { current.end = text.length; spans.push(current); }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// A byte source (a file): the same decisions as readText, taken on the bytes, so that the result
// is the one readText gives on the decoded text, without decoding the file as a whole.

const LF = 10;
const CR = 13;
/** Decodes one line, keeping a BOM that is not at the start of the file (as a whole-file decode does). */
const lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Offset of the first byte from `from` that does not belong to a JavaScript whitespace character
 * (what /\S/ skips: ASCII blanks, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
 * U+3000, U+FEFF), or -1. Invalid UTF-8 decodes to U+FFFD, which is not whitespace.
 */
export function firstNonSpaceByte(bytes: Uint8Array, from: number): number {
  const len = bytes.length;
  let i = from;
  while (i < len) {
    const c = bytes[i];
    if (c === 32 || (c >= 9 && c <= 13)) { i++; continue; }
    if (c < 0x80) return i;
    const c1 = bytes[i + 1];
    const c2 = bytes[i + 2];
    if (c === 0xc2 && c1 === 0xa0) { i += 2; continue; }
    if (c === 0xe1 && c1 === 0x9a && c2 === 0x80) { i += 3; continue; }
    if (c === 0xe2 && c1 === 0x80 && ((c2 >= 0x80 && c2 <= 0x8a) || c2 === 0xa8 || c2 === 0xa9 || c2 === 0xaf)) { i += 3; continue; }
    if (c === 0xe2 && c1 === 0x81 && c2 === 0x9f) { i += 3; continue; }
    if (c === 0xe3 && c1 === 0x80 && c2 === 0x80) { i += 3; continue; }
    if (c === 0xef && c1 === 0xbb && c2 === 0xbf) { i += 3; continue; }
    return i;
  }
  return -1;
}

/** The bytes as one string, or a sentence saying why they cannot be. */
function decodeDocument(bytes: Uint8Array, start: number): { text: string } | { tooLarge: string } {
  const size = bytes.length - start;
  const tooLarge = { tooLarge: `The file is ${sizeText(size)} of JSON, more than fits in one JavaScript string (${sizeText(MAX_STRING_LENGTH)})` };
  // UTF-8 decodes to at least one code unit per 3 bytes: past this, no need to try.
  if (size > 3 * MAX_STRING_LENGTH) return tooLarge;
  try {
    return { text: lineDecoder.decode(bytes.subarray(start)) };
  } catch (e) {
    if (isStringTooLong(e)) return tooLarge;
    throw e;
  }
}

function readBytes(bytes: Uint8Array, onRecord: JsonRecordHandler, progress: ParseProgress): JsonScan {
  const start = textStart(bytes);
  const first = firstNonSpaceByte(bytes, start);
  const c = first === -1 ? -1 : bytes[first];
  let note: RowProblem | undefined;
  if (c === 0x5b /* [ */) {
    const doc = decodeDocument(bytes, start);
    if ('text' in doc) return readArray(doc.text, onRecord, progress);
    const fatal = `${doc.tooLarge}: a JSON array document is parsed whole, so it cannot be read; write the records as JSON Lines (one per line) instead.`;
    return {
      shape: 'array', badRecords: 0, records: 0, fatal, locate: () => undefined,
      problems: [{ line: 1, column: 1, severity: 'error', code: 'json-parse', message: fatal }],
    };
  }
  if (c === 0x7b /* { */ && !looksLikeJsonLinesBytes(bytes, first)) {
    const doc = decodeDocument(bytes, start);
    if ('text' in doc) {
      const whole = readObject(doc.text, doc.text.search(/\S/), onRecord);
      if (whole) return whole;
    } else {
      // No single document that large could be parsed anyway: read it as JSON Lines, and say why.
      note = {
        line: 1, column: 1, severity: 'warning', code: 'json-parse',
        message: `${doc.tooLarge}, too large to parse as one JSON document; it is read as JSON Lines, one record per line, but its first line is not a JSON value on its own.`,
      };
    }
  }
  return readByteLines(bytes, start, onRecord, progress, note);
}

/** looksLikeJsonLines on the bytes: the first non-blank line parses alone and something follows it. */
function looksLikeJsonLinesBytes(bytes: Uint8Array, first: number): boolean {
  const end = bytes.indexOf(LF, first);
  if (end === -1) return false;
  try {
    parsePythonJson(lineDecoder.decode(bytes.subarray(first, end)));
  } catch {
    return false;
  }
  return firstNonSpaceByte(bytes, end) !== -1;
}

/** True when bytes[from, to) are ASCII whitespace only (then the line is blank without decoding it). */
function asciiBlank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (!(c === 32 || (c >= 9 && c <= 13))) return false;
  }
  return true;
}

function readByteLines(bytes: Uint8Array, start: number, onRecord: JsonRecordHandler, progress: ParseProgress, note?: RowProblem): JsonScan {
  const problems = new ParseProblems();
  if (note) problems.note(note);
  const len = bytes.length;
  let records = 0;
  let line = 0;
  let pos = start;
  progress.begin(len, start);
  while (pos <= len) {
    let end = bytes.indexOf(LF, pos);
    if (end === -1) end = len;
    line++;
    const lineStart = pos;
    const contentEnd = end > pos && bytes[end - 1] === CR ? end - 1 : end;
    pos = end + 1;
    if (end >= progress.next) progress.at(end);
    // Short blank lines are common (a trailing newline); longer ones may hold Unicode spaces.
    if (contentEnd - lineStart < 64 && asciiBlank(bytes, lineStart, contentEnd)) { if (end === len) break; continue; }
    let raw: string;
    try {
      raw = lineDecoder.decode(bytes.subarray(lineStart, contentEnd));
    } catch (e) {
      if (!isStringTooLong(e)) throw e;
      problems.add({ line, column: 1, severity: 'error', code: 'json-parse', message: `Line ${line} is ${sizeText(contentEnd - lineStart)} long, more than fits in one JavaScript string; it is skipped.` });
      if (end === len) break;
      continue;
    }
    if (!raw.trim()) { if (end === len) break; continue; }
    let value: unknown;
    try {
      value = parsePythonJson(raw);
    } catch (e) {
      problems.add(lineProblem(line, e));
      if (end === len) break;
      continue;
    }
    if (tooLongNumber(raw, line, problems)) { if (end === len) break; continue; }
    records++;
    if (onRecord(value, { line, start: lineStart, end }) === false) break;
    if (end === len) break;
  }
  return {
    shape: 'lines', problems: problems.finish(), badRecords: problems.bad, records,
    locate: (span, key) => locateInLine(lineDecoder.decode(bytes.subarray(span.start, span.end)), span.line, key),
  };
}

// ---------------------------------------------------------------------------------------------
// Locating a key inside the file, so a problem squiggles the field and not just the line.

/** A key of the record on one line: the line's text alone is enough (a JSON Lines record). */
function locateInLine(lineText: string, line: number, key: string): KeyPosition | undefined {
  return findKeyFrom(lineText, 0, line, 0, key);
}

/**
 * From offset `i` (the start of line `line`, which starts at `lineStart`): skip blanks, '[' and ','
 * to the first '{' and find the top-level `key` of that object by a string-aware scan.
 */
function findKeyFrom(text: string, i: number, line: number, lineStart: number, key: string): KeyPosition | undefined {
  // The record is the first object that opens on its line (after a '[' or ',' of an array).
  while (i < text.length && text[i] !== '{') {
    if (!/[\s[,]/.test(text[i])) return undefined;
    i++;
  }
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') { line++; lineStart = i + 1; continue; }
    if (c === '"') {
      const open = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 1 && text.slice(open + 1, i) === key && /^\s*:/.test(text.slice(i + 1, i + 40))) {
        const column = open - lineStart + 1;
        return { line, column, endColumn: column + key.length + 2 };
      }
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') { depth--; if (depth === 0) return undefined; }
  }
  return undefined;
}

/**
 * Finds where a top-level key of the JSON object starting on a given line sits in a whole text (a
 * string-aware scan of that one record). Lines are indexed lazily, on the first problem only. For
 * JSON Lines, JsonScan.locate does the same from the record's own line.
 */
export class JsonKeyLocator {
  private lineStarts: number[] | undefined;
  private readonly text: string;

  constructor(text: string) {
    this.text = stripBom(text);
  }

  private starts(): number[] {
    if (!this.lineStarts) {
      const s = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) s.push(i + 1);
      this.lineStarts = s;
    }
    return this.lineStarts;
  }

  find(recordLine: number, key: string): KeyPosition | undefined {
    const starts = this.starts();
    const i = starts[recordLine - 1];
    if (i === undefined) return undefined;
    return findKeyFrom(this.text, i, recordLine, i, key);
  }
}

/**
 * A copy of a record with only the fields `keep` accepts, for a parser that must keep records until
 * the whole file has been seen. Own data properties, so a key such as "__proto__" stays a field.
 */
export function pickFields(record: Record<string, unknown>, keep: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record)) {
    if (!keep(k)) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: record[k], enumerable: true, writable: true, configurable: true });
    else out[k] = record[k];
  }
  return out;
}
