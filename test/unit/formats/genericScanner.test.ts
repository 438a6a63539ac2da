// Issue 22, goal 1: a generic table with an ID column (text IDs such as r17) goes through the byte
// scanner, like folktexts, instead of a row-at-a-time builder. These tests hold it to the results
// of that builder (`path: 'rows'`, the code every such file went through before) and of the RFC
// 4180 reader (`path: 'general'`), on random files with odd rows, and the same rows as CSV, TSV
// and JSON Lines to the same metrics.
import { describe, expect, it } from 'vitest';
import { fileInput } from '../../../src/core/formats/context';
import { parseGeneric } from '../../../src/core/formats/generic';
import { TextIdLog } from '../../../src/core/formats/numericCsv';
import { buildReport } from '../../../src/core/report';
import { DEFAULT_OPTIONS, type ParseResult } from '../../../src/core/types';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

const enc = new TextEncoder();
const ctx = { options: DEFAULT_OPTIONS, io: { readText: () => undefined, list: () => undefined } };

/** The parse result as plain data (the lazy `ids` read, typed arrays as arrays). */
function plain(r: ParseResult): unknown {
  return JSON.parse(JSON.stringify(r, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v)));
}

function randomTable(random: () => number, rows: number, delimiter: string): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const odd = random() < 0.5 ? 0.25 : 0.02;
  const dupes = random() < 0.5;
  const prefix = pick(['r', 'doc-', '', 'x_', 'ID']);
  const idOf = (i: number) => {
    if (random() > odd) return dupes && random() < 0.15 ? `${prefix}${Math.floor(random() * 10)}` : `${prefix}${i}`;
    return pick(['', ' r5 ', 'é9', 'a b', 'r007', '0', '-3', 'r1.0', prefix + '1', 'naïve', '12345678901234567', '"q"', '"a,b"']);
  };
  const scoreOf = () => (random() > odd ? random().toFixed(pick([1, 3, 6, 7])) : pick(['73%', '', 'NaN', '1.5', '-0.1', '2e-07', 'abc', ' 0.5', '0.12345678901234567']));
  const labelOf = () => (random() > odd ? pick(['0', '1']) : pick(['True', 'no', 'Yes', '2', '', '1.0']));
  const layout = pick([['id', 'score', 'label'], ['score', 'label', 'id'], ['note', 'id', 'score', 'label'], ['id', 'label', 'score', 'note']]);
  const eol = () => (random() < 0.15 ? '\r\n' : '\n');
  let text = layout.join(delimiter);
  for (let i = 0; i < rows; i++) {
    text += eol();
    if (random() < odd * 0.05) continue; // a blank line
    let fields = layout.map((c) => (c === 'id' ? idOf(i) : c === 'score' ? scoreOf() : c === 'label' ? labelOf() : pick(['', 'ok', 'x y', 'ü'])));
    const r = random();
    if (r < odd * 0.1) fields = fields.slice(0, -1);
    else if (r < odd * 0.2) fields.push('9');
    text += fields.join(delimiter);
  }
  if (random() < 0.5) text += eol();
  return text;
}

