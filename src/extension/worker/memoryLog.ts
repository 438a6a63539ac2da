// Where the extension host's memory is, part by part, for benchmarks (EVAL_LENS_DEBUG=memory): once
// a second, the process's RSS (the host thread and every worker thread share one process, so RSS
// cannot be split by thread), the host isolate's heap, and each worker isolate's heap as the host
// sees it (Worker.getHeapStatistics, Node 22.16 and later: code-server's Node 24 has it). Off unless
// asked for: it costs a timer and a message to each worker a second. No vscode import: plain Node.
import type { Worker } from 'node:worker_threads';

/** A worker thread alive now, under a name the log lines use. */
export interface NamedWorker {
  name: string;
  worker: Worker;
}

interface HeapStats {
  used_heap_size: number;
  total_heap_size: number;
  external_memory?: number;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/** One worker's heap as "used/total MB", or "?" when the runtime cannot say. */
async function workerHeap(worker: Worker): Promise<string> {
  const get = (worker as unknown as { getHeapStatistics?: () => Promise<HeapStats> }).getHeapStatistics;
  if (typeof get !== 'function') return '?';
  try {
    const s = await get.call(worker);
    return `${mb(s.used_heap_size)}/${mb(s.total_heap_size)} MB (external ${mb(s.external_memory ?? 0)})`;
  } catch {
    return 'gone';
  }
}

/** One line: RSS, the host's heap (and its external and array-buffer bytes), each worker's heap. */
export async function memoryLine(workers: NamedWorker[]): Promise<string> {
  const m = process.memoryUsage();
  const parts = [`rss ${mb(m.rss)} MB`, `host heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB (external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)})`];
  for (const w of workers) parts.push(`${w.name} ${await workerHeap(w.worker)}`);
  return `memory: ${parts.join('; ')}`;
}

/**
 * Logs memoryLine every `everyMs` while the process lives (when `enabled`); returns a stop
 * function. `workers` is asked each time (workers come and go).
 */
export function startMemoryLog(enabled: boolean, log: (line: string) => void, workers: () => NamedWorker[], everyMs = 1000): () => void {
  if (!enabled) return () => {};
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    memoryLine(workers()).then(log, () => undefined).finally(() => { busy = false; });
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
