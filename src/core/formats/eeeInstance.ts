// One Every Eval Ever instance record (instance_level_eval.schema.json, one JSON object a line of a
// `<uuid>_samples.jsonl`) as the one sample record (src/core/samples/record.ts). The schema's own
// fields map one to one; what Eval Lens wrote into `metadata` (src/core/eee/keys.ts) gives back the
// kind of the set it came from (a risk score and label, choice probabilities, a probability pair).
// Older files (0.2.x) are read too: `interactions` for `messages`, a bare string for `reference` or
// `output.raw`, a numeric sample_id, non-string metadata values.
import type { RowProblem } from '../types';
import type { SampleMessage, SampleRecord } from '../samples/record';
import { METRIC_PREFIX, SAMPLE_META } from '../eee/keys';

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string, or a scalar written as one; objects and lists as JSON text (EEE's string maps). */
export function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return undefined;
  return JSON.stringify(v);
}

function texts(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map((x) => asText(x) ?? '');
  const one = asText(v);
  return one === undefined ? undefined : [one];
}

function stringMap(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    const s = asText(x);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

function message(m: Obj): SampleMessage {
  const out: SampleMessage = { role: asText(m.role) ?? '', content: asText(m.content) ?? '' };
  const trace = asText(m.reasoning_trace);
  if (trace) out.reasoning_trace = trace;
  if (Array.isArray(m.tool_calls) && m.tool_calls.length) {
    out.tool_calls = m.tool_calls.filter(isObject).map((c) => ({
      ...(c.id !== undefined ? { id: asText(c.id) } : {}),
      name: asText(c.name) ?? '',
      arguments: c.arguments === undefined || c.arguments === null ? '' : typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
  }
  // 0.3.0 makes tool_call_id a list (a tool message may answer several calls); the record keeps one string.
  const ids = Array.isArray(m.tool_call_id) ? m.tool_call_id.map((x) => asText(x) ?? '').filter(Boolean) : m.tool_call_id != null ? [asText(m.tool_call_id)!] : [];
  if (ids.length) out.tool_call_id = ids.join(', ');
  return out;
}

function finite(s: string | undefined): number | undefined {
  if (s === undefined || s.trim() === '') return undefined;
  const v = Number(s);
  return Number.isFinite(v) ? v : undefined;
}

function numberList(s: string | undefined): number[] | undefined {
  if (s === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) && v.length && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]) : undefined;
  } catch {
    return undefined;
  }
}

/** What one line of an instance file gives: its record and the result it belongs to, or why it was left out. */
export type InstanceLine =
  | { record: SampleRecord; result: string; interaction: string }
  | { problem: RowProblem };

/**
 * One instance record. `result` is the aggregate result it belongs to (evaluation_result_id, else
 * evaluation_name). A record without a sample_id or a boolean evaluation.is_correct (both required
 * by the schema) is a problem naming its line.
 */
export function instanceRecord(value: unknown, line: number): InstanceLine {
  const bad = (message: string): InstanceLine => ({ problem: { line, severity: 'error', code: 'missing-field', message: `Line ${line}: ${message}; the record is left out.` } });
  if (!isObject(value)) return bad('not a JSON object');
  const sampleId = asText(value.sample_id);
  if (sampleId === undefined || sampleId === '') return bad('no sample_id');
  const evaluation = isObject(value.evaluation) ? value.evaluation : undefined;
  if (!evaluation || typeof evaluation.is_correct !== 'boolean') return bad(`sample ${sampleId} has no boolean evaluation.is_correct`);
  const result = asText(value.evaluation_result_id) ?? asText(value.evaluation_name) ?? '';
  const record: SampleRecord = { sample_id: sampleId, line, evaluation: { is_correct: evaluation.is_correct } };
  if (typeof evaluation.score === 'number' && Number.isFinite(evaluation.score)) record.evaluation!.score = evaluation.score;
  const model = asText(value.model_id);
  if (model) record.model_id = model;
  const name = asText(value.evaluation_name);
  if (name) record.evaluation_name = name;
  if (isObject(value.input)) {
    const input = value.input;
    record.input = {};
    const raw = asText(input.raw);
    if (raw !== undefined) record.input.raw = raw;
    const reference = texts(input.reference);
    if (reference) record.input.reference = reference;
    const choices = texts(input.choices);
    if (choices?.length) record.input.choices = choices;
  }
  if (isObject(value.output)) {
    const raw = texts(value.output.raw);
    const trace = texts(value.output.reasoning_trace);
    record.output = { ...(raw ? { raw } : {}), ...(trace?.length ? { reasoning_trace: trace } : {}) };
  }
  const messages = Array.isArray(value.messages) ? value.messages : Array.isArray(value.interactions) ? value.interactions : undefined;
  if (messages?.length) record.messages = messages.filter(isObject).map(message);
  // The final answer: the last terminal attribution (the schema allows intermediate ones).
  const attributions = Array.isArray(value.answer_attribution) ? value.answer_attribution.filter(isObject) : [];
  const terminal = [...attributions].reverse().find((a) => a.is_terminal === true) ?? attributions[attributions.length - 1];
  const answer = terminal ? asText(terminal.extracted_value) : undefined;
  if (answer !== undefined) record.answer = answer;
  if (isObject(value.token_usage)) {
    const t = value.token_usage;
    const count = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
    record.token_usage = { input_tokens: count(t.input_tokens), output_tokens: count(t.output_tokens), total_tokens: count(t.total_tokens) };
  }
  const metadata = stringMap(value.metadata);
  if (metadata && Object.keys(metadata).length) {
    record.metadata = metadata;
    withEvalLensFields(record, metadata);
  }
  return { record, result, interaction: asText(value.interaction_type) ?? '' };
}

/** What Eval Lens wrote into metadata (src/core/eee/keys.ts), back on the record. */
function withEvalLensFields(record: SampleRecord, meta: Record<string, string>): void {
  const kind = meta[SAMPLE_META.kind];
  const metrics: Record<string, number> = {};
  for (const [k, v] of Object.entries(meta)) {
    if (!k.startsWith(METRIC_PREFIX)) continue;
    const x = v.trim() === '' ? NaN : Number(v);
    metrics[k.slice(METRIC_PREFIX.length)] = x;
  }
  if (Object.keys(metrics).length) record.metrics = metrics;
  const confidence = finite(meta[SAMPLE_META.confidence]);
  if (confidence !== undefined) record.confidence = confidence;
  if (kind === 'binary') {
    const score = finite(meta[SAMPLE_META.riskScore]);
    const label = meta[SAMPLE_META.label];
    const pred = meta[SAMPLE_META.pred];
    if (score !== undefined && (label === '0' || label === '1')) {
      record.risk = { score, label: label === '1' ? 1 : 0, ...(pred === '0' || pred === '1' ? { pred: pred === '1' ? 1 : 0 } : {}) };
    }
  } else if (kind === 'probability') {
    const pred = finite(meta[SAMPLE_META.predProb]);
    const gold = finite(meta[SAMPLE_META.goldProb]);
    if (pred !== undefined && gold !== undefined) record.probability = { pred, gold };
  } else if (kind === 'multiclass') {
    const gold = finite(meta[SAMPLE_META.goldIndex]);
    const pred = finite(meta[SAMPLE_META.predIndex]);
    const probs = numberList(meta[SAMPLE_META.choiceProbs]);
    if (gold !== undefined && Number.isInteger(gold)) record.goldIndex = gold;
    if (pred !== undefined && Number.isInteger(pred)) record.predIndex = pred;
    if (probs) record.choiceProbs = probs;
  }
}
