#!/usr/bin/env node
// The generic table of issue 22, written once to bench/data/ with a fixed seed: N rows of text IDs
// `r<n>`, a score with 6 decimals, a 0/1 label, as CSV (`id,score,label`), TSV and JSON Lines.
// The Parquet copy of the same rows is written by bench/make_generic_parquet.py (pyarrow, snappy,
// 250,000-row groups) when the bench venv exists, else by hyparquet-writer (same layout).
//
//   node bench/make-generic-table.mjs [--rows 1000000]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const dataDir = join(root, 'bench/data');

/** mulberry32 */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Paths of the table's copies for `rows` rows. */
export function genericPaths(rows) {
  const base = join(dataDir, `generic6-${rows}`);
  return { csv: `${base}.csv`, tsv: `${base}.tsv`, jsonl: `${base}.jsonl`, parquet: `${base}.parquet` };
}

/** Write the copies that are missing; returns their paths. */
export function writeGenericTable(rows) {
  mkdirSync(dataDir, { recursive: true });
  const paths = genericPaths(rows);
  if (existsSync(paths.csv) && existsSync(paths.tsv) && existsSync(paths.jsonl)) return paths;
  const r = rng(22);
  const csv = ['id,score,label'];
  const tsv = ['id\tscore\tlabel'];
  const jsonl = [];
  for (let i = 0; i < rows; i++) {
    const label = r() < 0.4 ? 1 : 0;
    const p = Math.min(1, Math.max(0, (label ? 0.62 : 0.38) + (r() - 0.5) * 0.9));
    const score = p.toFixed(6);
    csv.push(`r${i},${score},${label}`);
    tsv.push(`r${i}\t${score}\t${label}`);
    jsonl.push(`{"id":"r${i}","score":${Number(score)},"label":${label}}`);
  }
  writeFileSync(paths.csv, csv.join('\n') + '\n');
  writeFileSync(paths.tsv, tsv.join('\n') + '\n');
  writeFileSync(paths.jsonl, jsonl.join('\n') + '\n');
  return paths;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--rows');
  const rows = i === -1 ? 1_000_000 : Number(process.argv[i + 1]);
  console.log(writeGenericTable(rows));
}
