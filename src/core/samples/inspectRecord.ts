// One Inspect AI sample (an entry of an .eval zip, or an element of a .json log's samples) as the
// shared SampleRecord: the whole conversation (system, user, assistant, tool messages; content
// parts as text, reasoning apart, tool calls with their arguments), every scorer's score with its
// explanation and a model grader's exchange (score metadata `grading`), token usage per model,
// timing, metadata, and for a multiple-choice question each choice's probability where the answer
// token's logprobs list it. Field names follow inspect_ai's log model (src/inspect_ai/log/_log.py:
// EvalSample; model/_chat_message.py; _util/content.py; scorer/_metric.py: Score) as of 0.3.x.
// Long texts a log stores once are written as "attachment://<hash>" and resolved here.
import { isObject, type Obj } from '../formats/inspectLog';
import { valueToFloat, type ScoreValue } from '../formats/inspectScores';
import { locateAnswer } from './answerSpan';
import type { SampleMessage, SampleRecord, SampleScore } from './record';

type Usage = NonNullable<SampleRecord['token_usage']>;

const ATTACHMENT = /^attachment:\/\/([A-Za-z0-9_-]+)$/;

/** Resolves attachment references in a sample's strings (whole strings only, as Inspect writes them). */
function resolver(sample: Obj): (v: unknown) => unknown {
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const resolve = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = ATTACHMENT.exec(v);
      return m && typeof attachments[m[1]] === 'string' ? attachments[m[1]] : v;
    }
    if (Array.isArray(v)) return v.map(resolve);
    if (isObject(v)) {
      const out: Obj = {};
      for (const [k, x] of Object.entries(v)) out[k] = resolve(x);
      return out;
    }
    return v;
  };
  return resolve;
}

/** A JSON value as text: strings as they are, the rest as JSON. */
function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v, null, typeof v === 'object' ? 2 : undefined);
}

/** A message's content: its text parts, and its reasoning parts apart; other media as a bracketed note. */
function contentParts(content: unknown): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  if (!Array.isArray(content)) return { text: asText(content), reasoning: '' };
  const text: string[] = [];
  const reasoning: string[] = [];
  for (const part of content) {
    if (!isObject(part)) { text.push(asText(part)); continue; }
    switch (part.type) {
      case 'text': text.push(asText(part.text)); break;
      case 'reasoning':
        reasoning.push(part.redacted ? (typeof part.summary === 'string' && part.summary ? part.summary : '(reasoning redacted by the provider)') : asText(part.reasoning));
        break;
      case 'image': text.push(`[image${typeof part.image === 'string' && /^https?:/i.test(part.image) ? `: ${part.image}` : ''}]`); break;
      case 'audio': text.push(`[audio${typeof part.format === 'string' ? ` (${part.format})` : ''}]`); break;
      case 'video': text.push(`[video${typeof part.format === 'string' ? ` (${part.format})` : ''}]`); break;
      case 'document': text.push(`[document${typeof part.filename === 'string' && part.filename ? `: ${part.filename}` : ''}]`); break;
      case 'tool_use': text.push(`[${asText(part.tool_type) || 'tool'} ${asText(part.name)}(${asText(part.arguments)}) → ${asText(part.result)}${part.error ? ` (error: ${asText(part.error)})` : ''}]`); break;
      case 'data': text.push(asText(part.data)); break;
      default: text.push(asText(part.text ?? part));
    }
  }
  return { text: text.filter(Boolean).join('\n'), reasoning: reasoning.filter(Boolean).join('\n\n') };
}

/** Inspect ChatMessage → SampleMessage. */
export function inspectMessage(m: Obj): SampleMessage {
  const { text, reasoning } = contentParts(m.content);
  const out: SampleMessage = { role: typeof m.role === 'string' ? m.role : 'unknown', content: text };
  if (reasoning) out.reasoning_trace = reasoning;
  if (Array.isArray(m.tool_calls) && m.tool_calls.length) {
    out.tool_calls = m.tool_calls.filter(isObject).map((t) => ({
      ...(typeof t.id === 'string' ? { id: t.id } : {}),
      name: asText(t.function),
      arguments: typeof t.parse_error === 'string' && t.parse_error ? `${asText(t.arguments)}\n(parse error: ${t.parse_error})` : asText(t.arguments ?? {}),
    }));
  }
  if (typeof m.tool_call_id === 'string') out.tool_call_id = m.tool_call_id;
  if (m.role === 'tool' && typeof m.function === 'string') out.tool_name = m.function;
  if (isObject(m.error)) out.tool_error = `${asText(m.error.type)}${m.error.message ? `: ${asText(m.error.message)}` : ''}`;
  if (typeof m.model === 'string' && m.role === 'assistant') out.model = m.model;
  return out;
}

