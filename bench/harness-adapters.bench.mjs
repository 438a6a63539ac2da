// How long `eval-lens score FILE --json` takes on a HELM run, a promptfoo results file and an
// OpenCompass predictions file of a few thousand samples each (issue 26: "well under 1 s").
// The files are made from the real fixtures (test/fixtures/real/helm, promptfoo): each record
// copied with a new id until there are --n of them (default 3000), into bench/data/harness/.
// The CLI is bundled from source with esbuild, and each run is a fresh `node` process; the
// figures are the median wall time and the median CPU time (user + sys, from /usr/bin/time) of
// --runs runs (default 5), start to finish. On a shared machine the CPU time is the steadier one.
//
//   node bench/harness-adapters.bench.mjs [--n 3000] [--runs 5]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const N = arg('n', 3000);
const RUNS = arg('runs', 5);
const out = join(root, 'bench/data/harness');
const helmRun = join(out, 'helm-run');
mkdirSync(helmRun, { recursive: true });

// HELM: the mmlu run's test entries and request states, repeated under new instance ids.
const realRun = join(root, 'test/fixtures/real/helm/mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2');
const entries = JSON.parse(readFileSync(join(realRun, 'per_instance_stats.json'), 'utf8')).filter((e) => e.stats[0].name.split === 'test');
const state = JSON.parse(readFileSync(join(realRun, 'scenario_state.json'), 'utf8'));
const states = state.request_states.filter((s) => s.instance.split === 'test');
const perInstance = [];
const requestStates = [];
for (let i = 0; i < N; i++) {
  const e = entries[i % entries.length];
  perInstance.push({ ...e, instance_id: `id${i}` });
  const s = states[i % states.length];
  requestStates.push({ ...s, instance: { ...s.instance, id: `id${i}` } });
}
writeFileSync(join(helmRun, 'per_instance_stats.json'), JSON.stringify(perInstance, null, 2));
writeFileSync(join(helmRun, 'scenario_state.json'), JSON.stringify({ adapter_spec: state.adapter_spec, request_states: requestStates }, null, 2));
writeFileSync(join(helmRun, 'stats.json'), readFileSync(join(realRun, 'stats.json')));
writeFileSync(join(helmRun, 'run_spec.json'), readFileSync(join(realRun, 'run_spec.json')));

// promptfoo: the export's results repeated under new test indices.
const pf = JSON.parse(readFileSync(join(root, 'test/fixtures/real/promptfoo/sample-export.json'), 'utf8'));
const pfResults = [];
for (let i = 0; i < N; i++) pfResults.push({ ...pf.results.results[i % pf.results.results.length], testIdx: Math.floor(i / 2), id: `r${i}` });
writeFileSync(join(out, 'promptfoo-results.json'), JSON.stringify({ ...pf, results: { ...pf.results, results: pfResults } }, null, 2));

// OpenCompass: multiple-choice records with a few-shot prompt each (about 1 KB), as OpenCompass writes them.
const shots = Array.from({ length: 5 }, (_, k) => `Question ${k}: which is right?\nA. a\nB. b\nC. c\nD. d\nAnswer: ${'ABCD'[k % 4]}\n\n`).join('');
const oc = {};
for (let i = 0; i < N; i++) oc[String(i)] = { origin_prompt: `${shots}Question ${i}: which is right?\nA. a\nB. b\nC. c\nD. d\nAnswer:`, prediction: 'ABCD'[(i * 7) % 4], gold: 'ABCD'[(i * 5 + (i % 3)) % 4] };
const ocDir = join(out, 'opencompass/predictions/model');
mkdirSync(ocDir, { recursive: true });
writeFileSync(join(ocDir, 'dataset.json'), JSON.stringify(oc, null, 4));

const cli = join(out, 'cli.js');
await build({ entryPoints: [join(root, 'src/cli/bin.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: cli, logLevel: 'silent', external: ['@napi-rs/canvas'] });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const files = [
  ['HELM per_instance_stats.json (+ scenario_state.json, stats.json beside it)', join(helmRun, 'per_instance_stats.json')],
  ['HELM scenario_state.json', join(helmRun, 'scenario_state.json')],
  ['promptfoo results.json', join(out, 'promptfoo-results.json')],
  ['OpenCompass predictions', join(ocDir, 'dataset.json')],
];
console.log(`${N} samples per file, median of ${RUNS} fresh processes (node ${process.version})`);
/** One fresh process: its wall time, CPU time (user + sys) and stdout. */
function run(args) {
  const t0 = performance.now();
  const res = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = performance.now() - t0;
  const [user, sys] = res.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: (user + sys) * 1000, stdout: res.stdout };
}
const fmt = (xs) => `${median(xs).toFixed(0)} ms`;
for (const [label, path] of files) {
  const wall = [];
  const cpu = [];
  let report;
  for (let r = 0; r < RUNS; r++) {
    const t = run(['score', path, '--json']);
    wall.push(t.wall);
    cpu.push(t.cpu);
    report = JSON.parse(t.stdout).results[0];
  }
  const mb = (statSync(path).size / 1e6).toFixed(1);
  console.log(`${label}: ${mb} MB, n=${report.n}, accuracy=${report.metrics.accuracy}: wall ${fmt(wall)}, CPU ${fmt(cpu)}`);
}
const idle = Array.from({ length: RUNS }, () => run(['--help']));
console.log(`node + the CLI bundle printing its help (--help): wall ${fmt(idle.map((t) => t.wall))}, CPU ${fmt(idle.map((t) => t.cpu))}`);
