import { describe, expect, it } from 'vitest';
import { forEachCsvRecord, parseCsv, sniffDelimiter, stripBom } from '../../../src/core/formats/csv';
import { fileInput } from '../../../src/core/formats/context';
import { parseFolktextsRows } from '../../../src/core/formats/folktexts';
import { parseGeneric } from '../../../src/core/formats/generic';
import {
  BinaryColumns, IdLog, decimalFromBytes, newRowSink, readSimpleHeader, scanNumericCsv, type RowHandler,
} from '../../../src/core/formats/numericCsv';
import { DEFAULT_OPTIONS } from '../../../src/core/types';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

const enc = new TextEncoder();

describe('parseCsv (RFC 4180)', () => {
  it('reads a header and records with their lines and columns', () => {
    const t = parseCsv('a,b,c\n1,22,333\n');
    expect(t.header).toEqual(['a', 'b', 'c']);
    expect(t.records).toEqual([{ fields: ['1', '22', '333'], line: 2, columns: [1, 3, 6], fieldLines: [2, 2, 2] }]);
    expect(t.problems).toEqual([]);
  });

  it('keeps delimiters, doubled quotes and line breaks inside quotes', () => {
    const t = parseCsv('id,text,label\n1,"a, b",0\n2,"say ""hi""",1\n3,"two\nlines",0\n4,x,1\n');
    expect(t.records.map((r) => r.fields)).toEqual([
      ['1', 'a, b', '0'], ['2', 'say "hi"', '1'], ['3', 'two\nlines', '0'], ['4', 'x', '1'],
    ]);
    // The record after a quoted line break starts on the right line.
    expect(t.records.map((r) => r.line)).toEqual([2, 3, 4, 6]);
    expect(t.records[2].fieldLines).toEqual([4, 4, 5]);
    expect(t.records[2].columns).toEqual([1, 3, 8]); // `lines",0`: the 0 is at column 8 of line 5
  });

  it('handles CRLF, a BOM, and a missing final newline alike', () => {
    const want = [['1', '2'], ['3', '4']];
    for (const text of ['a,b\r\n1,2\r\n3,4\r\n', '\ufeffa,b\n1,2\n3,4', 'a,b\n1,2\r\n3,4']) {
      const t = parseCsv(text);
      expect(t.header).toEqual(['a', 'b']);
      expect(t.records.map((r) => r.fields)).toEqual(want);
    }
    // The BOM does not shift columns.
    expect(parseCsv('\ufeffa,b\n1,2').records[0].columns).toEqual([1, 3]);
  });

  it('keeps a lone CR inside a field, skips blank lines, reads a trailing delimiter as an empty field', () => {
    expect(parseCsv('a,b\n1,2\r3\n').records[0].fields).toEqual(['1', '2\r3']);
    const t = parseCsv('a,b\n\n1,2\n\r\n3,4\n\n');
    expect(t.records.map((r) => [r.line, ...r.fields])).toEqual([[3, '1', '2'], [5, '3', '4']]);
    expect(parseCsv('a,b\n1,').records[0].fields).toEqual(['1', '']);
    expect(parseCsv('a,b\n1,').records[0].columns).toEqual([1, 3]);
  });

  it('reports an unterminated quote where it opens', () => {
    const t = parseCsv('a,b\n1,ok\n2,"never\n3,closed\n');
    expect(t.problems).toEqual([expect.objectContaining({ line: 3, column: 3, code: 'unterminated-quote', severity: 'error' })]);
    expect(t.records[1].fields).toEqual(['2', 'never\n3,closed\n']);
  });

  it('reads TSV with a tab delimiter', () => {
    const t = parseCsv('score\tlabel\n0.5\t1\n', '\t');
    expect(t.header).toEqual(['score', 'label']);
    expect(t.records[0].fields).toEqual(['0.5', '1']);
  });

  it('streams the same records and can stop early', () => {
    const text = 'a,b\n1,"x\ny"\n3,4\n';
    const seen: string[][] = [];
    forEachCsvRecord(text, ',', (r) => { seen.push(r.fields); });
    const t = parseCsv(text);
    expect(seen).toEqual([t.header, ...t.records.map((r) => r.fields)]);
    let count = 0;
    forEachCsvRecord(text, ',', () => { count++; return count < 2; });
    expect(count).toBe(2);
  });
});

