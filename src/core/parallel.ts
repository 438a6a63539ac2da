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
import type { FormatName, MetricName, Report, ScoreOptions } from './types';
import { drawValues, type RankTask } from './boardFiles';
import { parseRun } from './compareFiles';
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

/** Score one file (each of its tasks, as scorePath does). */
interface ScoreJob { kind: 'score'; path: string; format: FormatName; options: ScoreOptions }
/** The rank bootstrap's values of some runs of one task (boardFiles.ts drawValues). */
interface RankJob { kind: 'rank'; runs: { path: string; options: Partial<ScoreOptions> }[]; rows: Uint32Array[]; n: number; seed: number; R: number; metric: MetricName }
type Job = ScoreJob | RankJob;
type Answer = { id: number; result: unknown } | { id: number; error: string };

function runJob(job: Job): unknown {
  if (job.kind === 'score') {
    const o = { ...job.options, format: job.format };
    return eachTask(scoreFile(job.path, o), (task) => scoreFile(job.path, { ...o, task }), o);
  }
  const runs = job.runs.map((r) => {
    const set = parseRun(r.path, resolveOptions(r.options)).set;
    if (!set) throw new Error(`${r.path} no longer reads as it did`);
    return { set, options: r.options };
  });
  return drawValues(runs, job.rows, job.n, job.seed, job.R, job.metric);
}

/** Serve jobs posted by runOnWorkers. */
export function serveScoreWorker(): void {
  parentPort!.on('message', (message: { id: number; job: Job }) => {
    let answer: Answer;
    try {
      answer = { id: message.id, result: runJob(message.job) };
    } catch (e) {
      answer = { id: message.id, error: e instanceof Error ? e.message : String(e) };
    }
    parentPort!.postMessage(answer);
  });
}

/**
 * The results of `jobs`, each run on one of a pool of worker threads, in the jobs' order; undefined
 * when a job cannot be sent or fails (the caller then does the work itself, which says what fails).
 */
async function runOnWorkers<T>(jobs: Job[], threads: number): Promise<T[] | undefined> {
  const results: T[] = new Array(jobs.length);
  const workers = Array.from({ length: Math.min(threads, jobs.length) }, () => new Worker(entry!, { workerData: { mark: MARK } }));
  let next = 0;
  try {
    await Promise.all(workers.map((worker) => new Promise<void>((resolve, reject) => {
      const give = () => {
        if (next >= jobs.length) { resolve(); return; }
        const id = next++;
        worker.postMessage({ id, job: jobs[id] });
      };
      worker.on('message', (answer: Answer) => {
        if ('error' in answer) { reject(new Error(answer.error)); return; }
        results[answer.id] = answer.result as T;
        give();
      });
      worker.on('error', reject);
      give();
    })));
    return results;
  } catch {
    return undefined;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
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
  const results = await runOnWorkers<Report[]>(files.map((f) => ({ kind: 'score', path: f.path, format: f.format, options: o })), threads);
  if (!results) return undefined;
  const reports = results.flat();
  for (const file of found.unscored) reports.push(notScoredReport(file.path, file.reason, o));
  reports.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return reports;
}

/**
 * The rank bootstrap's values (drawValues of every task, every run) with each task's runs split
 * among the workers: each worker parses its runs again, gathers their aligned rows and scores them
 * on the same seeded draws, so the values are the serial loop's. Undefined without a pool.
 */
export async function rankValuesParallel(tasks: readonly RankTask[], R: number, metric: MetricName): Promise<Float64Array[][] | undefined> {
  const threads = scoreThreads();
  if (threads < 2 || !entry) return undefined;
  const jobs: RankJob[] = [];
  const slots: { task: number; from: number; to: number }[] = [];
  tasks.forEach((task, t) => {
    const per = Math.ceil(task.runs.length / threads);
    for (let from = 0; from < task.runs.length; from += per) {
      const to = Math.min(task.runs.length, from + per);
      const runs = task.runs.slice(from, to);
      jobs.push({ kind: 'rank', runs: runs.map((r) => ({ path: r.path, options: r.options })), rows: task.rows.slice(from, to), n: task.n, seed: task.seed, R, metric });
      slots.push({ task: t, from, to });
    }
  });
  try {
    structuredClone(jobs.map((j) => j.runs));
  } catch {
    return undefined;
  }
  const results = await runOnWorkers<Float64Array[]>(jobs, threads);
  if (!results) return undefined;
  const values: Float64Array[][] = tasks.map((t) => new Array<Float64Array>(t.runs.length));
  results.forEach((got, k) => got.forEach((v, i) => { values[slots[k].task][slots[k].from + i] = v; }));
  return values;
}
