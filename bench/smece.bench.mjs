#!/usr/bin/env node
// smECE under the bootstrap (issue 19): what a resample's smooth ECE costs (the grid filled with the
// resample's multiplicities, the fixed-point search, and the curve at the whole set's σ* for the
// band), and the whole intervals pass (buildReport with --bootstrap R minus without, CPU time) on small and
// large binary sets.
//
//   node bench/smece.bench.mjs [--rows 100,300,10000,100000] [--resamples 1000] [--dump FILE]
//
// Rows are folktexts-like (see bootstrap.bench.mjs). Each size runs in a fresh Node process.
// --dump writes every resample's smece and σ* (the first 200 resamples) as JSON, to check that a
// change leaves the values where they were.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const sizes = opt('rows', '100,300,10000,100000').split(',').map(Number);
const resamples = Number(opt('resamples', '1000'));
const dump = opt('dump', '');

const entry = `
import { buildReport, resolveOptions } from './src/core/report';
import { SmoothGrid, SmoothBand, smoothCalibration } from './src/core/metrics/smoothCalibration';
import { mulberry32 } from './src/core/metrics/bootstrap';
const [n, R] = process.argv.slice(2).map(Number);
const rand = mulberry32(20240611);
const score = new Float64Array(n);
const label = new Uint8Array(n);
for (let i = 0; i < n; i++) {
  const risk = rand();
  const logit = Math.log(risk / (1 - risk));
  score[i] = Number((1 / (1 + Math.exp(-(1.4 * logit + 0.8 * (rand() - 0.5))))).toFixed(7));
  label[i] = rand() < risk ? 1 : 0;
}
const order = Array.from(score.keys()).sort((a, b) => score[a] - score[b]);
const sorted = Float64Array.from(order, (i) => score[i]);
const sortedLabel = Uint8Array.from(order, (i) => label[i]);
const whole = smoothCalibration(sorted, sortedLabel);
const draw = mulberry32(0);
const counts = [];
for (let r = 0; r < R; r++) {
  const w = new Uint32Array(n);
  for (let i = 0; i < n; i++) w[Math.floor(draw() * n)]++;
  counts.push(w);
}
const grid = new SmoothGrid();
const band = new SmoothBand(whole.result.sigma);
const values = [];
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const c0 = cpu();
const t0 = performance.now();
for (let r = 0; r < R; r++) {
  const s = grid.fill(sorted, sortedLabel, counts[r]).fixedPoint(whole.result.sigma);
  band.add(grid.curveAt(band.sigma).curve);
  if (r < 200) values.push([s.smece, s.sigma]);
}
const smeceMs = (performance.now() - t0) / R;
const smeceCpuMs = (cpu() - c0) / R;
const parsed = { format: 'folktexts', set: { kind: 'binary', n, lines: new Uint32Array(n), score, label }, problems: [], skipped: 0, unlabeled: 0 };
const timed = (f) => { const t = cpu(); f(); return (cpu() - t) / 1000; };
const base = timed(() => buildReport('bench', parsed, resolveOptions({ instances: false, bootstrap: 0 })));
const full = timed(() => buildReport('bench', parsed, resolveOptions({ instances: false, bootstrap: R, seed: 0 })));
console.log(JSON.stringify({ rows: n, resamples: R, sigma: whole.result.sigma, smece_per_resample_ms: +smeceMs.toFixed(3), smece_cpu_per_resample_ms: +smeceCpuMs.toFixed(3), intervals_cpu_s: +(full - base).toFixed(3), values }));
`;
const bundle = join(here, 'data', 'smece.bundle.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await esbuild.build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'smece-entry.ts', loader: 'ts' },
  bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning',
});
const all = {};
for (const n of sizes) {
  const run = spawnSync(process.execPath, [bundle, String(n), String(resamples)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(run.stderr);
  const out = JSON.parse(run.stdout);
  all[n] = out.values;
  delete out.values;
  console.log(JSON.stringify(out));
}
if (dump) writeFileSync(dump, JSON.stringify(all));
