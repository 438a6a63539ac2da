// The terms of a search or a filter, one grammar for the instance table's search box and the CLI's
// --where: plain text (case-insensitive, across every text field of a row) or /regex/flags, and
// `column = value`, `column != value`, `column ~ regex`, `column > x` (>=, <, <=) on one column,
// combined with AND. Pure: the page and the core both run it.

export type CompareOp = '=' | '!=' | '~' | '>' | '>=' | '<' | '<=';

export type WhereTerm =
  | { kind: 'text'; text: string; source: string }
  | { kind: 'regex'; re: RegExp; source: string }
  | { kind: 'column'; column: string; op: CompareOp; value: string; number: number | null; re: RegExp | null; source: string };

export type ParsedWhere = { terms: WhereTerm[] } | { error: string };

/** A column name: letters, digits, `_ . - $ [ ]` and `:` (lm-eval's doc.*, Inspect's metadata.*), or quoted. */
const COLUMN = String.raw`(?:"([^"]+)"|` + '`([^`]+)`' + String.raw`|([A-Za-z_$][\w.$:\[\]-]*))`;
const COLUMN_TERM = new RegExp(String.raw`^${COLUMN}\s*(!=|>=|<=|==|=|~|>|<)\s*(.*)$`, 's');

/** `/body/flags` as a RegExp (flags i, m, s, u only), or an error sentence. */
export function regexOf(text: string, where: string): RegExp | string {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(text);
  const body = m ? m[1] : text;
  const flags = m ? m[2] : '';
  if (/[^imsu]/.test(flags)) return `${where}: the flags /${flags} are not allowed (use i, m, s or u)`;
  if (!body) return `${where}: an empty regular expression matches everything`;
  try {
    return new RegExp(body, flags);
  } catch (e) {
    return `${where}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function unquote(value: string): string {
  const v = value.trim();
  return v.length >= 2 && ((v[0] === '"' && v.endsWith('"')) || (v[0] === "'" && v.endsWith("'"))) ? v.slice(1, -1) : v;
}

/** A decimal number as a user writes it, else null (so "2" = "2.0" compares as numbers). */
export function numberOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  return Number(t);
}

/** One term. */
export function parseTerm(source: string): WhereTerm | { error: string } {
  const text = source.trim();
  if (!text) return { error: 'an empty term' };
  if (/^\/.*\/[a-z]*$/s.test(text) && text.length > 2) {
    const re = regexOf(text, `"${text}"`);
    return typeof re === 'string' ? { error: re } : { kind: 'regex', re, source: text };
  }
  const m = COLUMN_TERM.exec(text);
  if (m) {
    const column = m[1] ?? m[2] ?? m[3];
    const op = (m[4] === '==' ? '=' : m[4]) as CompareOp;
    const raw = m[5].trim();
    if (!raw) return { error: `"${text}": ${op} needs a value after it` };
    const value = unquote(raw);
    if (op === '~') {
      const re = regexOf(value, `"${text}"`);
      return typeof re === 'string' ? { error: re } : { kind: 'column', column, op, value, number: null, re, source: text };
    }
    const number = numberOf(value);
    if ((op === '>' || op === '<' || op === '>=' || op === '<=') && number === null) {
      return { error: `"${text}": ${op} compares numbers, and ${JSON.stringify(value)} is not one` };
    }
    return { kind: 'column', column, op, value, number, re: null, source: text };
  }
  return { kind: 'text', text: unquote(text).toLowerCase(), source: text };
}

/**
 * A whole query: terms joined by AND (or &&). Each element of `parts` is one query (the CLI's
 * repeated --where); all their terms must hold.
 */
export function parseWhere(...parts: string[]): ParsedWhere {
  const terms: WhereTerm[] = [];
  for (const part of parts) {
    for (const piece of splitAnd(part)) {
      if (!piece.trim()) continue;
      const term = parseTerm(piece);
      if ('error' in term) return term;
      terms.push(term);
    }
  }
  return { terms };
}

/** Splits on AND / && outside quotes and /regex/ bodies. */
function splitAnd(query: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (quote) {
      if (c === quote && query[i - 1] !== '\\') quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') { quote = c; continue; }
    if (c === '/' && (i === start || /[\s~=]/.test(query[i - 1] ?? ' '))) { quote = '/'; continue; }
    const and = /^\s+AND\s+/.exec(query.slice(i)) ?? /^\s*&&\s*/.exec(query.slice(i));
    if (and) {
      out.push(query.slice(start, i));
      i += and[0].length - 1;
      start = i + 1;
    }
  }
  out.push(query.slice(start));
  return out;
}

/** The columns the terms read (each once, in order). */
export function termColumns(terms: readonly WhereTerm[]): string[] {
  return [...new Set(terms.flatMap((t) => (t.kind === 'column' ? [t.column] : [])))];
}

/** Whether `value` satisfies a column term (a row without the column never does, except for !=). */
export function columnHolds(term: Extract<WhereTerm, { kind: 'column' }>, value: string | undefined): boolean {
  switch (term.op) {
    case '=': {
      if (value === undefined) return false;
      const n = numberOf(value);
      return term.number !== null && n !== null ? n === term.number : value.trim() === term.value;
    }
    case '!=': {
      if (value === undefined) return true;
      const n = numberOf(value);
      return term.number !== null && n !== null ? n !== term.number : value.trim() !== term.value;
    }
    case '~':
      return value !== undefined && testRe(term.re!, value);
    default: {
      const n = numberOf(value);
      if (n === null || term.number === null) return false;
      return term.op === '>' ? n > term.number : term.op === '>=' ? n >= term.number : term.op === '<' ? n < term.number : n <= term.number;
    }
  }
}

function testRe(re: RegExp, text: string): boolean {
  re.lastIndex = 0; // a /g or /y flag would carry state from row to row
  return re.test(text);
}

/** Whether a text-search term matches any of a row's texts. */
export function textHolds(term: Extract<WhereTerm, { kind: 'text' | 'regex' }>, texts: readonly (string | undefined)[]): boolean {
  for (const t of texts) {
    if (t === undefined) continue;
    if (term.kind === 'text' ? t.toLowerCase().includes(term.text) : testRe(term.re, t)) return true;
  }
  return false;
}

/**
 * Whether a row satisfies every term: `column(name)` gives its value in a column, `texts()` every
 * text field it has (asked only when a text term needs it).
 */
export function rowHolds(terms: readonly WhereTerm[], column: (name: string) => string | undefined, texts: () => readonly (string | undefined)[]): boolean {
  let all: readonly (string | undefined)[] | undefined;
  for (const term of terms) {
    if (term.kind === 'column') {
      if (!columnHolds(term, column(term.column))) return false;
    } else if (!textHolds(term, (all ??= texts()))) return false;
  }
  return true;
}
