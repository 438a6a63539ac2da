// Field validation shared by every format: turn one raw field (CSV text, or a JSON value) into a
// probability, a 0/1 label or a finite number, or into a RowProblem that names the field and the
// value and points at the field's column. Every problem these helpers write is an error: the caller
// skips the row (the default note says so; pass another `note` when the caller does something else).
//
// Column convention: `column` is the 1-based character (UTF-16 code unit) column where the field
// starts; `endColumn` is exclusive (column + the raw text's length), so a quick fix can replace
// exactly the field's text. Pass `undefined` as the column when it is not known (JSON records).
import type { ProblemCode, RowProblem } from '../types';

/** What a raw text field holds, before any range check. */
export type NumberText =
  | { kind: 'number'; value: number }
  | { kind: 'percent'; value: number } // "73%": value is 73
  | { kind: 'non-finite' }             // NaN, inf, -Infinity, ...
  | { kind: 'missing' }                // empty, or a missing-value marker (NA, null, None)
  | { kind: 'too-long' }               // longer than MAX_NUMERIC_CHARS: not looked at
  | { kind: 'text' };                  // anything else

// A plain decimal or scientific literal; Number() of such a string equals parseFloat() of it.
// (Number() alone is too lenient: it reads "", " ", "0x1f" and "1_0"... as numbers.)
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const PERCENT = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*%$/;
const NON_FINITE = /^[+-]?(?:nan|inf|infinity)$/i;
// pandas' default missing-value markers that are not NaN spellings.
const MISSING = /^(?:|na|n\/a|null|none|<na>)$/i;

/**
 * No number needs more characters than this (a double has 17 significant digits; pandas' longest
 * float64 text is 24 characters). Longer fields are refused unread: a 100-million-digit "score"
 * is a broken file, and parsing it costs seconds and gigabytes.
 */
export const MAX_NUMERIC_CHARS = 1000;

/** Classify a text field. Surrounding white space is ignored (pandas ignores it in numbers too). */
export function readNumberText(raw: string): NumberText {
  if (raw.length > MAX_NUMERIC_CHARS) return { kind: 'too-long' };
  const s = raw.trim();
  if (DECIMAL.test(s)) {
    const value = Number(s);
    // Literals like 1e999 overflow to Infinity.
    return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'non-finite' };
  }
  if (MISSING.test(s)) return { kind: 'missing' };
  if (NON_FINITE.test(s)) return { kind: 'non-finite' };
  const pct = PERCENT.exec(s);
  if (pct) {
    const value = Number(pct[1]);
    return Number.isFinite(value) ? { kind: 'percent', value } : { kind: 'non-finite' };
  }
  return { kind: 'text' };
}

const DEFAULT_NOTE = 'the row is skipped';

