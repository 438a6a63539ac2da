// Both artefacts as they are built (issue 28, point 0): `npm run package` (scripts/package-vsix.mjs)
// writes a .vsix holding the extension's bundles, its media, package.json, the README, the licence
// and the metric reference, and nothing else; `npm pack` writes the CLI's tarball, which holds the CLI
// alone. Every bundle the extension loads at run time must be in the .vsix, or the packaged extension
// opens a blank panel (the compare page's bundle once was left out). vsce refuses a .vscodeignore
// beside package.json's `files` (npm's list): there must be no .vscodeignore.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MB = 1024 * 1024;

/** The dist/ outputs scripts/build.mjs writes for the extension (every bundle but the CLI's). */
function extensionBundles(): string[] {
  const build = readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8');
  return [...build.matchAll(/outfile:\s*'dist\/([\w.-]+)'/g)].map((m) => m[1]).filter((f) => f !== 'cli.js');
}

describe('the packaged extension (.vsix) and the CLI tarball', () => {
  let work: string;
  let vsix: string;
  let inVsix: Map<string, number>;
  let tarball: string;
  let inTarball: string[];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'eval-lens-packaging-'));
    // `npm run package` as a user runs it, told to write into the scratch folder instead of the root.
    execFileSync(npm, ['run', 'package', '--', '--out', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const written = readdirSync(work).filter((f) => f.endsWith('.vsix'));
    expect(written).toHaveLength(1);
    vsix = join(work, written[0]);
    const entries = unzipSync(readFileSync(vsix));
    inVsix = new Map(Object.entries(entries).map(([name, bytes]) => [name, bytes.length]));

    // `npm test` builds before the unit tests; alone, this file builds what it packs. --ignore-scripts:
    // a build here would rewrite dist/ under the other test files.
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
    const out = execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
    const info = JSON.parse(out)[0] as { filename: string; files: { path: string }[] };
    tarball = join(work, info.filename);
    inTarball = info.files.map((f) => f.path).sort();
    return () => rmSync(work, { recursive: true, force: true });
  }, 240_000);

  it('the .vsix holds the bundles, media, package.json, README, licence and docs/metrics.md, and nothing else', () => {
    const files = [...inVsix.keys()].filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length)).sort();
    const bundles = extensionBundles();
    expect(bundles).toEqual(expect.arrayContaining(['extension.js', 'scoreWorker.js', 'webview.js', 'compare.js']));
    for (const b of bundles) expect(files, `dist/${b} is not in the .vsix`).toContain(`dist/${b}`);
    // Each page's stylesheet (esbuild writes it beside the page's bundle).
    expect(files).toEqual(expect.arrayContaining(['dist/webview.css', 'dist/compare.css']));
    expect(files).toEqual(expect.arrayContaining(['package.json', 'readme.md', 'LICENSE.txt', 'docs/metrics.md', 'media/eval-lens.svg', 'media/eval-lens.png']));
    for (const f of files) {
      expect(f, 'sources, tests, dependencies, source maps and the CLI stay out').not.toMatch(/^(src|test|webview|node_modules|scripts|bench|examples|out)\/|\.map$|^dist\/cli\.js$/);
      expect(f, `${f} is not one of the shipped kinds`).toMatch(/^(dist\/[\w.-]+\.(js|css)|media\/.+|docs\/metrics\.md|package\.json|readme\.md|LICENSE\.txt|changelog\.md)$/);
    }
    // The manifest VS Code reads: its entry point and its worker are in the package.
    const manifest = JSON.parse(new TextDecoder().decode(unzipSync(readFileSync(vsix))['extension/package.json'])) as { main: string; scripts?: unknown };
    expect(files).toContain(manifest.main.replace(/^\.\//, ''));
    expect(readFileSync(join(ROOT, 'src/extension/activate.ts'), 'utf8')).toMatch(/asAbsolutePath\('dist\/scoreWorker\.js'\)/);
  });

  it('the .vsix is under 3 MB and its bundles are the production (minified) build', () => {
    expect(statSync(vsix).size).toBeLessThan(3 * MB);
    // A development build carries a source map comment and is about twice the size.
    for (const [name] of inVsix) if (/^extension\/dist\/.*\.js$/.test(name)) {
      const text = new TextDecoder().decode(unzipSync(readFileSync(vsix), { filter: (f) => f.name === name })[name]);
      expect(text, name).not.toMatch(/sourceMappingURL/);
    }
  });

  it('the npm tarball ships the CLI alone, under 3 MB', () => {
    expect(inTarball).toEqual(['LICENSE', 'README.md', 'dist/cli.js', 'docs/metrics.md', 'package.json']);
    expect(statSync(tarball).size).toBeLessThan(3 * MB);
  });

  it('the repository has no .vscodeignore (vsce refuses one beside package.json\'s files) and git ignores .vsix files', () => {
    expect(existsSync(join(ROOT, '.vscodeignore'))).toBe(false);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).files).toContain('dist/cli.js');
    // check-ignore exits 0 when the path is ignored (it need not exist).
    expect(() => execFileSync('git', ['check-ignore', '-q', 'eval-lens-0.1.0.vsix'], { cwd: ROOT })).not.toThrow();
  });
});
