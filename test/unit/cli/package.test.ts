// The CLI as a user installs it: `npm pack`, then `npm install -g --prefix DIR` of the tarball into
// an empty prefix, then the installed `eval-lens` run from outside the repository. No build runs at
// install time (the tarball carries the bundle; newer npm refuses a global install's scripts).
import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the packed CLI', () => {
  let work: string;
  let tarball: string;
  let files: string[];

  beforeAll(() => {
    // `npm test` builds before the unit tests; alone, this file builds what it packs.
    if (!existsSync(join(root, 'dist', 'cli.js'))) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root });
    work = mkdtempSync(join(tmpdir(), 'eval-lens-pack-'));
    // --ignore-scripts: the bundle is already built; a build here would rewrite dist/ under the
    // other test files.
    const out = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
    const info = JSON.parse(out)[0] as { filename: string; files: { path: string }[] };
    tarball = join(work, info.filename);
    files = info.files.map((f) => f.path).sort();
  }, 120_000);

  it('holds what a user needs and nothing else, under 3 MB', () => {
    expect(files).toEqual(['LICENSE', 'README.md', 'dist/cli.js', 'docs/metrics.md', 'package.json']);
    expect(statSync(tarball).size).toBeLessThan(3 * 1024 * 1024);
  });

  it('installs into an empty prefix and scores and compares files there, outside the repository', () => {
    const prefix = join(work, 'prefix');
    // No registry needed: everything the CLI runs is in its bundle (the optional canvas for PNG
    // figures is left out here).
    const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, '--omit=optional', '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: work, encoding: 'utf8', env: { ...process.env, npm_config_user_agent: undefined },
    });
    expect(install.status, install.stderr).toBe(0);
    const bin = join(prefix, 'bin', 'eval-lens');
    expect(existsSync(bin)).toBe(true);
    // The installed package has no sources and no build output beyond the bundle.
    const installed = join(prefix, 'lib', 'node_modules', 'eval-lens');
    expect(readdirSync(installed).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'docs', 'package.json']);

    const file = join(root, 'examples', 'generic', 'qa_confidence.csv');
    const score = spawnSync(bin, ['score', '--json', file], { cwd: work, encoding: 'utf8' });
    expect(score.status, score.stderr).toBe(0);
    const json = JSON.parse(score.stdout) as { results: { n: number; metrics: Record<string, number | null> }[] };
    // The same numbers as the repository's own CLI gives for the file.
    const here = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'score', '--json', file], { cwd: root, encoding: 'utf8' });
    const expected = JSON.parse(here.stdout) as typeof json;
    expect(json.results[0].n).toBeGreaterThan(0);
    expect(json.results[0].metrics).toEqual(expected.results[0].metrics);

    const runs = join(root, 'examples', 'folktexts');
    const [a, b] = ['Llama-3-8B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1'].map((d) => {
      const dir = join(runs, d);
      return join(dir, readdirSync(dir).find((f) => f.endsWith('.test_predictions.csv'))!);
    });
    const compare = spawnSync(bin, ['compare', '--json', '--bootstrap', '50', a, b], { cwd: work, encoding: 'utf8' });
    expect(compare.status, compare.stderr).toBe(0);
    const cmp = JSON.parse(compare.stdout) as { comparison?: { metrics: Record<string, unknown> } };
    expect(Object.keys(cmp.comparison?.metrics ?? {})).toContain('auc');
  }, 120_000);
});
