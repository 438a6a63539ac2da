// Regenerates the Parquet fixtures in test/fixtures/parquet/ (deterministic; hyparquet-writer, a
// devDependency used only here and in bench/: PyPI is unreachable and Debian has no pyarrow):
//  - generic_predictions.parquet + .csv: 1,000 binary predictions in 4 row groups, the same rows
//    as CSV, one row with a missing score (a problem at "row 7");
//  - samples_negotiationtom_belief_<time>.parquet: the real lm-eval samples file of
//    test/fixtures/real/lm-eval as Parquet, nested columns and all (doc and arguments as structs,
//    resps as lists of lists of lists);
//  - moral_dilemmas.predictions.parquet: examples/almanacs as Parquet (prediction as JSON text);
//  - corrupt_footer.parquet: generic_predictions.parquet with its footer length overwritten.
// Usage: node scripts/make-parquet-fixtures.mjs [outDir] [rows]   (bench/ passes a temp dir and 1e6)
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = process.argv[2] ?? join(ROOT, 'test/fixtures/parquet');
const ROWS = Number(process.argv[3] ?? 1000);
mkdirSync(OUT, { recursive: true });

/** A small deterministic generator (mulberry32). */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function genericRows(n, seed = 1) {
  const r = rng(seed);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const label = r() < 0.4 ? 1 : 0;
    const score = Math.round(Math.min(1, Math.max(0, (label ? 0.65 : 0.35) + (r() - 0.5) * 0.8)) * 1e4) / 1e4;
    rows.push({ id: `r${i + 1}`, score: i === 6 && n <= 100_000 ? null : score, label });
  }
  return rows;
}

export function writeGeneric(dir, n, name = 'generic_predictions') {
  const rows = genericRows(n);
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'id', data: rows.map((x) => x.id), type: 'STRING' },
      { name: 'score', data: rows.map((x) => x.score), type: 'DOUBLE' },
      { name: 'label', data: rows.map((x) => x.label), type: 'INT32' },
    ],
    rowGroupSize: Math.max(250, Math.ceil(n / 4)),
  });
  writeFileSync(join(dir, `${name}.parquet`), new Uint8Array(buf));
  writeFileSync(join(dir, `${name}.csv`), 'id,score,label\n' + rows.map((x) => `${x.id},${x.score ?? ''},${x.label}`).join('\n') + '\n');
  return buf;
}

/** A Parquet schema (list of SchemaElements, depth first) for JSON-shaped values, from examples. */
function schemaOf(name, values, repetition = 'OPTIONAL') {
  const sample = values.find((v) => v !== null && v !== undefined);
  if (Array.isArray(sample)) {
    const items = values.flatMap((v) => (Array.isArray(v) ? v : []));
    return [
      { name, repetition_type: repetition, converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      ...schemaOf('element', items),
    ];
  }
  if (sample && typeof sample === 'object') {
    const keys = [...new Set(values.flatMap((v) => (v && typeof v === 'object' ? Object.keys(v) : [])))];
    return [
      { name, repetition_type: repetition, num_children: keys.length },
      ...keys.flatMap((k) => schemaOf(k, values.map((v) => v?.[k] ?? null))),
    ];
  }
  if (typeof sample === 'number') return [Number.isInteger(sample) && values.every((v) => v === null || Number.isInteger(v)) ? { name, repetition_type: repetition, type: 'INT64' } : { name, repetition_type: repetition, type: 'DOUBLE' }];
  if (typeof sample === 'boolean') return [{ name, repetition_type: repetition, type: 'BOOLEAN' }];
  return [{ name, repetition_type: repetition, type: 'BYTE_ARRAY', converted_type: 'UTF8' }];
}

/** JSON records as a Parquet file with nested columns (INT64 values as BigInt, as the writer wants). */
export function writeRecords(file, records) {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const big = (v) => (typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : Array.isArray(v) ? v.map(big) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, big(x)])) : v);
  const columns = keys.map((k) => ({ name: k, values: records.map((r) => r[k] ?? null) }));
  const schema = [{ name: 'root', num_children: keys.length }, ...columns.flatMap((c) => schemaOf(c.name, c.values))];
  const intCols = new Set(schema.filter((s) => s.type === 'INT64').map((s) => s.name));
  const buf = parquetWriteBuffer({
    schema,
    columnData: columns.map((c) => ({ name: c.name, data: c.values.map((v) => (intCols.size ? big(v) : v)) })),
  });
  writeFileSync(file, new Uint8Array(buf));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const generic = writeGeneric(OUT, ROWS);
  if (OUT.endsWith('test/fixtures/parquet')) {
    const lmDir = join(ROOT, 'test/fixtures/real/lm-eval/Qwen__Qwen3-8B');
    const lmName = readdirSync(lmDir).find((f) => f.startsWith('samples_negotiationtom_belief_'));
    const lm = readFileSync(join(lmDir, lmName), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    writeRecords(join(OUT, lmName.replace(/\.jsonl$/, '.parquet')), lm);
    const alm = readFileSync(join(ROOT, 'examples/almanacs/moral_dilemmas.predictions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    writeRecords(join(OUT, 'moral_dilemmas.predictions.parquet'), alm.map((r) => ({ ...r, prediction: typeof r.prediction === 'string' ? r.prediction : JSON.stringify(r.prediction) })));
    // Corrupt footer: the 4-byte metadata length before the closing PAR1 claims more than the file holds.
    const bad = new Uint8Array(generic.slice(0));
    new DataView(bad.buffer).setUint32(bad.length - 8, 0x7fffffff, true);
    writeFileSync(join(OUT, 'corrupt_footer.parquet'), bad);
  }
}
