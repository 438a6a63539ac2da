#!/usr/bin/env node
// Speed benchmark: score a 1,000,000-row folktexts predictions file with the project's path
// (read file -> parseFolktexts -> binaryMetrics), each run in a fresh Node process, against pandas
// read_csv + sklearn (bench/pandas_sklearn.py, also a fresh process per run), and the built CLI
// itself (`node dist/cli.js score --json FILE`, when dist/cli.js exists: run `node scripts/build.mjs`).
//
//   node bench/make-folktexts-csv.mjs                 # once: writes bench/data/folktexts-1m.test_predictions.csv
//   node bench/score-folktexts.bench.mjs [--file PATH] [--runs 5] [--no-python] [--no-cli]
//
// Wall time and peak RSS come from /usr/bin/time when it exists (same tool for both sides), else
// from the clock around spawnSync and the child's own process.resourceUsage().maxRSS /
// resource.getrusage. The median of the runs is reported, with each step's in-process time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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
const file = resolve(opt('file', join(here, 'data', 'folktexts-1m.test_predictions.csv')));
const runs = Number(opt('runs', '5'));
const withPython = !args.includes('--no-python');
const cli = join(root, 'dist', 'cli.js');
const withCli = !args.includes('--no-cli') && existsSync(cli);
const python = '/usr/bin/python3';
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

if (!existsSync(file)) {
  console.error(`${file} is missing: run node bench/make-folktexts-csv.mjs first.`);
  process.exit(1);
}

// The child: the project's code bundled once (as the CLI is), so a run pays no TypeScript cost.
const entry = `
const t0 = performance.now(); // ~ time since the process started: Node start-up plus module load
import { readFileSync } from 'node:fs';
import { fileInput } from './src/core/formats/context';
import { parseFolktexts } from './src/core/formats/folktexts';
import { nodeCompanionReader } from './src/core/io';
import { binaryMetrics } from './src/core/metrics/binary';
import { sortWithOrder } from './src/core/metrics/sort';
import { DEFAULT_OPTIONS } from './src/core/types';
const path = process.argv[2];
const bytes = readFileSync(path);
const t1 = performance.now();
const parsed = parseFolktexts(fileInput(path, bytes), { options: DEFAULT_OPTIONS, io: nodeCompanionReader });
const t2 = performance.now();
const set = parsed.set;
if (!set || set.kind !== 'binary') throw new Error(parsed.fatal ?? 'not a binary set');
const { order, sorted } = sortWithOrder(set.score);
const t3 = performance.now();
const r = binaryMetrics(set.score, set.label, { bins: 10, threshold: 0.5, hmrBeta: 1, order, sorted });
const t4 = performance.now();
const s = (a, b) => Math.round(b - a) / 1000;
console.log(JSON.stringify({
  rows: set.n, skipped: parsed.skipped, problems: parsed.problems.length,
  startup_s: s(0, t0), read_s: s(t0, t1), parse_s: s(t1, t2), sort_s: s(t2, t3), metrics_s: s(t3, t4), total_in_process_s: s(0, t4),
  max_rss_kib: process.resourceUsage().maxRSS,
  metrics: { auc: r.metrics.auc, brier: r.metrics.brier, log_loss: r.metrics.log_loss, accuracy: r.metrics.accuracy, ece: r.metrics.ece, ece_quantile: r.metrics.ece_quantile },
}));
`;
const bundle = join(here, 'data', 'score-folktexts.bundle.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await esbuild.build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'bench-entry.ts', loader: 'ts' },
  bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bundle, logLevel: 'warning',
});

/** One fresh process: its JSON line plus wall time and peak RSS as /usr/bin/time saw them. */
function runOnce(cmd, cmdArgs, parse = (stdout) => JSON.parse(stdout.trim().split('\n').pop())) {
  const argv = timeBin ? ['-f', '@@wall=%e rss=%M user=%U sys=%S', cmd, ...cmdArgs] : cmdArgs;
  const started = process.hrtime.bigint();
  const out = spawnSync(timeBin ?? cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallClock = Number(process.hrtime.bigint() - started) / 1e9;
  if (out.status !== 0) throw new Error(`${cmd} failed: ${out.stderr}`);
  const child = parse(out.stdout);
  const m = /@@wall=([\d.]+) rss=(\d+) user=([\d.]+) sys=([\d.]+)/.exec(out.stderr);
  // CPU time (user + sys) is the steadier figure on a shared machine; wall time is the one users feel.
  return m
    ? { ...child, wall_s: Number(m[1]), cpu_s: Math.round((Number(m[3]) + Number(m[4])) * 100) / 100, peak_rss_kib: Number(m[2]) }
    : { ...child, wall_s: wallClock, peak_rss_kib: child.max_rss_kib };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function summarise(label, results) {
  const keys = Object.keys(results[0]).filter((k) => typeof results[0][k] === 'number');
  const med = Object.fromEntries(keys.map((k) => [k, median(results.map((r) => r[k]))]));
  console.log(`\n${label} (median of ${results.length}):`);
  for (const k of keys) console.log(`  ${k.padEnd(20)} ${med[k]}`);
  console.log(`  metrics              ${JSON.stringify(results[0].metrics)}`);
  return med;
}

console.log(`file: ${file}`);
// Interleaved, so both sides meet the same background load.
const py = withPython && existsSync(python);
const nodeRuns = [];
const pyRuns = [];
const cliRuns = [];
// The CLI prints the full --json document; keep its headline metrics, as the other two print.
const cliMetrics = (stdout) => {
  const m = JSON.parse(stdout).results[0].metrics;
  return { metrics: { auc: m.auc, brier: m.brier, log_loss: m.log_loss, accuracy: m.accuracy, ece: m.ece, ece_quantile: m.ece_quantile } };
};
for (let i = 0; i < runs; i++) {
  nodeRuns.push(runOnce(process.execPath, [bundle, file]));
  if (withCli) cliRuns.push(runOnce(process.execPath, [cli, 'score', '--json', file], cliMetrics));
  if (py) pyRuns.push(runOnce(python, [join(here, 'pandas_sklearn.py'), file]));
}
const node = summarise('eval-lens (node)', nodeRuns);
const cliSide = withCli ? summarise('eval-lens CLI (node dist/cli.js score --json)', cliRuns) : null;
if (py) {
  const ref = summarise('pandas + sklearn', pyRuns);
  console.log(`\nwall time ratio (pandas / eval-lens): ${(ref.wall_s / node.wall_s).toFixed(1)}x`);
  if (ref.cpu_s !== undefined) console.log(`CPU time ratio (pandas / eval-lens):  ${(ref.cpu_s / node.cpu_s).toFixed(1)}x`);
  console.log(`peak RSS ratio (pandas / eval-lens):  ${(ref.peak_rss_kib / node.peak_rss_kib).toFixed(1)}x`);
  if (cliSide) {
    console.log(`CLI: wall time ratio (pandas / CLI): ${(ref.wall_s / cliSide.wall_s).toFixed(1)}x`);
    if (ref.cpu_s !== undefined) console.log(`CLI: CPU time ratio (pandas / CLI):  ${(ref.cpu_s / cliSide.cpu_s).toFixed(1)}x`);
    console.log(`CLI: peak RSS ratio (pandas / CLI):  ${(ref.peak_rss_kib / cliSide.peak_rss_kib).toFixed(1)}x`);
  }
}
