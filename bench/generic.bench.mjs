#!/usr/bin/env node
// Issue 22, goals 1 and 2: the generic table (1M rows, text IDs r<n>, 6-decimal scores, 0/1 labels)
// as CSV, TSV, JSON Lines and Parquet (pyarrow, snappy, 250,000-row groups), scored by the built
// CLI (`node dist/cli.js score --json FILE`), against pandas + scikit-learn (bench/generic_reference.py:
// read_csv / read_json / read_parquet with pyarrow, then sklearn's metrics), each a fresh process
// under /usr/bin/time (wall, user + sys CPU, peak RSS), sides interleaved, best of --runs.
//
//   node scripts/build.mjs   # under the lock on the shared machine
//   python3 -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install pyarrow pandas numpy scikit-learn
//   node bench/generic.bench.mjs [--rows 1000000] [--runs 3] [--only csv,parquet] [--cli dist/cli.js] [--baseline /tmp/cli-before.js]
//
// --baseline runs a second CLI bundle on the same files (the core before a change, built from a git
// ref by the caller) as "before". Debian's /usr/bin/python3 (pandas 1.5.3, no pyarrow) is run on the
// CSV too. Metrics of every side are printed, to check they agree.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genericPaths, writeGenericTable } from './make-generic-table.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(`--${name}`); return i === -1 ? fallback : args[i + 1]; };
const rows = Number(opt('rows', '1000000'));
const runs = Number(opt('runs', '3'));
const only = opt('only', 'csv,tsv,jsonl,parquet').split(',');
const cli = resolve(root, opt('cli', 'dist/cli.js'));
const baseline = opt('baseline', undefined);
const venv = opt('venv', '/tmp/benchvenv/bin/python');
const paths = writeGenericTable(rows);
const reference = join(root, 'bench/generic_reference.py');
if (!existsSync(paths.parquet)) {
  if (!existsSync(venv)) throw new Error(`${paths.parquet} is missing and there is no ${venv} to write it with pyarrow`);
  spawnSync(venv, [reference, '--write-parquet', paths.csv, paths.parquet], { stdio: 'inherit' });
}

function timed(cmd, argv) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', cmd, ...argv], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const last = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall: last[0], cpu: last[1] + last[2], rssMb: last[3] / 1024, out: r.stdout, status: r.status };
}

const sides = [];
for (const ext of only) {
  const file = paths[ext];
  sides.push({ name: `eval-lens ${ext}`, ext, run: () => timed(process.execPath, [cli, 'score', '--json', file]) });
  if (baseline) sides.push({ name: `before ${ext}`, ext, run: () => timed(process.execPath, [baseline, 'score', '--json', file]) });
  if (existsSync(venv)) sides.push({ name: `pandas+pyarrow ${ext}`, ext, run: () => timed(venv, [reference, file]) });
  if (ext === 'csv') sides.push({ name: 'pandas 1.5 (Debian) csv', ext, run: () => timed('/usr/bin/python3', [reference, file]) });
}
const results = new Map(sides.map((s) => [s.name, []]));
for (let i = 0; i < runs; i++) for (const s of sides) results.get(s.name).push(s.run());
const best = (rs, k) => Math.min(...rs.map((r) => r[k]));
const metricsOf = (r) => {
  try {
    let j;
    try { j = JSON.parse(r.out); } catch { j = JSON.parse(r.out.trim().split('\n').at(-1)); }
    const m = j.results ? j.results[0].metrics : j.metrics;
    return `auc ${m.auc} brier ${m.brier} acc ${m.accuracy}`;
  } catch { return r.out.slice(0, 80); }
};
console.log(`${rows} rows, best of ${runs}; load: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
for (const s of sides) {
  const rs = results.get(s.name);
  console.log(`${s.name.padEnd(28)} wall ${best(rs, 'wall').toFixed(2)} s  cpu ${best(rs, 'cpu').toFixed(2)} s  peak RSS ${best(rs, 'rssMb').toFixed(0)} MB   ${metricsOf(rs[0])}`);
}
