// The .vsix carries exactly what .vscodeignore lets through: every bundle the extension loads at run
// time must be let through, or the packaged extension opens a blank panel (the compare page's
// bundle once was left out). The CLI bundle and source maps stay out.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const DIST = join(ROOT, 'dist');

/** The dist/ outputs scripts/build.mjs writes for the extension (not the CLI). */
function extensionBundles(): string[] {
  const build = readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8');
  return [...build.matchAll(/outfile:\s*'dist\/([\w.-]+)'/g)].map((m) => m[1]).filter((f) => f !== 'cli.js');
}

describe('the packaged extension', () => {
  const shipped = new Set(readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.startsWith('!')).map((l) => l.slice(1)));

  it('ships every bundle the build writes for the extension', () => {
    const bundles = extensionBundles();
    expect(bundles).toEqual(expect.arrayContaining(['extension.js', 'scoreWorker.js', 'webview.js', 'compare.js']));
    for (const b of bundles) expect(shipped, `dist/${b} is not in .vscodeignore's allow-list`).toContain(`dist/${b}`);
  });

  it.skipIf(!existsSync(DIST))('ships every stylesheet the build emitted beside its bundle', () => {
    const css = readdirSync(DIST).filter((f) => f.endsWith('.css'));
    expect(css.length).toBeGreaterThan(0);
    for (const f of css) expect(shipped, `dist/${f} is not in .vscodeignore's allow-list`).toContain(`dist/${f}`);
  });
});
