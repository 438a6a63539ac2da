// Worker threads for scoring many files at once (issue 22, goal 5): the files of a folder are
// scored by a pool of workers, one file at a time each, and the reports come back in the order
// scorePath gives them, so a board over a folder is the same board, computed on every core.
//
// A worker is the same bundle entered again (the CLI's dist/cli.js: bin.ts calls setWorkerEntry
// with its own file, and serves as a worker when isScoreWorker() says it was started as one), so
// `npm pack` still ships one file. Without an entry (tests, the extension) everything stays on the
// calling thread. EVAL_LENS_THREADS=N caps the pool (1: no workers); the default is the machine's
// available parallelism.
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { FormatName, Report, ScoreOptions } from './types';
import { discoverFolder, eachTask, maxFileBytes, scoreFile } from './score';
import { resolveOptions } from './report';
import { isDirectory } from './io';
import { notScoredReport } from './unscored';

const MARK = 'eval-lens-score-worker';
let entry: string | undefined;

/** The bundle file a worker runs (the CLI passes its own). */
export function setWorkerEntry(file: string): void {
  entry = file;
}

/** Threads a pool may use: 1 without a worker entry or with EVAL_LENS_THREADS=1. */
export function scoreThreads(): number {
  if (!entry) return 1;
  const asked = Number(process.env.EVAL_LENS_THREADS);
  return Math.max(1, Number.isInteger(asked) && asked > 0 ? asked : availableParallelism());
}

/** Whether this thread was started by scorePathParallel. */
export function isScoreWorker(): boolean {
  return !isMainThread && (workerData as { mark?: string } | null)?.mark === MARK;
}

interface Job { id: number; path: string; format: FormatName; options: ScoreOptions }
type Answer = { id: number; reports: Report[] } | { id: number; error: string };

/** Serve jobs: score one file (each of its tasks, as scorePath does) and post its reports. */
export function serveScoreWorker(): void {
  parentPort!.on('message', (job: Job) => {
    let answer: Answer;
    try {
      const o = { ...job.options, format: job.format };
      answer = { id: job.id, reports: eachTask(scoreFile(job.path, o), (task) => scoreFile(job.path, { ...o, task }), o) };
    } catch (e) {
      answer = { id: job.id, error: e instanceof Error ? e.message : String(e) };
    }
    parentPort!.postMessage(answer);
  });
}

/**
 * scorePath's reports for a folder, its files scored by a pool of worker threads; undefined when
 * there is no pool to use (one thread, not a folder, fewer than two files, options that cannot be
 * sent to a thread): the caller then calls scorePath.
 */
export async function scorePathParallel(path: string, options: Partial<ScoreOptions>): Promise<Report[] | undefined> {
  const threads = scoreThreads();
  if (threads < 2 || !entry || !isDirectory(path)) return undefined;
  const o = resolveOptions(options);
  if (o.onProgress || o.shouldCancel) return undefined;
  maxFileBytes(o);
  const found = discoverFolder(path, o);
  const files = found.scored;
  if (files.length < 2) return undefined;
  try {
    structuredClone(o);
  } catch {
    return undefined;
  }
  const results: Report[][] = new Array(files.length);
  const workers = Array.from({ length: Math.min(threads, files.length) }, () => new Worker(entry!, { workerData: { mark: MARK } }));
  let next = 0;
  try {
    try {
    await Promise.all(workers.map((worker) => new Promise<void>((resolve, reject) => {
      const give = () => {
        if (next >= files.length) { resolve(); return; }
        const id = next++;
        worker.postMessage({ id, path: files[id].path, format: files[id].format, options: o } satisfies Job);
      };
      worker.on('message', (answer: Answer) => {
        if ('error' in answer) { reject(new Error(answer.error)); return; }
        results[answer.id] = answer.reports;
        give();
      });
      worker.on('error', reject);
      give();
    })));
    } catch {
      return undefined; // a file this path cannot send or score: scorePath says what it says
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const reports = results.flat();
  for (const file of found.unscored) reports.push(notScoredReport(file.path, file.reason, o));
  reports.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return reports;
}
