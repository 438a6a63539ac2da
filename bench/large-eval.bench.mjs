#!/usr/bin/env node
// Issue 29's benchmark: a ~300 MB Inspect .eval whose entries inflate to ~2.4 GB together (made by
// bench/make-large-eval.mjs in Inspect's layout), opened as the report panel opens it.
//
//   node bench/large-eval.bench.mjs [--file F] [--runs 3] [--workbench]
//
// 1. In a fresh Node process standing for the extension host, with the project's own scoring
//    worker (dist/scoreWorker.js) on worker threads as the extension runs it: the report's first
//    pass (detail 'panel'), then its intervals pass (bootstrap, another pass over the file) while the
//    sample view's own worker (dist/sampleWorker.js) reads samples, as a user clicking rows meanwhile
//    would; then a conversation search (in a scoring worker). The process's peak RSS (VmHWM: the host and its workers together, one
//    process) and each step's time are printed. Targets: peak RSS < 500 MB; a sample read in the
//    worker well under 300 ms.
// 2. With --workbench, the same file in a real VS Code (code-server + Chromium, under the e2e
//    lock): test/e2e/largeEvalBench.e2e.ts opens its report, clicks rows and prints the time from
//    the click to the sample's messages on the page, and the extension host's peak RSS.
// Figures go to stdout and bench/data/large-eval.json. The machine's load matters (2 cores shared).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const file = opt('--file', join(root, 'bench', 'data', 'large-agent.eval'));
const runs = Number(opt('--runs', 1)) || 1;

if (!existsSync(file)) {
  const made = spawnSync(process.execPath, [join(root, 'bench', 'make-large-eval.mjs'), '--samples', '2500', '--out', file], { stdio: 'inherit' });
  if (made.status !== 0) process.exit(made.status ?? 1);
}
if (!existsSync(join(root, 'dist', 'sampleWorker.js')) || args.includes('--build')) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
console.log(`file: ${file} (${(statSync(file).size / 2 ** 20).toFixed(0)} MB)`);

const results = [];
for (let run = 1; run <= runs; run++) {
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  const r = spawnSync(process.execPath, ['--max-old-space-size=4096', join(root, 'bench', 'large-eval-host.mjs'), file], { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) { console.error(r.stderr); process.exit(1); }
  const figures = JSON.parse(r.stdout.trim().split('\n').pop());
  console.log(`\n# run ${run} of ${runs} (load average before: ${load})`);
  for (const [k, v] of Object.entries(figures)) console.log(`- ${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
  const peak = figures['peak RSS, host + workers (MB)'];
  console.log(`budget peak RSS: ${peak} MB ${peak < 500 ? '<' : '>= (OVER)'} 500 MB`);
  results.push({ run, load, ...figures });
}

if (args.includes('--workbench')) {
  const r = spawnSync('flock', ['/tmp/eval-lens-vscode.lock', 'npx', 'vitest', 'run', '--config', 'vitest.e2e.config.ts', 'test/e2e/largeEvalBench.e2e.ts'], {
    cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, EVAL_LENS_LARGE_EVAL: file },
  });
  const lines = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.includes('[large-eval]')).map((l) => l.replace(/^.*\[large-eval\]\s*/, ''));
  console.log('\n# in VS Code (code-server + Chromium)');
  for (const l of lines) console.log(`- ${l}`);
  if (r.status !== 0) console.log(`(the workbench run exited ${r.status})\n${r.stdout.slice(-3000)}`);
  results.push({ workbench: lines });
}
mkdirSync(join(root, 'bench', 'data'), { recursive: true });
writeFileSync(join(root, 'bench', 'data', 'large-eval.json'), JSON.stringify(results, null, 2));
console.log('\nwritten bench/data/large-eval.json');
