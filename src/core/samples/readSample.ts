// The sample view's reader (issue 29): given a report's source file and one of its rows (its line,
// its sample ID), the whole SampleRecord of that sample, read from the file when it is shown and
// not before. An Inspect .eval zip gives up one entry (samples/<id>_epoch_<n>.json), read by range
// and inflated within the limit; a .json log is parsed for the one sample; lm-eval, Every Eval Ever
// and lighteval JSON Lines give up the row's line; the other formats keep no more than the report already
// shows, so their record is made of the row's texts and labels (recordFromTexts).
import { closeSync, openSync, readSync } from 'node:fs';
import { fileInput, sourceOf, textInput, type FileInput } from '../formats/context';
import { inflateLimit } from '../formats/boundedInflate';
import { isObject, readInspectLog, SAMPLE_ENTRY, zipJson, type Obj } from '../formats/inspectLog';
import { ZipArchive, type ZipEntry } from '../formats/zipArchive';
import { forEachJsonRecord } from '../formats/jsonl';
import { readSimpleEvaluate } from '../formats/lmEvalDump';
import { lmEvalFileParts } from '../formats/lmEval';
import { readResultsDoc, resultsPathFor, targetDelimiterOf } from '../formats/lmEvalResults';
import { parsePythonJson } from '../formats/pythonJson';
import { sizeText } from '../formats/progress';
import { fileByteSource, isZipFile, nodeCompanionReader, readFileBytes } from '../io';
import { resolveOptions } from '../report';
import { inspectSampleRecord } from './inspectRecord';
import { lmEvalSampleRecord } from './lmEvalRecord';
import { eeeSampleRecord } from './eeeRecord';
import { lightevalSampleRecord } from './lightevalRecord';
import { locateAnswer } from './answerSpan';
import type { SampleQuery, SampleRecord, SampleRow } from './record';

export type { SampleQuery, SampleRow } from './record';

export type SampleAnswer = { record: SampleRecord; from: 'file' | 'texts' } | { error: string };


export { SAMPLE_FILE_FORMATS as SAMPLE_FORMATS } from '../../common/sampleView';

export interface ReadSampleOptions {
  /** evalLens.maxFileSizeMB in bytes: one zip entry inflates within it (and 256 MB); a file above it is not read whole. */
  maxFileBytes?: number;
}

