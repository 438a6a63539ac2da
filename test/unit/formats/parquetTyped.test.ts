// Issue 22, goal 2: a flat Parquet table of binary or confidence predictions is decoded straight into
// typed columns (only the planned columns, a row group at a time) instead of being written out as
// CSV text and parsed. The CSV text path stays the reference: on every table the typed path takes,
// its parse result and report must equal that path's to the last digit; where it cannot be exactly
// that (a null, an out-of-range score, a repeated ID, multiclass), it must step aside.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetToText, parquetTypedColumns, rowProblems, textTwin } from '../../../src/core/formats/parquet';
import { decodable, decodeColumnChunk } from '../../../src/core/formats/parquetColumns';
import { TextIdLog } from '../../../src/core/formats/numericCsv';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { textInput } from '../../../src/core/formats/context';
import { parseInput } from '../../../src/core/score';
import { buildReport, resolveOptions } from '../../../src/core/report';
import { scoreFileAsync, scoreFile } from '../../../src/core';
import type { ParseResult } from '../../../src/core/types';
import { nodeCompanionReader } from '../../../src/core/io';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

const dir = mkdtempSync(join(tmpdir(), 'pq-typed-'));

type Col = { name: string; data: unknown[]; type: string };

function write(name: string, columnData: Col[], rowGroupSize = 300): string {
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData: columnData as never, rowGroupSize })));
  return path;
}

/** scoreParquet's text path: the CSV (or JSON Lines) text, parsed, problems and lines told as rows. */
async function textPath(path: string): Promise<ParseResult> {
  const o = resolveOptions({});
  const bytes = new Uint8Array(readFileSync(path));
  const converted = await parquetToText(path, bytes, o, 0.5);
  if ('fatal' in converted) throw new Error(converted.fatal);
  const twin = textTwin(path, converted.as);
  const parsed = parseInput(textInput(twin, converted.text), { ...o, format: 'generic' }, nodeCompanionReader);
  parsed.problems = rowProblems(parsed.problems, twin, path, converted.headerLines);
  if (parsed.set) for (let i = 0; i < parsed.set.n; i++) parsed.set.lines[i] -= converted.headerLines;
  return parsed;
}

async function typedPath(path: string): Promise<ParseResult | undefined> {
  return parquetTypedColumns(path, new Uint8Array(readFileSync(path)), resolveOptions({}), nodeCompanionReader, 0.5);
}

function plain(r: unknown): unknown {
  return JSON.parse(JSON.stringify(r, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v)));
}

function table(n: number, seed: number) {
  const random = rng(seed);
  const label = Array.from({ length: n }, () => (random() < 0.4 ? 1 : 0));
  const score = label.map((y) => Number(Math.min(1, Math.max(0, (y ? 0.6 : 0.4) + (random() - 0.5) * 0.9)).toFixed(6)));
  // Some full-precision doubles, the ends, -0 and a tiny value that prints with an exponent.
  for (let i = 0; i < n; i += 17) score[i] = random();
  score[1] = 0; score[2] = 1; score[3] = -0; score[4] = 1e-7;
  return { id: Array.from({ length: n }, (_, i) => `r${i}`), score, label };
}

