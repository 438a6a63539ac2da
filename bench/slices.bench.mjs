// --group-by on a million rows: a folktexts predictions file joined to a data file of a 10-value
// column (and a 60-value numeric one, cut into quantile groups). Wall time and peak RSS of the
// built CLI, with and without grouping. Generated data goes to bench/data/ (git-ignored).
//   node scripts/build.mjs && node bench/slices.bench.mjs [--rows N] [--runs 3] [--cli dist/cli.js]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const rows = Number(process.argv[process.argv.indexOf('--rows') + 1]) || 1_000_000;
const dir = join(import.meta.dirname, 'data');
mkdirSync(dir, { recursive: true });
const preds = join(dir, `slices-${rows}.test_predictions.csv`);
const data = join(dir, `slices-${rows}-data.csv`);
if (!existsSync(preds) || !existsSync(data)) {
  let s = 7;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const p = [',risk_score,label'];
  const d = [',GROUP,AGEP'];
  for (let i = 0; i < rows; i++) {
    const g = Math.floor(rand() * 10);
    const risk = Math.min(1, Math.max(0, 0.2 + 0.05 * g + 0.3 * (rand() - 0.5)));
    p.push(`${i},${risk.toFixed(4)},${rand() < risk ? 1 : 0}`);
    d.push(`${i},${g + 1},${18 + Math.floor(rand() * 60)}`);
  }
  // The data file in another order than the predictions.
  const body = d.slice(1).reverse();
  writeFileSync(preds, p.join('\n') + '\n');
  writeFileSync(data, [d[0], ...body].join('\n') + '\n');
}
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt === -1 ? join(import.meta.dirname, '..', 'dist', 'cli.js') : process.argv[cliAt + 1];
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt === -1 ? 1 : Number(process.argv[runsAt + 1]);
console.log(`load: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}; best of ${runs}`);
for (const [label, args] of [
  ['no grouping', []],
  ['--group-by GROUP (10 values, joined)', ['--group-by', 'GROUP', '--data', data]],
  ['--group-by AGEP (60 values: 4 quantile groups)', ['--group-by', 'AGEP', '--data', data]],
  ['--group-by GROUP --threshold best --bootstrap 200', ['--group-by', 'GROUP', '--data', data, '--threshold', 'best', '--bootstrap', '200']],
]) {
  let best;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', 'node', cli, 'score', '--json', preds, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const [wall, user, sys, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    const run = { wall, cpu: user + sys, kb, groups: JSON.parse(r.stdout).results[0].groups };
    if (!best || run.cpu < best.cpu) best = { ...run, wall: Math.min(run.wall, best?.wall ?? Infinity), kb: Math.min(run.kb, best?.kb ?? Infinity) };
    else best = { ...best, wall: Math.min(run.wall, best.wall), kb: Math.min(run.kb, best.kb) };
  }
  const { wall, cpu, kb, groups } = best;
  console.log(`${label.padEnd(52)} wall ${wall.toFixed(2).padStart(6)} s  cpu ${cpu.toFixed(2).padStart(6)} s  ${(kb / 1024).toFixed(0).padStart(5)} MB peak RSS${groups ? `  ${groups.groups.length} groups, unmatched ${groups.unmatched}` : ''}`);
}
