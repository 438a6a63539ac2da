// The line-by-line JSON reader against the whole-text reader it replaced (legacyJson.ts): on many
// generated files with CRLF, BOMs, blank and Unicode-blank lines, invalid UTF-8 and a last line
// with or without a newline, it must give the same records, lines, problems and field positions,
// whether it reads the bytes (a file) or a text (an editor buffer).
import { describe, expect, it } from 'vitest';
import { forEachJsonRecord, readJsonRecords, firstNonSpaceByte, type JsonSpan } from '../../../src/core/formats/jsonl';
import { ParseProgress } from '../../../src/core/formats/progress';
import { LegacyJsonKeyLocator, legacyReadJsonRecords } from './legacyJson';
import { jsonFile, rng } from './generate';

const decode = (b: Uint8Array) => new TextDecoder('utf-8').decode(b);

interface Read { value: unknown; line: number; span: JsonSpan }

function readAll(source: Uint8Array | string) {
  const records: Read[] = [];
  const scan = forEachJsonRecord(source, (value, span) => { records.push({ value, line: span.line, span }); });
  return { records, scan };
}

/** Keys to look up in a record: its own, nested ones, and one it does not have. */
function keysOf(value: unknown): string[] {
  const keys = ['doc_id', 'target', 'acc', 'absent', 'question'];
  if (value && typeof value === 'object' && !Array.isArray(value)) keys.push(...Object.keys(value));
  return [...new Set(keys)];
}

function checkAgainstLegacy(bytes: Uint8Array, where: string) {
  const text = decode(bytes); // what FileInput.text() gave the old reader
  const legacy = legacyReadJsonRecords(text);
  const locator = new LegacyJsonKeyLocator(text);
  for (const source of [bytes, text] as const) {
    const kind = typeof source === 'string' ? 'text' : 'bytes';
    const { records, scan } = readAll(source);
    expect(scan.shape, `${where} (${kind}) shape`).toBe(legacy.shape);
    expect(records.map((r) => ({ value: r.value, line: r.line })), `${where} (${kind}) records`).toStrictEqual(legacy.records);
    expect(scan.problems, `${where} (${kind}) problems`).toStrictEqual(legacy.problems);
    expect(scan.records).toBe(legacy.records.length);
    expect(scan.badRecords).toBe(legacy.problems.filter((p) => p.code === 'json-parse').length);
    for (const r of records) {
      for (const key of keysOf(r.value)) {
        expect(scan.locate(r.span, key), `${where} (${kind}) line ${r.line} key ${key}`).toStrictEqual(locator.find(r.line, key));
      }
    }
    // The collecting wrapper is the old function's replacement.
    expect(readJsonRecords(source)).toStrictEqual(legacy);
  }
}

describe('forEachJsonRecord equals the whole-text reader', () => {
  it('on 1,200 generated files (JSON Lines, arrays, wrapped and pretty-printed documents)', () => {
    const r = rng(20240611);
    let files = 0;
    let records = 0;
    for (let f = 0; f < 1200; f++) {
      const bytes = jsonFile(r);
      checkAgainstLegacy(bytes, `file #${f}`);
      files++;
      records += legacyReadJsonRecords(decode(bytes)).records.length;
    }
    expect(files).toBe(1200);
    expect(records).toBeGreaterThan(12_000);
  });

  it('on hand-made edge cases', () => {
    const cases: (string | number[])[] = [
      '', '\n', '\r\n', '\ufeff', '   \n\t\n', '{"a":1}', '{"a":1}\n', '{"a":1}\r\n{"a":2}', '{"a":1}\n\n\n{"a":2}\n\n',
      '\ufeff{"doc_id":1}\n{"doc_id":2}', '\ufeff\ufeff{"doc_id":1}\n{"doc_id":2}', '{"doc_id":1}\n\ufeff{"doc_id":2}\n',
      '[{"doc_id":1},\n {"doc_id":2}]', '[{"doc_id":1}, {"doc_id":2}', '[1, 2, {bad}]', '[', ']', '{', '{"a":\n1}',
      '{"samples": [{"doc_id": 1}, {"doc_id": 2}]}', '{"samples": [{"doc_id": 1}]}\n', '\u00a0{"a":1}\n{"a":2}', '\u3000\n{"a":1}\n{"a":2}',
      '{"a":1}\n\u2028\n{"a":2}', '{"a": "x\\ny"}\n{"a": "\\"doc_id\\": 1"}', '{"k\\"ey": 1, "doc_id": 2}\n{"doc_id" : 3}',
      [0xef, 0xbb, 0xbf, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0x0a, 0xff, 0x0a, 0x7b, 0x7d],
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d, 0x0a, 0x7b, 0x7d, 0xe2, 0x82, 0x0d, 0x0a],
      [0x7b, 0x7d, 0x0a, 0xc2, 0xa0, 0x0a, 0x7b, 0x7d], [0x7b, 0x7d, 0x0a, 0xe2, 0x80, 0x8a, 0x0a, 0x7b, 0x7d, 0x0d],
    ];
    cases.forEach((c, i) => checkAgainstLegacy(typeof c === 'string' ? new TextEncoder().encode(c) : Uint8Array.from(c), `case ${i} ${JSON.stringify(c)}`));
  });

  it('stops when the callback returns false', () => {
    const bytes = new TextEncoder().encode('{"a":1}\n{"a":2}\nnope\n{"a":3}\n');
    const seen: unknown[] = [];
    const scan = forEachJsonRecord(bytes, (v) => { seen.push(v); return seen.length < 2; });
    expect(seen).toEqual([{ a: 1 }, { a: 2 }]);
    expect(scan.records).toBe(2);
    expect(scan.problems).toEqual([]);
  });

  it('reports progress by the bytes read, growing, and can be cancelled', () => {
    const line = JSON.stringify({ doc_id: 1, doc: { text: 'x'.repeat(1000) } });
    const bytes = new TextEncoder().encode(Array(3000).fill(line).join('\n'));
    const fractions: number[] = [];
    const progress = new ParseProgress({ onProgress: (f) => fractions.push(f) });
    forEachJsonRecord(bytes, () => {}, progress);
    expect(fractions.length).toBeGreaterThan(10);
    expect(fractions.every((f, i) => f > 0 && f < 1 && (i === 0 || f > fractions[i - 1]))).toBe(true);
    let calls = 0;
    const cancelling = new ParseProgress({ shouldCancel: () => ++calls > 3 });
    let read = 0;
    expect(() => forEachJsonRecord(bytes, () => { read++; }, cancelling)).toThrow(expect.objectContaining({ name: 'ScoreCancelledError' }));
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(3000);
  });

  it('finds the first non-blank byte as /\\S/ finds the first non-blank character', () => {
    const r = rng(7);
    const blanks = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u200b', '\u0085', 'x', '{', 'é'];
    const enc = new TextEncoder();
    for (let k = 0; k < 2000; k++) {
      let s = '';
      for (let j = Math.floor(r() * 6); j >= 0; j--) s += blanks[Math.floor(r() * blanks.length)];
      const bytes = enc.encode(s);
      const i = firstNonSpaceByte(bytes, 0);
      const c = s.search(/\S/);
      expect(i === -1 ? -1 : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, i)).length, JSON.stringify(s)).toBe(c);
    }
  });
});
