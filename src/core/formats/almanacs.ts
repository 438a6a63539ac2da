// ALMANACS predictor outputs: one JSON record per question, holding a predictor's
// {"reasoning", "probability"} for the question and the studied model's true P(Yes). The predictor
// is itself a language model, so its answer is often a JSON object buried in free text (prose around
// it, a ```json fence, a trailing comma); we dig out the first object that carries a probability.
//
// There is no public ALMANACS predictor-output file to check against (none could be found), so the
// field names below are the plausible spellings, tried in order; --gold-key names any other.
import type { ParseResult, ProbabilitySet, ProblemCode, RowProblem } from '../types';
import { sourceOf, type FileInput, type FormatContext } from './context';
import { stripBom } from './csv';
import { forEachJsonRecord, pickFields, type JsonSpan } from './jsonl';
import { detach } from './progress';
import { fractionText, parseProbability, readNumberText, showValue } from './numbers';
import { parsePythonJson } from './pythonJson';

/** Fields that may hold the model's true P(Yes), in the order they are tried. */
export const ALMANACS_GOLD_KEYS = ['gold_prob', 'true_prob', 'answer_prob', 'true_p_yes', 'p_yes', 'gold_p_yes', 'answer'] as const;
/** Top-level fields that hold the predicted probability itself. */
const TOP_PROB_KEYS = ['probability', 'pred_prob', 'predicted_probability'];
/** Fields that hold the predictor's answer: an object with `probability`, or text with such an object in it. */
const PREDICTION_KEYS = ['prediction', 'predictor_output', 'output', 'response', 'completion', 'model_output', 'generation', 'generated_text', 'raw_output', 'text'];
/** Inside a predictor's answer object, case-insensitively. */
const INNER_PROB_KEYS = ['probability', 'pred_prob', 'predicted_probability', 'p_yes', 'prob'];
const REASONING_KEYS = ['reasoning', 'explanation', 'rationale'];
const QUESTION_KEYS = ['question', 'question_text', 'prompt', 'input', 'scenario'];
const ID_KEYS = ['id', 'question_id', 'qid', 'uid'];
/** The twelve ALMANACS topics, to name the task from a record or the path. */
export const ALMANACS_TASKS = [
  'aita', 'advanced_ai_risk', 'harmful_requests', 'hiring_decisions', 'llm_goals', 'misinformation',
  'moral_dilemmas', 'power_seeking', 'self_preservation', 'situational_awareness', 'strange_hypotheticals', 'sycophancy',
];
/** Instance texts are for reading in the stepper, not for archiving: keep them bounded. */
const MAX_TEXT = 3000;

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The text cut to MAX_TEXT, as a string of its own (a slice would keep the whole text alive). */
function clip(s: string): string {
  return s.length > MAX_TEXT ? detach(`${s.slice(0, MAX_TEXT)}…`) : s;
}

/** A key of `obj` that matches one of `names` case-insensitively (exact spellings first). */
function findKey(obj: Obj, names: readonly string[]): string | undefined {
  for (const n of names) if (n in obj) return n;
  const lower = new Map(Object.keys(obj).map((k) => [k.toLowerCase(), k]));
  for (const n of names) {
    const k = lower.get(n);
    if (k !== undefined) return k;
  }
  return undefined;
}

function firstString(obj: Obj, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = obj[n];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return undefined;
}

// Locating a key inside the file (jsonl.ts): a problem squiggles the field and not just the line.
export { JsonKeyLocator, type KeyPosition } from './jsonl';

// ---------------------------------------------------------------------------------------------
// Digging the predictor's JSON out of free text.

export interface TextPrediction {
  /** The raw value found under the probability key (number, string, ...), not yet validated. */
  probability: unknown;
  /** The key it was under, e.g. "probability". */
  key: string;
  reasoning?: string;
  /** True when no complete JSON object parsed and the value was read from a broken one. */
  partial: boolean;
}

/** Index of the '}' closing the '{' at `open`, skipping strings; -1 when it never closes. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: skip to its closing quote
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return i;
  }
  return -1;
}

/** Drop commas that directly precede '}' or ']' (outside strings): a common LM slip. */
function dropTrailingCommas(json: string): string {
  let out = '';
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      const start = i;
      for (i++; i < json.length && json[i] !== '"'; i++) if (json[i] === '\\') i++;
      out += json.slice(start, i + 1);
      continue;
    }
    if (c === ',' && /^\s*[}\]]/.test(json.slice(i + 1, i + 200))) continue;
    out += c;
  }
  return out;
}

