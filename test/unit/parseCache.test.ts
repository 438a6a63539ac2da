// The scoring worker's kept parses (src/core/parseCache.ts, issue 28 point 11): a second score of an
// unchanged file does not parse it again, gives the same report, and anything that could change the
// parse (the file, a companion the parse read, an option a parser reads) parses again.
import { copyFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileParseCache, parseKey } from '../../src/core/parseCache';
import { scorePathAsync } from '../../src/core/scoreAsync';
import { resolveOptions } from '../../src/core/report';
import { REAL } from './realData';

const temps: string[] = [];
afterAll(() => { for (const d of temps) rmSync(d, { recursive: true, force: true }); });

/** A folktexts file (pandas index=True) of `rows` rows whose numbers depend on `salt`. */
function folktexts(dir: string, rows: number, salt = 0): string {
  const path = join(dir, 'ACSIncome_subsampled-0.01_seed-42_hash-4175979538.test_predictions.csv');
  const lines = Array.from({ length: rows }, (_, i) => `${i * 3 + 1},${(((i * 37 + salt) % 101) / 100).toFixed(2)},${(i * 7 + salt) % 3 === 0 ? 1 : 0}`);
  writeFileSync(path, `,risk_score,label\n${lines.join('\n')}\n`);
  return path;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'eval-lens-parse-cache-'));
  temps.push(d);
  return d;
}

describe('FileParseCache', () => {
  it('a second score of an unchanged file does not parse it again, and gives the same report', async () => {
    const dir = tempDir();
    const path = folktexts(dir, 1665);
    const cache = new FileParseCache();
    const first = await scorePathAsync(path, { parseCache: cache });
    expect(cache.parses).toBe(1);
    // The intervals pass: the same file and parse options, a bootstrap.
    const second = await scorePathAsync(path, { parseCache: cache, bootstrap: 20 });
    expect(cache.parses).toBe(1);
    expect(cache.hits).toBe(1);
    const fresh = await scorePathAsync(path, { bootstrap: 20 });
    expect(second.reports[0].metrics).toEqual(fresh.reports[0].metrics);
    expect(second.reports[0].intervals).toEqual(fresh.reports[0].intervals);
    expect(first.reports[0].metrics).toEqual(fresh.reports[0].metrics);
    expect(second.reports[0].n).toBe(1665);
  });

  it('hands out a copy: problems added while scoring one request do not pile up in the next', async () => {
    const dir = tempDir();
    // One label only: --threshold best adds its warning to the parse's problems (slices/slice.ts).
    const path = join(dir, 'one.test_predictions.csv');
    writeFileSync(path, ',risk_score,label\n1,0.2,1\n2,0.7,1\n3,oops,1\n4,0.9,1\n');
    const cache = new FileParseCache();
    const a = await scorePathAsync(path, { parseCache: cache, bestThreshold: true });
    const b = await scorePathAsync(path, { parseCache: cache, bestThreshold: true });
    expect(cache.parses).toBe(1);
    expect(a.reports[0].problems.map((p) => p.code)).toContain('best-threshold');
    expect(b.reports[0].problems).toEqual(a.reports[0].problems);
  });

  it('parses again when the file changed', async () => {
    const dir = tempDir();
    const path = folktexts(dir, 500);
    const cache = new FileParseCache();
    const before = await scorePathAsync(path, { parseCache: cache });
    folktexts(dir, 500, 5); // the same size, other numbers
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    const after = await scorePathAsync(path, { parseCache: cache });
    expect(cache.parses).toBe(2);
    expect(after.reports[0].metrics).toEqual((await scorePathAsync(path)).reports[0].metrics);
    expect(after.reports[0].metrics.auc).not.toBe(before.reports[0].metrics.auc);
  });

  it('parses again when a companion the parse read changed (folktexts results.bench-*.json)', async () => {
    const dir = tempDir();
    const path = folktexts(dir, 1665);
    const cache = new FileParseCache();
    const without = await scorePathAsync(path, { parseCache: cache });
    expect(without.reports[0].reported).toEqual({});
    // A results file appears beside the predictions: the folder's listing changed.
    copyFileSync(join(REAL, 'folktexts/results.minimal-example.Mistral-7B-Instruct-v0.2.ACSIncome.json'), join(dir, 'results.bench-3002019411.json'));
    utimesSync(dir, new Date(), new Date(Date.now() + 5_000));
    const withResults = await scorePathAsync(path, { parseCache: cache });
    expect(cache.parses).toBe(2);
    expect(withResults.reports[0].reported.auc).toBe(0.8150732886324653);
    // Unchanged since: kept.
    await scorePathAsync(path, { parseCache: cache });
    expect(cache.parses).toBe(2);
    expect(cache.hits).toBe(1);
  });

  it('parses again under options a parser reads; not under the bootstrap, its seed, its share or the interval method', () => {
    const base = resolveOptions({});
    expect(parseKey(resolveOptions({ bootstrap: 200, seed: 7, interval: 't', bootstrapPart: { index: 1, count: 2 } }))).toBe(parseKey(base));
    // HELM reads its texts only when the instances are wanted.
    expect(parseKey(resolveOptions({ instances: false }))).not.toBe(parseKey(base));
    expect(parseKey(resolveOptions({ format: 'generic' }))).not.toBe(parseKey(base));
    expect(parseKey(resolveOptions({ mapping: { score: 'p' } }))).not.toBe(parseKey(base));
    expect(parseKey(resolveOptions({ task: 'x' }))).not.toBe(parseKey(base));
  });

  it('keeps at most its number of entries, the latest used first', async () => {
    const cache = new FileParseCache(512 * 1024 * 1024, 2);
    const paths = [tempDir(), tempDir(), tempDir()].map((d) => folktexts(d, 100));
    for (const p of paths) await scorePathAsync(p, { parseCache: cache });
    expect(cache.size).toBe(2);
    await scorePathAsync(paths[2], { parseCache: cache });
    expect(cache.hits).toBe(1);
    await scorePathAsync(paths[0], { parseCache: cache }); // dropped: parsed again
    expect(cache.parses).toBe(4);
  });
});
