// A JSON dump of lm-eval's simple_evaluate() return value: {"results": {...}, "configs": {...},
// "samples": {task: [sample, ...]}}. It is parsed whole (one document), and each task's samples
// are scored as a samples file of that task would be, with the document's own results beside them.
import type { FileInput } from './context';
import { firstNonSpaceByte } from './jsonl';
import { textStart } from './csv';
import { isStringTooLong, sizeText } from './progress';
import { parsePythonJson } from './pythonJson';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface SimpleEvaluateDump {
  doc: Obj;
  /** Tasks with at least one sample, in the document's order. */
  tasks: string[];
  samples: Record<string, unknown[]>;
}

/** Quick look at the head: a JSON object whose first key is "results". */
export function looksLikeResultsDocument(head: string): boolean {
  return /^\uFEFF?\s*\{\s*"results"\s*:\s*\{/.test(head);
}

/**
 * The dump, when the input is one; `resultsOnly` when it is a results document without samples;
 * `fatal` when it is too large to parse; undefined when it is something else (a samples file).
 */
export function readSimpleEvaluate(input: FileInput): SimpleEvaluateDump | { fatal: string } | { resultsOnly: Obj } | undefined {
  const bytes = input.bytes;
  const start = textStart(bytes);
  const first = firstNonSpaceByte(bytes, start);
  if (first === -1 || bytes[first] !== 0x7b /* { */) return undefined;
  const head = new TextDecoder('utf-8').decode(bytes.subarray(first, Math.min(bytes.length, first + 256)));
  if (!looksLikeResultsDocument(head)) return undefined;
  let doc: unknown;
  try {
    doc = parsePythonJson(new TextDecoder('utf-8').decode(bytes.subarray(start)));
  } catch (e) {
    if (isStringTooLong(e)) return { fatal: `The lm-eval results document is ${sizeText(bytes.length)}, too large to parse as one JSON document; log the samples to files instead (--log_samples with --output_path).` };
    return undefined; // not valid JSON: the samples reader reports its lines
  }
  if (!isObject(doc) || !isObject(doc.results)) return undefined;
  const samples = isObject(doc.samples) ? doc.samples : undefined;
  const tasks = samples ? Object.keys(samples).filter((t) => Array.isArray(samples[t]) && (samples[t] as unknown[]).length > 0) : [];
  // Without per-sample records it is a summary: its figures are shown as such (formats/summary.ts).
  if (!samples || !tasks.length) return { resultsOnly: doc };
  return { doc, tasks, samples: samples as Record<string, unknown[]> };
}
