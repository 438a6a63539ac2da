// The scoring pool keeps a worker that holds parses of files longer than an empty one (issue 28
// point 11): a report opened again a little later finds its parse (src/core/parseCache.ts) instead of
// a fresh worker. A stand-in worker answers like the scoring worker; the idle timers are faked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { WorkerPool } from '../../src/extension/worker/workerPool';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-pool-'));
const script = join(dir, 'worker.cjs');
// 'scored' with `kept` bytes when the request asks for it (the real worker reports its cache's size).
writeFileSync(script, `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (req) => parentPort.postMessage({ type: 'scored', id: req.id, result: { reports: [], summary: {} }, kept: req.options.keep ? 4096 : 0 }));
`);

afterEach(() => { vi.useRealTimers(); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runOnce(pool: WorkerPool, keep: boolean): Promise<void> {
  const reply = await pool.run({ type: 'score', path: '/x.csv', options: { keep } as never }, { priority: 'interactive' });
  expect(reply.type).toBe('scored');
}

describe('WorkerPool: a worker that keeps parses stays longer', () => {
  it('an idle worker that keeps nothing goes after the idle time; one that keeps parses after the longer one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const plain = new WorkerPool(script, 1, 1, () => {}, 1_000, 60_000);
    const keeping = new WorkerPool(script, 1, 1, () => {}, 1_000, 60_000);
    try {
      await runOnce(plain, false);
      await runOnce(keeping, true);
      expect([plain.workers, keeping.workers]).toEqual([1, 1]);
      vi.advanceTimersByTime(1_001);
      expect(plain.workers).toBe(0);
      expect(keeping.workers).toBe(1);
      vi.advanceTimersByTime(59_000);
      expect(keeping.workers).toBe(0);
    } finally {
      plain.dispose();
      keeping.dispose();
    }
  });

  it('a worker whose last reply keeps nothing any more goes after the short idle time again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pool = new WorkerPool(script, 1, 1, () => {}, 1_000, 60_000);
    try {
      await runOnce(pool, true);
      await runOnce(pool, false);
      vi.advanceTimersByTime(1_001);
      expect(pool.workers).toBe(0);
    } finally {
      pool.dispose();
    }
  });
});
