// The JSON Lines reader and key locator as they were before the streaming reader (commit 443ee2d,
// src/core/formats/jsonl.ts and almanacs.ts), frozen here as the oracle the new reader must match.
// Whole-text: they decode nothing themselves and keep every record.
import type { RowProblem } from '../../../src/core/types';
import { stripBom } from '../../../src/core/formats/csv';

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

/** Read JSON Lines, or a single JSON document (an array of records, or one object holding one). */
export function legacyReadJsonRecords(input: string): JsonRecords {
  const text = stripBom(input);
  const first = text.search(/\S/);
  if (first !== -1 && text[first] === '[') return readArray(text);
  if (first !== -1 && text[first] === '{' && !looksLikeJsonLines(text, first)) {
    const line = lineAt(text, first);
    try {
      const value = JSON.parse(text);
      const inner = findRecordArray(value);
      if (inner) return { records: inner.map((v) => ({ value: v, line })), problems: [], shape: 'object' };
      return { records: [{ value, line }], problems: [], shape: 'object' };
    } catch {
      // Fall through: treat as JSON Lines so each bad line is reported on its own.
    }
  }
  return readLines(text);
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
    JSON.parse(text.slice(first, end));
  } catch {
    return false;
  }
  return /\S/.test(text.slice(end));
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

function readLines(text: string): JsonRecords {
  const records: JsonRecord[] = [];
  const problems: RowProblem[] = [];
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    line++;
    const raw = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (!raw.trim()) { if (end === text.length) break; continue; }
    try {
      records.push({ value: JSON.parse(raw), line });
    } catch (e) {
      problems.push({ line, column: 1, severity: 'error', code: 'json-parse', message: `Line ${line} is not valid JSON: ${shortError(e)}.` });
    }
    if (end === text.length) break;
  }
  return { records, problems, shape: 'lines' };
}

function shortError(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.replace(/\s+/g, ' ').slice(0, 120).replace(/\.$/, '');
}

/**
 * A JSON array: parse it whole for the values, and find where each top-level element starts with a
 * small scanner (strings and nesting only), so each record gets its line. If the whole document
 * does not parse, scan element by element and report the bad ones.
 */
function readArray(text: string): JsonRecords {
  const spans = topLevelElementSpans(text);
  const problems: RowProblem[] = [];
  const records: JsonRecord[] = [];
  let whole: unknown[] | undefined;
  try {
    const v = JSON.parse(text);
    if (Array.isArray(v)) whole = v;
  } catch {
    whole = undefined;
  }
  if (whole && whole.length === spans.length) {
    whole.forEach((value, i) => records.push({ value, line: spans[i].line }));
    return { records, problems, shape: 'array' };
  }
  for (const span of spans) {
    try {
      records.push({ value: JSON.parse(text.slice(span.start, span.end)), line: span.line });
    } catch (e) {
      problems.push({ line: span.line, column: span.column, severity: 'error', code: 'json-parse', message: `The array element on line ${span.line} is not valid JSON: ${shortError(e)}.` });
    }
  }
  if (!spans.length || (whole === undefined && !problems.length)) {
    problems.push({ line: 1, column: 1, severity: 'error', code: 'json-parse', message: 'The file starts like a JSON array but does not parse as one.' });
  }
  return { records, problems, shape: 'array' };
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

export interface KeyPosition { line: number; column: number; endColumn: number }

/**
 * Finds where a top-level key of the JSON object starting on a given line sits in the text (a
 * string-aware scan of that one record). Lines are indexed lazily, on the first problem only.
 */
export class LegacyJsonKeyLocator {
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
    const text = this.text;
    let i = starts[recordLine - 1];
    if (i === undefined) return undefined;
    // The record is the first object that opens on its line (after a '[' or ',' of an array).
    while (i < text.length && text[i] !== '{') {
      if (!/[\s[,]/.test(text[i])) return undefined;
      i++;
    }
    let line = recordLine;
    let lineStart = starts[recordLine - 1];
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
}

