// JSON numbers too long to read. JSON.parse reads a 100-million-digit literal without complaint
// (as Infinity, or as 0 for 0.000...1), so the length is only visible in the text: find number
// literals, outside strings, longer than MAX_NUMERIC_CHARS, so the record holding one becomes a
// 'field-too-long' problem instead of a silently wrong value. Numeric *strings* ("999...") are
// caught later by readNumberText.
import type { RowProblem } from '../types';
import { MAX_NUMERIC_CHARS } from './numbers';

/**
 * Cheap test first: no run of number characters that long means no such literal. Any run of
 * MAX_NUMERIC_CHARS + 1 covers one of every MAX_NUMERIC_CHARS + 1 positions, so only those are
 * probed, and a run is measured only where a probe lands on a number character. (The regex
 * /[-+.0-9eE]{1001}/ did it in 16 ns a character on prose, every "e" a start: half the time of
 * scoring a 50 MB file of judge explanations.)
 */
function hasLongRun(text: string): boolean {
  const step = MAX_NUMERIC_CHARS + 1;
  for (let i = MAX_NUMERIC_CHARS; i < text.length; i += step) {
    if (!isNumberChar(text.charCodeAt(i))) continue;
    let lo = i;
    while (lo > 0 && isNumberChar(text.charCodeAt(lo - 1))) lo--;
    let hi = i;
    while (hi + 1 < text.length && isNumberChar(text.charCodeAt(hi + 1))) hi++;
    if (hi + 1 - lo > MAX_NUMERIC_CHARS) return true;
    // The next probe past this run.
    while (i + step <= hi) i += step;
  }
  return false;
}

/** Start offsets of number literals outside strings longer than MAX_NUMERIC_CHARS, in order. */
export function longNumberOffsets(text: string, limit = 1000): number[] {
  const found: number[] = [];
  if (text.length <= MAX_NUMERIC_CHARS || !hasLongRun(text)) return found;
  let inString = false;
  for (let i = 0; i < text.length && found.length < limit; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) { inString = true; continue; }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i;
      while (i + 1 < text.length && isNumberChar(text.charCodeAt(i + 1))) i++;
      if (i + 1 - start > MAX_NUMERIC_CHARS) found.push(start);
    }
  }
  return found;
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/** The key a value at `offset` belongs to ("score" in {"score": 999...}), when it is written just before. */
function keyBefore(text: string, offset: number): string | undefined {
  const m = /"((?:[^"\\]|\\.){0,200})"\s*:\s*$/.exec(text.slice(Math.max(0, offset - 220), offset));
  return m ? m[1] : undefined;
}

/** The length of the literal starting at `offset`. */
function literalLength(text: string, offset: number): number {
  let i = offset + 1;
  while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
  return i - offset;
}

/**
 * The problem for a record holding a too-long number at `offset` of `text`; `line`/`column` is where
 * the literal starts in the file.
 */
export function longNumberProblem(text: string, offset: number, line: number, column: number): RowProblem {
  const key = keyBefore(text, offset);
  const length = literalLength(text, offset);
  const what = key === undefined ? 'A number' : `${JSON.stringify(key)}`;
  return {
    line, column, endColumn: column + length, severity: 'error', code: 'field-too-long',
    message: `${what} is ${length.toLocaleString('en-US')} characters long, more than any number needs (${MAX_NUMERIC_CHARS}); it is not read; the record is skipped.`,
  };
}

/** 1-based line and column of `offset` in `text`, given a known position: `from` starts line `line`. */
export function positionOf(text: string, offset: number, from = 0, line = 1): { line: number; column: number } {
  let lineStart = from;
  for (let i = text.indexOf('\n', from); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) { line++; lineStart = i + 1; }
  return { line, column: offset - lineStart + 1 };
}
