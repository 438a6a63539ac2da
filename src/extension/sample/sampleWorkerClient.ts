// The host's handle on the sample view's worker (src/extension/worker/sampleWorker.ts): one worker
// thread, started ahead of the first click (warm()), asked one request at a time, stopped after a
// long idle so that its memory goes back. No vscode import: plain Node.
import { Worker } from 'node:worker_threads';
import type { SampleQuery } from '../../core/types';
import type { SampleReply, WorkerReply } from '../worker/workerProtocol';

/** Idle this long, the worker is stopped (the next click starts it again). */
export const SAMPLE_WORKER_IDLE_MS = 10 * 60_000;

export class SampleWorkerClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: SampleReply[]) => void; reject: (e: Error) => void }>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly scriptPath: string, private readonly log: (line: string) => void = () => {}, private readonly idleMs = SAMPLE_WORKER_IDLE_MS) {}

  /** Starts the worker now (a report with samples is shown): the first click does not wait for it. */
  warm(): void {
    this.ensure();
    this.touch();
  }

  get running(): boolean {
    return !!this.worker;
  }

  /** The worker thread, when it runs (the memory log, worker/memoryLog.ts). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  read(queries: SampleQuery[], maxBytes: number | undefined): Promise<SampleReply[]> {
    const worker = this.ensure();
    this.touch();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ type: 'sample', id, queries, maxBytes });
    });
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    void this.worker?.terminate();
    this.worker = undefined;
    this.failAll(new Error('the sample reader was stopped'));
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.scriptPath);
    worker.on('message', (reply: WorkerReply) => {
      const job = this.waiting.get(reply.id);
      if (!job) return;
      this.waiting.delete(reply.id);
      if (reply.type === 'sampled') job.resolve(reply.answers);
      else job.reject(new Error(reply.type === 'failed' ? reply.message : `unexpected reply ${reply.type}`));
    });
    worker.on('error', (e) => {
      this.log(`[sample worker] error: ${e.message}`);
      if (this.worker === worker) this.worker = undefined;
      this.failAll(e);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('the sample reader stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(e: Error): void {
    for (const job of this.waiting.values()) job.reject(e);
    this.waiting.clear();
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.waiting.size) return this.touch();
      void this.worker?.terminate();
      this.worker = undefined;
    }, this.idleMs);
    this.idleTimer.unref?.();
  }
}
