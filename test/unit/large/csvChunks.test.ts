// The CSV reader over bytes decoded a chunk at a time (no string of the whole file) against the
// reader over the whole decoded text: same records, lines, columns and problems, for chunk sizes
// from one byte (every line its own chunk, every quoted line break a carried record) up.
import { describe, expect, it, vi } from 'vitest';
import { forEachCsvRecord, forEachCsvRecordIn, type CsvRecord } from '../../../src/core/formats/csv';
import { NO_PROGRESS, ParseProgress } from '../../../src/core/formats/progress';
import { csvFile, rng } from './generate';

const decode = (b: Uint8Array) => new TextDecoder('utf-8').decode(b);

function whole(bytes: Uint8Array, delimiter: string) {
  const records: CsvRecord[] = [];
  const problems = forEachCsvRecord(decode(bytes), delimiter, (rec) => { records.push(rec); });
  return { records, problems };
}

function chunked(bytes: Uint8Array, delimiter: string, chunkBytes: number) {
  const records: CsvRecord[] = [];
  const scan = forEachCsvRecordIn(bytes, delimiter, (rec) => { records.push(rec); }, NO_PROGRESS, chunkBytes);
  return { records, problems: scan.problems, fatal: scan.fatal };
}

describe('forEachCsvRecordIn equals forEachCsvRecord on the decoded text', () => {
  it('on 1,500 generated files, chunk sizes 1 byte to 1 MB', () => {
    const r = rng(99);
    let records = 0;
    for (let f = 0; f < 1500; f++) {
      const delimiter = r() < 0.2 ? '\t' : ',';
      const bytes = csvFile(r, delimiter);
      const expected = whole(bytes, delimiter);
      records += expected.records.length;
      for (const chunk of [1, 2, 5, 17, 64, 1 << 20]) {
        const got = chunked(bytes, delimiter, chunk);
        expect(got.fatal).toBeUndefined();
        expect(got.records, `file #${f}, chunks of ${chunk}`).toStrictEqual(expected.records);
        expect(got.problems, `file #${f}, chunks of ${chunk}`).toStrictEqual(expected.problems);
      }
      // A text source is read as it is.
      const text = forEachCsvRecordIn(decode(bytes), delimiter, () => {});
      expect(text.problems).toStrictEqual(expected.problems);
    }
    expect(records).toBeGreaterThan(15_000);
  });

  it('stops when the callback returns false, in any chunk', () => {
    const bytes = new TextEncoder().encode('a,b\n1,2\n"3\n",4\n5,6\n');
    for (const chunk of [1, 4, 1 << 20]) {
      const seen: string[][] = [];
      forEachCsvRecordIn(bytes, ',', (rec) => { seen.push(rec.fields); return seen.length < 3; }, NO_PROGRESS, chunk);
      expect(seen).toEqual([['a', 'b'], ['1', '2'], ['3\n', '4']]);
    }
  });

  it('reports progress per chunk and can be cancelled', () => {
    const bytes = new TextEncoder().encode('id,score,label\n' + Array.from({ length: 200_000 }, (_, i) => `${i},0.5,1`).join('\n'));
    const fractions: number[] = [];
    forEachCsvRecordIn(bytes, ',', () => {}, new ParseProgress({ onProgress: (f) => fractions.push(f) }), 64 * 1024);
    expect(fractions.length).toBeGreaterThan(5);
    expect(fractions.every((f, i) => i === 0 || f > fractions[i - 1])).toBe(true);
    let rows = 0;
    expect(() => forEachCsvRecordIn(bytes, ',', () => { rows++; }, new ParseProgress({ shouldCancel: () => rows > 50_000 }), 64 * 1024))
      .toThrow(expect.objectContaining({ name: 'ScoreCancelledError' }));
    expect(rows).toBeLessThan(200_000);
  });

  it('says so, instead of crashing, when a record cannot fit in one string', () => {
    // Stand in for V8's limit: any decode of more than 1,000 bytes fails as a 600 MB one would.
    const decodeOf = TextDecoder.prototype.decode;
    const spy = vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (this: TextDecoder, input?: AllowSharedBufferSource, opts?: TextDecodeOptions) {
      if (input && (input as Uint8Array).byteLength > 1000) throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' });
      return decodeOf.call(this, input, opts);
    });
    try {
      const open = new TextEncoder().encode('a,b\n1,2\n"' + 'x\n'.repeat(2000));
      const scan = forEachCsvRecordIn(open, ',', () => {}, NO_PROGRESS, 100);
      expect(scan.fatal).toMatch(/^A quoted field opened on line 3 does not close within 512 MB, more than fits in one JavaScript string/);
      const long = new TextEncoder().encode('a,b\n' + 'y'.repeat(5000) + '\n1,2\n');
      expect(forEachCsvRecordIn(long, ',', () => {}, NO_PROGRESS, 100).fatal).toMatch(/^Line 2 is longer than fits in one JavaScript string \(512 MB\)/);
    } finally {
      spy.mockRestore();
    }
  });
});
