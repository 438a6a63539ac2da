// Discovery on a hostile workspace: 100,000 files, most of them in node_modules and .git (which must
// not be walked), symlink loops, a dangling link, a FIFO and a link to /dev/zero named like
// predictions (reading either would block or never end), a folder named like a CSV, unreadable
// files. The tree is generated in a temp folder at test time and linked into the workspace.
//
// "Not walked" is proven with access times: every folder's atime is set far in the past before
// discovery runs; listing a folder (what a walk does) sets it to now (ext4, relatime), so a folder
// whose atime is still in the past was never listed. Folders that must be walked are the control.
//
// Unreadable files: the tests run as root here, and root reads a chmod 000 file anyway, so that
// kind of unreadable file cannot be reproduced (the test still makes one, and an unreadable folder,
// and checks discovery is fine with them). What it can reproduce is a file whose read fails: a link
// to /proc/self/mem (a regular file whose read at offset 0 fails with EIO, even for root).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, symlinkSync, unlinkSync, utimesSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { api, fixture, until } from './evalLensSupport';
import { inWorker } from './largeSupport';

const PREDICTIONS = 100;

/**
 * node_modules 60,000 files, .git 10,240, dist 2,000, src 20,000, docs 7,660, data 100 predictions
 * + 100 other CSVs: 100,100 files. Most are empty (made by `touch`, fast); the files discovery may
 * read have content.
 */
const GENERATE = `
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const root = workerData.root;
const empty = [];
const dirs = new Set();
const add = (rel) => { empty.push(rel); dirs.add(path.dirname(rel)); };
const predictions = (seed) => { let s = ',risk_score,label\\n'; for (let i = 0; i < 20; i++) s += i + ',' + (((i * 37 + seed) % 100) / 100) + ',' + (i % 2) + '\\n'; return s; };
const full = [];
for (let p = 0; p < 60; p++) for (let d = 0; d < 10; d++) for (let f = 0; f < 100; f++) {
  const dir = 'node_modules/pkg' + p + '/sub' + d;
  // Some files in node_modules, .git and dist look exactly like predictions: they must not be found.
  if (f === 0) full.push([dir + '/model.test_predictions.csv', predictions(p)]); else add(dir + '/file' + f + '.js');
}
for (let a = 0; a < 256; a++) for (let f = 0; f < 40; f++) {
  const dir = '.git/objects/' + a.toString(16).padStart(2, '0');
  if (f === 0) full.push([dir + '/obj.csv', predictions(a)]); else add(dir + '/obj' + f);
}
for (let d = 0; d < 20; d++) for (let f = 0; f < 100; f++) {
  if (f === 0) full.push(['dist/d' + d + '/built.test_predictions.csv', predictions(d)]); else add('dist/d' + d + '/chunk' + f + '.js');
}
for (let d = 0; d < 200; d++) for (let f = 0; f < 100; f++) add('src/mod' + d + '/file' + f + (f % 3 ? '.ts' : '.json'));
for (let d = 0; d < 383; d++) for (let f = 0; f < 20; f++) add('docs/section' + d + '/page' + f + '.md');
for (let i = 0; i < workerData.predictions; i++) {
  full.push(['data/run' + (i % 10) + '/model' + i + '.test_predictions.csv', predictions(i)]);
  full.push(['data/run' + (i % 10) + '/table' + i + '.csv', 'city,population\\nParis,2100000\\nLyon,520000\\n']);
}
for (const [rel] of full) dirs.add(path.dirname(rel));
for (const d of dirs) fs.mkdirSync(path.join(root, d), { recursive: true });
for (const [rel, text] of full) fs.writeFileSync(path.join(root, rel), text);
const list = path.join(root, '..', path.basename(root) + '.files');
fs.writeFileSync(list, empty.join('\\n') + '\\n');
execFileSync('xargs', ['-a', list, 'touch'], { cwd: root });
fs.rmSync(list);
fs.writeFileSync(path.join(root, 'file-count.txt'), String(empty.length + full.length));
`;

