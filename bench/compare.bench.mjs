#!/usr/bin/env node
// Comparing two 1,000,000-row folktexts runs: `eval-lens compare` (paired bootstrap over every
// binary metric, DeLong, McNemar) against the obvious Python way (bench/compare_reference.py),
// and against the single-file intervals of `eval-lens score --bootstrap` on the baseline.
//
//   node scripts/build.mjs && node bench/compare.bench.mjs [--resamples 1000] [--python-resamples 10] [--runs 1]
//
// Each side runs in a fresh process under /usr/bin/time -v: wall, CPU (user + sys), peak RSS.
// The Python reference runs --python-resamples resamples and is extrapolated to --resamples
// (its resamples cost the same each: fixed part + R x per-resample). Files go to bench/data/:
// the baseline from make-folktexts-csv.mjs, the candidate made here from it (a different,
// better-calibrated model of the same rows, rows shuffled).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../scripts/rng.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const R = Number(opt('resamples', '1000'));
const PR = Number(opt('python-resamples', '10'));
const runs = Number(opt('runs', '1'));
const baseline = join(here, 'data', 'folktexts-1m.test_predictions.csv');
const candidate = join(here, 'data', 'folktexts-1m-candidate.test_predictions.csv');
const cli = join(root, 'dist', 'cli.js');

if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run node scripts/build.mjs first.');
if (!existsSync(baseline)) spawnSync(process.execPath, [join(here, 'make-folktexts-csv.mjs')], { stdio: 'inherit' });
if (!existsSync(candidate)) makeCandidate();

function makeCandidate() {
  const rand = mulberry32(7);
  const [header, ...rows] = readFileSync(baseline, 'utf8').trimEnd().split('\n');
  const out = rows.map((line) => {
    const [id, score, label] = line.split(',');
    const s = Math.min(Math.max(Number(score), 1e-6), 1 - 1e-6);
    const logit = Math.log(s / (1 - s)) / 1.4 + 0.6 * (rand() - 0.5) + 0.3 * (Number(label) - 0.5);
    return `${id},${(1 / (1 + Math.exp(-logit))).toFixed(7)},${label}`;
  });
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  writeFileSync(candidate, [header, ...out].join('\n') + '\n');
  console.log(`wrote ${out.length} rows to ${candidate}`);
}

/** Run a command under /usr/bin/time -v: its stdout, wall and CPU seconds, peak RSS in MB. */
function timed(cmd, cmdArgs) {
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...cmdArgs], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed: ${r.stderr}`);
  const field = (re) => r.stderr.match(re)?.[1];
  const [h, m, s] = field(/Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/).split(':').reverse().map(Number).concat([0, 0]).slice(0, 3).reverse().slice(-3);
  const wall = (h || 0) * 3600 + (m || 0) * 60 + s;
  const cpu = Number(field(/User time \(seconds\): ([\d.]+)/)) + Number(field(/System time \(seconds\): ([\d.]+)/));
  const rss = Number(field(/Maximum resident set size \(kbytes\): (\d+)/)) / 1024;
  return { stdout: r.stdout, wall, cpu, rss };
}

const rows = [];
let ours;
let py;
for (let run = 0; run < runs; run++) {
  const cmp = timed(process.execPath, [cli, 'compare', baseline, candidate, '--json', '--bootstrap', String(R)]);
  ours = JSON.parse(cmp.stdout).comparison;
  rows.push(['eval-lens compare', cmp]);
  const one = timed(process.execPath, [cli, 'score', baseline, '--json', '--bootstrap', String(R)]);
  rows.push(['eval-lens score (single-file intervals)', one]);
  const ref = timed('/usr/bin/python3', [join(here, 'compare_reference.py'), baseline, candidate, '--resamples', String(PR)]);
  py = JSON.parse(ref.stdout);
  // Extrapolated: the measured run plus (R - PR) more resamples at the measured cost of one.
  const more = (R - PR) / PR;
  rows.push([`python reference (${PR} resamples, measured)`, ref]);
  rows.push([`python reference (extrapolated to ${R})`, { wall: ref.wall + more * py.seconds.bootstrap, cpu: ref.cpu + more * py.seconds.bootstrap_cpu, rss: ref.rss }]);
}

const f = (x, d = 1) => x.toFixed(d);
console.log(`\n${R} resamples, ${ours.aligned} aligned rows\n`);
console.log('| side | wall s | CPU s | peak RSS MB |\n|---|---|---|---|');
for (const [name, t] of rows) console.log(`| ${name} | ${f(t.wall)} | ${f(t.cpu)} | ${f(t.rss, 0)} |`);
const get = (name) => rows.filter(([n]) => n.startsWith(name)).map(([, t]) => t);
const med = (xs, k) => xs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const k of ['cpu', 'wall']) {
  console.log(`\n${k}: python (extrapolated) / compare ${f(med(get('python reference (extra'), k) / med(get('eval-lens compare'), k))}x; compare / single-file intervals ${f(med(get('eval-lens compare'), k) / med(get('eval-lens score'), k), 2)}x`);
}

// The two sides' figures side by side: they must agree (the bootstrap draws differ, so intervals only roughly).
console.log('\n| metric | ours baseline | python baseline | ours candidate | python candidate |\n|---|---|---|---|---|');
for (const [name, m] of Object.entries(ours.metrics)) {
  console.log(`| ${name} | ${m.values[0]} | ${py.values[0][name]} | ${m.values[1]} | ${py.values[1][name]} |`);
}
console.log(`\nDeLong z: ours ${ours.metrics.auc.statistics[1]}, python ${py.delong.z}; p: ours ${ours.metrics.auc.p_values[1]}, python ${py.delong.p}`);
console.log(`McNemar p: ours ${ours.metrics.accuracy.p_values[1]}, python ${py.mcnemar.p} (b=${py.mcnemar.b}, c=${py.mcnemar.c}; ours ${JSON.stringify(ours.agreement[1])})`);
console.log(`brier delta interval: ours ${JSON.stringify(ours.metrics.brier.intervals[1])}, python (${PR} resamples) ${JSON.stringify(py.intervals.brier)}`);
