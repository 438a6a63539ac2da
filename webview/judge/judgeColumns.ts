// A judge file's own columns in the instance table (issue 27): the model(s), question, turn and
// verdict of each row, taken from the row's text fields, so the table shows, sorts and exports
// them and the search names them (`model = vicuna-13b AND score < 4`). The long texts (the judge's
// prompt, its explanation, the answers) stay out of the table: the stepper shows them. Pure.
import type { Report } from '../../src/core/types';

/** Texts too long for a column, by name (the judge readers' field names). */
const LONG = /^(user_prompt|g[12]_user_prompt|judgment|g[12]_judgment|instruction|output_[12]|conversation_[ab]|explanation|raw_completion)$/;

/** Longest value a text field may hold to be a column (a model's name, an id, a verdict). */
const SHORT = 200;

/**
 * The text fields the instance table shows as columns, in the file's order: a judge report's, and
 * a table of per-sample scores' (its scores and short fields; the core adds the scores as fields).
 */
export function judgeColumnFields(report: Report): string[] {
  if (!(report.judge || report.kind === 'scores') || !report.texts) return [];
  const { fields, values } = report.texts;
  return fields.filter((f, k) => {
    if (LONG.test(f)) return false;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]?.[k];
      if (typeof v === 'string' && (v.length > SHORT || v.includes('\n'))) return false;
    }
    return true;
  });
}

const numericCache = new WeakMap<object, Map<string, boolean>>();

/** Whether every non-empty value of text field `name` reads as a number (a score, a turn): sorted and exported as numbers. */
export function isNumericField(report: Report, name: string): boolean {
  const texts = report.texts;
  if (!texts) return false;
  let known = numericCache.get(texts);
  if (!known) numericCache.set(texts, (known = new Map()));
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  const k = texts.fields.indexOf(name);
  let numeric = k >= 0;
  let any = false;
  for (let i = 0; numeric && i < texts.values.length; i++) {
    const v = texts.values[i]?.[k];
    if (typeof v !== 'string' || v.trim() === '') continue;
    any = true;
    if (!Number.isFinite(Number(v))) numeric = false;
  }
  const result = numeric && any;
  known.set(name, result);
  return result;
}
