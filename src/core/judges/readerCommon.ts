// What the judge readers share: field checks that say which line and field is wrong, a judge's
// name as the file writes it, lengths as Python counts them, and the step from sample records and
// judge rows to the ParseResult (one ScoresSet whose rows carry the judge columns).
import type { FormatName, ParseResult, RowProblem } from '../types';
import type { SampleRecord } from '../samples/record';
import { clipText, recordsToParse } from '../samples/toParse';
import { showValue } from '../formats/numbers';
import type { JudgeRows } from './types';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A judge's name: FastChat writes ["gpt-4", "single-v1"] (model, prompt), others a string. */
export function judgeName(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim()) return v.trim();
  if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string')) return v.join('/');
  return undefined;
}

/** A question or sample id as text (numbers as Python prints them). */
export function idText(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** Characters as Python's len() counts them (code points, not UTF-16 units). */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}

/** A required field that is missing or of the wrong type: the line, the field, what it holds. */
export function fieldProblem(line: number, field: string, expected: string, value: unknown): RowProblem {
  const what = value === undefined ? 'is missing' : `holds ${showValue(value)}`;
  return { line, severity: 'error', code: value === undefined ? 'missing-field' : 'not-a-number', message: `Line ${line}: "${field}" ${what}; ${expected} is expected. The record is left out.` };
}

export function fatalResult(format: FormatName, message: string, problems: RowProblem[] = []): ParseResult {
  return { format, set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
}

/**
 * The ParseResult of a judge file: its records as a ScoresSet (texts for the stepper and search)
 * whose rows carry `rows`, the judge columns. When every verdict was invalid, nothing is scored
 * and `fatal` says so, with the count.
 */
export function judgeParse(
  format: FormatName, records: SampleRecord[], rows: JudgeRows, texts: { fields: string[]; of: (r: SampleRecord) => string[] },
  o: { problems: RowProblem[]; skipped: number; task?: string; sourceModel?: string },
): ParseResult {
  if (!records.length) {
    const inv = rows.invalid.count;
    const message = inv
      ? `All ${inv} verdicts of the file are ${rows.invalid.what}: there is no valid verdict to score.`
      : 'The file holds no verdict that could be scored.';
    const result = fatalResult(format, message, o.problems);
    result.skipped = o.skipped;
    result.kind = 'scores';
    return result;
  }
  const parsed = recordsToParse(records, {
    format, mode: 'scores', problems: o.problems, skipped: o.skipped, texts,
    ...(o.task ? { task: o.task } : {}), ...(o.sourceModel ? { sourceModel: o.sourceModel } : {}),
  });
  if (parsed.set?.kind === 'scores') parsed.set.judge = rows;
  return parsed;
}

export { clipText };
