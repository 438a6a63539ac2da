// The scoring worker (worker_threads): all parsing, metrics and the encoding of per-instance data
// for the report panel run here, never on the extension host's thread. One request at a time; the
// host cancels by terminating the worker.
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { decideFile, fileInput, isDataFile, nodeCompanionReader, readHead, scoreInput, scorePathAsync, sizeText, summarize, tableRolesOfFile, textInput } from '../../core/index';
import type { Report, ScoreOptions } from '../../core/types';
import { reportCharts } from '../../common/chartData';
import { encodeInstances, payloadBuffers } from '../../common/instanceCodec';
import { boardJob, compareJob } from './compareJob';
import { CompareError } from '../../core/compare/align';
import { readSampleRecord } from '../../core/samples/readSample';
import { searchConversations } from '../../core/samples/conversationSearch';
import { summaryOnly, type PanelData, type ScoreResult, type WorkerReply, type WorkerRequest } from './workerProtocol';
import { StepClock } from './threadCpu';
import { fileStamp } from './fileStamp';
import { FileParseCache } from '../../core/parseCache';
import { withParquetAhead } from '../../core/formats/parquetAhead';
import { maxFileBytes } from '../../core/score';

type ScoreRequest = Extract<WorkerRequest, { type: 'score' }>;

/**
 * Parses of unchanged files, kept while this worker lives: a report opened again, its intervals
 * pass and the tree's score of the same file parse it once (src/core/parseCache.ts).
 */
const parses = new FileParseCache();


/** Bytes detection looks at (the core's detector reads 16 KB too). */
/** Why a path is not read at all (too large, not a regular file), or undefined. */
function refuse(path: string, maxBytes: number | undefined): { message: string; tooLarge?: boolean } | undefined {
  let st;
  try {
    st = statSync(path);
  } catch {
    try {
      if (lstatSync(path).isSymbolicLink()) return { message: 'it is a symbolic link to something that does not exist.' };
    } catch {
      /* missing: scorePath says so itself */
    }
    return undefined;
  }
  if (st.isDirectory()) return undefined;
  if (!st.isFile()) return { message: 'it is not a regular file (a pipe, socket or device), so it is not read.' };
  if (maxBytes && st.size > maxBytes) {
    return {
      message: `the file is ${sizeText(st.size)}, above the evalLens.maxFileSizeMB limit (${sizeText(maxBytes)}); raise the setting to score it.`,
      tooLarge: true,
    };
  }
  return undefined;
}

/**
 * Progress of one job: parse is 90% of it (req.parseShare), metrics the rest; one message per whole
 * percent. The first 'score' phase also ends the clock's read+parse step.
 */
function progressOptions(req: ScoreRequest, clock: StepClock): Partial<ScoreOptions> {
  const share = req.parseShare ?? 0.9;
  let sent = 0;
  let parsed = false;
  return {
    onProgress: (fraction: number, phase: 'parse' | 'score') => {
      if (phase === 'score' && !parsed) {
        parsed = true;
        clock.lap('read+parse');
      }
      if (!req.progress) return;
      const f = Math.max(0, Math.min(1, fraction));
      const overall = phase === 'parse' ? share * f : share + (1 - share) * f;
      const percent = Math.floor(overall * 100);
      if (percent <= sent) return;
      sent = percent;
      parentPort!.postMessage({ type: 'progress', id: req.id, fraction: overall } satisfies WorkerReply);
    },
  };
}

async function score(req: ScoreRequest): Promise<{ reply: WorkerReply; transfer: ArrayBuffer[] }> {
  const clock = new StepClock();
  const options: Partial<ScoreOptions> = { ...req.options, ...progressOptions(req, clock), parseCache: parses };
  if (req.maxBytes) options.maxFileBytes = req.maxBytes;
  const t0 = performance.now();
  if (req.text !== undefined) {
    const report = scoreInput(textInput(req.path, req.text), options, nodeCompanionReader);
    clock.lap(clock.steps.length ? 'report' : 'read+parse+report');
    return shaped(req, { reports: [report], summary: summarize([report]) }, t0, {}, clock);
  }
  const refused = refuse(req.path, req.maxBytes);
  if (refused) return { reply: { type: 'failed', id: req.id, message: refused.message, tooLarge: refused.tooLarge }, transfer: [] };
  const before = fileStamp(req.path);
  const hits = parses.hits;
  const result: ScoreResult = await scorePathAsync(req.path, options, nodeCompanionReader);
  const after = fileStamp(req.path);
  // The first step is named by what it was: a parse kept from an earlier request, or a read and parse.
  if (clock.steps[0] && parses.hits > hits) clock.steps[0].step = 'kept parse';
  clock.lap(clock.steps.length ? 'report' : 'read+parse+report');
  return shaped(req, result, t0, { mtimeBefore: before?.mtime, mtimeAfter: after?.mtime, sizeBefore: before?.size, sizeAfter: after?.size }, clock);
}

