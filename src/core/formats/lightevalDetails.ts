// One row of a lighteval details file, in each of the shapes lighteval has written, read into the
// few values Eval Lens scores. Each shape is checked against lighteval's own source
// (huggingface/lighteval; `Detail` in src/lighteval/logging/info_loggers.py, saved by
// EvaluationTracker.save in src/lighteval/logging/evaluation_tracker.py):
//
//  - 0.11 and later: three columns, `doc` (tasks/requests.py `Doc`: query, choices, gold_index as an
//    int or a list of ints, instruction, id, task_name, ...), `model_response`
//    (models/model_output.py `ModelResponse`: input, text, logprobs one per choice for a
//    log-likelihood task, argmax_logits_eq_gold, ...) and `metric` (metric name -> the sample's value);
//  - 0.8 to 0.10: the flat `Detail` (example, instruction, full_prompt, predictions, choices,
//    gold_index always a list, gold, metrics, specifics, ...) with its values as they are:
//    `predictions` holds one (logprob, is_greedy) pair per choice, one logprob per choice for a
//    single-token task, or the generated texts;
//  - 0.3 to 0.7: the same columns, each saved as `str(value)`, Python's repr (pythonLiteral.ts).
//
// Datasets drops a top-level `id` column and sorts the others (doc, metric, model_response); a
// Parquet struct holds the union of the keys of every row, null where a row lacks one.
import { tryPythonLiteral } from './pythonLiteral';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The values of one sample that Eval Lens reads. */
export interface LightevalRow {
  /** doc.id when the task set one (0.11+). */
  id?: string;
  /** doc.task_name (0.11+). */
  taskName?: string;
  query: string;
  choices: string[];
  /** doc.gold_index as a list (lighteval's as_list). */
  golds: number[];
  /** model_response.logprobs: one per choice for a log-likelihood task (twice as many with PMI), per generated token for a generation. */
  logprobs?: number[];
  /** doc.sampling_methods says GENERATIVE and not LOGPROBS (0.11+): its logprobs are the generation's tokens'. */
  generative?: boolean;
  /** The generated texts (generative tasks). */
  texts: string[];
  /** The sample's metrics, by name: numbers and booleans (as 1/0); nulls and other values left out. */
  metrics: Record<string, number>;
}

/**
 * Columns of a details Parquet that Eval Lens never reads, left undecoded (parquet.ts): each row's
 * few-shot docs (25 whole Docs per row for ARC), token ids, logits, the full prompt.
 */
export const LIGHTEVAL_UNREAD: readonly (readonly string[])[] = [
  ['doc', 'fewshot_samples'], ['doc', 'images'],
  ['model_response', 'input'], ['model_response', 'input_tokens'], ['model_response', 'output_tokens'], ['model_response', 'logits'],
  ['full_prompt'], ['input_tokens'], ['cont_tokens'], ['pred_logits'], ['prediction_logits'],
];

/** Column sets that make a table lighteval's details: the 0.11+ structs, or the flat Detail. */
export function isLightevalColumns(names: readonly string[]): boolean {
  const has = (n: string) => names.includes(n);
  if (has('doc') && has('model_response') && has('metric')) return true;
  return has('predictions') && has('metrics') && has('gold_index') && has('choices') && (has('example') || has('full_prompt'));
}

/** Whether a record (a JSON object or a Parquet row) has a details row's shape. */
export function isLightevalRecord(v: unknown): boolean {
  return isObject(v) && isLightevalColumns(Object.keys(v));
}

/** A row of the details, or why it cannot be read (one sentence, no trailing period). */
export function readDetail(v: unknown): { row: LightevalRow } | { problem: string } {
  if (!isObject(v)) return { problem: 'The record is not an object' };
  return isObject(v.doc) || 'model_response' in v ? readStructs(v) : readFlat(v);
}

function readStructs(v: Obj): { row: LightevalRow } | { problem: string } {
  if (!isObject(v.doc)) return { problem: '"doc" is not an object' };
  const doc = v.doc;
  const response = isObject(v.model_response) ? v.model_response : {};
  const choices = stringList(doc.choices);
  if (!choices) return { problem: '"doc.choices" is not a list of texts' };
  const golds = goldList(doc.gold_index);
  if (!golds) return { problem: `"doc.gold_index" is ${show(doc.gold_index)}, not an index or a list of indices` };
  const logprobs = numberList(response.logprobs);
  // text_post_processed (reasoning removed) when lighteval filled it; 0.13 writes [] for log-likelihood rows.
  const processed = stringList(response.text_post_processed);
  const texts = processed?.length ? processed : stringList(response.text) ?? [];
  const methods = stringList(doc.sampling_methods) ?? [];
  const generative = methods.includes('GENERATIVE') && !methods.includes('LOGPROBS');
  const id = typeof doc.id === 'string' && doc.id.trim() !== '' ? doc.id : typeof doc.id === 'number' ? String(doc.id) : undefined;
  return {
    row: {
      ...(id !== undefined ? { id } : {}),
      ...(typeof doc.task_name === 'string' && doc.task_name ? { taskName: doc.task_name } : {}),
      query: typeof doc.query === 'string' ? doc.query : '',
      choices, golds,
      ...(logprobs && logprobs.length ? { logprobs } : {}),
      ...(generative ? { generative } : {}),
      texts,
      metrics: metricValues(v.metric),
    },
  };
}

function readFlat(v: Obj): { row: LightevalRow } | { problem: string } {
  const choices = stringList(literal(v.choices)) ?? [];
  const golds = goldList(literal(v.gold_index));
  if (!golds) return { problem: `"gold_index" is ${show(v.gold_index)}, not a list of indices` };
  const predictions = literal(v.predictions);
  if (!Array.isArray(predictions)) return { problem: `"predictions" is ${show(v.predictions)}, not a list` };
  // Per choice: (logprob, is_greedy) pairs, or the logprobs themselves (single-token tasks).
  const logprobs = predictions.length && predictions.every((p) => typeof logprobOf(p) === 'number') ? predictions.map((p) => logprobOf(p)!) : undefined;
  const texts = !logprobs ? predictions.filter((p): p is string => typeof p === 'string') : [];
  return {
    row: {
      query: typeof v.example === 'string' ? v.example : '',
      choices, golds,
      ...(logprobs ? { logprobs } : {}),
      texts,
      metrics: metricValues(literal(v.metrics)),
    },
  };
}

/** A flat column's value: lighteval 0.3-0.7 wrote it as str(value), Python's literal syntax. */
function literal(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!/^[[({]/.test(t)) return v;
  const parsed = tryPythonLiteral(t);
  return parsed === undefined ? v : parsed;
}

function logprobOf(p: unknown): number | undefined {
  if (typeof p === 'number') return p;
  if (Array.isArray(p) && p.length >= 1 && p.length <= 2 && typeof p[0] === 'number') return p[0];
  return undefined;
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

function numberList(v: unknown): number[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.every((x) => typeof x === 'number') ? (v as number[]) : undefined;
}

/** gold_index as lighteval's as_list: an int, or a non-empty list of non-negative ints. */
function goldList(v: unknown): number[] | undefined {
  const list = Array.isArray(v) ? v : [v];
  if (!list.length || !list.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0)) return undefined;
  return list as number[];
}

/** The numeric values of a metric dict (booleans as 1/0); nulls (a key another row has) are left out. */
function metricValues(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (!isObject(v)) return out;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'number') out[k] = x;
    else if (typeof x === 'boolean') out[k] = x ? 1 : 0;
  }
  return out;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