describe('stripBom and sniffDelimiter', () => {
  it('drops one leading BOM only', () => {
    expect(stripBom('\ufeffx')).toBe('x');
    expect(stripBom('x\ufeff')).toBe('x\ufeff');
  });
  it('picks tab when the header has more tabs than commas', () => {
    expect(sniffDelimiter('a\tb\tc\n1,2\t3')).toBe('\t');
    expect(sniffDelimiter('a,b\tc')).toBe(',');
    expect(sniffDelimiter('one')).toBe(',');
  });
});

// -------------------------------------------------------------------------------------------------
// The byte scanner

const collect: RowHandler = (rec, sink) => {
  // A stand-in general handler: anything the scanner passes on is counted and remembered.
  sink.skipped++;
  sink.problems.push({ line: rec.line, column: rec.columns[0], severity: 'error', code: 'not-a-number', message: rec.fields.join('|') });
};
const layout = { delimiter: 44, columns: 3, valueCol: 1, targetCol: 2, idCol: 0 };

function scan(text: string) {
  const bytes = enc.encode(text);
  const header = readSimpleHeader(bytes, 0, ',')!;
  const sink = newRowSink(4, true);
  const ok = scanNumericCsv(bytes, header.next, 2, layout, sink, collect);
  return { ok, sink, cols: sink.columns.finish() };
}

describe('scanNumericCsv', () => {
  it('reads plain rows into typed arrays, exactly as parseFloat would', () => {
    const scores = ['0.7342519', '0', '1', '0.1', '.5', '0.30000000000000004', '0.8175744414329529', '0.00000000000000000000000123'];
    const text = `,risk_score,label\n${scores.map((s, i) => `${i},${s},${i % 2}`).join('\n')}\n`;
    const { ok, sink, cols } = scan(text);
    expect(ok).toBe(true);
    expect(Array.from(cols.value)).toEqual(scores.map((s) => parseFloat(s)));
    expect(Array.from(cols.target)).toEqual(scores.map((_, i) => i % 2));
    expect(Array.from(cols.lines)).toEqual(scores.map((_, i) => i + 2));
    expect(sink.problems).toEqual([]);
    expect(sink.rows).toBe(scores.length);
  });

  it('hands odd rows to the general handler with character columns', () => {
    const { sink, cols } = scan(',risk_score,label\n1,2e-07,0\n2,73%,1\n3,0.5,True\n4,0.5\n5,0.5,1,9\n007,0.5,1\n6,1.5,0\n7,0.2,1\r\n');
    expect(sink.problems.map((p) => p.message)).toEqual(['1|2e-07|0', '2|73%|1', '3|0.5|True', '4|0.5', '5|0.5|1|9', '007|0.5|1', '6|1.5|0']);
    expect(Array.from(cols.lines)).toEqual([9]);
  });

  it('gives up on a quote (a field may span lines)', () => {
    expect(scan(',risk_score,label\n1,0.5,1\n2,"0.5",1\n').ok).toBe(false);
  });

  it('grows its columns past the first guess', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => `${i},0.${i},1`).join('\n');
    const { cols } = scan(`,risk_score,label\n${rows}`);
    expect(cols.value.length).toBe(1000);
    expect(cols.value[999]).toBe(0.999);
  });
});

/** The exact decimal expansion of a positive double, or of the midpoint to its upper neighbour. */
function exactDecimal(x: number, midpointAbove: boolean): string {
  const bits = new BigUint64Array(new Float64Array([x]).buffer)[0];
  let mant = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  let e = Number((bits >> 52n) & 0x7ffn) - 1075; // x = mant * 2^e
  if (midpointAbove) { mant = 2n * mant + 1n; e -= 1; }
  const digits = (mant * 5n ** BigInt(-e)).toString().padStart(-e + 1, '0');
  return `${digits.slice(0, digits.length + e)}.${digits.slice(digits.length + e)}`;
}

