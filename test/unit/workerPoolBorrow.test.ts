// A job whose reply another request is making takes that reply instead of a worker (issue 28.11:
// a report opened before the tree scored its file had the file scored twice, the tree's pass on
// the report's kept parse delaying the intervals). A stand-in worker answers like the scoring
// worker, naming itself in the reply, and counts the requests it got.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/extension/worker/workerPool';
import type { WorkerReply } from '../../src/extension/worker/workerProtocol';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-pool-borrow-'));
const script = join(dir, 'worker.cjs');
writeFileSync(script, `const { parentPort } = require('node:worker_threads');
let seen = 0;
parentPort.on('message', (req) => { seen++; parentPort.postMessage({ type: 'scored', id: req.id, result: { reports: [], summary: { from: 'worker', seen } } }); });
`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const body = { type: 'score', path: '/data/x.csv', options: {} } as const;
const borrowed = (from: string): WorkerReply => ({ type: 'scored', id: 0, result: { reports: [], summary: { from } as never } });
const from = (reply: WorkerReply) => (reply.type === 'scored' ? (reply.result.summary as unknown as { from: string; seen?: number }) : undefined);

describe('WorkerPool: a job borrows the reply another request is making', () => {
  it('takes the borrowed reply, with its own id, and no worker gets the request', async () => {
    const pool = new WorkerPool(script, 2);
    try {
      const reply = await pool.run(body as never, { priority: 'interactive', borrow: () => Promise.resolve(borrowed('report')) });
      expect(from(reply)?.from).toBe('report');
      expect(reply.id).toBeGreaterThan(0);
      expect(pool.workers).toBe(0); // no worker was started for it
    } finally {
      pool.dispose();
    }
  });

  it('runs in a worker when the borrowed pass brings nothing (cancelled, or the file read otherwise) or fails', async () => {
    const pool = new WorkerPool(script, 1);
    try {
      expect(from(await pool.run(body as never, { priority: 'background', borrow: () => Promise.resolve(undefined) }))?.from).toBe('worker');
      expect(from(await pool.run(body as never, { priority: 'background', borrow: () => Promise.reject(new Error('cancelled')) }))?.from).toBe('worker');
      // No pass to borrow at its turn: it runs at once.
      expect(from(await pool.run(body as never, { priority: 'background', borrow: () => undefined }))?.from).toBe('worker');
    } finally {
      pool.dispose();
    }
  });

  it("is asked at the job's turn: not while another worker scores the same file, then once", async () => {
    const pool = new WorkerPool(script, 2);
    try {
      let asked = 0;
      let lend: (r: WorkerReply | undefined) => void = () => {};
      const report = pool.run(body as never, { priority: 'interactive' });
      const tree = pool.run(body as never, { priority: 'interactive', borrow: () => { asked++; return new Promise((r) => { lend = r; }); } });
      expect(asked).toBe(0); // the report's job holds the file
      await report;
      expect(asked).toBe(1);
      expect(pool.busy).toBe(1); // the tree's job, waiting for the borrowed reply, is still work to do
      lend(borrowed('report'));
      expect(from(await tree)?.from).toBe('report');
      expect(pool.busy).toBe(0);
    } finally {
      pool.dispose();
    }
  });

  it('a job cancelled while it waits for the borrowed reply is rejected and never runs', async () => {
    const pool = new WorkerPool(script, 1);
    try {
      const abort = new AbortController();
      let lend: (r: WorkerReply | undefined) => void = () => {};
      const tree = pool.run(body as never, { priority: 'background', signal: abort.signal, borrow: () => new Promise((r) => { lend = r; }) });
      abort.abort();
      await expect(tree).rejects.toThrow('cancelled');
      lend(undefined);
      // The next job is the worker's first request: the cancelled one was never sent.
      expect(from(await pool.run(body as never, { priority: 'interactive' }))?.seen).toBe(1);
    } finally {
      pool.dispose();
    }
  });
});
