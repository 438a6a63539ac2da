#!/usr/bin/env node
// Large-file benchmark: score a ~300 MB lm-eval multiple-choice samples_*.jsonl (150,000 lines with
// kilobyte-sized docs and request arguments) and a 1,000,000-row folktexts CSV, each in a fresh
// Node process, and report wall time and peak RSS (process.resourceUsage().maxRSS).
//
//   node bench/large-jsonl.bench.mjs [--runs 3] [--lines 150000] [--baseline REF] [--only jsonl|csv] [--big]
//
// Data goes to bench/data/ (git-ignored) and is generated once, with a fixed seed:
//   samples_mmlu_bench_2024-01-01T00-00-00.jsonl   lm-eval --log_samples, multiple choice
//   folktexts-1m.test_predictions.csv              bench/make-folktexts-csv.mjs (byte scanner)
//   folktexts-1m-quoted.test_predictions.csv       the same with one quoted ID, so the whole file
//                                                  takes the general CSV path (chunked decoding)
// --big adds files past V8's ~512 MB string limit (one run each): a 300,000-line samples file
// (~690 MB), read line by line, and the same records as one JSON array document (~690 MB), which
// is parsed whole and must end in a clear fatal rather than a crash.
// --baseline REF also scores each file with the core as it was at git REF (extracted with
// `git archive` into a temporary folder, outside the type-checked tree, and bundled the same way),
// for a before/after.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const data = join(here, 'data');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const runs = Number(opt('runs', '3'));
const lines = Number(opt('lines', '150000'));
const baseline = opt('baseline', undefined);
const only = opt('only', undefined);
const big = args.includes('--big');
mkdirSync(data, { recursive: true });

// mulberry32: small, fast, and the same sequence on every platform.

// ---------------------------------------------------------------------------------------------
// Data

const WORDS = ('the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she ' +
  'there been one all we their has would when if so no what up out who them some could more into its then two time may these than only other ' +
  'café naïve résumé protein enzyme membrane theorem integral velocity treaty parliament molecule photosynthesis equilibrium').split(' ');

function words(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += (i ? ' ' : '') + WORDS[Math.floor(r() * WORDS.length)];
  return s;
}

const hex = (r) => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');

/** One line of `lm_eval --log_samples` for a 4-choice reading task (RACE-like: a passage, a question). */
function sampleLine(r, i) {
  const passage = `${words(r, 40 + Math.floor(r() * 40))}.`;
  const question = `${words(r, 12 + Math.floor(r() * 8))}?`;
  const choices = [0, 1, 2, 3].map(() => words(r, 3 + Math.floor(r() * 5)));
  const answer = Math.floor(r() * 4);
  const letters = ['A', 'B', 'C', 'D'];
  const prompt = `Question: ${question}\n${choices.map((c, j) => `${letters[j]}. ${c}`).join('\n')}\nAnswer:`;
  // A calibrated-ish model: the answer's loglikelihood is higher on average.
  const lls = [0, 1, 2, 3].map((j) => (-1 - r() * 6 + (j === answer ? 2.5 * r() : 0)).toFixed(6));
  const best = lls.reduce((b, x, j) => (Number(x) > Number(lls[b]) ? j : b), 0);
  const args = Object.fromEntries(letters.map((l, j) => [`gen_args_${j}`, { arg_0: prompt, arg_1: ` ${l}` }]));
  return JSON.stringify({
    doc_id: i,
    doc: { article: passage, question, options: choices, answer: letters[answer], choices, example_id: `high${10000 + i}.txt` },
    target: answer,
    arguments: args,
    resps: lls.map((x) => [[x, 'False']]),
    filtered_resps: lls.map((x) => [x, 'False']),
    filter: 'none',
    metrics: ['acc', 'acc_norm'],
    doc_hash: hex(r), prompt_hash: hex(r), target_hash: hex(r),
    acc: best === answer ? 1 : 0,
    acc_norm: best === answer ? 1 : 0,
  });
}

