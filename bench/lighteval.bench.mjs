// How long `eval-lens score FILE --json` takes on a lighteval details Parquet of a few thousand
// rows (issue 26: "well under 1 s"). The file is made with the fixtures' generator
// (test/fixtures/lighteval/make_fixtures.mjs: lighteval 0.11+ rows, structs in sorted key order)
// with --n rows (default 3000) of an ARC-like 4-choice task, each doc carrying its 25 few-shot
// samples as lighteval keeps them (doc.fewshot_samples), into bench/data/lighteval/. The CLI is
// bundled from source with esbuild; each run is a fresh `node` process, timed from start to
// finish; the figures are the median wall time and CPU time (user + sys, /usr/bin/time) of --runs
// runs (default 5), with --bootstrap 0 and with the default bootstrap.
//
//   node bench/lighteval.bench.mjs [--n 3000] [--runs 5]
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { multipleChoiceRows } from '../test/fixtures/lighteval/make_fixtures.mjs';
import { writeRecords } from '../scripts/make-parquet-fixtures.mjs';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const N = arg('n', 3000);
const RUNS = arg('runs', 5);
const out = join(root, 'bench/data/lighteval');
mkdirSync(out, { recursive: true });

const rows = multipleChoiceRows(N, 25, 'arc:challenge|25');
const shots = rows.slice(0, 25).map((r) => ({ ...r.doc, fewshot_samples: [] }));
for (const r of rows) r.doc.fewshot_samples = shots;
const file = join(out, `details_arc:challenge|25_2025-11-05T14-43-47.148527.parquet`);
writeRecords(file, rows);

const cli = join(out, 'cli.js');
await build({ entryPoints: [join(root, 'src/cli/bin.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: cli, logLevel: 'silent', external: ['@napi-rs/canvas'] });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(args) {
  const wall = [];
  const cpu = [];
  for (let k = 0; k < RUNS; k++) {
    const t0 = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, cli, 'score', '--json', ...args, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    wall.push(performance.now() - t0);
    if (run.status !== 0) throw new Error(run.stderr);
    const [user, sys] = run.stderr.trim().split('\n').pop().split(' ').map(Number);
    cpu.push((user + sys) * 1000);
    const r = JSON.parse(run.stdout).results[0];
    if (r.format !== 'lighteval' || r.n !== N) throw new Error(`scored as ${r.format}, n=${r.n}`);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const { size } = statSync(file);
console.log(`lighteval details Parquet: ${N} rows, ${(size / 1e6).toFixed(2)} MB, ${RUNS} runs each (median)`);
for (const [label, args] of [['--bootstrap 0', ['--bootstrap', '0']], ['default bootstrap', []]]) {
  const t = time(args);
  console.log(`  score --json ${label.padEnd(18)} wall ${t.wall.toFixed(0)} ms, CPU ${t.cpu.toFixed(0)} ms`);
}
