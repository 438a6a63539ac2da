// The sample view's own worker (dist/sampleWorker.js, issue 29): reads one sample from its file when
// a row is clicked. It is kept apart from the scoring workers so that a sample never waits behind a
// scoring or bootstrap pass of the same large file, and it is small (the sample readers, no metric
// core), so it starts quickly; the host starts it when a report that has samples is shown.
import { parentPort } from 'node:worker_threads';
import { readSampleRecord } from '../../core/samples/readSample';
import type { WorkerReply, WorkerRequest } from './workerProtocol';

parentPort?.on('message', (req: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    if (req.type !== 'sample') throw new Error(`the sample worker reads samples, not '${req.type}'`);
    const t0 = performance.now();
    reply = { type: 'sampled', id: req.id, answers: req.queries.map((q) => readSampleRecord(q, { maxFileBytes: req.maxBytes })), ms: performance.now() - t0 };
  } catch (e) {
    reply = { type: 'failed', id: req.id, message: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply);
});
