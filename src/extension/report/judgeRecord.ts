// One record of a judge file, whole (issue 27): the report page holds each row's texts cut at 4,000
// characters (src/core/samples/toParse.ts), and a FastChat pair prompt holds the question and both
// answers, so the second answer is often past the cut. The judge stepper asks for the row's record
// when one of its texts was cut; it is read here from the file, by the line the row starts on.
// JSON Lines: that line alone (found by counting newlines in the bytes, parsed on its own); a JSON
// array (AlpacaEval's annotations.json, arena battles.json): the records are walked to that line.
// Each field comes back as text, under the file's own name (the names the page's texts use).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { forEachJsonRecord } from '../../core/formats/jsonl';

/** A record's value as the page's texts hold it: text as is, numbers as written, a conversation as "role: content" turns. */
export function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((m) => m && typeof m === 'object' && 'role' in m && 'content' in m)) {
    // A chat conversation (arena's conversation_a): as the arena reader writes it.
    return value.map((m: { role: unknown; content: unknown }) => `${String(m.role)}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`).join('\n\n');
  }
  return JSON.stringify(value, null, 1);
}

function fieldsOf(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) out[k] = fieldText(v);
  return out;
}

/** Byte offsets [start, end) of 1-based line `line` in `bytes` (end: its LF or the end), or null past the end. */
export function lineBounds(bytes: Uint8Array, line: number): [number, number] | null {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const lf = bytes.indexOf(10, start);
    if (lf < 0) return null;
    start = lf + 1;
  }
  const lf = bytes.indexOf(10, start);
  return [start, lf < 0 ? bytes.length : lf];
}

/** The record that starts on `line` of a JSON Lines file or a JSON array, each field as text. */
export function recordAtLine(bytes: Uint8Array, line: number): { fields: Record<string, string> } | { error: string } {
  const bounds = lineBounds(bytes, line);
  if (!bounds) return { error: `the file has no line ${line}` };
  const text = new TextDecoder().decode(bytes.subarray(bounds[0], bounds[1])).trim().replace(/,$/, '');
  if (text.startsWith('{') && text.endsWith('}')) {
    try {
      const fields = fieldsOf(JSON.parse(text));
      if (fields) return { fields };
    } catch {
      // Not a whole record on one line (a pretty-printed array): walked below.
    }
  }
  const at: { fields: Record<string, string> | null } = { fields: null };
  const scan = forEachJsonRecord(bytes, (value, span) => {
    if (span.line < line) return true;
    if (span.line === line) at.fields = fieldsOf(value);
    return false;
  });
  if (at.fields) return { fields: at.fields };
  return { error: scan.fatal ?? `no record starts on line ${line}` };
}

/** Reads the file and the record on `line` (at most `maxBytes` of file). */
export function readRecordAtLine(path: string, line: number, maxBytes = 512 * 1024 * 1024): { fields: Record<string, string> } | { error: string } {
  if (!Number.isInteger(line) || line < 1) return { error: `line ${line} is no line` };
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) return { error: `${path} is larger than the ${Math.round(maxBytes / 1048576)} MB a record is read from` };
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, size - at, at);
      if (read <= 0) break;
      at += read;
    }
    return recordAtLine(bytes.subarray(0, at), line);
  } finally {
    closeSync(fd);
  }
}
