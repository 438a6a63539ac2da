// One Every Eval Ever instance record (instance_level_eval.schema.json, one JSON object a line of a
// `<uuid>_samples.jsonl`) for scoring: the two fields scoring cannot do without (sample_id and a
// boolean evaluation.is_correct) checked, the aggregate result it belongs to, the schema's fields as
// the sample view reads them (src/core/samples/eeeRecord.ts: 0.2.x files too), and what Eval Lens
// wrote into `metadata` (src/core/eee/keys.ts), which gives back the kind of the set it came from
// (a risk score and label, choice probabilities, a probability pair).
import type { RowProblem } from '../types';
import type { SampleRecord } from '../samples/record';
import { eeeSampleRecord } from '../samples/eeeRecord';
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
  // is_correct may be null where correctness is not defined (the schema's text-to-image proposal:
  // a continuous score such as CLIPScore): such a record is its score, read as a per-sample metric.
  const scoreOnly = !!evaluation && evaluation.is_correct === null && typeof evaluation.score === 'number' && Number.isFinite(evaluation.score);
  if (!evaluation || (typeof evaluation.is_correct !== 'boolean' && !scoreOnly)) return bad(`sample ${sampleId} has no boolean evaluation.is_correct`);
  const result = asText(value.evaluation_result_id) ?? asText(value.evaluation_name) ?? '';
  // The schema's fields as the sample view reads them (one reading of a line, src/core/samples/eeeRecord.ts).
  const record = eeeSampleRecord(value, line);
  record.sample_id = sampleId;
  if (!scoreOnly) record.evaluation = { ...record.evaluation, is_correct: evaluation.is_correct as boolean };
  const own = isObject(value.metadata) ? value.metadata : undefined;
  if (own) withEvalLensFields(record, Object.fromEntries(Object.entries(own).map(([k, v]) => [k, asText(v) ?? ''])));
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