function parseLenient(json: string): unknown {
  try {
    return parsePythonJson(json);
  } catch {
    try {
      return parsePythonJson(dropTrailingCommas(json));
    } catch {
      return undefined;
    }
  }
}

/** The probability inside a parsed answer object, or one level down ({"answer": {...}}). */
function probabilityIn(obj: Obj, depth = 0): TextPrediction | undefined {
  const key = findKey(obj, INNER_PROB_KEYS);
  if (key !== undefined) {
    const reasoningKey = findKey(obj, REASONING_KEYS);
    const r = reasoningKey !== undefined ? obj[reasoningKey] : undefined;
    return { probability: obj[key], key, reasoning: typeof r === 'string' ? r : undefined, partial: false };
  }
  if (depth > 0) return undefined;
  for (const v of Object.values(obj)) {
    if (isObject(v)) {
      const hit = probabilityIn(v, depth + 1);
      if (hit) return hit;
    }
  }
  return undefined;
}

const PARTIAL_PROB = /["']?(probability|pred_prob|predicted_probability|p_yes|prob)["']?\s*:\s*("(?:[^"\\]|\\.)*"?|[^\s,}\]]+)/i;
const PARTIAL_REASONING = /"(?:reasoning|explanation|rationale)"\s*:\s*"((?:[^"\\]|\\.)*)/i;

/**
 * The first JSON object in `text` that carries a probability. Objects that do not parse (even after
 * dropping trailing commas) are passed over. When none parses but an object was opened, the value
 * after a "probability" key is read from the broken JSON (flagged `partial`), so a predictor cut off
 * mid-reasoning still counts, with a warning. Undefined when the text holds no such thing.
 */
export function findPredictionJson(text: string): TextPrediction | undefined {
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) {
    const end = matchingBrace(text, i);
    if (end === -1) continue;
    const value = parseLenient(text.slice(i, end + 1));
    if (!isObject(value)) continue;
    const hit = probabilityIn(value);
    if (hit) return hit;
  }
  const brace = text.indexOf('{');
  if (brace === -1) return undefined;
  const rest = text.slice(brace);
  const m = PARTIAL_PROB.exec(rest);
  if (!m) return undefined;
  const token = m[2];
  let probability: unknown = token;
  if (token.startsWith('"')) {
    try {
      probability = JSON.parse(token.endsWith('"') && token.length > 1 ? token : `${token}"`);
    } catch {
      probability = token.slice(1);
    }
  } else if (readNumberText(token).kind === 'number') {
    probability = Number(token);
  }
  const r = PARTIAL_REASONING.exec(rest);
  let reasoning: string | undefined;
  if (r) {
    try {
      reasoning = JSON.parse(`"${r[1]}"`);
    } catch {
      reasoning = r[1];
    }
  }
  return { probability, key: m[1], reasoning, partial: true };
}

// ---------------------------------------------------------------------------------------------
// One record -> one prediction.

interface Prediction {
  value: unknown;
  /** How the field is named in messages, e.g. `prediction.probability`. */
  field: string;
  /** The top-level key to point a squiggle at. */
  anchor: string;
  /** A JSON string written where a number belongs (in a record or in the LM's JSON): flagged. */
  quotedNumber: boolean;
  reasoning?: string;
  partial?: boolean;
}

interface Position { line: number; column?: number; endColumn?: number }

interface PredictionError { code: ProblemCode; message: string; anchor?: string }

