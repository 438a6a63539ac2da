// What scoring keeps of an Inspect sample: the fields parseInspect reads (id, epoch, input, choices,
// target, scores, the output's completion and answer-token logprobs), texts already cut to what the
// report shows, and the sample's agent counts. The rest (its messages, events, attachments, store)
// is let go as soon as the sample is read: the sample view reads it again from the file when shown.
import { countMessages, type AgentCounts } from '../samples/agentColumns';
import { detach } from './progress';
import { isObject, type Obj } from './inspectLog';

/** The report's texts are cut at 3,000 characters (inspect.ts); a longer answer or output is cut here. */
const KEEP_TEXT = 8000;
/** Where the counts travel on a kept sample. */
export const AGENT_KEY = '__agent';

/**
 * A sample entry's members scoring never reads, left out before the entry is parsed (jsonSkip.ts):
 * the events (most of an agent's entry: each model call with the conversation so far), the
 * attachments, the store, the pools of a v3 log.
 */
export const SCORING_SKIP: readonly string[] = ['events', 'attachments', 'store', 'message_pool', 'call_pool', 'error_retries', 'sandbox', 'files', 'setup'];

function cut(v: unknown, max: number): unknown {
  return typeof v === 'string' && v.length > max ? detach(`${v.slice(0, max)}…`) : v;
}

/** A message's or an input's text, as inspect.ts's textOf reads it: a string, content parts, or chat messages. */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).filter(Boolean).join('\n');
  if (isObject(v)) {
    if (typeof v.text === 'string') return v.text;
    if (v.content !== undefined) return (typeof v.role === 'string' ? `[${v.role}] ` : '') + textOf(v.content);
  }
  return v == null ? '' : JSON.stringify(v);
}

/** The input as the text inspect.ts makes of it, cut (a string reads back as itself there). */
function inputText(v: unknown): unknown {
  return typeof v === 'string' ? cut(v, KEEP_TEXT) : cut(textOf(v), KEEP_TEXT);
}

function slimScore(score: unknown): unknown {
  if (!isObject(score)) return score;
  const out: Obj = { value: score.value };
  if (score.answer !== undefined) out.answer = cut(score.answer, KEEP_TEXT);
  if (typeof score.explanation === 'string') out.explanation = cut(score.explanation, 3001);
  const confidence = isObject(score.metadata) ? score.metadata.confidence : undefined;
  if (typeof confidence === 'number') out.metadata = { confidence };
  return out;
}

/** The sample's tokens: every model's total (model_usage), else the output's usage. */
function tokensOf(sample: Obj): number {
  const usage = isObject(sample.model_usage) ? Object.values(sample.model_usage).filter(isObject) : [];
  const total = (u: Obj) => (typeof u.total_tokens === 'number' ? u.total_tokens : typeof u.input_tokens === 'number' && typeof u.output_tokens === 'number' ? u.input_tokens + u.output_tokens : NaN);
  if (usage.length) return usage.reduce((s, u) => s + total(u), 0);
  const output = isObject(sample.output) ? sample.output : undefined;
  return isObject(output?.usage) ? total(output.usage) : NaN;
}

export function inspectAgentCounts(sample: Obj): AgentCounts {
  const messages = Array.isArray(sample.messages) ? sample.messages.filter(isObject) : [];
  const counted = countMessages(messages.map((m) => ({
    role: String(m.role ?? ''),
    tool_calls: Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject).map((t) => ({ name: String(t.function ?? ''), arguments: '' })) : undefined,
  })));
  return { ...counted, tokens: tokensOf(sample) };
}

/** The part of a sample that scoring reads (see the top of this file). */
export function slimForScoring(sample: Obj): Obj {
  const out: Obj = { id: sample.id, epoch: sample.epoch, input: inputText(sample.input), target: sample.target };
  if (sample.uuid !== undefined) out.uuid = sample.uuid;
  if (Array.isArray(sample.choices)) out.choices = sample.choices.map((c) => cut(c, KEEP_TEXT));
  if (isObject(sample.scores)) {
    const scores: Obj = {};
    for (const [name, score] of Object.entries(sample.scores)) scores[name] = slimScore(score);
    out.scores = scores;
  }
  const output = isObject(sample.output) ? sample.output : undefined;
  if (output) {
    const kept: Obj = { completion: cut(output.completion, KEEP_TEXT) };
    // The answer token's logprob gives a multiple-choice answer its confidence (inspect.ts).
    const choice = Array.isArray(output.choices) && isObject(output.choices[0]) ? output.choices[0] : undefined;
    const content = isObject(choice?.logprobs) && Array.isArray(choice.logprobs.content) ? choice.logprobs.content : undefined;
    if (content && Array.isArray(sample.choices)) {
      kept.choices = [{ logprobs: { content: content.filter(isObject).map((t) => ({ token: t.token, logprob: t.logprob })) } }];
    }
    out.output = kept;
  }
  out[AGENT_KEY] = inspectAgentCounts(sample);
  return out;
}
