// Reading an Inspect AI log into plain objects: an `.eval` log is a zip (header.json, samples/<id>_
// epoch_<n>.json, summaries.json, reductions.json; a log still being written has _journal/start.json
// instead of header.json), an older `.json` log is one document holding everything. Both may spell
// NaN and Infinity as bare words (pydantic's ser_json_inf_nan="constants"): pythonJson.ts reads them.
//
// A zip is read by random access (zipArchive.ts), one sample entry at a time: each is inflated
// within the limit, parsed, handed to `keep` (which takes out what the caller needs) and let go
// before the next, so a log whose entries inflate to gigabytes together holds one entry at a time.
// An entry that cannot be read (over the limit, damaged) is named in `refused`; the rest are read.
import { parsePythonJson } from './pythonJson';
import { MAX_INFLATED_BYTES } from './boundedInflate';
import { bytesSource, ZipArchive, type ByteSource, type ZipEntry } from './zipArchive';
import type { ParseProgress } from './progress';
import { withoutTopLevelKeys } from './jsonSkip';

export type Obj = Record<string, unknown>;

export interface InspectLog {
  /** The log without its samples: version, status, eval, plan, results, stats, error. */
  header: Obj;
  samples: Obj[];
  reductions?: Obj[];
  /** 1-based line of each sample in a `.json` log; in a zip, where lines mean nothing, its position (id, epoch order). */
  lines: number[];
  /** Sample entries of a zip that were not read, each with the sentence saying why. */
  refused?: { entry: string; message: string }[];
  /** Samples of the new chunked shape (samples/<id>_epoch_<n>/sample.json …), which are not read. */
  chunked?: number;
}

export interface ReadOptions {
  /** What to keep of each sample (default: all of it). */
  keep?: (sample: Obj) => Obj;
  /** Top-level members of a zip's sample entries not even parsed (jsonSkip.ts): what `keep` never reads. */
  skip?: readonly string[];
  progress?: ParseProgress;
}

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const decoder = new TextDecoder('utf-8');

/** A monolithic sample entry: samples/<id>_epoch_<n>.json (the chunked shape is a folder per sample). */
export const SAMPLE_ENTRY = /^samples\/([^/]+)_epoch_(\d+)\.json$/;
const CHUNKED_SHELL = /^samples\/[^/]+_epoch_\d+\/sample\.json$/;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * One entry of a zip as JSON (undefined when absent), without the top-level members `skip` names;
 * throws with a sentence when it cannot be read.
 */
export function zipJson(zip: ZipArchive, entry: ZipEntry | undefined, limit: number, skip?: readonly string[]): unknown {
  if (!entry) return undefined;
  const bytes = zip.read(entry, limit);
  return parsePythonJson(decoder.decode(skip?.length ? withoutTopLevelKeys(bytes, skip) : bytes));
}

/**
 * An `.eval` zip: its header and reductions, and each sample entry read in turn (inflated within
 * `limit`, what `keep` keeps of it). Throws with a sentence when the bytes are not a readable zip
 * or its header cannot be read.
 */
function readZip(source: ByteSource, limit: number, options: ReadOptions): InspectLog {
  let zip: ZipArchive;
  try {
    zip = ZipArchive.open(source);
  } catch (e) {
    throw new Error(`not a readable .eval zip (${message(e)})`);
  }
  const header = zipJson(zip, zip.entry('header.json'), limit) ?? zipJson(zip, zip.entry('_journal/start.json'), limit);
  if (!isObject(header)) throw new Error('the zip has neither header.json nor _journal/start.json, so it is not an Inspect log');
  const entries = zip.entries.filter((e) => SAMPLE_ENTRY.test(e.name));
  const chunked = zip.entries.filter((e) => CHUNKED_SHELL.test(e.name)).length;
  const samples: Obj[] = [];
  const refused: { entry: string; message: string }[] = [];
  const progress = options.progress;
  const total = entries.reduce((s, e) => s + e.compressedSize, 0);
  progress?.begin(total);
  let done = 0;
  for (const entry of entries) {
    try {
      const sample = zipJson(zip, entry, limit, options.skip);
      if (isObject(sample)) samples.push(options.keep ? options.keep(sample) : sample);
      else refused.push({ entry: entry.name, message: `the zip entry ${entry.name} is not a sample object` });
    } catch (e) {
      refused.push({ entry: entry.name, message: message(e) });
    }
    done += entry.compressedSize;
    if (progress && done >= progress.next) progress.at(done);
  }
  // In id then epoch order (zip order is write order, which varies).
  samples.sort(compareSamples);
  let reductions: unknown;
  try {
    reductions = zipJson(zip, zip.entry('reductions.json'), limit);
  } catch (e) {
    refused.push({ entry: 'reductions.json', message: message(e) });
  }
  return {
    header, samples, reductions: Array.isArray(reductions) ? reductions.filter(isObject) : undefined, lines: samples.map((_, k) => k + 1),
    ...(refused.length ? { refused } : {}), ...(chunked ? { chunked } : {}),
  };
}

export function compareSamples(a: Obj, b: Obj): number {
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

/** A `.json` log (one document: read whole, then what `keep` keeps of each sample). */
function readJson(text: string, options: ReadOptions): InspectLog {
  const doc = parsePythonJson(text);
  if (!isObject(doc) || !isObject(doc.eval)) throw new Error('the JSON document has no "eval" object, so it is not an Inspect log');
  const { samples, reductions, ...header } = doc;
  const list = Array.isArray(samples) ? samples.filter(isObject) : [];
  const lines = sampleLines(text, list);
  return { header, samples: options.keep ? list.map(options.keep) : list, reductions: Array.isArray(reductions) ? reductions.filter(isObject) : undefined, lines };
}

/** Whether the bytes start like a zip (PK\x03\x04), whatever the file's name. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
}

/**
 * `data`: the file's bytes, or a source that reads them by range (a large `.eval` on disk).
 * `limit`: the most bytes one zip entry may inflate to (see boundedInflate.ts).
 */
export function readInspectLog(data: Uint8Array | ByteSource, text: () => string, limit = MAX_INFLATED_BYTES, options: ReadOptions = {}): InspectLog {
  const source = data instanceof Uint8Array ? bytesSource(data) : data;
  return ZipArchive.looksLikeZip(source) ? readZip(source, limit, options) : readJson(text(), options);
}
