#!/usr/bin/env node
// Bootstrap intervals on a large binary set: the report's intervals pass (buildReport with
// --bootstrap R), each resample one O(n) weighted pass over the rows sorted once, against the
// naive path that gathers every resample and recomputes it (binaryMetrics on the gathered rows).
//
//   node bench/bootstrap.bench.mjs [--rows 100000,1000000] [--resamples 1000] [--naive 20]
//
// Rows are folktexts-like (7-decimal scores, see make-folktexts-csv.mjs), made in memory. Each
// size runs in a fresh Node process. Reported: wall and CPU time of the intervals (buildReport
// with bootstrap R minus buildReport without), per resample; the naive path's time per resample
// over --naive resamples (0 to skip), and its extrapolation to R; the machine's load average (1 min)
// before and after the run, since other processes on the cores slow the pass down (shared caches).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { mkdirSync } from 'node:fs';
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
const sizes = opt('rows', '100000,1000000').split(',').map(Number);
const resamples = Number(opt('resamples', '1000'));
const naive = Number(opt('naive', '20'));

const entry = `
import { buildReport, resolveOptions } from './src/core/report';
import { binaryMetrics } from './src/core/metrics/binary';
import { mulberry32 } from './src/core/metrics/bootstrap';
import { gather } from './src/core/metrics/sort';
const [n, R, naiveR] = process.argv.slice(2).map(Number);
const rand = mulberry32(20240611);
const score = new Float64Array(n);
const label = new Uint8Array(n);
for (let i = 0; i < n; i++) {
  const risk = rand();
  const logit = Math.log(risk / (1 - risk));
  score[i] = Number((1 / (1 + Math.exp(-(1.4 * logit + 0.8 * (rand() - 0.5))))).toFixed(7));
  label[i] = rand() < risk ? 1 : 0;
}
const set = { kind: 'binary', n, lines: new Uint32Array(n), score, label };
const parsed = { format: 'folktexts', set, problems: [], skipped: 0, unlabeled: 0 };
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e6; };
function timed(f) { const c = cpu(); const t = performance.now(); const r = f(); return { r, wall: (performance.now() - t) / 1000, cpu: cpu() - c }; }
const base = timed(() => buildReport('bench', parsed, resolveOptions({ instances: false, bootstrap: 0 })));
const full = timed(() => buildReport('bench', parsed, resolveOptions({ instances: false, bootstrap: R, seed: 0 })));
const out = {
  rows: n, resamples: R,
  intervals_wall_s: +(full.wall - base.wall).toFixed(3), intervals_cpu_s: +(full.cpu - base.cpu).toFixed(3),
  per_resample_ms: +((full.wall - base.wall) * 1000 / R).toFixed(2),
  per_resample_cpu_ms: +((full.cpu - base.cpu) * 1000 / R).toFixed(2),
  max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  intervals: { auc: full.r.intervals.auc, ece_quantile: full.r.intervals.ece_quantile, brier: full.r.intervals.brier },
};
if (naiveR > 0) {
  // The naive path: draw indices, gather, recompute (sort included), as resampling used to.
  const draw = mulberry32(0);
  const idx = new Uint32Array(n);
  const t = timed(() => {
    for (let r = 0; r < naiveR; r++) {
      for (let i = 0; i < n; i++) idx[i] = Math.floor(draw() * n);
      binaryMetrics(gather(score, idx), gather(label, idx), { bins: 10, threshold: 0.5, hmrBeta: 1 });
    }
  });
  out.naive_per_resample_ms = +(t.wall * 1000 / naiveR).toFixed(1);
  out.naive_extrapolated_s = +(t.wall * R / naiveR).toFixed(1);
}
console.log(JSON.stringify(out));
`;
const bundle = join(here, 'data', 'bootstrap.bundle.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await esbuild.build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'bootstrap-entry.ts', loader: 'ts' },
  bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning',
});
for (const n of sizes) {
  const load = loadavg()[0];
  const run = spawnSync(process.execPath, [bundle, String(n), String(resamples), String(naive)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(run.stderr);
  const out = JSON.parse(run.stdout);
  console.log(JSON.stringify({ ...out, load_1min: [+load.toFixed(2), +loadavg()[0].toFixed(2)] }));
}
