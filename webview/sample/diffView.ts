// Two runs on one sample: a word-level diff of their final outputs (src/common/wordDiff.ts). A
// removed word is struck through and an added one underlined, each also said in words for a screen
// reader ([removed: …] [added: …]): colour never carries the difference alone.
import type { SampleRecord } from '../../src/core/types';
import { wordDiff } from '../../src/common/wordDiff';
import { el } from '../common/dom';
import { formatCount } from '../common/format';

/** The text a run ended on: its last assistant message, else its last output. */
export function finalText(r: SampleRecord | undefined): string | undefined {
  if (!r) return undefined;
  const messages = r.messages ?? [];
  for (let k = messages.length - 1; k >= 0; k--) if (messages[k].role === 'assistant' && messages[k].content.trim()) return messages[k].content;
  const raw = r.output?.raw ?? [];
  for (let k = raw.length - 1; k >= 0; k--) if (raw[k].trim()) return raw[k];
  return r.answer;
}

function words(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'word' : 'words'}`;
}

export function diffSection(labels: [string, string], before: string, after: string): HTMLElement {
  const diff = wordDiff(before, after);
  const body = el('div', { className: 'sample-text word-diff', attrs: { id: 'word-diff' } });
  for (const part of diff.parts) {
    if (part.op === 'same') body.append(document.createTextNode(part.text));
    else if (part.op === 'removed') body.append(el('del', { className: 'diff-removed' }, [el('span', { className: 'sr-only', text: '[removed: ' }), document.createTextNode(part.text), el('span', { className: 'sr-only', text: '] ' })]));
    else body.append(el('ins', { className: 'diff-added' }, [el('span', { className: 'sr-only', text: '[added: ' }), document.createTextNode(part.text), el('span', { className: 'sr-only', text: '] ' })]));
  }
  const cut = diff.cut[0] || diff.cut[1] ? ` (the outputs are long: their first ${formatCount(20_000)} words are compared)` : '';
  const same = before === after;
  return el('section', { className: 'section sample-diff', attrs: { 'aria-label': 'Final outputs, word by word' } }, [
    el('h2', { text: 'Final outputs, word by word' }),
    el('p', { className: 'muted caption', attrs: { id: 'word-diff-summary' }, text: same
      ? 'The two final outputs are the same.'
      : `From ${labels[0]} to ${labels[1]}: ${words(diff.removed)} removed (struck through), ${formatCount(diff.added)} added (underlined), ${formatCount(diff.same)} the same${cut}.` }),
    body,
  ]);
}
