// One file is never parsed by two scoring workers at once (issue 29: the tree's score of a 300 MB
// Inspect log and the report's ran side by side in two workers, two parses' heaps; the extension
// host peaked above 500 MB). The pool holds a score of a file while another worker scores that file,
// then runs it in that worker, whose kept parse (src/core/parseCache.ts) serves it: the tree's
// options and the report's must therefore ask for the same parse.
//
// A stand-in worker (below) answers like the scoring worker and says which thread ran each job,
// when, at what nice value, and whether it had "parsed" the file before; the last test runs the real
// scoring worker (src/extension/worker/scoreWorker.ts, bundled here by esbuild) on a real .eval.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool, type Priority } from '../../src/extension/worker/workerPool';
import type { WorkerReply } from '../../src/extension/worker/workerProtocol';
import { FileParseCache, parseKey } from '../../src/core/parseCache';
import { scorePathAsync } from '../../src/core/scoreAsync';
import { resolveOptions } from '../../src/core/report';
import type { ScoreOptions } from '../../src/core/types';
import { REAL } from './realData';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-single-parse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Busy for options.ms (a loop: terminate() stops it, as it stops a parse), then 'scored' with the
// thread, the times, the nice value asked and whether this thread had seen the path before.
const standIn = join(dir, 'standIn.cjs');
writeFileSync(standIn, `const { parentPort, threadId } = require('node:worker_threads');
const seen = new Set();
parentPort.on('message', (req) => {
  const start = Date.now();
  const kept = seen.has(req.path);
  const until = start + (kept ? (req.options.keptMs ?? 1) : (req.options.ms ?? 60));
  while (Date.now() < until) { /* parsing */ }
  seen.add(req.path);
  parentPort.postMessage({ type: 'scored', id: req.id, result: { reports: [], summary: {} }, kept: 1,
    timings: { scoreMs: 0, encodeMs: 0, steps: [{ step: kept ? 'kept parse' : 'read+parse', ms: 0, cpuMs: 0 }] },
    thread: threadId, start, end: Date.now(), nice: req.nice });
});
`);

interface Ran { thread: number; start: number; end: number; nice?: number; step: string }

function ran(reply: WorkerReply): Ran {
  const r = reply as unknown as Ran & { timings: { steps: { step: string }[] } };
  return { thread: r.thread, start: r.start, end: r.end, nice: r.nice, step: r.timings.steps[0].step };
}

function score(pool: WorkerPool, path: string, priority: Priority, options: Record<string, unknown> = {}, text?: string): Promise<Ran> {
  return pool.run({ type: 'score', path, options: options as Partial<ScoreOptions>, detail: 'summary', ...(text !== undefined ? { text } : {}) }, { priority }).then(ran);
}

const overlap = (a: Ran, b: Ran) => a.start < b.end && b.start < a.end;

describe('the scoring pool: one file, one parse at a time', () => {
  it('two scores of one file asked at once run in one worker, one after the other; the second finds the parse', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const [a, b] = await Promise.all([score(pool, '/data/big.eval', 'interactive'), score(pool, '/data/big.eval', 'interactive')]);
      expect(b.thread).toBe(a.thread);
      expect(overlap(a, b)).toBe(false);
      expect([a.step, b.step]).toEqual(['read+parse', 'kept parse']);
    } finally {
      pool.dispose();
    }
  });

  it("the report's score of a file stops the tree's background score of it, which then runs after it in the same worker, not niced", async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const tree = score(pool, '/data/big.eval', 'background', { ms: 400 });
      const report = await score(pool, '/data/big.eval', 'interactive', { ms: 60 });
      const treeRan = await tree;
      expect(report.step).toBe('read+parse');
      expect(report.nice).toBeUndefined();
      // The tree's job ran once more, after the report's, on its worker, with its parse.
      expect(treeRan.thread).toBe(report.thread);
      expect(treeRan.start).toBeGreaterThanOrEqual(report.end);
      expect(treeRan.step).toBe('kept parse');
      expect(treeRan.nice).toBeUndefined();
    } finally {
      pool.dispose();
    }
  });

  it("the report's intervals pass waits for the tree's score running on the report's kept parse: it does not stop it and lose the parse", async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const report = score(pool, '/data/big.eval', 'interactive', { ms: 100 });
      const tree = score(pool, '/data/big.eval', 'background', { keptMs: 300 });
      const first = await report;
      // The tree's score now runs in the report's worker, on its kept parse; the intervals pass comes.
      const intervals = await score(pool, '/data/big.eval', 'interactive', { bootstrap: 200, ms: 100 });
      const treeRan = await tree;
      expect([treeRan.thread, treeRan.step]).toEqual([first.thread, 'kept parse']);
      expect([intervals.thread, intervals.step]).toEqual([first.thread, 'kept parse']);
      expect(intervals.start).toBeGreaterThanOrEqual(treeRan.end);
    } finally {
      pool.dispose();
    }
  });

  it('every worker busy, an interactive score of another file does not stop a background score on a kept parse either', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const report = score(pool, '/data/big.eval', 'interactive', { ms: 100 });
      const tree = score(pool, '/data/big.eval', 'background', { keptMs: 300 });
      const first = await report;
      const other = score(pool, '/data/other.csv', 'interactive', { ms: 300 });
      const third = await score(pool, '/data/third.csv', 'interactive', { ms: 50 });
      const [treeRan, otherRan] = await Promise.all([tree, other]);
      expect([treeRan.thread, treeRan.step]).toEqual([first.thread, 'kept parse']);
      expect(third.start).toBeGreaterThanOrEqual(Math.min(treeRan.end, otherRan.end));
      // And the kept parse is still there for the report's next pass.
      expect((await score(pool, '/data/big.eval', 'interactive')).step).toBe('kept parse');
    } finally {
      pool.dispose();
    }
  });

  it("a background score of a file the report's worker is scoring waits for it; another file's does not", async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const report = score(pool, '/data/big.eval', 'interactive', { ms: 300 });
      const sameFile = score(pool, '/data/big.eval', 'background');
      const other = score(pool, '/data/other.csv', 'background', { ms: 60 });
      const [r, s, o] = await Promise.all([report, sameFile, other]);
      expect(s.thread).toBe(r.thread);
      expect(s.start).toBeGreaterThanOrEqual(r.end);
      expect(s.step).toBe('kept parse');
      // The other file ran meanwhile, in the other worker, niced as background jobs are.
      expect(o.thread).not.toBe(r.thread);
      expect(overlap(o, r)).toBe(true);
      expect(o.nice).toBe(10);
    } finally {
      pool.dispose();
    }
  });

  it('scores of two files, the shares of a split intervals pass and an unsaved buffer still run side by side', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const [a, b] = await Promise.all([score(pool, '/data/a.csv', 'interactive', { ms: 200 }), score(pool, '/data/b.csv', 'interactive', { ms: 200 })]);
      expect(a.thread).not.toBe(b.thread);
      expect(overlap(a, b)).toBe(true);
      const shares = await Promise.all([0, 1].map((index) => score(pool, '/data/c.csv', 'interactive', { ms: 200, bootstrapPart: { index, count: 2 } })));
      expect(shares[0].thread).not.toBe(shares[1].thread);
      expect(overlap(shares[0], shares[1])).toBe(true);
      const [disk, buffer] = await Promise.all([score(pool, '/data/d.csv', 'interactive', { ms: 200 }), score(pool, '/data/d.csv', 'interactive', { ms: 200 }, 'a,b\n')]);
      expect(overlap(disk, buffer)).toBe(true);
    } finally {
      pool.dispose();
    }
  });
});

