// A small pool of scoring workers. Cancelling a running job terminates its worker (scoring is
// synchronous inside the worker, so there is no gentler way to stop it) and a fresh one starts on
// demand. Interactive jobs (a command, the open editor) go first and may pre-empt background jobs
// (discovery of unopened files), which are then re-queued. No vscode import: plain Node.
//
// Two things keep the extension host responsive on a machine with few cores: long jobs nobody
// waits for (background scoring) run in a worker thread of lower scheduling
// priority (nice 10, Linux; a worker never goes back up, a fresh one takes the next urgent job),
// and a worker idle for a while is terminated, which gives its heap (hundreds of MB after a
// million-row file) back to the system; one that keeps parses for the next request (a report opened
// again) after a longer while.
//
// One file is never parsed by two workers at once (issue 29: the tree's score of a 300 MB log and
// the report's, side by side, held two parses' heaps; the extension host peaked above 500 MB). A
// score of a file waits while another worker scores that same file, then runs in that worker, which
// keeps the parse (src/core/parseCache.ts): the second request costs the metrics, not a parse. An
// interactive score waiting so behind a background one of its file stops it (it is run again after,
// on the interactive one's worker, at that worker's priority: a kept parse makes it short).
import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './workerProtocol';

export type Priority = 'interactive' | 'background';

/** Thrown (rejected) when a job was cancelled: callers ignore it. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export function isCancelled(e: unknown): boolean {
  return e instanceof CancelledError;
}

/** A request without its id: the pool numbers jobs itself. */
type Body = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

interface Job {
  id: number;
  body: Body;
  priority: Priority;
  resolve(reply: WorkerReply): void;
  reject(e: unknown): void;
  onProgress?: (fraction: number) => void;
  /** Run at a lower scheduling priority (see the top of this file). */
  lowPriority: boolean;
  /** Told when a worker starts the job (it may wait in the queue behind others first). */
  onStart?: () => void;
  settled: boolean;
  /** The file a score job parses from disk (see fileOf): never parsed by two workers at once. */
  file?: string;
  /** performance.now() when it was queued (the trace's wait). */
  queuedAt: number;
  /** Another request's reply that stands for this job's, when one is being made (see run()). */
  borrow?: () => Promise<WorkerReply | undefined> | undefined;
}

interface Slot {
  worker?: Worker;
  job?: Job;
  /** The worker's thread was given a lower priority. */
  niced?: boolean;
  /** The worker's last reply said it keeps parses of files (a 'scored' reply's `kept` bytes). */
  keeps?: boolean;
  /** Files this worker scored from disk, latest first (it may keep their parses). */
  files: string[];
  /** Its job's file was among `files` when the job started: it costs the metrics, not a parse. */
  onKeptParse?: boolean;
  /** Started by prepare() and not used yet: kept for an urgent job (background jobs take another slot first). */
  spare?: boolean;
  idleTimer?: NodeJS.Timeout;
}

/** How many of a worker's latest files it is asked for again first (parseCache keeps 4 parses). */
const FILES_REMEMBERED = 4;

/**
 * The file a request parses from disk and the worker's parse cache may keep: a score without an
 * unsaved buffer's text. A share of a split intervals pass (bootstrapPart) is meant to run beside
 * the other shares, so it has none.
 */
export function fileOf(body: { type: string; path?: string; text?: string; options?: { bootstrapPart?: unknown } }): string | undefined {
  if (body.type !== 'score' || body.text !== undefined || body.options?.bootstrapPart) return undefined;
  return body.path;
}

/** A worker idle this long is terminated (its memory returned); the next job starts a fresh one. */
export const WORKER_IDLE_MS = 15_000;
/**
 * A worker that keeps parses of files (src/core/parseCache.ts) stays this long: a report opened
 * again a minute later is not read and parsed again (issue 28.11). It holds the parses' columns
 * (~25 MB for a million rows) meanwhile.
 */
export const KEEPING_WORKER_IDLE_MS = 180_000;
/** Thread priority of low-priority jobs (nice value). */
export const LOW_PRIORITY_NICE = 10;
/** The lowest: work that may use only what nothing else wants (the intervals of a report made ahead). */
export const IDLE_NICE = 19;