/** A short, quoted rendering of a raw value for messages. */
export function showValue(raw: unknown): string {
  let s: string;
  if (typeof raw === 'string') s = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 37)}...` : raw);
  else if (raw === undefined) s = 'nothing';
  else {
    try {
      s = JSON.stringify(raw) ?? String(raw);
    } catch {
      s = String(raw);
    }
    if (s.length > 40) s = `${s.slice(0, 37)}...`;
  }
  return s;
}

/** Push an error for one field. */
export function fieldProblem(
  problems: RowProblem[], line: number, column: number | undefined, raw: unknown,
  code: ProblemCode, message: string,
): void {
  if (column === undefined) {
    problems.push({ line, severity: 'error', code, message });
  } else if (typeof raw === 'string' && raw.length > 0) {
    problems.push({ line, column, endColumn: column + raw.length, severity: 'error', code, message });
  } else {
    problems.push({ line, column, severity: 'error', code, message });
  }
}

/** A value that stands for "no value": undefined/null, or a text a missing-value marker. */
function isMissing(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && MISSING.test(raw.trim()));
}

/** A text field too long to be a number or a label: a 'field-too-long' problem, true when so. */
export function tooLongProblem(
  problems: RowProblem[], line: number, column: number | undefined, raw: unknown, field: string, note = DEFAULT_NOTE,
): boolean {
  if (typeof raw !== 'string' || raw.length <= MAX_NUMERIC_CHARS) return false;
  fieldProblem(problems, line, column, raw, 'field-too-long',
    `${field} is ${raw.length.toLocaleString('en-US')} characters long, more than a number or a label needs (at most ${MAX_NUMERIC_CHARS}); it is not read; ${note}.`);
  return true;
}

function missing(problems: RowProblem[], line: number, column: number | undefined, raw: unknown, field: string, note: string): undefined {
  const what = raw === undefined ? 'is missing' : raw === null ? 'is null' : (raw as string).trim() === '' ? 'is empty' : `is ${showValue(raw)} (a missing value)`;
  fieldProblem(problems, line, column, raw, 'missing-field', `${field} ${what}; ${note}.`);
  return undefined;
}

/**
 * A probability in [0, 1]. Text is read as a decimal; "73%" is reported as 'percent-probability'
 * (with the fraction it probably means, for a quick fix); JSON numbers are taken as they are.
 */
export function parseProbability(
  raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[], note = DEFAULT_NOTE,
): number | undefined {
  if (tooLongProblem(problems, line, column, raw, field, note)) return undefined;
  if (isMissing(raw)) return missing(problems, line, column, raw, field, note);
  let value: number;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) {
      fieldProblem(problems, line, column, raw, 'not-finite', `${field} is ${raw}, not a finite number; ${note}.`);
      return undefined;
    }
    value = raw;
  } else if (typeof raw === 'string') {
    const t = readNumberText(raw);
    switch (t.kind) {
      case 'number':
        value = t.value;
        break;
      case 'percent': {
        const fraction = t.value / 100;
        if (fraction >= 0 && fraction <= 1) {
          fieldProblem(problems, line, column, raw, 'percent-probability',
            `${field} ${showValue(raw)} is a percentage; a probability in [0, 1] is expected (${fractionText(t.value)}?); ${note}.`);
        } else {
          fieldProblem(problems, line, column, raw, 'out-of-range', `${field} ${showValue(raw)} is outside [0, 1] even as a percentage; ${note}.`);
        }
        return undefined;
      }
      case 'non-finite':
        fieldProblem(problems, line, column, raw, 'not-finite', `${field} ${showValue(raw)} is not a finite number; ${note}.`);
        return undefined;
      case 'missing':
        return missing(problems, line, column, raw, field, note);
      default:
        fieldProblem(problems, line, column, raw, 'not-a-number', `${field} ${showValue(raw)} is not a number; ${note}.`);
        return undefined;
    }
  } else {
    fieldProblem(problems, line, column, raw, 'not-a-number', `${field} ${showValue(raw)} is not a number; ${note}.`);
    return undefined;
  }
  if (!(value >= 0 && value <= 1)) {
    const hint = value > 1 && value <= 100 ? ' (a percentage without the % sign?)' : '';
    fieldProblem(problems, line, column, raw, 'out-of-range', `${field} ${showValue(raw)} is outside [0, 1]${hint}; ${note}.`);
    return undefined;
  }
  return value;
}

/** "73" -> "0.73", without binary noise ("7" -> "0.07", "12.5" -> "0.125"). */
export function fractionText(percent: number): string {
  return String(Number((percent / 100).toPrecision(12)));
}

/**
 * A binary label: 0/1 (also "0.0"/"1.0" and other spellings of exactly 0 or 1), True/False in any
 * case (pandas writes Python booleans as True/False), JSON true/false.
 */
export function parseBinaryLabel(
  raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[], note = DEFAULT_NOTE,
): 0 | 1 | undefined {
  if (tooLongProblem(problems, line, column, raw, field, note)) return undefined;
  if (isMissing(raw)) return missing(problems, line, column, raw, field, note);
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'number') {
    if (raw === 0 || raw === 1) return raw;
  } else if (typeof raw === 'string') {
    const s = raw.trim();
    if (s === '0' || s === '1') return s === '0' ? 0 : 1;
    const lower = s.toLowerCase();
    if (lower === 'true') return 1;
    if (lower === 'false') return 0;
    const t = readNumberText(s);
    if (t.kind === 'number' && (t.value === 0 || t.value === 1)) return t.value;
  }
  fieldProblem(problems, line, column, raw, 'bad-label', `${field} ${showValue(raw)} is not a binary label (0/1 or True/False); ${note}.`);
  return undefined;
}

/** Any finite number (no range): for counts, raw scores, indices. */
export function parseFiniteNumber(
  raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[], note = DEFAULT_NOTE,
): number | undefined {
  if (tooLongProblem(problems, line, column, raw, field, note)) return undefined;
  if (isMissing(raw)) return missing(problems, line, column, raw, field, note);
  if (typeof raw === 'number') {
    if (Number.isFinite(raw)) return raw;
    fieldProblem(problems, line, column, raw, 'not-finite', `${field} is ${raw}, not a finite number; ${note}.`);
    return undefined;
  }
  if (typeof raw === 'string') {
    const t = readNumberText(raw);
    if (t.kind === 'number') return t.value;
    if (t.kind === 'missing') return missing(problems, line, column, raw, field, note);
    if (t.kind === 'non-finite') {
      fieldProblem(problems, line, column, raw, 'not-finite', `${field} ${showValue(raw)} is not a finite number; ${note}.`);
      return undefined;
    }
  }
  fieldProblem(problems, line, column, raw, 'not-a-number', `${field} ${showValue(raw)} is not a number; ${note}.`);
  return undefined;
}

/**
 * A class name: strings as they are (trimmed), JSON numbers and booleans as their text. Empty is a
 * 'missing-field' problem.
 */
export function parseClassName(
  raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[], note = DEFAULT_NOTE,
): string | undefined {
  if (raw === undefined || raw === null) return missing(problems, line, column, raw, field, note);
  if (typeof raw === 'string') {
    const s = raw.trim();
    if (s === '') return missing(problems, line, column, raw, field, note);
    return s;
  }
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  fieldProblem(problems, line, column, raw, 'not-a-number', `${field} ${showValue(raw)} is not a class name; ${note}.`);
  return undefined;
}
