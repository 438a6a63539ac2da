// An interactive job that pre-empts a background one of its file (the tree parsing a file the user
// has just clicked) runs in the warmed spare when it is free, not in a fresh worker in the stopped
// slot (issue 28.11: the spare's code is compiled; a fresh worker's is not). A stand-in worker
// answers like the scoring worker, with its thread id, and holds a reply when asked to.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/extension/worker/workerPool';
import type { WorkerReply } from '../../src/extension/worker/workerProtocol';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-pool-preempt-'));
const script = join(dir, 'worker.cjs');
writeFileSync(script, `const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', (req) => {
  if (req.type === 'warmUp') { parentPort.postMessage({ type: 'warmedUp', id: req.id, ms: 1 }); return; }
  const reply = () => parentPort.postMessage({ type: 'scored', id: req.id, result: { reports: [], summary: { threadId } } });
  if (req.options && req.options.holdMs) setTimeout(reply, req.options.holdMs); else reply();
});
`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const threadOf = (reply: WorkerReply) => (reply.type === 'scored' ? (reply.result.summary as unknown as { threadId: number }).threadId : -1);

describe('WorkerPool: an interactive job pre-empting a background one of its file', () => {
  it('runs in the warmed spare, free beside the stopped worker; the background job runs after it', async () => {
    const pool = new WorkerPool(script, 2);
    try {
      pool.prepare({ type: 'warmUp' } as never);
      const [spare] = pool.threads();
      expect(spare).toBeDefined();
      const file = { type: 'score', path: '/data/big.csv' };
      // The tree's background score of the file, long, in the other slot (the spare is left to urgent jobs).
      const background = pool.run({ ...file, options: { holdMs: 60_000 } } as never, { priority: 'background' });
      expect(pool.threads()).toHaveLength(2);
      const treeWorker = pool.threads().find((t) => t.worker !== spare.worker)!.worker;
      const urgent = await pool.run({ ...file, options: {} } as never, { priority: 'interactive' });
      expect(threadOf(urgent)).toBe(spare.worker.threadId);
      expect(pool.threads().some((t) => t.worker === treeWorker)).toBe(false); // the tree's worker was stopped
      // Queued again, and started once the file was free (its hold is 60 s: it is still running).
      expect(pool.busy).toBe(1);
      void background.catch(() => undefined);
    } finally {
      pool.dispose();
    }
  });
});