export function readSampleRecord(q: SampleQuery, o: ReadSampleOptions = {}): SampleAnswer {
  try {
    const record = q.format === 'inspect' ? inspectRecord(q, o)
      : q.format === 'lm-eval' ? lmEvalRecord(q, o)
      : q.format === 'eee' ? eeeRecord(q, o)
      : q.format === 'lighteval' ? lightevalRecord(q, o)
      : undefined;
    if (record) return { record, from: 'file' };
    if (q.row.texts) return { record: recordFromTexts(q.row), from: 'texts' };
    return { error: `row ${q.row.line} of ${q.path} was not found in the file` };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

// ---------------------------------------------------------------------------------------------
// Inspect

/** An Inspect row's sample ID and epoch: "7 (epoch 2)" is sample 7, epoch 2, when no sample is named so. */
export function inspectKey(id: string): { id: string; epoch?: number }[] {
  const keys: { id: string; epoch?: number }[] = [{ id }];
  const m = /^(.*) \(epoch (\d+)\)$/s.exec(id);
  if (m) keys.push({ id: m[1], epoch: Number(m[2]) });
  return keys;
}

/** The entry of sample `id` (and `epoch`, when given; else its only epoch). */
function findEntry(zip: ZipArchive, id: string): ZipEntry | undefined {
  for (const key of inspectKey(id).reverse()) {
    if (key.epoch !== undefined) {
      const exact = zip.entry(`samples/${key.id}_epoch_${key.epoch}.json`);
      if (exact) return exact;
      continue;
    }
    const found = zip.entries.filter((e) => SAMPLE_ENTRY.exec(e.name)?.[1] === key.id);
    if (found.length) return found.sort((a, b) => Number(SAMPLE_ENTRY.exec(a.name)![2]) - Number(SAMPLE_ENTRY.exec(b.name)![2]))[0];
  }
  return undefined;
}

function inspectRecord(q: SampleQuery, o: ReadSampleOptions): SampleRecord | undefined {
  const limit = inflateLimit(o.maxFileBytes);
  if (q.text === undefined && isZipFile(q.path)) {
    const zip = ZipArchive.open(fileByteSource(q.path));
    const header = zipJson(zip, zip.entry('header.json'), limit) ?? zipJson(zip, zip.entry('_journal/start.json'), limit);
    if (q.row.id === undefined) throw new Error('the row has no sample ID to find its entry by');
    const entry = findEntry(zip, q.row.id);
    if (!entry) throw new Error(`the log has no entry samples/<id>_epoch_<n>.json for sample ${q.row.id}`);
    const sample = zipJson(zip, entry, limit);
    if (!isObject(sample)) throw new Error(`the zip entry ${entry.name} is not a sample object`);
    return inspectSampleRecord(sample, { header: isObject(header) ? header : {}, line: q.row.line });
  }
  const input = inputOf(q, o);
  const log = readInspectLog(input.bytes, () => input.text(), limit);
  const keys = q.row.id !== undefined ? inspectKey(q.row.id) : [];
  const matches = (s: Obj) => !keys.length || keys.some((k) => String(s.id) === k.id && (k.epoch === undefined || Number(s.epoch ?? 1) === k.epoch));
  let k = log.samples.findIndex((s, j) => log.lines[j] === q.row.line && matches(s));
  if (k < 0) k = log.samples.findIndex(matches);
  return k < 0 ? undefined : inspectSampleRecord(log.samples[k], { header: log.header, line: log.lines[k] });
}

// ---------------------------------------------------------------------------------------------
// JSON Lines: lm-eval, Every Eval Ever

/** The file as an input (its unsaved text, else its bytes), refused above the size limit. */
function inputOf(q: SampleQuery, o: ReadSampleOptions): FileInput {
  if (q.text !== undefined) return textInput(q.path, q.text);
  const read = readFileBytes(q.path);
  if ('tooLarge' in read) throw new Error(`the file is ${read.tooLarge}`);
  const limit = o.maxFileBytes;
  if (limit && read.bytes.length > limit) throw new Error(`the file is ${sizeText(read.bytes.length)}, above the evalLens.maxFileSizeMB limit`);
  return fileInput(q.path, read.bytes);
}

/**
 * Line `line` (1-based) of a file, read in chunks up to it (a large file is not read whole), or
 * undefined past its end.
 */
export function readLineAt(path: string, line: number): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let at = 1;
    let offset = 0;
    const parts: Buffer[] = [];
    for (;;) {
      const got = readSync(fd, chunk, 0, chunk.length, offset);
      if (got === 0) return at === line && parts.length ? Buffer.concat(parts).toString('utf8') : undefined;
      let start = 0;
      for (let i = 0; i < got; i++) {
        if (chunk[i] !== 10) continue;
        if (at === line) {
          parts.push(Buffer.from(chunk.subarray(start, i)));
          return Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
        }
        at++;
        start = i + 1;
      }
      if (at === line) parts.push(Buffer.from(chunk.subarray(start, got)));
      offset += got;
    }
  } finally {
    closeSync(fd);
  }
}

/** The record on line `line`: that line alone when it is one JSON object, else a scan of the whole file. */
function recordAtLine(q: SampleQuery, o: ReadSampleOptions, idKey: string): Obj | undefined {
  const wanted = q.row.id;
  const fits = (v: unknown): v is Obj => isObject(v) && (wanted === undefined || !(idKey in v) || String(v[idKey]) === wanted || wanted.startsWith('line '));
  if (q.text === undefined) {
    const text = readLineAt(q.path, q.row.line)?.trim().replace(/^\uFEFF/, '').replace(/,$/, '');
    if (text && text.startsWith('{')) {
      try {
        const v = parsePythonJson(text);
        if (fits(v)) return v;
      } catch {
        /* not one object on one line (a pretty-printed array): scan below */
      }
    }
  }
  let found: Obj | undefined;
  forEachJsonRecord(sourceOf(inputOf(q, o)), (value, span) => {
    if (span.line === q.row.line && fits(value)) { found = value; return false; }
    return true;
  });
  return found;
}

