// The instance search reaching inside conversations (issue 29): the report holds each sample's
// answer and a few texts, not its conversation, which stays in the file until a sample is shown.
// A plain-text or /regex/ search is run here over every sample's conversation (message texts,
// reasoning, tool names, tool call arguments and results), reading the file one sample at a time
// as the report's reader does, and answers which terms hold in which rows (by line); the page
// combines that with what its own texts say.
import type { FormatName } from '../types';
import { parseWhere, type WhereTerm } from '../../common/whereTerms';
import { inflateLimit } from '../formats/boundedInflate';
import { compareSamples, isObject, readInspectLog, SAMPLE_ENTRY, zipJson, type Obj } from '../formats/inspectLog';
import { ZipArchive } from '../formats/zipArchive';
import { forEachJsonRecord } from '../formats/jsonl';
import { fileInput, sourceOf } from '../formats/context';
import { fileByteSource, isZipFile, readFileBytes } from '../io';
import { inspectSampleRecord } from './inspectRecord';
import { eeeSampleRecord } from './eeeRecord';
import type { SampleRecord } from './record';

/** Every text of a conversation the search reads, joined. */
export function conversationText(r: SampleRecord): string {
  const parts: string[] = [];
  for (const m of r.messages ?? []) {
    parts.push(m.content);
    if (m.reasoning_trace) parts.push(m.reasoning_trace);
    if (m.tool_name) parts.push(m.tool_name);
    if (m.tool_error) parts.push(m.tool_error);
    for (const c of m.tool_calls ?? []) parts.push(c.name, c.arguments);
  }
  for (const t of r.output?.reasoning_trace ?? []) parts.push(t);
  for (const s of r.scores ?? []) for (const m of s.grader?.messages ?? []) parts.push(m.content);
  return parts.join('\u0000');
}

/** The terms a conversation can answer (plain text and /regex/; column terms are the page's). */
export function textTerms(query: string): { terms: WhereTerm[] } | { error: string } {
  const parsed = parseWhere(query);
  if ('error' in parsed) return parsed;
  return { terms: parsed.terms.filter((t) => t.kind === 'text' || t.kind === 'regex') };
}

/** Bit k set when text term k of `terms` holds in `text` (its lower-cased copy for plain text). */
function termBits(terms: readonly WhereTerm[], text: string, lower: string): number {
  let bits = 0;
  terms.forEach((t, k) => {
    if (t.kind === 'text' ? lower.includes(t.text) : t.kind === 'regex' ? (t.re.lastIndex = 0, t.re.test(text)) : false) bits |= 1 << k;
  });
  return bits;
}

export interface ConversationMatches {
  /** Per row that has a term in its conversation: its line and which text terms hold (bit k: term k). */
  rows: { line: number; terms: number }[];
  /** Samples searched, and those that could not be read. */
  searched: number;
  unread: number;
}

/** Searches every sample's conversation in the file for the text terms of `query`. */
export function searchConversations(path: string, format: FormatName, query: string, options: { maxFileBytes?: number; onProgress?: (fraction: number) => void } = {}): ConversationMatches | { error: string } {
  const parsed = textTerms(query);
  if ('error' in parsed) return parsed;
  const terms = parsed.terms.slice(0, 30);
  const out: ConversationMatches = { rows: [], searched: 0, unread: 0 };
  if (!terms.length) return out;
  const test = (r: SampleRecord, line: number) => {
    out.searched++;
    const text = conversationText(r);
    const bits = termBits(terms, text, text.toLowerCase());
    if (bits) out.rows.push({ line, terms: bits });
  };
  const limit = inflateLimit(options.maxFileBytes);
  if (format === 'inspect' && isZipFile(path)) {
    // As the report's reader: each entry in turn, positions in (id, epoch) order among those read.
    const zip = ZipArchive.open(fileByteSource(path));
    const entries = zip.entries.filter((e) => SAMPLE_ENTRY.test(e.name));
    const found: { key: Obj; bits: number }[] = [];
    entries.forEach((entry, k) => {
      options.onProgress?.(k / Math.max(1, entries.length));
      let sample: unknown;
      try {
        // Its events repeat the conversation: never parsed (its attachments are, for the texts they hold).
        sample = zipJson(zip, entry, limit, ['events', 'store', 'call_pool']);
      } catch {
        out.unread++;
        return;
      }
      if (!isObject(sample)) { out.unread++; return; }
      out.searched++;
      const text = conversationText(inspectSampleRecord(sample, { header: {}, line: 0 }));
      found.push({ key: { id: sample.id, epoch: sample.epoch }, bits: termBits(terms, text, text.toLowerCase()) });
    });
    found.sort((a, b) => compareSamples(a.key, b.key));
    found.forEach((f, k) => { if (f.bits) out.rows.push({ line: k + 1, terms: f.bits }); });
    return out;
  }
  const read = readFileBytes(path);
  if ('tooLarge' in read) return { error: `the file is ${read.tooLarge}` };
  const input = fileInput(path, read.bytes);
  if (format === 'inspect') {
    const log = readInspectLog(input.bytes, () => input.text(), limit);
    log.samples.forEach((s, k) => test(inspectSampleRecord(s, { header: log.header, line: log.lines[k] }), log.lines[k]));
    return out;
  }
  if (format === 'eee') {
    forEachJsonRecord(sourceOf(input), (value, span) => {
      if (isObject(value) && (Array.isArray(value.messages) || isObject(value.output))) test(eeeSampleRecord(value, span.line), span.line);
    });
    return out;
  }
  return out;
}

