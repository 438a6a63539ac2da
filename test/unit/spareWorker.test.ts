// The pool's spare worker (workerPool.prepare, issue 28.11): started at activation at full priority
// and warmed on made-up tables, it is the worker the first urgent job runs in (no thread start, code
// already compiled), while background jobs (the tree's scores, run at a lower priority) take another
// slot and leave it at full priority. A stand-in worker says which thread ran each request and at
// what nice value; the last test runs the real scoring worker's warm-up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { IDLE_NICE, LOW_PRIORITY_NICE, WorkerPool, type Priority } from '../../src/extension/worker/workerPool';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-spare-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Answers every request with its thread, the nice value it was sent with, and the requests this
// thread had seen before it (a warm-up among them).
const standIn = join(dir, 'standIn.cjs');
writeFileSync(standIn, `const { parentPort, threadId } = require('node:worker_threads');
const seen = [];
parentPort.on('message', (req) => {
  const before = seen.slice();
  seen.push(req.type);
  const until = Date.now() + (req.type === 'warmUp' ? 80 : 20);
  while (Date.now() < until) { /* working */ }
  parentPort.postMessage({ type: 'scored', id: req.id, result: { reports: [], summary: {} }, thread: threadId, nice: req.nice, before });
});
`);

interface Ran { thread: number; nice?: number; before: string[] }

function run(pool: WorkerPool, path: string, priority: Priority): Promise<Ran> {
  return pool.run({ type: 'score', path, options: {}, detail: 'summary' }, { priority }).then((r) => r as unknown as Ran);
}

describe('the spare worker', () => {
  it('the first urgent job runs in the warmed spare, even one sent while it warms up', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      pool.prepare({ type: 'warmUp' });
      expect(pool.threads()).toHaveLength(1);
      const job = await run(pool, '/data/a.csv', 'interactive');
      expect(job.before).toEqual(['warmUp']);
      expect(job.nice).toBeUndefined();
      expect(pool.threads()).toHaveLength(1);
    } finally {
      pool.dispose();
    }
  });

  it('a background job takes the other slot and is niced there; the spare stays at full priority for the urgent job', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      pool.prepare({ type: 'warmUp' });
      const tree = await run(pool, '/data/tree.csv', 'background');
      expect(tree.before).toEqual([]);
      expect(tree.nice).toBe(10);
      expect(pool.threads()).toHaveLength(2);
      expect(pool.threads().filter((t) => t.name.endsWith('(niced)'))).toHaveLength(1);
      const report = await run(pool, '/data/report.csv', 'interactive');
      expect(report.before).toEqual(['warmUp']);
      expect(report.thread).not.toBe(tree.thread);
      expect(report.nice).toBeUndefined();
    } finally {
      pool.dispose();
    }
  });

  it('is not started when a worker at full priority runs already, nor twice', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      await run(pool, '/data/a.csv', 'interactive');
      pool.prepare({ type: 'warmUp' });
      expect(pool.threads()).toHaveLength(1);
    } finally {
      pool.dispose();
    }
    const other = new WorkerPool(standIn, 2);
    try {
      other.prepare({ type: 'warmUp' });
      other.prepare({ type: 'warmUp' });
      expect(other.threads()).toHaveLength(1);
    } finally {
      other.dispose();
    }
  });

  it('the real scoring worker warms up on its made-up tables and then scores a file', async () => {
    const script = join(dir, 'scoreWorker.cjs');
    await build({ entryPoints: [join(__dirname, '../../src/extension/worker/scoreWorker.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'error' });
    const pool = new WorkerPool(script, 2);
    try {
      const reply = await pool.run({ type: 'warmUp' }, { priority: 'interactive' });
      expect(reply.type).toBe('warmedUp');
      const path = join(dir, 'three.test_predictions.csv');
      writeFileSync(path, ',risk_score,label\n5,0.9,1\n6,0.2,0\n7,0.6,0\n');
      const scored = await pool.run({ type: 'score', path, options: { bootstrap: 0 }, detail: 'summary' }, { priority: 'interactive' });
      if (scored.type !== 'scored') throw new Error(`not scored: ${scored.type}`);
      expect(scored.result.reports[0].n).toBe(3);
      expect(scored.result.reports[0].metrics.accuracy).toBeCloseTo(2 / 3, 15);
    } finally {
      pool.dispose();
    }
  });
});

describe('onStart: when a worker takes a job (a report made ahead is waited for only then)', () => {
  it('is told when the job starts, not while it waits behind another background job of the pool', async () => {
    const pool = new WorkerPool(standIn, 2);
    try {
      const started: string[] = [];
      const first = pool.run({ type: 'score', path: '/data/first.csv', options: {}, detail: 'summary' }, { priority: 'background', onStart: () => started.push('first') });
      const second = pool.run({ type: 'score', path: '/data/second.csv', options: {}, detail: 'summary' }, { priority: 'background', onStart: () => started.push('second') });
      // One background job at a time (maxBackground 1): the second waits in the queue.
      expect(started).toEqual(['first']);
      await first;
      expect(started).toEqual(['first', 'second']);
      await second;
    } finally {
      pool.dispose();
    }
  });
});

describe('the idle pool (the intervals of reports made ahead)', () => {
  it('runs its low-priority jobs at the nice value it was made with (IDLE_NICE), the tree\'s pool at LOW_PRIORITY_NICE', async () => {
    const idle = new WorkerPool(standIn, 1, 1, () => {}, 15_000, 15_000, IDLE_NICE);
    const tree = new WorkerPool(standIn, 1);
    try {
      expect((await run(idle, '/data/a.csv', 'background')).nice).toBe(19);
      expect((await run(tree, '/data/a.csv', 'background')).nice).toBe(LOW_PRIORITY_NICE);
    } finally {
      idle.dispose();
      tree.dispose();
    }
  });
});