/** The result in the form asked for, and the buffers to move (not copy) to the host. */
function shaped(
  req: ScoreRequest, result: ScoreResult, t0: number,
  stats: Pick<Extract<WorkerReply, { type: 'scored' }>, 'mtimeBefore' | 'mtimeAfter' | 'sizeBefore' | 'sizeAfter'>,
  clock: StepClock,
): { reply: WorkerReply; transfer: ArrayBuffer[] } {
  const scoreMs = performance.now() - t0;
  const detail = req.detail ?? 'full';
  let shapedResult: ScoreResult;
  let transfer: ArrayBuffer[];
  if (detail === 'summary') {
    shapedResult = summaryOnly(result);
    transfer = [];
  } else if (detail === 'panel') {
    const charts = result.reports.map(reportCharts);
    clock.lap('chart data');
    const panel: PanelData[] = result.reports.map((r, k) => panelData(r, charts[k]));
    clock.lap('encode instances');
    shapedResult = {
      summary: result.summary,
      reports: result.reports.map((r) => ({ ...r, instances: null, texts: undefined, dataLines: undefined })),
      panel,
    };
    transfer = panel.flatMap((p) => (p.instances ? payloadBuffers(p.instances) : []));
  } else {
    shapedResult = result;
    transfer = reportBuffers(result.reports);
  }
  const encodeMs = performance.now() - t0 - scoreMs;
  return { reply: { type: 'scored', id: req.id, result: shapedResult, ...stats, timings: { scoreMs, encodeMs, steps: clock.steps }, kept: parses.bytes }, transfer };
}

function panelData(r: Report, charts: PanelData['charts']): PanelData {
  if (!r.instances) return { charts, instances: null };
  return {
    charts,
    instances: encodeInstances({ instances: r.instances, texts: r.texts, dataLines: r.dataLines, threshold: r.options.threshold }),
  };
}

function detect(req: Extract<WorkerRequest, { type: 'detect' }>): WorkerReply {
  // A data file that is not predictions gets the reason, so the tree lists it as not scored.
  const reasons: (string | null)[] = [];
  const formats = req.paths.map((p, i) => {
    reasons[i] = null;
    if (refuse(p, req.maxBytes)) return null;
    // The decision `score FILE` and a folder walk take (core decideFile): one format, or one reason.
    const decision = decideFile(p, readHead(p));
    if ('reason' in decision) {
      if (isDataFile(p)) reasons[i] = decision.reason;
      return null;
    }
    return decision.format;
  });
  return { type: 'detected', id: req.id, formats, reasons };
}

/** A compare or leaderboard job, with a 'progress' reply at each whole percent. */
async function compareOrBoard(req: Extract<WorkerRequest, { type: 'compare' | 'board' }>): Promise<WorkerReply> {
  let sent = 0;
  const progress = (fraction: number) => {
    const percent = Math.floor(Math.max(0, Math.min(1, fraction)) * 100);
    if (percent <= sent) return;
    sent = percent;
    parentPort!.postMessage({ type: 'progress', id: req.id, fraction: percent / 100 } satisfies WorkerReply);
  };
  const options: Partial<ScoreOptions> = { ...req.options, ...(req.maxBytes ? { maxFileBytes: req.maxBytes } : {}) };
  const t0 = performance.now();
  // Parquet runs are read ahead for the job (it parses synchronously) and dropped after it.
  const ahead = { maxFileBytes: maxFileBytes(options), format: options.format };
  if (req.type === 'compare') return { type: 'compared', id: req.id, view: await withParquetAhead(req.paths, ahead, () => compareJob(req.paths, options, progress)), ms: performance.now() - t0 };
  return { type: 'boarded', id: req.id, view: await withParquetAhead([req.path], ahead, () => boardJob(req.path, options, progress)), ms: performance.now() - t0 };
}

