// Issue 22, goal 5: `eval-lens board FOLDER` scores the folder's files on worker threads (the CLI
// bundle entered again as a worker, src/core/parallel.ts). The board must be the same, byte for
// byte, with one thread and with several. The CLI is bundled here as scripts/build.mjs bundles it
// (esbuild, CommonJS), into a temporary folder, so dist/ is not touched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSync } from 'esbuild';
import { boardPaths, boardPathsAsync } from '../../../src/core/boardFiles';
import { scorePathParallel } from '../../../src/core/parallel';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

const ROOT = resolve(__dirname, '../../..');

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'board-threads-'));
  const random = rng(8);
  for (let f = 0; f < 9; f++) {
    const lines = ['id,score,label'];
    for (let i = 0; i < 400; i++) {
      const y = i % 3 === 0 ? 1 : 0;
      lines.push(`r${i},${Math.min(1, Math.max(0, 0.5 + (y ? 0.1 + f / 40 : -0.1) + (random() - 0.5) * 0.8)).toFixed(5)},${y}`);
    }
    writeFileSync(join(dir, `run${f}.csv`), lines.join('\n') + '\n');
  }
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'notes.txt'), 'not predictions\n');
  return dir;
}

describe('board on worker threads', () => {
  it('gives the same board with 1, 2 and 3 threads', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cli-bundle-')), 'cli.js');
    buildSync({
      entryPoints: [join(ROOT, 'src/cli/bin.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: out,
      external: ['@napi-rs/canvas'], logLevel: 'warning', target: 'es2022',
    });
    const dir = folder();
    const run = (threads: number) => execFileSync(process.execPath, [out, 'board', '--json', '--bootstrap', '50', dir], {
      encoding: 'utf8', env: { ...process.env, EVAL_LENS_THREADS: String(threads) },
    });
    const one = run(1);
    expect(JSON.parse(one).board?.rows?.length ?? JSON.parse(one).rows?.length).toBe(9);
    expect(run(2)).toBe(one);
    expect(run(3)).toBe(one);
  }, 120_000);

  it('stays on the calling thread without a worker entry (tests, the extension)', async () => {
    const dir = folder();
    expect(await scorePathParallel(dir, {})).toBeUndefined();
    const a = await boardPathsAsync([dir], { bootstrap: 20, instances: false });
    const b = boardPaths([dir], { bootstrap: 20, instances: false });
    expect(JSON.parse(JSON.stringify(a))).toEqual(JSON.parse(JSON.stringify(b)));
  });
});
