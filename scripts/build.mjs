// One esbuild script for every bundle (the esbuild-sample pattern): type-checking is `tsc --noEmit`.
import * as esbuild from 'esbuild';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
// --outdir DIR: the bundles go to DIR instead of dist/ and the test bundle is not built (the .vsix
// is staged that way by scripts/package-vsix.mjs, leaving dist/ to the tests).
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt >= 0 ? process.argv[outdirAt + 1] : undefined;
if (outdirAt >= 0 && !outdir) throw new Error('build.mjs: --outdir needs a folder');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', target: 'es2022' };

/** Every *.test.ts below a folder, for the extension-host test bundle. */
function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return testFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const builds = [
  { ...common, platform: 'node', format: 'cjs', entryPoints: ['src/extension/activate.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, platform: 'node', format: 'cjs', entryPoints: ['src/extension/worker/scoreWorker.ts'], outfile: 'dist/scoreWorker.js' },
  // The sample view's reader (issue 29): small, so it starts quickly, and apart from the scoring workers.
  { ...common, platform: 'node', format: 'cjs', entryPoints: ['src/extension/worker/sampleWorker.ts'], outfile: 'dist/sampleWorker.js' },
  { ...common, platform: 'node', format: 'cjs', entryPoints: ['src/cli/bin.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' },
    // A native module (plot's PNG/SVG), loaded only when a figure is drawn: never bundled, and the
    // extension bundles never reach it.
    external: ['@napi-rs/canvas'] },
  { ...common, platform: 'browser', format: 'iife', entryPoints: ['webview/report/main.ts'], outfile: 'dist/webview.js' },
  // The compare and leaderboard panels (their own page: the report's bundle stays as it was).
  { ...common, platform: 'browser', format: 'iife', entryPoints: ['webview/compare/main.ts'], outfile: 'dist/compare.js' },
  // The sample view (issue 29): its own panel and page.
  { ...common, platform: 'browser', format: 'iife', entryPoints: ['webview/sample/main.ts'], outfile: 'dist/sample.js' },
];
if (outdir) {
  for (const b of builds) {
    if (b.outfile) b.outfile = join(outdir, b.outfile.replace(/^dist\//, ''));
    if (b.outdir) b.outdir = join(outdir, b.outdir.replace(/^dist\/?/, ''));
  }
}
const integration = outdir ? [] : testFiles('test/integration');
if (integration.length) {
  builds.push({ ...common, platform: 'node', format: 'cjs', entryPoints: integration, outdir: 'out/test/integration', outbase: 'test/integration', external: ['vscode', 'mocha'] });
}

const present = builds.filter((b) => b.entryPoints.every((e) => existsSync(e)));
if (watch) {
  for (const b of present) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(present.map((b) => esbuild.build(b)));
  // `npx eval-lens` runs the file directly.
  const cli = join(outdir ?? 'dist', 'cli.js');
  if (existsSync(cli)) chmodSync(cli, 0o755);
}