describe('Parquet straight into typed columns', () => {
  it('equals the CSV text path on clean binary and confidence tables (parse and every metric)', async () => {
    const t = table(2000, 5);
    const cases: [string, Col[]][] = [
      ['bin.parquet', [{ name: 'id', data: t.id, type: 'STRING' }, { name: 'score', data: t.score, type: 'DOUBLE' }, { name: 'label', data: t.label, type: 'INT32' }]],
      ['bin_noid.parquet', [{ name: 'score', data: t.score, type: 'DOUBLE' }, { name: 'label', data: t.label.map((x) => x === 1), type: 'BOOLEAN' }, { name: 'note', data: t.id, type: 'STRING' }]],
      ['bin_i64.parquet', [{ name: 'doc_id', data: t.id.map((_, i) => BigInt(i * 3)), type: 'INT64' }, { name: 'label', data: t.label.map(BigInt), type: 'INT64' }, { name: 'prob', data: t.score, type: 'DOUBLE' }]],
      ['conf.parquet', [{ name: 'id', data: t.id, type: 'STRING' }, { name: 'confidence', data: t.score, type: 'DOUBLE' }, { name: 'correct', data: t.label.map(Number), type: 'DOUBLE' }]],
    ];
    for (const [name, cols] of cases) {
      const path = write(name, cols);
      const typed = await typedPath(path);
      expect(typed, name).toBeDefined();
      const text = await textPath(path);
      // The typed path also carries the first rows' column values (ParseResult.columnSample: it has no
      // text to read them again from, for Group by's column offer); everything else is the same.
      const { columnSample, ...typedRest } = typed!;
      expect(columnSample && Object.keys(columnSample).sort(), name).toEqual(cols.map((c) => c.name).sort());
      expect(plain(typedRest), name).toEqual(plain(text));
      const o = resolveOptions({});
      const a = buildReport(path, typed!, o);
      const b = buildReport(path, text, o);
      expect(plain(a), name).toEqual(plain(b));
    }
  });

  it('steps aside where the text path would warn, skip or read otherwise', async () => {
    const t = table(600, 9);
    const withNull = [...t.score] as (number | null)[];
    withNull[401] = null;
    const outOfRange = [...t.score];
    outOfRange[5] = 1.5;
    const dupIds = [...t.id];
    dupIds[500] = 'r3';
    const cases: [string, Col[]][] = [
      ['null.parquet', [{ name: 'id', data: t.id, type: 'STRING' }, { name: 'score', data: withNull, type: 'DOUBLE' }, { name: 'label', data: t.label, type: 'INT32' }]],
      ['range.parquet', [{ name: 'id', data: t.id, type: 'STRING' }, { name: 'score', data: outOfRange, type: 'DOUBLE' }, { name: 'label', data: t.label, type: 'INT32' }]],
      ['dup.parquet', [{ name: 'id', data: dupIds, type: 'STRING' }, { name: 'score', data: t.score, type: 'DOUBLE' }, { name: 'label', data: t.label, type: 'INT32' }]],
      ['multi.parquet', [{ name: 'id', data: t.id, type: 'STRING' }, { name: 'pred', data: t.label.map((y) => (y ? 'cat' : 'dog')), type: 'STRING' }, { name: 'gold', data: t.label.map((y) => (y ? 'dog' : 'cat')), type: 'STRING' }]],
    ];
    for (const [name, cols] of cases) {
      const path = write(name, cols);
      expect(await typedPath(path), name).toBeUndefined();
      // And scoring it still gives the text path's report.
      const report = await scoreFileAsync(path, { instances: false });
      const text = await textPath(path);
      expect(report.n, name).toBe(text.set?.n ?? 0);
    }
  });

  it('scores the same rows as Parquet, CSV, TSV and JSON Lines to the same metrics', async () => {
    const t = table(3000, 13);
    const pq = write('same.parquet', [{ name: 'id', data: t.id, type: 'STRING' }, { name: 'score', data: t.score, type: 'DOUBLE' }, { name: 'label', data: t.label, type: 'INT32' }], 1000);
    const rows = t.id.map((id, i) => [id, String(t.score[i] + 0), String(t.label[i])]);
    writeFileSync(join(dir, 'same.csv'), ['id,score,label', ...rows.map((r) => r.join(','))].join('\n'));
    writeFileSync(join(dir, 'same.tsv'), ['id\tscore\tlabel', ...rows.map((r) => r.join('\t'))].join('\n'));
    writeFileSync(join(dir, 'same.jsonl'), rows.map((r) => JSON.stringify({ id: r[0], score: Number(r[1]), label: Number(r[2]) })).join('\n'));
    const reports = [await scoreFileAsync(pq), scoreFile(join(dir, 'same.csv')), scoreFile(join(dir, 'same.tsv')), scoreFile(join(dir, 'same.jsonl'))];
    for (const r of reports.slice(1)) {
      expect(r.metrics).toEqual(reports[0].metrics);
      expect(r.instances!.ids).toEqual(reports[0].instances!.ids);
      expect(Array.from(r.instances!.value)).toEqual(Array.from(reports[0].instances!.value));
    }
  });

  it('reads the pages of pyarrow files (dictionary and plain, V1 and V2 pages, OPTIONAL columns) as hyparquet does', async () => {
    const fixtures = join(__dirname, '../../fixtures/parquet');
    for (const name of ['pyarrow_generic.parquet', 'pyarrow_generic_v2_plain.parquet']) {
      const path = join(fixtures, name);
      const buf = readFileSync(path);
      const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
      const metadata = parquetMetadata(file);
      const elements = parquetSchema(metadata).children.map((c) => c.element);
      const rows = await parquetReadObjects({ file, metadata, compressors });
      const n = rows.length;
      const score = new Float64Array(n);
      const label = new Uint8Array(n);
      const ids = new TextIdLog(4);
      expect(decodable(elements[0], 'bytes') && decodable(elements[1], 'number') && decodable(elements[2], 'zeroOne'), name).toBe(true);
      let start = 0;
      for (const group of metadata.row_groups) {
        const count = Number(group.num_rows);
        expect(decodeColumnChunk(file, group.columns[0], elements[0], { kind: 'bytes', out: ids }, start, count, compressors), name).toBe(true);
        expect(decodeColumnChunk(file, group.columns[1], elements[1], { kind: 'number', out: score }, start, count, compressors), name).toBe(true);
        expect(decodeColumnChunk(file, group.columns[2], elements[2], { kind: 'zeroOne', out: label }, start, count, compressors), name).toBe(true);
        start += count;
      }
      expect(ids.strings()).toEqual(rows.map((r) => r.id));
      expect(Array.from(score)).toEqual(rows.map((r) => r.score));
      expect(Array.from(label)).toEqual(rows.map((r) => Number(r.label)));
      // And the report equals the CSV twin's, to the last digit.
      const pq = await scoreFileAsync(path);
      const csv = scoreFile(join(fixtures, 'pyarrow_generic.csv'));
      expect(pq.metrics).toEqual(csv.metrics);
      expect(pq.instances!.ids).toEqual(csv.instances!.ids);
      expect(Array.from(pq.instances!.lines)).toEqual(Array.from(csv.instances!.lines, (l) => l - 1));
    }
  });
});