function extractPrediction(rec: Obj): Prediction | PredictionError {
  const topReasoning = firstString(rec, REASONING_KEYS);
  for (const k of TOP_PROB_KEYS) {
    if (present(rec[k])) return { value: rec[k], field: k, anchor: k, quotedNumber: true, reasoning: topReasoning };
  }
  for (const k of PREDICTION_KEYS) {
    const v = rec[k];
    if (!present(v)) continue;
    if (isObject(v)) {
      const hit = probabilityIn(v);
      if (hit) return { value: hit.probability, field: `${k}.${hit.key}`, anchor: k, quotedNumber: true, reasoning: hit.reasoning ?? topReasoning };
      return { code: 'missing-field', anchor: k, message: `The object under "${k}" has no "probability" field; the row is skipped.` };
    }
    if (typeof v === 'number') return { value: v, field: k, anchor: k, quotedNumber: false, reasoning: topReasoning };
    if (typeof v === 'string') {
      // The whole text is a bare value ("0.73", "73%"): the probability, written as a string.
      if (!v.includes('{') && readNumberText(v).kind !== 'text') return { value: v, field: k, anchor: k, quotedNumber: true, reasoning: topReasoning };
      const hit = findPredictionJson(v);
      if (hit) return { value: hit.probability, field: `"${hit.key}" (in the JSON text of "${k}")`, anchor: k, quotedNumber: true, reasoning: hit.reasoning ?? topReasoning, partial: hit.partial };
      return {
        code: 'json-parse', anchor: k,
        message: `The text in "${k}" holds no JSON object with a "probability" (${showValue(v)}); the row is skipped.`,
      };
    }
    return { code: 'not-a-number', anchor: k, message: `"${k}" is ${showValue(v)}, neither a number, an object with "probability", nor text holding one; the row is skipped.` };
  }
  return {
    code: 'missing-field',
    message: `The record has no predicted probability: none of ${[...TOP_PROB_KEYS, ...PREDICTION_KEYS].map((k) => `"${k}"`).join(', ')}; the row is skipped.`,
  };
}

/**
 * A probability from a JSON value. JSON numbers are taken as they are; a string that spells a
 * number is an error ('not-a-number') because the predictor was asked for a number, and a
 * percentage is 'percent-probability' with the fraction it probably means.
 */
function jsonProbability(raw: unknown, quotedNumberIsError: boolean, pos: Position, field: string, problems: RowProblem[]): number | undefined {
  if (quotedNumberIsError && typeof raw === 'string') {
    const t = readNumberText(raw);
    if (t.kind === 'number') {
      problems.push({
        ...pos, severity: 'error', code: 'not-a-number',
        message: `${field} is the string ${showValue(raw)}, not a JSON number (write ${t.value} without quotes); the row is skipped.`,
      });
      return undefined;
    }
    if (t.kind === 'percent') {
      const isPercent = t.value >= 0 && t.value <= 100;
      problems.push({
        ...pos, severity: 'error', code: isPercent ? 'percent-probability' : 'out-of-range',
        message: isPercent
          ? `${field} is ${showValue(raw)}, a percentage; a probability in [0, 1] is expected (${fractionText(t.value)}?); the row is skipped.`
          : `${field} ${showValue(raw)} is outside [0, 1] even as a percentage; the row is skipped.`,
      });
      return undefined;
    }
  }
  // The shared helper sizes a squiggle by the raw text; ours spans the key, so place it here.
  const before = problems.length;
  const value = parseProbability(raw, pos.line, undefined, field, problems);
  for (const q of problems.slice(before)) Object.assign(q, pos);
  return value;
}

// ---------------------------------------------------------------------------------------------

/** The task from the first records' task/task_name/topic, else an ALMANACS topic in the path. */
function taskOf(firstRecords: readonly unknown[], path: string): string | undefined {
  for (const value of firstRecords.slice(0, 5)) {
    if (isObject(value)) {
      const t = value.task ?? value.task_name ?? value.topic;
      if (typeof t === 'string' && t.trim()) return t.trim();
    }
  }
  const lower = path.toLowerCase();
  // Longest first: "advanced_ai_risk" must not be read as "aita" and the like.
  return [...ALMANACS_TASKS].sort((a, b) => b.length - a.length).find((t) => lower.includes(t));
}

function unscorable(problems: RowProblem[], skipped: number, task: string | undefined, fatal: string): ParseResult {
  return { format: 'almanacs', task, set: null, problems, skipped, unlabeled: 0, fatal };
}

/** Fields a record keeps after it has been read (besides what is taken from it at once). */
const KEPT_KEYS = new Set<string>([...ALMANACS_GOLD_KEYS, ...ID_KEYS, 'template_id']);