describe("the tree's and the report's options ask for one parse", () => {
  // What src/extension/settings.ts backgroundOptions (the tree) and panelOptions + report/slicing.ts
  // sliceOptions (the report: first pass without bootstrap, then its intervals pass) give by default.
  const tree: Partial<ScoreOptions> = { bins: 10, threshold: 0.5, hmrBeta: 1, bootstrap: 0, raftData: undefined, decision: undefined };
  const reportFirst: Partial<ScoreOptions> = { ...tree, bootstrap: 0, listColumns: {} };
  const reportIntervals: Partial<ScoreOptions> = { ...tree, bootstrap: 1000, listColumns: {} };

  it('one parse key; not when the instances are not wanted (a parser then reads texts only for a column list)', () => {
    expect(parseKey(resolveOptions(reportFirst))).toBe(parseKey(resolveOptions(tree)));
    expect(parseKey(resolveOptions(reportIntervals))).toBe(parseKey(resolveOptions(tree)));
    expect(parseKey(resolveOptions({ ...tree, instances: false, listColumns: {} }))).not.toBe(parseKey(resolveOptions({ ...tree, instances: false })));
    // A column list with a data file is read after the parse too.
    expect(parseKey(resolveOptions({ ...reportFirst, listColumns: { dataPath: '/d.csv' } }))).toBe(parseKey(resolveOptions(tree)));
  });

  it("a real .eval scored for the report then for the tree is parsed once, and the tree's report is the one a fresh parse gives", async () => {
    const path = join(REAL, 'inspect-ai/log_message_deduplication.eval');
    const cache = new FileParseCache();
    const report = await scorePathAsync(path, { ...reportFirst, parseCache: cache });
    const treeScore = await scorePathAsync(path, { ...tree, parseCache: cache });
    expect(cache.parses).toBe(1);
    expect(cache.hits).toBe(1);
    const fresh = await scorePathAsync(path, tree);
    expect(treeScore.reports[0].n).toBeGreaterThan(0);
    expect(treeScore.reports[0].metrics).toEqual(fresh.reports[0].metrics);
    expect(treeScore.reports[0].problems).toEqual(fresh.reports[0].problems);
    expect(report.reports[0].metrics).toEqual(fresh.reports[0].metrics);
    // The report lists its columns; the tree's score does not (its options ask for none).
    expect(treeScore.reports[0].groupColumns).toBeUndefined();
  });
});

describe('the real scoring worker', () => {
  it("the tree's score and the report's of one .eval, asked at once, parse it once", async () => {
    const script = join(dir, 'scoreWorker.js');
    await build({ entryPoints: [join(__dirname, '../../src/extension/worker/scoreWorker.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'error' });
    const pool = new WorkerPool(script, 2);
    const path = join(REAL, 'inspect-ai/log_message_deduplication.eval');
    const tree: Partial<ScoreOptions> = { bins: 10, threshold: 0.5, hmrBeta: 1, bootstrap: 0 };
    try {
      const treeJob = pool.run({ type: 'score', path, options: tree, detail: 'summary' }, { priority: 'background' });
      const reportJob = pool.run({ type: 'score', path, options: { ...tree, listColumns: {} }, detail: 'panel' }, { priority: 'interactive' });
      const [t, r] = await Promise.all([treeJob, reportJob]);
      if (t.type !== 'scored' || r.type !== 'scored') throw new Error(`not scored: ${t.type}, ${r.type}`);
      expect(r.timings?.steps?.[0].step).toBe('read+parse');
      expect(t.timings?.steps?.[0].step).toBe('kept parse');
      const fresh = await scorePathAsync(path, tree);
      expect(t.result.reports[0].metrics).toEqual(fresh.reports[0].metrics);
      expect(r.result.reports[0].metrics).toEqual(fresh.reports[0].metrics);
    } finally {
      pool.dispose();
    }
  }, 60_000);
});
