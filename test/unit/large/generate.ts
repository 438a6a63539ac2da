// Seeded generators of awkward JSON Lines and CSV files for the large-file tests: CRLF and LF mixed,
// BOMs (one, two, mid-file), blank and Unicode-blank lines, invalid UTF-8 (also right before a line
// break), lines that are not JSON or not objects, a last line with or without a newline.

import { mulberry32 } from '../../../src/core/metrics/bootstrap';

/** The core's seeded PRNG, so generated data is reproducible. */
export const rng = mulberry32;

const enc = new TextEncoder();
export const BOM = [0xef, 0xbb, 0xbf];
/** Invalid UTF-8: a lone continuation byte, a truncated 3-byte sequence, an overlong, a surrogate. */
const INVALID = [[0xff], [0x80], [0xe2, 0x82], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80]];

function concat(parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

function pickFrom<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function text(r: () => number): string {
  const parts = ['plain', 'é', '日本語', '😀', 'quote " inside', 'back\\slash', 'new\nline', 'tab\t', 'colon: x', '{brace}', '[bracket]', ' \u2028 '];
  let s = '';
  for (let k = Math.floor(r() * 4); k >= 0; k--) s += pickFrom(r, parts);
  return s;
}

/** One JSON object with nested values and keys that look like other keys. */
export function jsonObject(r: () => number, i: number): Record<string, unknown> {
  const o: Record<string, unknown> = { doc_id: i };
  if (r() < 0.7) o.doc = { question: text(r), choices: ['A', 'B', text(r)], nested: { doc_id: 'inner', target: [1, { acc: 0 }] } };
  if (r() < 0.8) o.target = pickFrom(r, [0, 1, '2', text(r), [0, 1], null]);
  if (r() < 0.5) o.filtered_resps = [['-1.5', 'False'], ['-0.2', 'True']];
  if (r() < 0.5) o['acc'] = pickFrom(r, [0, 1, true]);
  if (r() < 0.3) o['key with "quote"'] = text(r);
  if (r() < 0.3) o.probability = r();
  return o;
}

export interface JsonFileOptions {
  lines?: number;
}

/** A JSON Lines file (or, now and then, a JSON array or a wrapped or pretty-printed document). */
export function jsonFile(r: () => number, options: JsonFileOptions = {}): Uint8Array {
  const n = options.lines ?? 1 + Math.floor(r() * 40);
  const shape = r();
  const objects = Array.from({ length: n }, (_, i) => jsonObject(r, i));
  if (shape < 0.06) return withNoise(r, enc.encode(`[\n${objects.map((o) => JSON.stringify(o)).join(',\n')}\n]\n`), false);
  if (shape < 0.09) return withNoise(r, enc.encode(`[${objects.map((o) => JSON.stringify(o)).join(', ')}]`), false);
  if (shape < 0.12) return withNoise(r, enc.encode(JSON.stringify({ samples: objects }, null, 2)), false);
  if (shape < 0.14) return withNoise(r, enc.encode(JSON.stringify(objects[0], null, 1)), false);
  if (shape < 0.16) return withNoise(r, enc.encode(`[${objects.map((o) => JSON.stringify(o)).join(', ')}, {broken`), false);
  const parts: (Uint8Array | number[])[] = [];
  const crlf = r() < 0.3;
  for (let i = 0; i < n; i++) {
    if (r() < 0.1) parts.push(enc.encode(pickFrom(r, ['', ' ', '\t', '  \t ', '\u00a0', '\u3000', '\ufeff', '\r', '\u2028', '\v\f'])), newline(r, crlf));
    if (r() < 0.06) parts.push(enc.encode(pickFrom(r, ['{"broken": ', '[1, 2', 'nope', '42', '"a string"', 'null', '[{"doc_id": 5, "target": 1}]', '[]', '\ufeff{"doc_id": 1}', '{"a":1}{"b":2}', ' {"doc_id" : 3 , "x" : {"doc_id": 4}} '])), newline(r, crlf));
    let line: Uint8Array = enc.encode(JSON.stringify(objects[i]));
    if (r() < 0.05) line = line.slice(0, Math.floor(line.length / 2));
    if (r() < 0.05) line = concat([enc.encode('  '), line, enc.encode(' \t')]);
    if (r() < 0.03) line = concat([line.slice(0, 1), enc.encode('\r'), line.slice(1)]); // a lone CR is JSON whitespace
    parts.push(line);
    if (i < n - 1 || r() < 0.5) parts.push(newline(r, crlf));
  }
  return withNoise(r, concat(parts), true);
}

function newline(r: () => number, crlf: boolean): Uint8Array {
  return enc.encode(crlf || r() < 0.05 ? '\r\n' : '\n');
}

/** BOMs at the start, invalid UTF-8 somewhere, and (for JSON Lines) invalid bytes right before a line break. */
function withNoise(r: () => number, bytes: Uint8Array, lines: boolean): Uint8Array {
  let out = bytes;
  const boms = r() < 0.2 ? 1 : r() < 0.06 ? 2 : 0;
  if (boms) out = concat([...Array(boms).fill(BOM), out]);
  if (r() < 0.15) {
    const i = Math.floor(r() * (out.length + 1));
    out = concat([out.slice(0, i), pickFrom(r, INVALID), out.slice(i)]);
  }
  if (lines && r() < 0.1) {
    const nl = out.indexOf(10, Math.floor(r() * out.length));
    if (nl > 0) out = concat([out.slice(0, nl), pickFrom(r, INVALID), out.slice(nl)]);
  }
  if (lines && r() < 0.05) {
    // A BOM at the start of a later line: text, not a byte-order mark.
    const nl = out.indexOf(10, Math.floor(r() * out.length));
    if (nl > 0) out = concat([out.slice(0, nl + 1), BOM, out.slice(nl + 1)]);
  }
  return out;
}

/** A CSV (or TSV) file with quoted fields that hold delimiters, quotes and line breaks. */
export function csvFile(r: () => number, delimiter = ','): Uint8Array {
  const cols = 1 + Math.floor(r() * 4);
  const rows = 1 + Math.floor(r() * 30);
  const crlf = r() < 0.3;
  const field = () => {
    const v = pickFrom(r, ['1', '0.25', 'abc', '', 'é', '日本', '😀', ' spaced ', 'x'.repeat(30)]);
    if (r() < 0.2) return `"${v}${pickFrom(r, ['', delimiter, '""', '\n', '\r\n', '\n\n'])}${v}"${r() < 0.05 ? 'tail' : ''}`;
    return v;
  };
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    if (r() < 0.08) lines.push('');
    const n = cols + (r() < 0.05 ? 1 : 0) - (r() < 0.05 ? 1 : 0);
    lines.push(Array.from({ length: Math.max(1, n) }, field).join(delimiter) + (r() < 0.03 ? delimiter : ''));
  }
  let body = lines.join(crlf ? '\r\n' : '\n') + (r() < 0.5 ? (crlf ? '\r\n' : '\n') : '');
  if (r() < 0.06) body += `"never closed${delimiter}\nmore`;
  if (r() < 0.03) body += '\r';
  return withNoise(r, enc.encode(body), true);
}