/**
 * One record as kept while the file is read: its prediction and question taken out at once, and
 * only the fields the file-wide choices (gold field, ID field) still need. Its long texts (the
 * predictor's output, the reasoning) are let go with the line they came from.
 */
interface KeptRecord {
  span: JsonSpan;
  /** null: the record is not a JSON object, and `notObject` shows its value. */
  fields: Obj | null;
  notObject?: string;
  found?: Prediction | PredictionError;
  question?: string;
}

export function parseAlmanacs(input: FileInput, ctx: FormatContext): ParseResult {
  const customGold = ctx.options.goldKey;
  const kept: KeptRecord[] = [];
  const firstRecords: unknown[] = [];
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    if (firstRecords.length < 5) firstRecords.push(isObject(value) ? pickFields(value, (k) => k === 'task' || k === 'task_name' || k === 'topic') : null);
    if (!isObject(value)) {
      kept.push({ span, fields: null, notObject: showValue(value) });
      return;
    }
    const found = extractPrediction(value);
    if (!('code' in found) && found.reasoning !== undefined) found.reasoning = clip(found.reasoning);
    kept.push({
      span, found,
      fields: pickFields(value, (k) => KEPT_KEYS.has(k) || k === customGold),
      question: clip(firstString(value, QUESTION_KEYS) ?? ''),
    });
  }, ctx.progress);
  const problems: RowProblem[] = [...scan.problems];
  let skipped = scan.badRecords;
  const task = taskOf(firstRecords, input.path);
  if (scan.fatal) return unscorable(problems, skipped, task, scan.fatal);

  if (!scan.records) {
    if (!scan.problems.length) problems.push({ line: 1, severity: 'error', code: 'empty-file', message: 'The file holds no JSON records.' });
    return unscorable(problems, skipped, task, scan.problems.length ? 'No record of the file parses as JSON.' : 'The file holds no JSON records.');
  }

  const objects = kept.map((r) => r.fields).filter((o): o is Obj => o !== null);
  // One gold field for the whole file, so a row that lacks it is reported under that name.
  const goldKey = customGold ?? ALMANACS_GOLD_KEYS.find((k) => objects.some((o) => present(o[k])));
  if (!goldKey || !objects.some((o) => present(o[goldKey]))) {
    const looked = customGold ? `"${customGold}" (--gold-key)` : ALMANACS_GOLD_KEYS.map((k) => `"${k}"`).join(', ');
    problems.push({ line: kept[0].span.line, severity: 'error', code: 'missing-field', message: `No record has a true-probability field ${looked}; name the field with --gold-key.` });
    return unscorable(problems, skipped + scan.records, task, `No record has the model's true probability (${looked}), so nothing can be scored.`);
  }

  const idKey = ID_KEYS.find((k) => objects.some((o) => present(o[k])));
  // template_id names a template shared by many questions: number the questions within it.
  const templateIds = !idKey && objects.some((o) => present(o.template_id));
  const perTemplate = new Map<string, number>();
  const seenIds = new Map<string, number>();

  const lines: number[] = [];
  const pred: number[] = [];
  const gold: number[] = [];
  const ids: string[] = [];
  const questions: string[] = [];
  const reasonings: string[] = [];

  for (const { span, fields: value, notObject, found, question } of kept) {
    const line = span.line;
    const at = (key: string | undefined): Position => {
      const pos = key !== undefined ? scan.locate(span, key) : undefined;
      return pos ?? { line };
    };
    if (!value || !found) {
      problems.push({ line, severity: 'error', code: 'missing-field', message: `The record on line ${line} is ${notObject}, not a JSON object; the row is skipped.` });
      skipped++;
      continue;
    }
    const rowProblems: RowProblem[] = [];

    let p: number | undefined;
    if ('code' in found) {
      rowProblems.push({ ...at(found.anchor), severity: 'error', code: found.code, message: found.message });
    } else {
      const pos = at(found.anchor);
      p = jsonProbability(found.value, found.quotedNumber, pos, `The predicted probability ${found.field}`, rowProblems);
      if (p !== undefined && found.partial) {
        rowProblems.push({
          ...pos, severity: 'warning', code: 'json-parse',
          message: `The JSON in "${found.anchor}" is incomplete or malformed; the probability ${p} was read from the text as it stands.`,
        });
      }
    }

    const gpos = at(goldKey);
    const g = jsonProbability(value[goldKey], false, gpos, `The true probability "${goldKey}"`, rowProblems);

    let id: string | undefined;
    if (idKey && present(value[idKey])) id = String(value[idKey]);
    else if (templateIds && present(value.template_id)) {
      const t = String(value.template_id);
      const k = (perTemplate.get(t) ?? 0) + 1;
      perTemplate.set(t, k);
      id = `${t}/${k}`;
    }

    problems.push(...rowProblems);
    if (rowProblems.some((q) => q.severity === 'error') || p === undefined || g === undefined) {
      skipped++;
      continue;
    }
    if (idKey && id !== undefined) {
      const first = seenIds.get(id);
      if (first !== undefined) {
        problems.push({ ...at(idKey), severity: 'warning', code: 'duplicate-id', message: `${idKey} ${showValue(value[idKey])} was already used on line ${first}; this row is skipped.` });
        skipped++;
        continue;
      }
      seenIds.set(id, line);
    }

    lines.push(line);
    pred.push(p);
    gold.push(g);
    ids.push(id ?? `line ${line}`);
    questions.push(question ?? '');
    reasonings.push(('code' in found ? undefined : found.reasoning) ?? '');
  }

  if (!pred.length) {
    return unscorable(problems, skipped, task, 'No row has both a valid predicted probability and a valid true probability.');
  }

  const set: ProbabilitySet = {
    kind: 'probability',
    n: pred.length,
    lines: Uint32Array.from(lines),
    predProb: Float64Array.from(pred),
    goldProb: Float64Array.from(gold),
  };
  if (idKey || templateIds) set.ids = ids;
  // Only the text fields the file has, so the stepper shows no empty columns.
  const fields: string[] = [];
  const columns: string[][] = [];
  if (questions.some((q) => q)) { fields.push('question'); columns.push(questions); }
  if (reasonings.some((r) => r)) { fields.push('reasoning'); columns.push(reasonings); }
  if (fields.length) set.texts = { fields, values: pred.map((_, i) => columns.map((c) => c[i])) };

  return { format: 'almanacs', task, set, problems, skipped, unlabeled: 0 };
}

