// Where the extracted answer stands in the model's final output (the sample view highlights it):
// EEE's answer_attribution names the turn an answer came from, not the characters, and Inspect's
// score keeps the answer without its place. So the answer is looked for in the final text: its last
// whole-word occurrence (a one-letter answer "C" is not the C of "Celsius"), else its last
// occurrence ignoring case; nothing when the output does not contain it.
import type { AnswerSpan, SampleRecord } from './record';

function isWordChar(c: string | undefined): boolean {
  return !!c && /[\p{L}\p{N}_]/u.test(c);
}

/** The last place `needle` stands in `text` as a whole word, else anywhere ignoring case; null when absent. */
export function lastOccurrence(text: string, needle: string): { start: number; end: number } | null {
  const want = needle.trim();
  if (!want || !text) return null;
  for (let at = text.lastIndexOf(want); at >= 0; at = at > 0 ? text.lastIndexOf(want, at - 1) : -1) {
    if (!isWordChar(text[at - 1]) && !isWordChar(text[at + want.length])) return { start: at, end: at + want.length };
  }
  // A longer answer (a normalised sentence) may differ in case only.
  if (want.length < 2) return null;
  const at = text.toLowerCase().lastIndexOf(want.toLowerCase());
  return at >= 0 ? { start: at, end: at + want.length } : null;
}

/** The final output: the last assistant message with text, else the last raw output. */
export function finalOutput(r: SampleRecord): { text: string; message?: number; output?: number } | null {
  const messages = r.messages ?? [];
  for (let k = messages.length - 1; k >= 0; k--) {
    if (messages[k].role === 'assistant' && messages[k].content.trim()) return { text: messages[k].content, message: k };
  }
  const raw = r.output?.raw ?? [];
  for (let k = raw.length - 1; k >= 0; k--) if (raw[k].trim()) return { text: raw[k], output: k };
  return null;
}

/** Where r.answer stands in r's final output, or undefined. */
export function locateAnswer(r: SampleRecord): AnswerSpan | undefined {
  if (!r.answer) return undefined;
  const out = finalOutput(r);
  if (!out) return undefined;
  const hit = lastOccurrence(out.text, r.answer);
  if (!hit) return undefined;
  return out.message !== undefined ? { message: out.message, ...hit } : { output: out.output, ...hit };
}