/** A decimal cut to `sig` significant digits, then moved `bump` units in its last digit. */
function cutDecimal(dec: string, sig: number, bump: number): string {
  const [ip, fp] = dec.split('.');
  const all = ip + fp;
  const keep = all.slice(0, all.search(/[1-9]/) + sig);
  let v = BigInt(keep) + BigInt(bump);
  if (v < 0n) v = 0n;
  const str = v.toString().padStart(keep.length, '0');
  const fracLen = keep.length - ip.length;
  return `${str.slice(0, str.length - fracLen)}.${str.slice(str.length - fracLen)}`;
}

describe('decimalFromBytes', () => {
  const read = (s: string) => {
    const b = enc.encode(s);
    return decimalFromBytes(b, 0, b.length);
  };

  it('equals parseFloat on short, 16-, 17-, 18- and 19-digit decimals', () => {
    const random = rng(99);
    const wrong: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      const x = random() * (random() < 0.3 ? 1e-4 : 1);
      for (const s of [String(Number(x.toFixed(7))), x.toPrecision(16), x.toPrecision(17), x.toPrecision(18), x.toPrecision(19)]) {
        if (!s.includes('e') && !Object.is(read(s), parseFloat(s))) wrong.push(s);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('equals parseFloat next to halfway points and powers of two', () => {
    const random = rng(7);
    const cases: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const mid = exactDecimal(random(), true);
      for (const sig of [16, 17, 18, 19]) for (const bump of [-1, 0, 1]) cases.push(cutDecimal(mid, sig, bump));
    }
    for (let e = 1; e < 60; e++) {
      const x = 2 ** -e;
      for (const dec of [exactDecimal(x, false), exactDecimal(x - 2 ** (-e - 53), true), exactDecimal(x, true)]) {
        for (const sig of [16, 17, 18, 19]) for (const bump of [-2, -1, 0, 1, 2]) cases.push(cutDecimal(dec, sig, bump));
      }
    }
    cases.push('1', '1.0', '0', '0.', '.5', '0.99999999999999999', '0.999999999999999999', '0.9999999999999999999', '1.00000000000000000001', '00000.000001');
    expect(cases.filter((s) => !Object.is(read(s), parseFloat(s)))).toEqual([]);
    expect(cases.length).toBeGreaterThan(38_000);
  });
});

describe('IdLog', () => {
  it('finds repeated numeric and text IDs with the first line', () => {
    const log = new IdLog(2);
    for (const id of ['5', '7', 'a', '5', '05', 'a', '', '']) log.pushText(id);
    const lines = Uint32Array.from([10, 11, 12, 13, 14, 15, 16, 17]);
    const d = log.duplicates(lines, 'ID', 'kept');
    expect(d.map((p) => [p.line, p.message])).toEqual([
      [13, 'ID "5" already appeared on line 10; kept.'],
      [15, 'ID "a" already appeared on line 12; kept.'],
    ]);
  });
  it('falls back to sorting for huge IDs', () => {
    const log = new IdLog(2);
    for (const id of [1e14, 3, 1e14, 3]) log.pushNumber(id);
    const d = log.duplicates(Uint32Array.from([1, 2, 3, 4]), 'ID', 'kept');
    expect(d.map((p) => p.line)).toEqual([3, 4]);
  });
  it('BinaryColumns returns trimmed copies when much is unused', () => {
    const c = new BinaryColumns(1000);
    c.push(0.5, 1, 2);
    const f = c.finish();
    expect(f.value.buffer.byteLength).toBe(8);
    expect(Array.from(f.lines)).toEqual([2]);
  });
});

// -------------------------------------------------------------------------------------------------
// Fast path vs general path on random files

/** mulberry32: a small seeded generator, so every run tests the same files. */

function randomFile(random: () => number, opts: { rows: number; extra: boolean; quotes: boolean; delimiter: string }): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const odd = random() < 0.5 ? 0.3 : 0.03;
  const scoreOf = () => {
    if (random() > odd) {
      const x = random();
      return pick([String(x), x.toFixed(3), x.toFixed(7), String(Number(x.toFixed(2))), '0', '1', '1.0', '0.']);
    }
    return pick(['2e-07', '1e-5', '73%', '12.5 %', 'NaN', 'inf', '-0.1', '1.5', '', 'abc', ' 0.5', '0.5 ', 'NA', '+0.5', '0.5.5', '.', '0x1', '1e999', '0.12345678901234567890123']);
  };
  const labelOf = () => (random() > odd ? pick(['0', '1']) : pick(['0.0', '1.0', 'True', 'false', '2', '', 'yes', ' 1', '-1']));
  const idOf = (i: number) => (random() > odd ? String(random() < 0.1 ? Math.floor(random() * 20) : i * 7) : pick(['007', '-3', 'a1', '', '12345678901234567', ' 5', '1.0', 'é9']));
  const eol = () => (random() < 0.2 ? '\r\n' : '\n');
  const D = opts.delimiter;
  let text = random() < 0.2 ? '\ufeff' : '';
  text += opts.extra ? `${D}risk_score${D}label${D}note` : `${D}risk_score${D}label`;
  for (let i = 0; i < opts.rows; i++) {
    text += eol();
    const r = random();
    if (r < odd * 0.1) continue; // blank line
    let fields = [idOf(i), scoreOf(), labelOf()];
    if (opts.extra) fields.push(pick(['', 'ok', 'naïve', 'x y', opts.quotes ? '"a, b"' : 'ab', opts.quotes ? '"two\nlines"' : 'cd']));
    if (r > 1 - odd * 0.1) fields = fields.slice(0, -1);
    else if (r > 1 - odd * 0.2) fields.push('9');
    text += fields.join(D);
    if (random() < odd * 0.05) text += '\r';
  }
  if (random() < 0.5) text += eol();
  return text;
}

describe('fast path and general path agree', () => {
  it('folktexts: 300 random files', () => {
    const random = rng(12345);
    let fastUsed = 0;
    for (let k = 0; k < 300; k++) {
      const text = randomFile(random, { rows: 1 + Math.floor(random() * 60), extra: random() < 0.4, quotes: random() < 0.2, delimiter: ',' });
      const input = fileInput('/tmp/x.test_predictions.csv', enc.encode(text));
      const fast = parseFolktextsRows(input);
      const general = parseFolktextsRows(fileInput('/tmp/x.test_predictions.csv', enc.encode(text)), { path: 'general' });
      expect(fast, `file ${k}:\n${text}`).toEqual(general);
      if (!text.includes('"')) fastUsed++;
    }
    expect(fastUsed).toBeGreaterThan(200);
  });

  it('generic: 200 random CSV and TSV files', () => {
    const random = rng(777);
    const ctx = { options: DEFAULT_OPTIONS, io: { readText: () => undefined, list: () => undefined } };
    for (let k = 0; k < 200; k++) {
      const delimiter = random() < 0.5 ? ',' : '\t';
      // No ID column (the scanner serves generic files without IDs): rename it to something unread.
      let text = randomFile(random, { rows: 1 + Math.floor(random() * 60), extra: random() < 0.4, quotes: random() < 0.2, delimiter })
        .replace(`${delimiter}risk_score${delimiter}label`, `row${delimiter}score${delimiter}label`);
      // Half the files without the first column: `score,label`, the scanner's unrolled layout.
      if (random() < 0.5) text = text.split('\n').map((l) => l.replace(new RegExp(`^[^${delimiter}]*${delimiter}`), '')).join('\n');
      const path = delimiter === ',' ? '/tmp/x.csv' : '/tmp/x.tsv';
      const fast = parseGeneric(fileInput(path, enc.encode(text)), ctx);
      const general = parseGeneric(fileInput(path, enc.encode(text)), ctx, { path: 'general' });
      expect(fast, `file ${k}:\n${text}`).toEqual(general);
    }
  });
});