// ---------------------------------------------------------------------------------------------
// Detection from the first record (the head may end mid-record).

/** The first record of a JSON Lines or JSON array head, when it is complete. */
function firstRecord(head: string): Obj | undefined {
  const text = stripBom(head);
  const open = text.indexOf('{');
  if (open === -1 || !/^\s*\[?\s*$/.test(text.slice(0, open))) return undefined;
  const end = matchingBrace(text, open);
  if (end === -1) return undefined;
  const v = parseLenient(text.slice(open, end + 1));
  return isObject(v) ? v : undefined;
}

const GOLD_KEY_TEXT = /"(gold_prob|true_prob|answer_prob|true_p_yes|gold_p_yes)"\s*:/;

/**
 * True when the first record looks like an ALMANACS predictor output: it carries a predicted
 * probability (directly, in an answer object, or as JSON in a text field) and either a true
 * probability field, a reasoning, or an ALMANACS-named path.
 */
export function looksLikeAlmanacs(path: string, head: string): boolean {
  if (!/\.(jsonl|json|ndjson)$/i.test(path)) return false;
  const named = /almanacs/i.test(path);
  const rec = firstRecord(head);
  if (!rec) {
    // A first record longer than the head: fall back to key names in the text.
    const text = stripBom(head).trimStart();
    if (!text.startsWith('{') && !text.startsWith('[')) return false;
    const hasProb = /\\?"probability\\?"\s*:/.test(text);
    return hasProb && (named || GOLD_KEY_TEXT.test(text) || /\\?"reasoning\\?"\s*:/.test(text));
  }
  const found = extractPrediction(rec);
  if ('code' in found) return false;
  // "answer" alone is too common a name (0/1 labels, answer texts) to claim a file by.
  const hasGold = ALMANACS_GOLD_KEYS.some((k) => k !== 'answer' && present(rec[k]));
  const hasText = found.reasoning !== undefined || firstString(rec, QUESTION_KEYS) !== undefined;
  return hasGold || named || found.reasoning !== undefined || (present(rec.answer) && hasText);
}
