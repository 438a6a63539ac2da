#!/usr/bin/env node
// Scoring a 1,000,000-row generic predictions table as Parquet against the same rows as CSV, each
// through the built CLI in a fresh process (`node dist/cli.js score --json FILE`), plus pandas
// reading the same CSV (pyarrow is not installable here: PyPI is unreachable and Debian ships no
// python3-pyarrow, so pandas cannot read the Parquet file at all).
//
//   node scripts/build.mjs && node bench/parquet.bench.mjs [--rows 1000000] [--runs 3]
//
// Data: scripts/make-parquet-fixtures.mjs's generic table (id string, score double, label int32,
// snappy, row groups of rows/4) written to bench/data/. /usr/bin/time gives wall, CPU and peak RSS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(`--${name}`); return i === -1 ? fallback : args[i + 1]; };
const rows = Number(opt('rows', '1000000'));
const runs = Number(opt('runs', '3'));
const dir = join(root, 'bench/data');
mkdirSync(dir, { recursive: true });
const name = `generic-${rows}`;
const pq = join(dir, `${name}.parquet`);
const csv = join(dir, `${name}.csv`);
if (!existsSync(pq) || !existsSync(csv)) {
  const { writeGeneric } = await import(join(root, 'scripts/make-parquet-fixtures.mjs'));
  writeGeneric(dir, rows, name);
}
console.log(`${rows} rows: Parquet ${(statSync(pq).size / 2 ** 20).toFixed(1)} MB, CSV ${(statSync(csv).size / 2 ** 20).toFixed(1)} MB`);

function timed(cmd, argv) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', cmd, ...argv], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const last = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall: last[0], cpu: last[1] + last[2], rssMb: last[3] / 1024, out: r.stdout };
}

const pandas = `
import sys, pandas as pd
df = pd.read_csv(sys.argv[1])
df = df.dropna(subset=["score"])
print(len(df), ((df.score >= 0.5).astype(int) == df.label).mean())
`;
const sides = {
  'eval-lens Parquet': () => timed(process.execPath, [join(root, 'dist/cli.js'), 'score', '--json', pq]),
  'eval-lens CSV': () => timed(process.execPath, [join(root, 'dist/cli.js'), 'score', '--json', csv]),
  'pandas read_csv + accuracy': () => timed('/usr/bin/python3', ['-c', pandas, csv]),
};
const results = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
for (let i = 0; i < runs; i++) for (const [k, f] of Object.entries(sides)) results[k].push(f());
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [k, rs] of Object.entries(results)) {
  console.log(`${k.padEnd(28)} wall ${median(rs.map((r) => r.wall)).toFixed(2)} s  cpu ${median(rs.map((r) => r.cpu)).toFixed(2)} s  peak RSS ${median(rs.map((r) => r.rssMb)).toFixed(0)} MB`);
}
// Both eval-lens sides must agree (the same rows).
const acc = (r) => JSON.parse(r.out).results[0].metrics.accuracy;
console.log(`accuracy: Parquet ${acc(results['eval-lens Parquet'][0])}, CSV ${acc(results['eval-lens CSV'][0])}, pandas ${results['pandas read_csv + accuracy'][0].out.trim()}`);
