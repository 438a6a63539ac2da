// The conversation of a sample, in order: each message with its role (system, user, assistant,
// tool), the model that wrote it, its reasoning folded away, its text, and an assistant's tool calls
// with their arguments; a tool message is the call's result, named by its tool and call ID. The
// extracted answer is marked where it stands. Every text goes in as text.
import type { SampleMessage, SampleRecord } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount } from '../common/format';
import { folded, textBlock } from './text';

const ROLE_NAMES: Record<string, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool result' };

function roleName(role: string): string {
  return ROLE_NAMES[role] ?? role;
}

/** One message as an article: a heading that says who, then what. */
export function messageView(m: SampleMessage, index: number, total: number, mark?: { start: number; end: number }, headingLevel: 'h4' | 'h5' = 'h4'): HTMLElement {
  const who = [roleName(m.role)];
  if (m.role === 'tool' && m.tool_name) who.push(m.tool_name);
  const article = el('article', {
    className: `message role-${/^[a-z_-]+$/i.test(m.role) ? m.role : 'other'}`,
    attrs: { 'aria-label': `${who.join(': ')}, message ${index + 1} of ${total}` },
    data: { role: m.role, index },
  });
  const meta: string[] = [];
  if (m.model) meta.push(m.model);
  if (m.tool_call_id) meta.push(`call ${m.tool_call_id}`);
  article.append(el('div', { className: 'message-head' }, [
    el(headingLevel, { className: 'message-role', text: who.join(': ') }),
    meta.length ? el('span', { className: 'muted message-meta', text: meta.join(' · ') }) : null,
    el('span', { className: 'muted message-index', text: `#${index + 1}` }),
  ]));
  if (m.reasoning_trace) {
    article.append(folded(`Reasoning (${formatCount(m.reasoning_trace.length)} characters)`, textBlock(m.reasoning_trace, 'reasoning-text'), 'reasoning', { fold: 'reasoning' }));
  }
  if (m.tool_error) article.append(el('p', { className: 'tool-error', text: `The tool returned an error: ${m.tool_error}` }));
  if (m.content) article.append(textBlock(m.content, 'message-text', mark));
  else if (!m.tool_calls?.length && !m.reasoning_trace) article.append(el('p', { className: 'muted', text: '(empty)' }));
  for (const call of m.tool_calls ?? []) {
    article.append(el('div', { className: 'tool-call', data: { tool: call.name } }, [
      el('div', { className: 'tool-call-head' }, [
        el('span', { className: 'tool-call-label', text: 'Tool call' }),
        el('code', { className: 'tool-name', text: call.name }),
        call.id ? el('span', { className: 'muted', text: `call ${call.id}` }) : null,
      ]),
      call.arguments ? textBlock(call.arguments, 'tool-arguments') : el('p', { className: 'muted', text: '(no arguments)' }),
    ]));
  }
  return article;
}

/** Every message of the record in order, or nothing when it has none. */
export function conversationSection(record: SampleRecord): HTMLElement | null {
  const messages = record.messages ?? [];
  if (!messages.length) return null;
  const at = record.answer_at;
  const calls = messages.reduce((s, m) => s + (m.tool_calls?.length ?? 0), 0);
  const turns = messages.filter((m) => m.role === 'assistant').length;
  return el('section', { className: 'sample-part conversation', attrs: { 'aria-label': 'Conversation' } }, [
    el('h3', { text: 'Conversation' }),
    el('p', { className: 'muted caption', text: `${formatCount(messages.length)} messages, ${formatCount(turns)} model turns, ${formatCount(calls)} tool calls` }),
    ...messages.map((m, k) => messageView(m, k, messages.length, at && at.message === k ? at : undefined)),
  ]);
}

/** A single-turn output (no messages): each raw output, its reasoning folded. */
export function outputSection(record: SampleRecord): HTMLElement | null {
  const raw = record.output?.raw ?? [];
  const reasoning = record.output?.reasoning_trace ?? [];
  if (record.messages?.length || (!raw.length && !reasoning.length)) return null;
  const at = record.answer_at;
  return el('section', { className: 'sample-part output', attrs: { 'aria-label': 'Output' } }, [
    el('h3', { text: raw.length > 1 ? 'Outputs' : 'Output' }),
    ...reasoning.filter(Boolean).map((r) => folded(`Reasoning (${formatCount(r.length)} characters)`, textBlock(r, 'reasoning-text'), 'reasoning', { fold: 'reasoning' })),
    ...raw.map((text, k) => textBlock(text, 'message-text output-text', at && at.output === k ? at : undefined)),
  ]);
}