export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private disposed = false;
  /** Jobs waiting for another request's reply instead of a worker (tryBorrow). */
  private borrowing = 0;
  /**
   * Hears each job a worker starts: which slot, how it found it, how long the job waited (the
   * extension's debug log; bench/explorer-first-chart.mjs prints it with BENCH_HOST_LOG=1).
   */
  trace: ((line: string) => void) | undefined;

  /**
   * `maxBackground` workers at most run background jobs, so scoring a whole workspace leaves a
   * core to the editor and a worker free for what the user asked for.
   */
  constructor(
    private readonly scriptPath: string,
    size: number,
    private readonly maxBackground = 1,
    private readonly log: (line: string) => void = () => {},
    private readonly idleMs = WORKER_IDLE_MS,
    private readonly keepingIdleMs = KEEPING_WORKER_IDLE_MS,
    /** The nice value low-priority jobs run at (the idle pool of reports made ahead: IDLE_NICE). */
    private readonly lowNice = LOW_PRIORITY_NICE,
  ) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({ files: [] }));
  }

  /**
   * Starts a worker at full priority in an empty slot, unless one is running, and has it run `body`
   * once (a warm-up: workerProtocol 'warmUp'), so that the first urgent job, a report opened after a
   * window reload, finds a thread running whose code V8 has compiled (issue 28.11: a million-row
   * report took 0.15-0.2 s less wall time in a warmed worker, scoreWorker.ts warmUp). It is no job: a
   * job sent meanwhile waits behind it in the worker's queue. Background jobs leave the spare alone
   * while another slot is free, so it keeps its priority; unused, it goes after the keeping timeout.
   */
  prepare(body: Body): void {
    if (this.disposed || this.slots.some((s) => s.worker && !s.niced)) return;
    const slot = this.slots.find((s) => !s.worker && !s.job);
    if (!slot) return;
    slot.worker = this.spawn(slot);
    slot.niced = false;
    slot.spare = true;
    slot.worker.postMessage({ ...body, id: 0 } as WorkerRequest); // id 0: no job waits for its reply
    this.idle(slot);
  }

  /**
   * Run one request; rejects with CancelledError when `signal` aborts first. `lowPriority`: nobody
   * waits for it (default: background jobs). `onStart`: a worker took it from the queue. `borrow`,
   * asked when the job's turn comes: a reply being made by another request that stands for this
   * job's (the tree's score of a file the report has just scored with the same options); the job
   * takes it instead of a worker, or runs when it brings none.
   */
  run(body: Body, opts: { priority: Priority; signal?: AbortSignal; onProgress?: (fraction: number) => void; lowPriority?: boolean; onStart?: () => void; borrow?: () => Promise<WorkerReply | undefined> | undefined }): Promise<WorkerReply> {
    if (this.disposed) return Promise.reject(new CancelledError());
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    return new Promise<WorkerReply>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++, body, priority: opts.priority, resolve, reject, onProgress: opts.onProgress,
        lowPriority: opts.lowPriority ?? opts.priority === 'background', onStart: opts.onStart, settled: false, file: fileOf(body),
        queuedAt: performance.now(), borrow: opts.borrow,
      };
      opts.signal?.addEventListener('abort', () => this.cancel(job), { once: true });
      this.enqueue(job);
      this.dispatch();
    });
  }

  /** Jobs waiting or running. */
  get busy(): number {
    return this.queue.length + this.borrowing + this.slots.filter((s) => s.job).length;
  }

  /** Workers the pool may run at once. */
  get size(): number {
    return this.slots.length;
  }

  /** Worker threads alive (for tests). */
  get workers(): number {
    return this.slots.filter((s) => s.worker).length;
  }

  /** The worker threads alive, named by their slot (the memory log, memoryLog.ts). */
  threads(): { name: string; worker: Worker }[] {
    return this.slots.flatMap((s, k) => (s.worker ? [{ name: `scoring worker ${k}${s.niced ? ' (niced)' : ''}`, worker: s.worker }] : []));
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(new CancelledError()));
    for (const slot of this.slots) {
      if (slot.job) this.settle(slot.job, () => slot.job!.reject(new CancelledError()));
      clearTimeout(slot.idleTimer);
      void slot.worker?.terminate();
      slot.worker = undefined;
      slot.job = undefined;
    }
  }

  private enqueue(job: Job, front = false): void {
    if (job.priority === 'interactive') {
      // After the interactive jobs already waiting, before every background job.
      const firstBackground = this.queue.findIndex((j) => j.priority === 'background');
      this.queue.splice(firstBackground === -1 ? this.queue.length : firstBackground, 0, job);
    } else if (front) {
      const firstBackground = this.queue.findIndex((j) => j.priority === 'background');
      this.queue.splice(firstBackground === -1 ? this.queue.length : firstBackground, 0, job);
    } else {
      this.queue.push(job);
    }
  }

  private dispatch(): void {
    if (this.disposed) return;
    for (;;) {
      const free = this.slots.filter((s) => !s.job);
      if (!free.length) break;
      const next = this.nextRunnable();
      if (next === -1) break;
      const job = this.queue.splice(next, 1)[0];
      if (this.tryBorrow(job)) continue;
      // The worker that scored this file last (it keeps the parse), when its priority suits the job:
      // a low-priority job there keeps the worker's priority (it costs the metrics, not a parse).
      const keeping = job.file ? free.find((s) => s.worker && s.files.includes(job.file!) && (job.lowPriority || !s.niced)) : undefined;
      if (keeping) {
        this.start(keeping, job, !keeping.niced);
        continue;
      }
      // A low-priority job takes a running worker (its heap is reused: a bootstrap pass right after
      // the first pass of a large file then costs no second heap); an urgent one a worker at full
      // priority, else a fresh one.
      const slot = job.lowPriority
        ? free.find((s) => s.worker && s.niced) ?? free.find((s) => s.worker && !s.spare) ?? free.find((s) => !s.spare) ?? free[0]
        : free.find((s) => s.worker && !s.niced) ?? free.find((s) => !s.worker) ?? free[0];
      this.start(slot, job);
    }
    this.preempt();
  }

  /**
   * Has `job` wait for the reply its `borrow` names, when it names one: that reply settles it. None
   * comes (that request was cancelled, or read the file otherwise): the job is queued again, in
   * front, and runs. Asked once a reply is named; a job pre-empted before asks again.
   * Issue 28.11: a report opened before the tree scored its file scored it twice, the tree's pass
   * on the report's kept parse (~0.25 s of CPU on a million rows) delaying the intervals' share.
   */
  private tryBorrow(job: Job): boolean {
    const source = job.borrow?.();
    if (!source) return false;
    job.borrow = undefined;
    this.borrowing++;
    const resume = (reply: WorkerReply | undefined) => {
      this.borrowing--;
      if (job.settled) return;
      if (reply) {
        this.trace?.(`pool: ${job.priority} ${job.body.type} took another request's reply after ${Math.round(performance.now() - job.queuedAt)} ms`);
        this.settle(job, () => job.resolve({ ...reply, id: job.id } as WorkerReply));
      } else if (this.disposed) {
        this.settle(job, () => job.reject(new CancelledError()));
      } else {
        this.enqueue(job, true);
        this.dispatch();
      }
    };
    source.then(resume, () => resume(undefined));
    return true;
  }

  /**
   * An interactive job waiting pre-empts a background job: the one parsing its own file (it waits
   * for that one: see the top of this file), else any when every slot is busy. A background job
   * that found its file's parse kept is never stopped (it is short, and stopping it would lose the
   * parse); one waiting for it, or for an interactive job of its file, just waits.
   */
  private preempt(): void {
    for (const waiting of this.queue) {
      if (waiting.priority !== 'interactive') break;
      const holder = waiting.file ? this.slots.find((s) => s.job?.file === waiting.file) : undefined;
      if (holder && (holder.job!.priority !== 'background' || holder.onKeptParse)) continue;
      const victim = holder ?? (this.slots.every((s) => s.job) ? this.slots.find((s) => s.job?.priority === 'background' && !s.onKeptParse) : undefined);
      if (!victim) continue;
      const requeued = victim.job!;
      this.trace?.(`pool: background ${requeued.body.type} of slot ${this.slots.indexOf(victim)} stopped for an interactive ${waiting.body.type} (it is queued again)`);
      this.stopSlot(victim);
      this.enqueue(requeued, true);
      this.queue.splice(this.queue.indexOf(waiting), 1);
      // A worker free at full priority (the warmed spare: its code compiled) when there is one, not
      // a fresh one in the stopped slot: a report clicked while the tree parsed its file got a cold
      // worker beside an idle warmed one (issue 28.11).
      this.start(this.slots.find((s) => !s.job && s.worker && !s.niced) ?? victim, waiting);
      this.dispatch();
      return;
    }
  }

  /**
   * Index of the first queued job allowed to start now, or -1: interactive jobs first, background
   * ones while fewer than maxBackground run; none whose file another worker is scoring.
   */
  private nextRunnable(): number {
    const running = new Set(this.slots.map((s) => s.job?.file).filter((f): f is string => !!f));
    let runningBackground = this.slots.filter((s) => s.job?.priority === 'background').length;
    for (let k = 0; k < this.queue.length; k++) {
      const job = this.queue[k];
      if (job.file && running.has(job.file)) continue;
      if (job.priority === 'interactive' || runningBackground < this.maxBackground) return k;
      runningBackground = Infinity; // background jobs keep their order: none overtakes the first one waiting
    }
    return -1;
  }

  /** Runs `job` in `slot`; `keepPriority`: a low-priority job does not lower the worker's priority. */
  private start(slot: Slot, job: Job, keepPriority = false): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    // A thread's priority is only ever lowered (raising it needs privileges): an urgent job gets a
    // fresh worker rather than one that ran a low-priority job.
    if (slot.worker && slot.niced && !job.lowPriority) this.stopSlot(slot);
    slot.job = job;
    const spare = slot.spare;
    slot.spare = false;
    const fresh = !slot.worker;
    if (!slot.worker) {
      slot.worker = this.spawn(slot);
      slot.niced = false;
    }
    slot.onKeptParse = !!job.file && slot.files.includes(job.file);
    if (job.file) slot.files = [job.file, ...slot.files.filter((f) => f !== job.file)].slice(0, FILES_REMEMBERED);
    const nice = job.lowPriority && !slot.niced && !keepPriority ? this.lowNice : undefined;
    if (nice !== undefined) slot.niced = true;
    slot.worker.postMessage({ ...job.body, id: job.id, nice } as WorkerRequest);
    if (this.trace) {
      const how = fresh ? 'a new worker' : slot.onKeptParse ? 'its kept parse' : spare ? 'the warmed spare' : 'a running worker';
      const body = job.body as { type: string; path?: string; options?: { bootstrap?: number; bootstrapPart?: { index: number; count: number; span?: number } } };
      const part = body.options?.bootstrapPart;
      const what = `${body.type}${body.path ? ` ${body.path.split(/[\\/]/).pop()}` : ''}${body.options?.bootstrap ? ` (bootstrap ${body.options.bootstrap}${part ? `, part ${part.index} of ${part.count}${part.span ? ` span ${part.span}` : ''}` : ''})` : ''}`;
      this.trace(`pool: ${job.priority} ${what} started in slot ${this.slots.indexOf(slot)} (${how}${slot.niced ? ', niced' : ''}) after ${Math.round(performance.now() - job.queuedAt)} ms queued`);
    }
    job.onStart?.();
  }

  /** A slot's job is done: its worker stays for the next job, or goes after a while idle. */
  private idle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    const worker = slot.worker;
    if (!worker) return;
    slot.idleTimer = setTimeout(() => {
      if (slot.worker === worker && !slot.job) this.stopSlot(slot);
    }, slot.keeps || slot.spare ? this.keepingIdleMs : this.idleMs);
    slot.idleTimer.unref?.();
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(this.scriptPath);
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      if (reply.type === 'warmedUp') this.trace?.(`pool: slot ${this.slots.indexOf(slot)} warmed up in ${Math.round(reply.ms)} ms`);
      if (!job || reply.id !== job.id || slot.worker !== worker) return; // a stale reply
      if (reply.type === 'progress') {
        job.onProgress?.(reply.fraction);
        return;
      }
      slot.job = undefined;
      if (reply.type === 'scored') slot.keeps = (reply.kept ?? 0) > 0;
      this.settle(job, () => job.resolve(reply));
      this.dispatch();
      if (!slot.job) this.idle(slot);
    });
    worker.on('error', (e) => {
      this.log(`[worker] error: ${e.message}`);
      this.fail(slot, worker, e);
    });
    worker.on('exit', (code) => {
      if (slot.worker === worker) this.fail(slot, worker, new Error(`the scoring worker exited (code ${code})`));
    });
    return worker;
  }

  /** The worker died (out of memory, a crash): its job fails, the slot gets a new worker next time. */
  private fail(slot: Slot, worker: Worker, e: Error): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    slot.files = [];
    const job = slot.job;
    slot.job = undefined;
    if (job) this.settle(job, () => job.reject(e));
    this.dispatch();
  }

  private stopSlot(slot: Slot): void {
    const worker = slot.worker;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.worker = undefined;
    slot.job = undefined;
    slot.niced = false;
    slot.keeps = false;
    slot.spare = false;
    slot.files = [];
    void worker?.terminate();
  }

  private cancel(job: Job): void {
    if (job.settled) return;
    const queued = this.queue.indexOf(job);
    if (queued !== -1) this.queue.splice(queued, 1);
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.stopSlot(slot);
    this.settle(job, () => job.reject(new CancelledError()));
    this.dispatch();
  }

  private settle(job: Job, action: () => void): void {
    if (job.settled) return;
    job.settled = true;
    action();
  }
}