function lmEvalRecord(q: SampleQuery, o: ReadSampleOptions): SampleRecord | undefined {
  // A simple_evaluate dump: one JSON document, its samples per task (rows have line 1, found by doc_id).
  const head = q.text ?? readLineAt(q.path, 1) ?? '';
  if (/^\s*\{\s*"results"\s*:/.test(head)) {
    const dump = readSimpleEvaluate(inputOf(q, o));
    if (!dump || !('samples' in dump)) return undefined;
    const task = q.task !== undefined && dump.tasks.includes(q.task) ? q.task : dump.tasks[0];
    const rec = dump.samples[task].find((s) => isObject(s) && String(s.doc_id) === q.row.id);
    return isObject(rec) ? lmEvalSampleRecord(rec, { line: q.row.line, task }) : undefined;
  }
  const rec = recordAtLine(q, o, 'doc_id');
  if (!rec) return undefined;
  const parts = lmEvalFileParts(q.path);
  let delimiter: string | undefined;
  if (parts.timestamp && q.text === undefined) {
    try {
      const doc = readResultsDoc(resultsPathFor(q.path, parts.timestamp, nodeCompanionReader), { options: resolveOptions({}), io: nodeCompanionReader });
      delimiter = targetDelimiterOf(doc, parts.task);
    } catch {
      /* no results file beside the samples: lm-eval's default delimiter */
    }
  }
  return lmEvalSampleRecord(rec, { line: q.row.line, task: parts.task ?? q.task, delimiter });
}

function eeeRecord(q: SampleQuery, o: ReadSampleOptions): SampleRecord | undefined {
  const rec = recordAtLine(q, o, 'sample_id');
  // An aggregate file's rows are results, not instances: those are shown from the row's texts.
  if (!rec || !('sample_id' in rec || 'input' in rec || 'messages' in rec)) return undefined;
  return eeeSampleRecord(rec, q.row.line);
}

/** A lighteval details row of JSON Lines (a Parquet table's rows are shown from the report's texts). */
function lightevalRecord(q: SampleQuery, o: ReadSampleOptions): SampleRecord | undefined {
  if (/\.parquet$/i.test(q.path)) return undefined;
  const rec = recordAtLine(q, o, '\u0000');
  return rec ? lightevalSampleRecord(rec, q.row.line, q.row.id) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The other formats: the row's texts

/** Field names that hold the question or prompt, the reference, the model's output, its extracted answer. */
const INPUT_FIELDS = /^(input|prompt|question|query|text|sentence|context|passage|problem|tweet|title|abstract)$/i;
const REFERENCE_FIELDS = /^(target|reference|references|gold|answer_gold|label_text)$/i;
const OUTPUT_FIELDS = /^(output|response|completion|generation|prediction_text)$/i;
const EXPLANATION_FIELDS = /^(explanation|rationale|reasoning|critique)$/i;

/** A record of what the report shows of a row: its input, reference, output and the other fields as metadata. */
export function recordFromTexts(row: SampleRow): SampleRecord {
  const record: SampleRecord = { sample_id: row.id ?? `line ${row.line}`, line: row.line };
  const fields = row.texts?.fields ?? [];
  const values = row.texts?.values ?? [];
  const take = (re: RegExp) => {
    const k = fields.findIndex((f, j) => re.test(f) && values[j]?.trim());
    return k >= 0 ? { field: fields[k], value: values[k] } : undefined;
  };
  const input = take(INPUT_FIELDS);
  const reference = take(REFERENCE_FIELDS);
  const output = take(OUTPUT_FIELDS);
  const explanation = take(EXPLANATION_FIELDS);
  record.input = {
    ...(input ? { raw: input.value } : {}),
    reference: reference ? [reference.value] : row.gold !== undefined ? [row.gold] : [],
  };
  if (output) record.output = { raw: [output.value] };
  if (row.pred !== undefined) record.answer = row.pred;
  if (row.gold !== undefined) record.gold = row.gold;
  if (row.pred !== undefined) record.pred = row.pred;
  if (row.confidence !== undefined && Number.isFinite(row.confidence)) record.confidence = row.confidence;
  if (row.correct !== undefined) {
    record.evaluation = { score: row.correct ? 1 : 0, is_correct: row.correct };
    record.scores = [{ name: 'correct', value: row.correct ? 'correct' : 'incorrect', numeric: row.correct ? 1 : 0, ...(row.pred !== undefined ? { answer: row.pred } : {}), ...(explanation ? { explanation: explanation.value } : {}) }];
  }
  const used = new Set([input, reference, output, explanation].filter(Boolean).map((x) => x!.field));
  const metadata: Record<string, string> = {};
  fields.forEach((f, j) => { if (!used.has(f) && values[j]?.trim()) metadata[f] = values[j]; });
  if (Object.keys(metadata).length) record.metadata = metadata;
  const at = locateAnswer(record);
  if (at) record.answer_at = at;
  return record;
}