function usageOf(u: Obj): Usage {
  const out: Usage = {};
  for (const k of ['input_tokens', 'output_tokens', 'total_tokens', 'input_tokens_cache_read', 'input_tokens_cache_write', 'reasoning_tokens'] as const) {
    if (typeof u[k] === 'number') out[k] = u[k] as number;
  }
  return out;
}

function sumUsage(list: Usage[]): Usage | undefined {
  if (!list.length) return undefined;
  const out: Usage = {};
  for (const u of list) for (const [k, v] of Object.entries(u) as [keyof Usage, number][]) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** Values of a metadata object as text (nested values as JSON), as EEE keeps metadata. */
function textRecord(o: unknown, skip: string[] = []): Record<string, string> | undefined {
  if (!isObject(o)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (!skip.includes(k)) out[k] = asText(v);
  return Object.keys(out).length ? out : undefined;
}

function scoreOf(name: string, score: Obj, resolve: (v: unknown) => unknown): SampleScore {
  const value = score.value;
  const scalar = value === null || ['string', 'number', 'boolean'].includes(typeof value);
  const read = scalar ? valueToFloat(value as ScoreValue) : undefined;
  const out: SampleScore = { name, value: typeof value === 'string' ? value : JSON.stringify(value) ?? 'null' };
  if (read?.known && !Number.isNaN(read.value)) out.numeric = read.value;
  if (score.answer !== undefined && score.answer !== null) out.answer = asText(resolve(score.answer));
  if (score.explanation !== undefined && score.explanation !== null) out.explanation = asText(resolve(score.explanation));
  const meta = isObject(score.metadata) ? (resolve(score.metadata) as Obj) : undefined;
  if (meta && Array.isArray(meta.grading)) {
    const messages = meta.grading.filter(isObject).map(inspectMessage);
    const model = messages.find((m) => m.model)?.model;
    out.grader = { ...(model ? { model } : {}), messages };
  }
  const rest = textRecord(meta, ['grading']);
  if (rest) out.metadata = rest;
  return out;
}

/** The letter of choice k (A, B, …), as Inspect's multiple_choice writes it. */
function letter(k: number): string {
  return String.fromCharCode(65 + k);
}

/** Each choice's probability from the answer token's top logprobs (NaN where they do not list it). */
function choiceProbs(sample: Obj, k: number): number[] | undefined {
  const output = isObject(sample.output) ? sample.output : undefined;
  const choice = Array.isArray(output?.choices) && isObject(output.choices[0]) ? output.choices[0] : undefined;
  const content = isObject(choice?.logprobs) && Array.isArray(choice.logprobs.content) ? choice.logprobs.content.filter(isObject) : [];
  const letters = Array.from({ length: k }, (_, j) => letter(j));
  // The last generated token that is a choice letter ("ANSWER: C" ends with the token " C").
  for (let i = content.length - 1; i >= 0; i--) {
    const t = content[i];
    if (typeof t.token !== 'string' || !letters.includes(t.token.trim())) continue;
    const probs = letters.map(() => NaN);
    const alternatives = Array.isArray(t.top_logprobs) ? t.top_logprobs.filter(isObject) : [];
    for (const alt of [t, ...alternatives]) {
      const j = typeof alt.token === 'string' ? letters.indexOf(alt.token.trim()) : -1;
      if (j >= 0 && typeof alt.logprob === 'number' && Number.isNaN(probs[j])) probs[j] = Math.exp(alt.logprob);
    }
    return probs;
  }
  return undefined;
}

export interface InspectContext {
  /** The log's header (eval.task, eval.model). */
  header: Obj;
  line: number;
}

/** An Inspect sample as a SampleRecord. */
export function inspectSampleRecord(raw: Obj, ctx: InspectContext): SampleRecord {
  const resolve = resolver(raw);
  const sample = raw;
  const evalInfo = isObject(ctx.header.eval) ? ctx.header.eval : {};
  const epoch = Number(sample.epoch ?? 1);
  const record: SampleRecord = {
    sample_id: String(sample.id),
    line: ctx.line,
    ...(typeof evalInfo.model === 'string' ? { model_id: evalInfo.model } : {}),
    ...(typeof evalInfo.task === 'string' ? { evaluation_name: evalInfo.task } : {}),
  };
  const input = resolve(sample.input);
  const target = sample.target;
  const choices = Array.isArray(sample.choices) ? sample.choices.map((c) => asText(resolve(c))) : undefined;
  record.input = {
    raw: typeof input === 'string' ? input : Array.isArray(input) ? input.filter(isObject).map((m) => `[${asText(m.role)}] ${contentParts(m.content).text}`).join('\n\n') : asText(input),
    reference: Array.isArray(target) ? target.map(asText) : target === undefined || target === null ? [] : [asText(target)],
    ...(choices ? { choices } : {}),
  };
  const messages = Array.isArray(sample.messages) ? sample.messages.filter(isObject).map((m) => inspectMessage(resolve(m) as Obj)) : [];
  if (messages.length) record.messages = messages;
  const output = isObject(sample.output) ? sample.output : undefined;
  if (typeof output?.completion === 'string') record.output = { raw: [asText(resolve(output.completion))] };

  const scores = isObject(sample.scores) ? Object.entries(sample.scores).filter((e): e is [string, Obj] => isObject(e[1])).map(([name, s]) => scoreOf(name, s, resolve)) : [];
  if (scores.length) {
    record.scores = scores;
    const first = scores[0];
    if (first.answer) record.answer = first.answer;
    const metrics: Record<string, number> = {};
    for (const s of scores) if (s.numeric !== undefined) metrics[s.name] = s.numeric;
    if (Object.keys(metrics).length) record.metrics = metrics;
    if (first.numeric !== undefined) record.evaluation = { score: first.numeric, is_correct: first.numeric === 1 };
  }
  if (choices?.length) {
    const targets = record.input.reference ?? [];
    const gold = choices.findIndex((_, k) => targets.includes(letter(k)));
    if (gold >= 0) record.goldIndex = gold;
    const pred = record.answer ? choices.findIndex((_, k) => letter(k) === record.answer!.trim()) : -1;
    if (pred >= 0) record.predIndex = pred;
    const probs = choiceProbs(sample, choices.length);
    if (probs) record.choiceProbs = probs;
  }

  const byModel: Record<string, Usage> = {};
  if (isObject(sample.model_usage)) for (const [model, u] of Object.entries(sample.model_usage)) if (isObject(u)) byModel[model] = usageOf(u);
  const models = Object.keys(byModel);
  if (models.length) {
    record.usage_by_model = byModel;
    record.token_usage = sumUsage(Object.values(byModel));
  } else if (isObject(output?.usage)) {
    record.token_usage = usageOf(output.usage);
  }
  const timing: NonNullable<SampleRecord['timing']> = {};
  if (typeof sample.total_time === 'number') timing.total_seconds = sample.total_time;
  if (typeof sample.working_time === 'number') timing.working_seconds = sample.working_time;
  if (Object.keys(timing).length) record.timing = timing;
  const metadata = textRecord(resolve(sample.metadata));
  record.metadata = { ...(metadata ?? {}), ...(epoch !== 1 || sample.epoch !== undefined ? { epoch: String(epoch) } : {}) };
  if (!Object.keys(record.metadata).length) delete record.metadata;
  if (isObject(sample.error)) record.error = `error: ${asText(sample.error.message)}`;
  else if (isObject(sample.limit)) record.error = `stopped by the ${asText(sample.limit.type)} limit${sample.limit.limit !== undefined ? ` (${asText(sample.limit.limit)})` : ''}`;
  record.interaction_type = record.messages?.some((m) => m.tool_calls?.length) ? 'agentic' : (record.messages?.filter((m) => m.role === 'assistant').length ?? 0) > 1 ? 'multi_turn' : 'single_turn';
  const at = locateAnswer(record);
  if (at) record.answer_at = at;
  return record;
}