describe('generic tables with an ID column through the scanner', () => {
  it('agree with the row-at-a-time builder and the RFC 4180 reader on 400 random files', () => {
    const random = rng(2222);
    let scanned = 0;
    for (let k = 0; k < 400; k++) {
      const delimiter = random() < 0.6 ? ',' : '\t';
      const text = randomTable(random, 1 + Math.floor(random() * 80), delimiter);
      const path = delimiter === ',' ? '/tmp/t.csv' : '/tmp/t.tsv';
      const auto = parseGeneric(fileInput(path, enc.encode(text)), ctx);
      const rows = parseGeneric(fileInput(path, enc.encode(text)), ctx, { path: 'rows' });
      const general = parseGeneric(fileInput(path, enc.encode(text)), ctx, { path: 'general' });
      expect(plain(auto), `file ${k}:\n${text}`).toEqual(plain(rows));
      expect(plain(general), `file ${k}:\n${text}`).toEqual(plain(rows));
      if (!text.includes('"') && auto.set?.ids) scanned++;
    }
    expect(scanned).toBeGreaterThan(200);
  });

  it('lists duplicate IDs as the builder does past the problem cap', () => {
    // 3,000 rows, every ID three times and every tenth score bad: more than 1,000 problems.
    const lines = ['id,score,label'];
    for (let i = 0; i < 3000; i++) lines.push(`r${i % 1000},${i % 10 === 0 ? 'bad' : '0.25'},${i % 2}`);
    const text = lines.join('\n');
    const auto = parseGeneric(fileInput('/tmp/d.csv', enc.encode(text)), ctx);
    const rows = parseGeneric(fileInput('/tmp/d.csv', enc.encode(text)), ctx, { path: 'rows' });
    expect(auto.problems.length).toBeGreaterThan(1000);
    expect(plain(auto)).toEqual(plain(rows));
    // IDs that are not one prefix and an integer take the hashed check.
    const mixed = ['id,score,label', 'a,0.1,0', 'b,0.2,1', 'a,0.3,0', 'x7,0.4,1', 'b,0.5,0'].join('\n');
    expect(plain(parseGeneric(fileInput('/tmp/m.csv', enc.encode(mixed)), ctx))).toEqual(plain(parseGeneric(fileInput('/tmp/m.csv', enc.encode(mixed)), ctx, { path: 'rows' })));
  });

  it('gives the same set and metrics for the same rows as CSV, TSV and JSON Lines', () => {
    const random = rng(99);
    const csv = ['id,score,label'];
    const tsv = ['id\tscore\tlabel'];
    const jsonl: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const label = random() < 0.4 ? 1 : 0;
      const score = Math.min(1, Math.max(0, (label ? 0.62 : 0.38) + (random() - 0.5) * 0.9)).toFixed(6);
      csv.push(`r${i},${score},${label}`);
      tsv.push(`r${i}\t${score}\t${label}`);
      jsonl.push(JSON.stringify({ id: `r${i}`, score: Number(score), label }));
    }
    const parsed = [
      parseGeneric(fileInput('/tmp/s.csv', enc.encode(csv.join('\n'))), ctx),
      parseGeneric(fileInput('/tmp/s.tsv', enc.encode(tsv.join('\n'))), ctx),
      parseGeneric(fileInput('/tmp/s.jsonl', enc.encode(jsonl.join('\n'))), ctx),
      parseGeneric(fileInput('/tmp/s.csv', enc.encode(csv.join('\n'))), ctx, { path: 'rows' }),
    ];
    const sets = parsed.map((p) => {
      const s = p.set!;
      if (s.kind !== 'binary') throw new Error('binary');
      return { ids: s.ids, score: Array.from(s.score), label: Array.from(s.label) };
    });
    for (const s of sets.slice(1)) expect(s).toEqual(sets[0]);
    const metrics = parsed.map((p, i) => buildReport(`/tmp/s${i}`, p, { ...DEFAULT_OPTIONS, bootstrap: 0 }).metrics);
    for (const m of metrics.slice(1)) expect(m).toEqual(metrics[0]);
  });

  it('makes the ID strings only when read, and carries them in copies and JSON', () => {
    const text = 'id,score,label\nr1,0.5,1\nr2,0.25,0\n';
    const r = parseGeneric(fileInput('/tmp/l.csv', enc.encode(text)), ctx);
    const set = r.set!;
    expect(Object.getOwnPropertyDescriptor(set, 'ids')?.get).toBeDefined();
    expect({ ...set }.ids).toEqual(['r1', 'r2']);
    expect(JSON.parse(JSON.stringify(set)).ids).toEqual(['r1', 'r2']);
    expect(structuredClone(set).ids).toEqual(['r1', 'r2']);
    set.ids = ['a', 'b'];
    expect(set.ids).toEqual(['a', 'b']);
  });

  it('TextIdLog: strings, non-ASCII and repeats', () => {
    const log = new TextIdLog(2);
    for (const id of ['r1', 'é', 'r1', '', '', 'é', 'x']) log.pushText(id);
    expect(log.strings()).toEqual(['r1', 'é', 'r1', '', '', 'é', 'x']);
    expect(log.repeats()).toEqual([{ entry: 2, first: 0 }, { entry: 5, first: 1 }]);
  });

  it('JSON Lines: the byte reader agrees with the row-at-a-time reader on 300 random files', () => {
    const random = rng(31337);
    let fast = 0;
    for (let k = 0; k < 300; k++) {
      const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
      const odd = random() < 0.5 ? 0.1 : 0.005;
      const rows = 2 + Math.floor(random() * 60);
      const keys = pick([['id', 'score', 'label'], ['label', 'prob'], ['doc_id', 'confidence', 'correct', 'note'], ['id', 'score', 'label', 'meta']]);
      const lines: string[] = [];
      for (let i = 0; i < rows; i++) {
        if (random() < odd) { lines.push(pick(['', '   ', '{"id": "a\\"b", "score": 0.5, "label": 1}', '{"id":"x","score":0.5,"label":1,"score":0.25}', 'not json', '[1,2]', '{"0":1,"id":"q","score":0.1,"label":0}'])); continue; }
        const fields = keys.map((key) => {
          if (key === 'id' || key === 'doc_id') return `"${key}": ${random() < odd ? pick(['""', '" r1"', '7', '007', '"é"', 'null', `"r${i % 3}"`]) : random() < 0.3 ? String(i) : `"r${i}"`}`;
          if (key === 'score' || key === 'prob' || key === 'confidence') return `"${key}":${random() < odd ? pick(['1.5', '-0.1', '"0.5"', 'null', '1e-7', '-0', '0.12345678901234567', 'NaN', '1E2']) : random().toFixed(pick([1, 4, 6]))}`;
          if (key === 'label' || key === 'correct') return `"${key}": ${random() < odd ? pick(['true', '1.0', '"1"', '2', 'null']) : pick(['0', '1'])}`;
          return `"${key}": ${pick(['"x"', '{"a": 1}', '[1, 2]', 'null', '"ü"', '3.5'])}`;
        });
        if (random() < odd) fields.reverse();
        lines.push(`{${fields.join(random() < 0.5 ? ',' : ', ')}}`);
      }
      const text = lines.join(random() < 0.1 ? '\r\n' : '\n') + (random() < 0.5 ? '\n' : '');
      const auto = parseGeneric(fileInput('/tmp/t.jsonl', enc.encode(text)), ctx);
      const rowsPath = parseGeneric(fileInput('/tmp/t.jsonl', enc.encode(text)), ctx, { path: 'rows' });
      expect(plain(auto), `file ${k}:\n${text}`).toEqual(plain(rowsPath));
      if (auto.set && Object.getOwnPropertyDescriptor(auto.set, 'ids')?.get) fast++;
    }
    expect(fast).toBeGreaterThan(10); // files with IDs the byte reader took (files without IDs leave no trace)
  });
});