function allDirs(root: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    out.push(dir);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory() && !e.isSymbolicLink() && !skip(relative(root, p))) walk(p);
    }
  };
  walk(root);
  return out;
}

const PAST = new Date('2001-01-01T00:00:00Z');

suite('discovery on a large, hostile workspace', () => {
  let root: string;
  const link = () => fixture('scratch-100k');

  suiteSetup(async function () {
    this.timeout(300_000);
    root = mkdtempSync(join(tmpdir(), 'eval-lens-100k-'));
    const t0 = Date.now();
    await inWorker(GENERATE, { root, predictions: PREDICTIONS });
    // Symlink loops, a dangling link, a FIFO and /dev/zero named like predictions, a folder named like a CSV.
    symlinkSync('..', join(root, 'src', 'mod0', 'loop-to-parent'));
    symlinkSync('.', join(root, 'src', 'mod1', 'loop-to-self'));
    symlinkSync(root, join(root, 'data', 'loop-to-root'));
    symlinkSync('/nonexistent/eval-lens', join(root, 'data', 'dangling.test_predictions.csv'));
    symlinkSync('/dev/zero', join(root, 'data', 'zero.test_predictions.csv'));
    execFileSync('mkfifo', [join(root, 'data', 'fifo.test_predictions.csv')]);
    // A file that cannot be read, even by root: reading /proc/self/mem at offset 0 fails with EIO.
    symlinkSync('/proc/self/mem', join(root, 'data', 'unreadable.test_predictions.csv'));
    await fsp.mkdir(join(root, 'data', 'folder.test_predictions.csv'));
    await fsp.writeFile(join(root, 'data', 'locked.test_predictions.csv'), ',risk_score,label\n0,0.5,1\n');
    await fsp.chmod(join(root, 'data', 'locked.test_predictions.csv'), 0o000);
    await fsp.mkdir(join(root, 'data', 'locked-folder'));
    await fsp.writeFile(join(root, 'data', 'locked-folder', 'inside.test_predictions.csv'), ',risk_score,label\n0,0.5,1\n');
    await fsp.chmod(join(root, 'data', 'locked-folder'), 0o000);
    const files = Number(await fsp.readFile(join(root, 'file-count.txt'), 'utf8'));
    console.log(`    [eval-lens] generated ${files.toLocaleString('en')} files in ${Date.now() - t0} ms (running as uid ${process.getuid?.()})`);
    assert.ok(files >= 100_000);
  });

  suiteTeardown(async function () {
    this.timeout(120_000);
    const a = await api();
    try { unlinkSync(link()); } catch { /* not there */ }
    await fsp.chmod(join(root, 'data', 'locked-folder'), 0o755).catch(() => undefined);
    await fsp.rm(root, { recursive: true, force: true });
    await until(() => a.files.all().some((e) => e.path.startsWith(link())), (v) => !v, 'the linked files are forgotten', 30_000);
    await a.whenIdle();
  });

  test('finds exactly the predictions, walks neither node_modules nor .git, survives loops, FIFOs and devices (measured)', async function () {
    this.timeout(300_000);
    const a = await api();
    await a.whenIdle();
    symlinkSync(root, link());
    // The new folder is searched once when it appears; then a full discovery is timed.
    await until(() => a.files.all().some((e) => e.path.startsWith(`${link()}/`)), (found) => found, 'the linked folder searched', 120_000);
    await a.whenIdle(120_000);
    // Every folder's access time goes to the past (mtime kept) — the excluded ones and the control.
    const excluded = (rel: string) => /^(node_modules|\.git|dist)(\/|$)/.test(rel);
    const dirs = allDirs(root);
    const touched = (d: string) => statSync(d).atimeMs > PAST.getTime() + 1000;
    const reset = () => { for (const d of dirs) utimesSync(d, PAST, statSync(d).mtime); };
    // Whatever else lists folders (VS Code's own file watcher crawling the new link) must be done
    // first: reset, and wait for 2 s in which no folder was listed.
    // (The 2 s is the condition itself, a window with no folder listed, not a guess at a duration.)
    const quietWindow = () => new Promise((r) => setTimeout(r, 2000));
    let quiet = false;
    for (let k = 0; k < 15 && !quiet; k++) {
      reset();
      await quietWindow();
      const others = dirs.filter(touched);
      quiet = others.length === 0;
      if (!quiet) console.log(`    [eval-lens] before discovery, something else listed ${others.length} folders (${others.filter((d) => excluded(relative(root, d))).length} excluded ones); waiting`);
    }
    assert.ok(quiet, 'the folders were left alone for 2 s before discovery');
    const t0 = Date.now();
    await vscode.commands.executeCommand('evalLens.refresh');
    await a.whenIdle(120_000);
    const ms = Date.now() - t0;
    const found = a.files.all().filter((e) => e.path.startsWith(link() + '/')).map((e) => relative(link(), e.path)).sort();
    console.log(`    [eval-lens] discovery over the workspace with ${dirs.length.toLocaleString('en')} folders / 100,000+ files: ${ms} ms, ${found.length} prediction files found`);
    const expected = Array.from({ length: PREDICTIONS }, (_, i) => `data/run${i % 10}/model${i}.test_predictions.csv`).sort();
    assert.deepEqual(found.filter((f) => !f.startsWith('data/locked')), expected, 'exactly the prediction files under data/');
    // Nothing from the folders that must not be walked, nor the pipe, the device, the dangling link or the folder.
    assert.ok(!found.some((f) => /node_modules|\.git|dist|fifo|zero|dangling|unreadable|folder\.test/.test(f)), found.join('\n'));
    // Access times: no excluded folder was listed; the walked ones were.
    const excludedDirs = dirs.filter((d) => excluded(relative(root, d)));
    const walkedDirs = dirs.filter((d) => /^(src|docs|data)(\/|$)/.test(relative(root, d)) && !relative(root, d).startsWith('data/locked'));
    const listedExcluded = excludedDirs.filter(touched);
    console.log(`    [eval-lens] folders listed during discovery: ${walkedDirs.filter(touched).length} of ${walkedDirs.length} included, ${listedExcluded.length} of ${excludedDirs.length} in node_modules/.git/dist`);
    assert.deepEqual(listedExcluded.map((d) => relative(root, d)), [], 'node_modules, .git and dist were not walked');
    assert.ok(walkedDirs.filter(touched).length >= walkedDirs.length * 0.95, 'the included folders were walked (the control)');
    // The scoring workers are not stuck on the FIFO or /dev/zero: a file scores at once.
    const again = await a.scoring.score(fixture('folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv'), {});
    assert.equal(again.reports[0].n, 200);
  });

  test('a FIFO, /dev/zero, a dangling link and an unreadable file named like predictions get a clear message', async () => {
    const a = await api();
    for (const name of ['fifo', 'zero', 'dangling', 'unreadable']) {
      const path = join(root, 'data', `${name}.test_predictions.csv`);
      const t0 = Date.now();
      const r = await Promise.resolve(vscode.commands.executeCommand('evalLens.scoreBenchmark', { path, format: 'folktexts', show: false })).then(
        (x) => ({ ok: true as const, x }), (e: Error) => ({ ok: false as const, message: e.message }),
      );
      const ms = Date.now() - t0;
      console.log(`    [eval-lens] Score Benchmark on ${name}: ${r.ok ? 'scored?!' : r.message} (${ms} ms)`);
      assert.equal(r.ok, false);
      assert.ok(ms < 5000, 'answered at once');
    }
    assert.equal(a.workerJobs(), 0);
  });
});
