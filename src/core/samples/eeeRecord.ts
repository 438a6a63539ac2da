// One Every Eval Ever instance line (instance_level_eval.schema.json, schema 0.3: every_eval_ever/
// schemas/ in evaleval/every_eval_ever) as the shared SampleRecord, which is modelled on it: input
// {raw, formatted, reference, choices}, output {raw, reasoning_trace} (single_turn) or messages
// (multi_turn, agentic: turn_idx, role, content, reasoning_trace, tool_calls {id, name, arguments
// as an object of strings}, tool_call_id as a list), answer_attribution (the terminal extracted
// value is the answer), evaluation {score, is_correct, num_turns, tool_calls_count}, token_usage,
// performance (latency, generation time), error, metadata; 0.2.x files too (`interactions` for
// messages, a bare string for a reference or an output). Read field by field: a line that misses
// one still shows the rest.
import { locateAnswer } from './answerSpan';
import type { SampleMessage, SampleRecord } from './record';

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v, null, typeof v === 'object' ? 2 : undefined);
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.map(asText) : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function message(m: Obj): SampleMessage {
  const out: SampleMessage = { role: typeof m.role === 'string' ? m.role : 'unknown', content: asText(m.content) };
  if (typeof m.reasoning_trace === 'string' && m.reasoning_trace) out.reasoning_trace = m.reasoning_trace;
  if (Array.isArray(m.tool_calls) && m.tool_calls.length) {
    out.tool_calls = m.tool_calls.filter(isObject).map((t) => ({
      ...(typeof t.id === 'string' ? { id: t.id } : {}),
      name: asText(t.name),
      arguments: t.arguments === undefined || t.arguments === null ? '' : asText(t.arguments),
    }));
  }
  // A list in the schema (one message may carry the results of several calls).
  const ids = Array.isArray(m.tool_call_id) ? m.tool_call_id.map(asText) : typeof m.tool_call_id === 'string' ? [m.tool_call_id] : [];
  if (ids.length) out.tool_call_id = ids.join(', ');
  return out;
}

/** The first EEE instance line's sample as a SampleRecord (`line`: where it is in the file). */
export function eeeSampleRecord(rec: Obj, line: number): SampleRecord {
  const record: SampleRecord = { sample_id: asText(rec.sample_id ?? rec.sample_hash ?? `line ${line}`), line };
  if (typeof rec.model_id === 'string') record.model_id = rec.model_id;
  if (typeof rec.evaluation_name === 'string') record.evaluation_name = rec.evaluation_name;
  if (typeof rec.interaction_type === 'string') record.interaction_type = rec.interaction_type;
  const input = isObject(rec.input) ? rec.input : undefined;
  if (input) {
    record.input = {
      ...(input.raw !== undefined ? { raw: asText(input.raw) } : {}),
      ...(typeof input.formatted === 'string' && input.formatted !== input.raw ? { formatted: input.formatted } : {}),
      reference: strings(input.reference) ?? (input.reference !== undefined && input.reference !== null ? [asText(input.reference)] : []),
      ...(strings(input.choices) ? { choices: strings(input.choices) } : {}),
    };
  }
  const output = isObject(rec.output) ? rec.output : undefined;
  if (output) {
    record.output = {
      raw: strings(output.raw) ?? (output.raw !== undefined ? [asText(output.raw)] : []),
      ...(strings(output.reasoning_trace) ? { reasoning_trace: strings(output.reasoning_trace) } : {}),
    };
  }
  // 0.2.x named the transcript `interactions`.
  const transcript = Array.isArray(rec.messages) ? rec.messages : Array.isArray(rec.interactions) ? rec.interactions : undefined;
  if (transcript) record.messages = transcript.filter(isObject).map(message);
  const attributions = Array.isArray(rec.answer_attribution) ? rec.answer_attribution.filter(isObject) : [];
  const chosen = [...attributions].reverse().find((a) => a.is_terminal === true) ?? attributions[attributions.length - 1];
  if (chosen && chosen.extracted_value !== undefined && chosen.extracted_value !== null) record.answer = asText(chosen.extracted_value);
  const evaluation = isObject(rec.evaluation) ? rec.evaluation : undefined;
  if (evaluation) {
    record.evaluation = {
      ...(num(evaluation.score) !== undefined ? { score: num(evaluation.score) } : {}),
      ...(typeof evaluation.is_correct === 'boolean' ? { is_correct: evaluation.is_correct } : {}),
    };
    const method = chosen && typeof chosen.extraction_method === 'string' ? chosen.extraction_method : 'evaluation';
    record.scores = [{
      name: method,
      value: evaluation.is_correct === undefined ? asText(evaluation.score) : `${asText(evaluation.score)} (${evaluation.is_correct ? 'correct' : 'incorrect'})`,
      ...(num(evaluation.score) !== undefined ? { numeric: num(evaluation.score) } : {}),
      ...(record.answer !== undefined ? { answer: record.answer } : {}),
    }];
  }
  const usage = isObject(rec.token_usage) ? rec.token_usage : undefined;
  if (usage) {
    const u: NonNullable<SampleRecord['token_usage']> = {};
    for (const k of ['input_tokens', 'output_tokens', 'total_tokens', 'input_tokens_cache_read', 'input_tokens_cache_write', 'reasoning_tokens'] as const) {
      const v = num(usage[k]);
      if (v !== undefined) u[k] = v;
    }
    record.token_usage = u;
  }
  const perf = isObject(rec.performance) ? rec.performance : undefined;
  const latency = num(perf?.latency_ms);
  const first = num(perf?.time_to_first_token_ms);
  const generation = num(perf?.generation_time_ms);
  if (latency !== undefined || first !== undefined || generation !== undefined) {
    record.timing = {
      ...(latency !== undefined ? { latency_seconds: latency / 1000 } : {}),
      ...(generation !== undefined ? { working_seconds: generation / 1000 } : {}),
      ...(first !== undefined ? { first_token_seconds: first / 1000 } : {}),
    };
  }
  if (typeof rec.error === 'string' && rec.error) record.error = rec.error;
  const metadata: Record<string, string> = {};
  if (isObject(rec.metadata)) for (const [k, v] of Object.entries(rec.metadata)) metadata[k] = asText(v);
  for (const k of ['evaluation_id', 'evaluation_result_id', 'sample_hash', 'schema_version']) if (typeof rec[k] === 'string') metadata[k] = rec[k] as string;
  if (evaluation) {
    if (num(evaluation.num_turns) !== undefined) metadata.num_turns = String(evaluation.num_turns);
    if (num(evaluation.tool_calls_count) !== undefined) metadata.tool_calls_count = String(evaluation.tool_calls_count);
  }
  if (chosen) {
    metadata['answer_attribution.source'] = asText(chosen.source);
    metadata['answer_attribution.turn_idx'] = asText(chosen.turn_idx);
  }
  if (Object.keys(metadata).length) record.metadata = metadata;
  const at = locateAnswer(record);
  if (at) record.answer_at = at;
  return record;
}