async function makeJsonl(path, n, asArray = false) {
  const r = rng(20240701);
  const out = createWriteStream(path);
  let buf = asArray ? '[\n' : '';
  for (let i = 0; i < n; i++) {
    buf += sampleLine(r, i) + (asArray ? (i < n - 1 ? ',\n' : '\n]\n') : '\n');
    if (buf.length > 1 << 22) {
      if (!out.write(buf)) await new Promise((res) => out.once('drain', res));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise((res, rej) => out.end((e) => (e ? rej(e) : res())));
}

const jsonlPath = join(data, lines === 150000 ? 'samples_mmlu_bench_2024-01-01T00-00-00.jsonl' : `samples_mmlu_bench${lines}_2024-01-01T00-00-00.jsonl`);
const csvPath = join(data, 'folktexts-1m.test_predictions.csv');
const quotedPath = join(data, 'folktexts-1m-quoted.test_predictions.csv');

if (!existsSync(jsonlPath) && only !== 'csv') {
  console.log(`writing ${jsonlPath} (${lines} lines) ...`);
  await makeJsonl(jsonlPath, lines);
}
const bigJsonlPath = join(data, 'samples_mmlu_big_2024-01-01T00-00-00.jsonl');
const bigArrayPath = join(data, 'samples_mmlu_big_array.json');
if (big && !existsSync(bigJsonlPath)) {
  console.log(`writing ${bigJsonlPath} (300000 lines) ...`);
  await makeJsonl(bigJsonlPath, 300000);
}
if (big && !existsSync(bigArrayPath)) {
  console.log(`writing ${bigArrayPath} (a JSON array of 300000 records) ...`);
  await makeJsonl(bigArrayPath, 300000, true);
}
if (!existsSync(csvPath) && only !== 'jsonl') {
  console.log(`writing ${csvPath} ...`);
  const made = spawnSync(process.execPath, [join(here, 'make-folktexts-csv.mjs')], { stdio: 'inherit' });
  if (made.status !== 0) process.exit(1);
}
if (!existsSync(quotedPath) && only !== 'jsonl') {
  // One quoted field (the first data row's ID): the byte scanner gives up, the general path reads it all.
  const text = readFileSync(csvPath, 'latin1');
  const nl = text.indexOf('\n');
  const comma = text.indexOf(',', nl + 1);
  writeFileSync(quotedPath, `${text.slice(0, nl + 1)}"${text.slice(nl + 1, comma)}"${text.slice(comma)}`, 'latin1');
}

// ---------------------------------------------------------------------------------------------
// The child: the core bundled once per version, run in a fresh process per file and run.

const entry = (core) => `
import { readFileSync } from 'node:fs';
import { fileInput } from '${core}/formats/context';
import { parseInput } from '${core}/score';
import { buildReport, resolveOptions } from '${core}/report';
import { mulberry32 as rng } from '../scripts/rng.mjs';
const t0 = performance.now();
const path = process.argv[2];
let progressCalls = 0;
let cancelChecks = 0;
const o = resolveOptions({ bootstrap: 0, onProgress: () => { progressCalls++; }, shouldCancel: () => { cancelChecks++; return false; } });
const bytes = readFileSync(path);
const t1 = performance.now();
const parsed = parseInput(fileInput(path, bytes), o);
const t2 = performance.now();
const report = buildReport(path, parsed, o);
const t3 = performance.now();
const s = (a, b) => Math.round(b - a) / 1000;
const m = report.metrics;
console.log(JSON.stringify({
  rows: report.n, skipped: report.skipped, problems: report.problems.length, fatal: report.fatal,
  read_s: s(t0, t1), parse_s: s(t1, t2), score_s: s(t2, t3), total_in_process_s: s(0, t3),
  progress_calls: progressCalls, cancel_checks: cancelChecks,
  max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  heap_used_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  metrics: { accuracy: m.accuracy, auc: m.auc, ece: m.ece, brier: m.brier },
}));
`;

async function bundle(name, core) {
  const outfile = join(data, `large-${name}.bundle.mjs`);
  await esbuild.build({
    stdin: { contents: entry(core), resolveDir: root, sourcefile: `bench-large-${name}.ts`, loader: 'ts' },
    bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'warning',
  });
  return outfile;
}

const versions = [{ name: 'current', bundle: await bundle('current', './src/core') }];
if (baseline) {
  const dir = join(tmpdir(), `eval-lens-bench-baseline-${baseline.replace(/[^\w.-]/g, '_')}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', baseline, 'src/core'], { cwd: root, maxBuffer: 1 << 28 });
  if (archive.status !== 0) throw new Error(`git archive ${baseline}: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  versions.push({ name: `baseline ${baseline}`, bundle: await bundle('baseline', join(dir, 'src', 'core').replaceAll('\\', '/')) });
}

function runOnce(bundlePath, file) {
  const started = process.hrtime.bigint();
  const out = spawnSync(process.execPath, [bundlePath, file], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (out.status !== 0) {
    const why = (out.stderr || '').split('\n').filter((l) => /error|heap|memory|string/i.test(l)).slice(0, 3).join(' | ');
    return { failed: `exit ${out.status ?? out.signal}: ${why.slice(0, 300)}`, wall_s: Math.round(wall * 100) / 100 };
  }
  return { ...JSON.parse(out.stdout.trim().split('\n').pop()), wall_s: Math.round(wall * 100) / 100 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const files = [
  ...(only === 'csv' ? [] : [{ label: 'lm-eval JSONL', path: jsonlPath }]),
  ...(only === 'jsonl' ? [] : [{ label: 'folktexts CSV (byte scanner)', path: csvPath }, { label: 'folktexts CSV (general path)', path: quotedPath }]),
  ...(big ? [{ label: 'lm-eval JSONL, > 512 MB', path: bigJsonlPath, runs: 1 }, { label: 'lm-eval JSON array, > 512 MB', path: bigArrayPath, runs: 1 }] : []),
];
const rows = [];
for (const f of files) {
  const size = statSync(f.path).size;
  for (const v of versions) {
    const results = [];
    for (let i = 0; i < (f.runs ?? runs); i++) results.push(runOnce(v.bundle, f.path));
    const ok = results.filter((x) => !x.failed);
    const line = { file: f.label, size_mb: Math.round(size / 2 ** 20), version: v.name };
    if (!ok.length) {
      rows.push({ ...line, failed: results[0].failed, wall_s: median(results.map((x) => x.wall_s)) });
    } else {
      for (const k of ['wall_s', 'read_s', 'parse_s', 'score_s', 'max_rss_mb', 'heap_used_mb']) line[k] = median(ok.map((x) => x[k]));
      Object.assign(line, { rows: ok[0].rows, skipped: ok[0].skipped, problems: ok[0].problems, fatal: ok[0].fatal, progress_calls: ok[0].progress_calls, cancel_checks: ok[0].cancel_checks, metrics: ok[0].metrics });
      rows.push(line);
    }
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
}

console.log(`\n| file | size | version | rows | wall | parse | peak RSS | progress calls |\n|---|---|---|---|---|---|---|---|`);
for (const x of rows) {
  console.log(x.failed
    ? `| ${x.file} | ${x.size_mb} MB | ${x.version} | crashed: ${x.failed} | ${x.wall_s} s | - | - | - |`
    : `| ${x.file} | ${x.size_mb} MB | ${x.version} | ${x.rows ? x.rows.toLocaleString('en') : `0 (fatal: ${x.fatal})`} | ${x.wall_s} s | ${x.parse_s} s | ${x.max_rss_mb} MB | ${x.progress_calls} |`);
}
