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
  /** Keys from the root to this container (it lies on the target path, `depth` keys down). */
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

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 32 || c === LF || c === 13 || c === 9;
}

/**
 * Where each member of the container at `path` starts and ends (object keys along the way; the
 * container itself may be an object or an array). Only the containers on the path are walked key
 * by key; every other value is skipped to its closing bracket (strings and nesting only), so a
 * 20 MB file costs one pass without making a string per key. Tolerates a document cut short: the
 * members found so far are returned, the last one ending where the text ends.
 */
export function memberSpans(text: string, path: readonly string[]): { spans: Span[]; found: boolean } {
  const spans: Span[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  let found = false;
  let line = 1;
  let lineStart = 0;
  /** The offset of the bracket closing the container that opens at `at` (or n), counting lines. */
  const skipContainer = (at: number): number => {
    let depth = 0;
    for (let i = at; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) { i = skipString(text, i) - 1; continue; }
      if (c === LF) { line++; lineStart = i + 1; continue; }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i;
    }
    return n;
  };
  const openMember = (f: Frame, at: number) => {
    if (f.depth === path.length && !f.open) f.open = { key: f.isObject ? f.key : String(f.index), start: at, end: at, line, column: at - lineStart + 1 };
  };
  const closeMember = (f: Frame | undefined, at: number) => {
    if (f?.open) { f.open.end = at; spans.push(f.open); f.open = undefined; }
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) { line++; lineStart = i + 1; continue; }
    if (c === 32 || c === 9 || c === 13 || c === COLON) continue;
    const f = stack[stack.length - 1];
    if (!f) {
      if (c !== OPEN_BRACE && c !== OPEN_BRACKET) break;
      stack.push({ isObject: c === OPEN_BRACE, depth: 0, key: '', index: 0, expectKey: c === OPEN_BRACE });
      if (path.length === 0) found = true;
      continue;
    }
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (f.isObject && f.expectKey) { f.key = keyOf(text.slice(i, end)); f.expectKey = false; } else openMember(f, i);
      i = end - 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      // The next container of the path is walked; any other value is skipped whole.
      if (f.isObject && f.depth < path.length && path[f.depth] === f.key) {
        stack.push({ isObject: c === OPEN_BRACE, depth: f.depth + 1, key: '', index: 0, expectKey: c === OPEN_BRACE });
        if (f.depth + 1 === path.length) found = true;
        continue;
      }
      openMember(f, i);
      i = skipContainer(i);
      continue;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      closeMember(f, i);
      stack.pop();
      if (!stack.length) break;
      continue;
    }
    if (c === COMMA) {
      closeMember(f, i);
      if (f.isObject) f.expectKey = true; else f.index++;
      continue;
    }
    // A number, true, false or null: skipped to its end.
    openMember(f, i);
    while (i + 1 < n && !isDelimiter(text.charCodeAt(i + 1))) i++;
  }
  // Cut short: the member still open ends with the text.
  for (const f of stack) if (f.open) { f.open.end = n; spans.push(f.open); }
  return { spans, found };
}

/**
 * The members' lines of a pretty-printed document (Python's json.dump(indent=k), JSON.stringify(v,
 * null, k): what HELM, promptfoo and OpenCompass write), found from the indentation alone: each
 * member of the container `path.length` levels down starts on a line indented exactly
 * k * (path.length + 1) spaces, inside the lines of its container. Lines only, no character-level
 * pass; undefined when the layout is not that (then memberSpans reads the text). `count` is the
 * number of members JSON.parse found: any other count means the layout was misread.
 */
export function indentedSpans(text: string, path: readonly string[], isObject: boolean, count: number): Span[] | undefined {
  const firstBreak = text.indexOf('\n');
  if (firstBreak === -1 || !/^\s*[[{]\s*$/.test(text.slice(0, firstBreak))) return undefined;
  let k = 0;
  while (text.charCodeAt(firstBreak + 1 + k) === 32) k++;
  if (k === 0) return undefined;
  // The container's opening line: each key of the path on a line of its own depth, inside the
  // object opened by the previous key (before that object's closing line).
  let open = firstBreak;
  for (let d = 0; d < path.length; d++) {
    const at = text.indexOf(`\n${' '.repeat(k * (d + 1))}${JSON.stringify(path[d])}: `, open);
    if (at === -1) return undefined;
    if (d > 0) {
      const closing = text.indexOf(`\n${' '.repeat(k * d)}}`, open);
      if (closing !== -1 && closing < at) return undefined;
    }
    open = text.indexOf('\n', at + 1);
    if (open === -1) return undefined;
  }
  const indent = k * (path.length + 1);
  const inner = ' '.repeat(indent);
  let end = text.length;
  if (path.length) {
    const outer = ' '.repeat(k * path.length);
    for (const close of [']', '}']) {
      const at = text.indexOf(`\n${outer}${close}`, open);
      if (at !== -1 && at < end) end = at;
    }
  }
  const spans: Span[] = [];
  let line = lineNumberAt(text, open);
  for (let pos = open; pos !== -1 && pos < end; pos = text.indexOf('\n', pos + 1)) {
    const start = pos + 1;
    line++;
    if (!text.startsWith(inner, start)) continue;
    const c = text.charCodeAt(start + indent);
    if (c === 32 || c === CLOSE_BRACE || c === CLOSE_BRACKET || Number.isNaN(c)) continue;
    let key = String(spans.length);
    if (isObject) {
      if (c !== QUOTE) return undefined;
      key = keyOf(text.slice(start + indent, skipString(text, start + indent)));
    }
    spans.push({ key, start: start + indent, end: start + indent, line, column: indent + 1 });
  }
  return spans.length === count ? spans : undefined;
}

/** The 1-based line of offset `at`. */
function lineNumberAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
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
  const where = path.length ? `"${path.join('.')}"` : 'the top level';
  const container = doc === undefined ? undefined : containerAt(doc, path);
  if (container !== undefined) {
    const values = Array.isArray(container) ? container : Object.values(container as Record<string, unknown>);
    const keys = Array.isArray(container) ? values.map((_, k) => String(k)) : Object.keys(container as Record<string, unknown>);
    const spans = indentedSpans(text, path, !Array.isArray(container), values.length) ?? memberSpans(text, path).spans;
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
  const { spans, found } = memberSpans(text, path);
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