/** The conversation search (issue 29), with a 'progress' reply at each whole percent. */
function conversations(req: Extract<WorkerRequest, { type: 'searchConversations' }>): WorkerReply {
  const refused = refuse(req.path, req.maxBytes);
  if (refused) return { type: 'conversations', id: req.id, error: refused.message };
  let sent = 0;
  const found = searchConversations(req.path, req.format, req.query, {
    maxFileBytes: req.maxBytes,
    onProgress: (fraction) => {
      const percent = Math.floor(Math.max(0, Math.min(1, fraction)) * 100);
      if (percent <= sent) return;
      sent = percent;
      parentPort!.postMessage({ type: 'progress', id: req.id, fraction: percent / 100 } satisfies WorkerReply);
    },
  });
  return 'error' in found ? { type: 'conversations', id: req.id, error: found.error } : { type: 'conversations', id: req.id, ...found };
}

/**
 * The panel's path through two made-up tables of 20,000 rows (a folktexts file, a generic table
 * with a prediction and a probability): a fresh thread runs each long loop in V8's slower tiers
 * until it has been compiled: a fresh worker's first million-row report took 777-903 ms (median
 * thread CPU 620 ms), a warmed one's 517-708 ms (560 ms), 6 pairs in turn (issue 28.11; bench/README
 * "Eighth session"). The tables are data made here,
 * never a user's file; nothing is kept.
 */
function warmUp(id: number): WorkerReply {
  const t0 = performance.now();
  const rows = 20_000;
  const folktexts = [',risk_score,label'];
  const generic = ['id,label,prediction,probability'];
  let seed = 12_345;
  const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 4_294_967_296;
  for (let i = 0; i < rows; i++) {
    const p = next();
    const y = next() < p ? 1 : 0;
    folktexts.push(`${i * 7},${p.toFixed(7)},${y}`);
    generic.push(`q${i},${y},${p >= 0.5 ? 1 : 0},${p.toFixed(4)}`);
  }
  for (const [name, lines] of [['warm-up.test_predictions.csv', folktexts], ['warm-up.csv', generic]] as const) {
    // As bytes, as a file from disk is read (an editor's text takes other paths).
    const report = scoreInput(fileInput(name, new TextEncoder().encode(`${lines.join('\n')}\n`)), { bootstrap: 0, listColumns: {} }, nodeCompanionReader);
    panelData(report, reportCharts(report));
  }
  return { type: 'warmedUp', id, ms: performance.now() - t0 };
}

/**
 * Typed arrays of every report that own their whole buffer, moved rather than copied to the host;
 * not those of a kept parse (a report's instance columns may be its set's own columns), which this
 * worker still needs.
 */
function reportBuffers(reports: Report[]): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>();
  for (const r of reports) {
    const cols = [r.dataLines, ...(r.instances ? Object.values(r.instances) : [])];
    for (const c of cols) {
      if (ArrayBuffer.isView(c) && c.buffer instanceof ArrayBuffer && c.byteOffset === 0 && c.byteLength === c.buffer.byteLength && !parses.holds(c.buffer)) seen.add(c.buffer);
    }
  }
  return [...seen];
}

/**
 * Lowers this thread's scheduling priority (Linux: setpriority on the thread's id, which
 * /proc/thread-self names). Elsewhere, or without /proc, nothing happens.
 */
function lowerPriority(nice: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    /* not Linux, or not permitted: run at the normal priority */
  }
}

parentPort?.on('message', async (req: WorkerRequest) => {
  if (req.nice !== undefined) lowerPriority(req.nice);
  let reply: WorkerReply;
  let transfer: ArrayBuffer[] = [];
  try {
    if (req.type === 'score') ({ reply, transfer } = await score(req));
    else if (req.type === 'compare' || req.type === 'board') reply = await compareOrBoard(req);
    else if (req.type === 'sample') {
      const t0 = performance.now();
      reply = { type: 'sampled', id: req.id, answers: req.queries.map((q) => readSampleRecord(q, { maxFileBytes: req.maxBytes })), ms: performance.now() - t0 };
    }
    else if (req.type === 'searchConversations') reply = conversations(req);
    else if (req.type === 'warmUp') reply = warmUp(req.id);
    else if (req.type === 'roles') {
      const refused = refuse(req.path, req.maxBytes);
      if (refused) throw new Error(refused.message);
      reply = { type: 'roles', id: req.id, roles: await tableRolesOfFile(req.path, req.mapping) };
    }
    else reply = detect(req);
  } catch (e) {
    reply = { type: 'failed', id: req.id, message: e instanceof Error ? e.message : String(e), ...(e instanceof CompareError && e.notApplicable ? { notApplicable: true } : {}) };
  }
  try {
    parentPort!.postMessage(reply, transfer);
  } catch {
    // A buffer shared by two columns cannot be transferred twice: fall back to copying.
    parentPort!.postMessage(reply);
  }
});
