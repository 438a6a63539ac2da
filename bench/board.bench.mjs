#!/usr/bin/env node
// Issue 22, goal 5: `eval-lens board` over a folder of many prediction files (generic CSV, 10,000
// rows each, text IDs shared by every file so the rank bootstrap aligns them), with and without
// the bootstrap, at 100 and 1,000 files: wall, CPU (user + sys) and peak RSS of the built CLI under
// /usr/bin/time. Memory against the number of files says whether it stays flat; CPU against files
// how the work divides (per file: parse, metrics, the cell's 1,000 resamples; across files: the
// rank bootstrap).
//
//   node scripts/build.mjs && node bench/board.bench.mjs [--files 100,1000] [--rows 10000] [--bootstrap 0,1000] [--cli dist/cli.js]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(`--${name}`); return i === -1 ? fallback : args[i + 1]; };
const counts = opt('files', '100,1000').split(',').map(Number);
const rows = Number(opt('rows', '10000'));
const boots = opt('bootstrap', '0,1000').split(',').map(Number);
const cli = resolve(root, opt('cli', 'dist/cli.js'));

/** mulberry32 */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function folder(files) {
  const dir = join(root, `bench/data/board-${files}x${rows}`);
  if (existsSync(join(dir, `run${files - 1}.csv`))) return dir;
  mkdirSync(dir, { recursive: true });
  const truth = rng(1);
  const labels = Array.from({ length: rows }, () => (truth() < 0.4 ? 1 : 0));
  for (let f = 0; f < files; f++) {
    const r = rng(100 + f);
    const skill = 0.1 + 0.3 * (f / files);
    const lines = ['id,score,label'];
    for (let i = 0; i < rows; i++) {
      const y = labels[i];
      const p = Math.min(1, Math.max(0, 0.5 + (y ? skill : -skill) + (r() - 0.5) * 0.9));
      lines.push(`r${i},${p.toFixed(6)},${y}`);
    }
    writeFileSync(join(dir, `run${f}.csv`), lines.join('\n') + '\n');
  }
  return dir;
}

console.log(`load: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
for (const files of counts) {
  const dir = folder(files);
  for (const b of boots) {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, cli, 'board', '--json', '--bootstrap', String(b), dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const [wall, user, sys, kb] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    let shown = '';
    try { shown = `${JSON.parse(r.stdout).board?.rows?.length ?? JSON.parse(r.stdout).rows?.length} rows`; } catch { shown = r.stderr.slice(0, 200); }
    console.log(`${String(files).padStart(5)} files x ${rows} rows, --bootstrap ${String(b).padEnd(5)} wall ${wall.toFixed(1)} s  cpu ${(user + sys).toFixed(1)} s  peak RSS ${(kb / 1024).toFixed(0)} MB  (${shown})`);
  }
}
