// The records of a JSON document that nests them (HELM's request_states, promptfoo's
// results.results, OpenCompass's {"0": {...}, "1": {...}}), each with the line it starts on.
//
// JSON.parse gives the values but not where they sit; a small scanner (strings and nesting only)
// finds where each member of the container at a key path starts and ends. When the whole document
// parses, the values come from JSON.parse and the scanner only adds lines; when it does not (a file
// cut short, one broken record), each member is parsed on its own from its span, so the good
// records are still read and each bad one is a problem on its own line.
import type { RowProblem } from '../types';
import { stripBom } from './csv';
import { parsePythonJson } from './pythonJson';

export interface JsonMember {
  /** The member's key in an object, or its index (as text) in an array. */
  key: string;
  /** 1-based line and column where the member's value starts. */
  line: number;
  column: number;
  value: unknown;
}

export interface JsonMembers {
  /** The whole document, when it parses. */
  doc: unknown;
  members: JsonMember[];
  /** Members that do not parse, each with its line. */
  problems: RowProblem[];
  /** One sentence when the container could not be found at all. */
  fatal?: string;
}

interface Span { key: string; start: number; end: number; line: number; column: number }

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const LF = 10;

interface Frame {
  isObject: boolean;
  /** This container's key path is a prefix of the target path, `depth` keys long. */
  onPath: boolean;
  depth: number;
  /** The key the next value belongs to (objects), or the index of the next element (arrays). */
  key: string;
  index: number;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** An open member of the target container (its start is known, its end is not yet). */
  open?: Span;
}

/** Offset just past the string that opens at `at` (its closing quote + 1), or text.length. */
function skipString(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q === -1) return text.length;
    let slashes = 0;
    for (let k = q - 1; k > at && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

function keyOf(raw: string): string {
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try { return JSON.parse(raw) as string; } catch { return raw.slice(1, -1); }
}

/**
 * Where each member of the container at `path` starts and ends (object keys along the way; the
 * container itself may be an object or an array). Tolerates a document cut short: the members
 * found so far are returned, the last one ending where the text ends.
 */
export function memberSpans(text: string, path: readonly string[]): { spans: Span[]; found: boolean } {
  const spans: Span[] = [];
  const stack: Frame[] = [];
  let found = false;
  let line = 1;
  let lineStart = 0;
  const top = () => stack[stack.length - 1];
  const startValue = (at: number) => {
    const f = top();
    if (!f) return;
    if (f.isObject) f.expectKey = false;
    if (f.onPath && f.depth === path.length && !f.open) {
      f.open = { key: f.isObject ? f.key : String(f.index), start: at, end: at, line, column: at - lineStart + 1 };
    }
  };
  const closeMember = (at: number) => {
    const f = top();
    if (f?.open) { f.open.end = at; spans.push(f.open); f.open = undefined; }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) { line++; lineStart = i + 1; continue; }
    if (c === 32 || c === 9 || c === 13) continue;
    const f = top();
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (f?.isObject && f.expectKey) f.key = keyOf(text.slice(i, end));
      else startValue(i);
      i = end - 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      startValue(i);
      const parentOnPath = !f || (f.onPath && f.isObject && f.depth < path.length && path[f.depth] === f.key);
      const depth = f ? f.depth + 1 : 0;
      const frame: Frame = { isObject: c === OPEN_BRACE, onPath: !f || parentOnPath, depth, key: '', index: 0, expectKey: c === OPEN_BRACE };
      if (frame.onPath && depth === path.length) found = true;
      stack.push(frame);
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      closeMember(i);
      stack.pop();
      if (!stack.length) break;
      continue;
    }
    if (c === COMMA) {
      closeMember(i);
      if (f) { if (f.isObject) f.expectKey = true; else f.index++; }
      continue;
    }
    if (c === COLON) continue;
    // A number, true, false or null.
    startValue(i);
  }
  // Cut short: the member still open (at whatever depth the text stopped) ends with the text.
  for (const f of stack) if (f.open) { f.open.end = text.length; spans.push(f.open); }
  return { spans, found };
}

/** The container at `path` in a parsed document, or undefined. */
function containerAt(doc: unknown, path: readonly string[]): unknown {
  let v = doc;
  for (const k of path) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v && typeof v === 'object' ? v : undefined;
}

/**
 * The members of the container at `path` of a JSON text, each with its line. `what` names a member
 * in problems ("the request state", "the result").
 */
export function readJsonMembers(rawText: string, path: readonly string[], what: string): JsonMembers {
  const text = stripBom(rawText);
  const offset = rawText.length - text.length;
  let doc: unknown;
  let parseError: string | undefined;
  try {
    doc = parsePythonJson(text);
  } catch (e) {
    parseError = e instanceof Error ? e.message : String(e);
  }
  const { spans, found } = memberSpans(text, path);
  const where = path.length ? `"${path.join('.')}"` : 'the top level';
  const container = doc === undefined ? undefined : containerAt(doc, path);
  if (container !== undefined) {
    const values = Array.isArray(container) ? container : Object.values(container as Record<string, unknown>);
    const keys = Array.isArray(container) ? values.map((_, k) => String(k)) : Object.keys(container as Record<string, unknown>);
    // A key written twice is one member for JSON.parse (the last wins) and two for the scanner:
    // lines then come from the scanner by key, the values from JSON.parse.
    const lineOf = new Map<string, Span>();
    for (const s of spans) lineOf.set(s.key, s);
    const members = values.map((value, k) => {
      const s = spans.length === values.length ? spans[k] : lineOf.get(keys[k]);
      return { key: keys[k], line: s?.line ?? 1, column: (s?.column ?? 1) + (s && s.line === 1 ? offset : 0), value };
    });
    return { doc, members, problems: [] };
  }
  if (doc !== undefined) return { doc, members: [], problems: [], fatal: `The file has no ${where} holding ${what}s.` };
  if (!found || !spans.length) {
    return { doc, members: [], problems: [], fatal: `The file is not valid JSON (${shortError(parseError)}), and no ${what} could be read from it.` };
  }
  // The document does not parse: read each member on its own.
  const members: JsonMember[] = [];
  const problems: RowProblem[] = [];
  for (const s of spans) {
    const raw = text.slice(s.start, s.end);
    try {
      members.push({ key: s.key, line: s.line, column: s.column, value: parsePythonJson(raw) });
    } catch (e) {
      problems.push({
        line: s.line, column: s.column, severity: 'error', code: 'json-parse',
        message: `The ${what} on line ${s.line} is not valid JSON (${shortError(e instanceof Error ? e.message : String(e))}); it is left out.`,
      });
    }
  }
  problems.unshift({
    line: 1, severity: 'warning', code: 'json-parse',
    message: `The file is not valid JSON as a whole (${shortError(parseError)}); each ${what} was read on its own.`,
  });
  return { doc: undefined, members, problems };
}

function shortError(msg: string | undefined): string {
  return (msg ?? 'unknown error').replace(/\s+/g, ' ').slice(0, 120).replace(/\.$/, '');
}

/** A plain object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A finite number, or undefined. */
export function finiteNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Text of a value for the stepper: strings as they are, anything else as JSON. */
export function textOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  try { return JSON.stringify(v); } catch { return String(v); }
}
