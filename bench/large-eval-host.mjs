// The extension host's side of bench/large-eval.bench.mjs, in a process of its own: the scoring
// worker (dist/scoreWorker.js) on worker threads, asked what the report panel and the sample view
// ask. Prints one JSON line of figures. Peak RSS is the process's VmHWM (Linux): the host thread and
// every worker thread together, as in the extension host.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2];
const script = join(root, 'dist', 'scoreWorker.js');
const MAX_BYTES = 2048 * 1024 * 1024;

const mb = (kb) => Math.round(kb / 1024);
const status = () => readFileSync('/proc/self/status', 'utf8');
const vm = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status())?.[1] ?? NaN);

let nextId = 1;
/** One request to a worker; resolves with its reply (progress replies aside). */
function ask(worker, body) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m.id !== id || m.type === 'progress') return;
      worker.off('message', onMessage);
      if (m.type === 'failed') reject(new Error(m.message));
      else resolve(m);
    };
    worker.on('message', onMessage);
    worker.postMessage({ ...body, id });
  });
}

const figures = {};
const t = () => performance.now();
const baseline = vm('VmRSS');
const scorer = new Worker(script);

// 1. The report's first pass, in the panel's form.
let t0 = t();
const first = await ask(scorer, { type: 'score', path: file, options: { bootstrap: 0, listColumns: {} }, detail: 'panel', maxBytes: MAX_BYTES, progress: true });
const report = first.result.reports[0];
figures['first pass (s)'] = ((t() - t0) / 1000).toFixed(1);
figures['samples scored'] = report.n;
figures['accuracy'] = report.metrics.accuracy;
figures['text fields'] = report.texts?.fields?.join(' ') ?? first.result.panel?.[0]?.instances?.scheme.textFields?.join(' ');
figures['peak RSS after the first pass (MB)'] = mb(vm('VmHWM'));

// 2. The intervals pass (another pass over the file, bootstrap 1000) while the sample view's worker
//    reads samples, as clicks on rows would meanwhile.
t0 = t();
const intervals = ask(scorer, { type: 'score', path: file, options: { bootstrap: 1000, listColumns: {} }, detail: 'summary', maxBytes: MAX_BYTES, nice: 10 });
// The sample view's own worker, started when the report is shown (the extension warms it then).
const reader = new Worker(join(root, 'dist', 'sampleWorker.js'));
const searcher = new Worker(script);
const n = report.n;
const ids = [1, Math.round(n / 4), Math.round(n / 2), Math.round((3 * n) / 4), n, 7, 1234 % n || 1, n - 3];
const reads = [];
let messages = 0;
let bytes = 0;
for (const id of ids) {
  const s0 = t();
  const reply = await ask(reader, { type: 'sample', queries: [{ path: file, format: 'inspect', row: { line: id, id: String(id) } }], maxBytes: MAX_BYTES });
  reads.push(Math.round(t() - s0));
  const answer = reply.answers[0];
  if (answer.error) throw new Error(answer.error);
  messages = answer.record.messages.length;
  bytes = JSON.stringify(answer.record).length;
}
figures['sample reads during the intervals pass (ms; the first waits for the sample worker to start)'] = reads;
figures['last sample: messages, record size (KB)'] = `${messages}, ${Math.round(bytes / 1024)}`;
const done = await intervals;
figures['intervals pass (s)'] = ((t() - t0) / 1000).toFixed(1);
figures['accuracy interval'] = JSON.stringify(done.result.reports[0].intervals.accuracy);

// 3. Reads with both workers idle (warm), and the search inside every conversation.
const warm = [];
for (const id of ids) {
  const s0 = t();
  await ask(reader, { type: 'sample', queries: [{ path: file, format: 'inspect', row: { line: id, id: String(id) } }], maxBytes: MAX_BYTES });
  warm.push(Math.round(t() - s0));
}
figures['sample reads, warm worker (ms)'] = warm;
t0 = t();
const search = await ask(searcher, { type: 'searchConversations', path: file, format: 'inspect', query: 'scorer.py AND /ANSWER: yes/', maxBytes: MAX_BYTES });
figures['conversation search over every sample (s)'] = ((t() - t0) / 1000).toFixed(1);
figures['conversation search: rows holding a term, samples searched'] = `${search.rows?.length}, ${search.searched}`;

figures['RSS before scoring (MB)'] = mb(baseline);
figures['peak RSS, host + workers (MB)'] = mb(vm('VmHWM'));
await scorer.terminate();
await reader.terminate();
await searcher.terminate();
console.log(JSON.stringify(figures));
