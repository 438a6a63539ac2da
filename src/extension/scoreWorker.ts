// The scoring worker (worker_threads): all parsing and metrics run here, never on the extension
// host's thread. One request at a time; the host cancels by terminating the worker.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { detectFormat, nodeCompanionReader, scoreInput, scorePath, summarize, textInput } from '../core/index';
import { summaryOnly, type ScoreResult, type WorkerReply, type WorkerRequest } from './workerProtocol';

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Bytes detection looks at (the core's detector reads 16 KB too). */
const HEAD_BYTES = 16 * 1024;

/** The first kilobytes of a file, without reading the rest. */
function readHead(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const got = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return new TextDecoder('utf-8').decode(buf.subarray(0, got));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 ** 2).toFixed(bytes >= 100 * 1024 ** 2 ? 0 : 1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function tooLarge(path: string, maxBytes: number | undefined): string | undefined {
  if (!maxBytes) return undefined;
  try {
    const st = statSync(path);
    if (st.isFile() && st.size > maxBytes) {
      return `the file is ${sizeText(st.size)}, above the evalLens.maxFileSizeMB limit (${sizeText(maxBytes)}); raise the setting to score it.`;
    }
  } catch {
    /* scorePath reports a missing file itself */
  }
  return undefined;
}

function score(req: Extract<WorkerRequest, { type: 'score' }>): WorkerReply {
  if (req.text !== undefined) {
    const report = scoreInput(textInput(req.path, req.text), req.options, nodeCompanionReader);
    return { type: 'scored', id: req.id, result: detailed(req, { reports: [report], summary: summarize([report]) }) };
  }
  const refused = tooLarge(req.path, req.maxBytes);
  if (refused) return { type: 'failed', id: req.id, message: refused, tooLarge: true };
  const mtimeBefore = mtimeOf(req.path);
  const result: ScoreResult = scorePath(req.path, req.options, nodeCompanionReader);
  return { type: 'scored', id: req.id, result: detailed(req, result), mtimeBefore, mtimeAfter: mtimeOf(req.path) };
}

function detailed(req: Extract<WorkerRequest, { type: 'score' }>, result: ScoreResult): ScoreResult {
  return req.detail === 'summary' ? summaryOnly(result) : result;
}

function detect(req: Extract<WorkerRequest, { type: 'detect' }>): WorkerReply {
  const formats = req.paths.map((p) => {
    if (tooLarge(p, req.maxBytes)) return null;
    const head = readHead(p);
    return head === undefined ? null : detectFormat(p, head);
  });
  return { type: 'detected', id: req.id, formats };
}

/** Typed arrays of every report, moved rather than copied to the host. */
function transferables(reply: WorkerReply): ArrayBuffer[] {
  if (reply.type !== 'scored') return [];
  const seen = new Set<ArrayBuffer>();
  for (const r of reply.result.reports) {
    const cols = [r.dataLines, ...(r.instances ? Object.values(r.instances) : [])];
    for (const c of cols) {
      if (ArrayBuffer.isView(c) && c.buffer instanceof ArrayBuffer && c.byteOffset === 0 && c.byteLength === c.buffer.byteLength) seen.add(c.buffer);
    }
  }
  return [...seen];
}

parentPort?.on('message', (req: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = req.type === 'score' ? score(req) : detect(req);
  } catch (e) {
    reply = { type: 'failed', id: req.id, message: e instanceof Error ? e.message : String(e) };
  }
  try {
    parentPort!.postMessage(reply, transferables(reply));
  } catch {
    // A buffer shared by two columns cannot be transferred twice: fall back to copying.
    parentPort!.postMessage(reply);
  }
});
