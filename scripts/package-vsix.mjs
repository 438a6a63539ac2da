#!/usr/bin/env node
// `npm run package`: the extension's .vsix, written to the repository root (or to --out PATH, a file
// or a folder).
//
// package.json's `files` is npm's list (`npm pack` ships the CLI alone), and vsce refuses to pack a
// folder that has both `files` and a .vscodeignore. So the extension is staged in a temporary folder
// that holds only what it ships: a production build of the bundles (every one scripts/build.mjs
// writes except the CLI's, so a new page's bundle is shipped without a list to update), media/, the
// README, the licence, the metric reference the report's "?" buttons open, and a package.json whose
// `files` names exactly those (vsce then fails when one is missing). vsce packs that folder with no
// dependency resolution, so it works offline.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Files and folders copied as they are (CHANGELOG.md when there is one). */
const COPIED = ['media', 'README.md', 'LICENSE', 'docs/metrics.md', 'CHANGELOG.md'];
/** Build outputs that never ship: the CLI (npm's package) and anything that is not a bundle. */
const isShippedBundle = (name) => name !== 'cli.js' && /\.(js|css)$/.test(name);

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log('usage: node scripts/package-vsix.mjs [--out PATH]   (npm run package [-- --out PATH])');
  process.exit(0);
}
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? resolve(args[outAt + 1] ?? '') : ROOT;

function run(cmd, argv, cwd) {
  // stdin closed: a question from vsce (a missing licence, say) fails the run instead of waiting.
  const r = spawnSync(cmd, argv, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`package-vsix: ${relative(ROOT, argv[0]) || argv[0]} ${argv.slice(1).join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const stage = mkdtempSync(join(tmpdir(), 'eval-lens-vsix-'));
try {
  run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--production', '--outdir', join(stage, 'dist')], ROOT);
  const bundles = readdirSync(join(stage, 'dist')).filter(isShippedBundle).sort();
  for (const f of readdirSync(join(stage, 'dist'))) if (!bundles.includes(f)) rmSync(join(stage, 'dist', f));

  const copied = COPIED.filter((p) => existsSync(join(ROOT, p)));
  for (const p of copied) {
    mkdirSync(dirname(join(stage, p)), { recursive: true });
    if (statSync(join(ROOT, p)).isDirectory()) cpSync(join(ROOT, p), join(stage, p), { recursive: true });
    else copyFileSync(join(ROOT, p), join(stage, p));
  }

  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  manifest.files = [...bundles.map((b) => `dist/${b}`), ...copied];
  // The bundles are built already; vsce would run vscode:prepublish (and npm's scripts mean nothing
  // to an installed extension).
  delete manifest.scripts;
  writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

  const vsce = join(dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');
  mkdirSync(existsSync(out) && statSync(out).isDirectory() ? out : dirname(out), { recursive: true });
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', out], stage);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
