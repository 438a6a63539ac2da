// Reading an Inspect AI log into plain objects: an `.eval` log is a zip (header.json, samples/<id>_
// epoch_<n>.json, summaries.json, reductions.json; a log still being written has _journal/start.json
// instead of header.json), an older `.json` log is one document holding everything. Both may spell
// NaN and Infinity as bare words (pydantic's ser_json_inf_nan="constants"): pythonJson.ts reads them.
import { parsePythonJson } from './pythonJson';
import { InflateLimitError, MAX_INFLATED_BYTES, unzipBounded } from './boundedInflate';

export type Obj = Record<string, unknown>;

export interface InspectLog {
  /** The log without its samples: version, status, eval, plan, results, stats, error. */
  header: Obj;
  samples: Obj[];
  reductions?: Obj[];
  /** 1-based line of each sample in a `.json` log; in a zip, where lines mean nothing, its position (id, epoch order). */
  lines: number[];
}

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const decoder = new TextDecoder('utf-8');

/**
 * An `.eval` zip: its JSON entries, each inflated within `limit` bytes. Throws with a sentence
 * when the bytes are not a readable zip or an entry would pass the limit.
 */
function readZip(bytes: Uint8Array, limit: number): InspectLog {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipBounded(bytes, (name) => name.endsWith('.json'), limit);
  } catch (e) {
    if (e instanceof InflateLimitError) throw e;
    throw new Error(`not a readable .eval zip (${e instanceof Error ? e.message : String(e)})`);
  }
  const json = (name: string): unknown => (files[name] ? parsePythonJson(decoder.decode(files[name])) : undefined);
  const header = json('header.json') ?? json('_journal/start.json');
  if (!isObject(header)) throw new Error('the zip has neither header.json nor _journal/start.json, so it is not an Inspect log');
  // samples/<id>_epoch_<n>.json, in id then epoch order (zip order is write order, which varies).
  const names = Object.keys(files).filter((n) => /^samples\/.+\.json$/.test(n));
  const samples = names.map((n) => json(n)).filter(isObject);
  samples.sort(compareSamples);
  const reductions = json('reductions.json');
  return { header, samples, reductions: Array.isArray(reductions) ? reductions.filter(isObject) : undefined, lines: samples.map((_, k) => k + 1) };
}

function compareSamples(a: Obj, b: Obj): number {
  const ia = a.id, ib = b.id;
  if (ia !== ib) {
    if (typeof ia === 'number' && typeof ib === 'number') return ia - ib;
    return String(ia) < String(ib) ? -1 : 1;
  }
  return Number(a.epoch ?? 0) - Number(b.epoch ?? 0);
}

/** Line of each sample in a pretty-printed `.json` log: found by its uuid (or id), scanning forward. */
function sampleLines(text: string, samples: Obj[]): number[] {
  const start = text.search(/"samples"\s*:/);
  let pos = Math.max(0, start);
  let line = 1;
  let counted = 0;
  const lineAt = (offset: number) => {
    for (let i = counted; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
    counted = offset;
    return line;
  };
  return samples.map((s) => {
    const key = typeof s.uuid === 'string' ? `"uuid": ${JSON.stringify(s.uuid)}` : `"id": ${JSON.stringify(s.id)}`;
    const at = text.indexOf(key, pos);
    if (at < 0 || start < 0) return 1;
    pos = at + key.length;
    return lineAt(at);
  });
}

/** A `.json` log. */
function readJson(text: string): InspectLog {
  const doc = parsePythonJson(text);
  if (!isObject(doc) || !isObject(doc.eval)) throw new Error('the JSON document has no "eval" object, so it is not an Inspect log');
  const { samples, reductions, ...header } = doc;
  const list = Array.isArray(samples) ? samples.filter(isObject) : [];
  return { header, samples: list, reductions: Array.isArray(reductions) ? reductions.filter(isObject) : undefined, lines: sampleLines(text, list) };
}

/** Whether the bytes start like a zip (PK\x03\x04), whatever the file's name. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
}

/** `limit`: the most bytes the zip's entries may inflate to (see boundedInflate.ts). */
export function readInspectLog(bytes: Uint8Array, text: () => string, limit = MAX_INFLATED_BYTES): InspectLog {
  return isZip(bytes) ? readZip(bytes, limit) : readJson(text());
}
