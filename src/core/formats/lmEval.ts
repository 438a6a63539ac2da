// lm-evaluation-harness sample logs (`--log_samples`): samples_<task>_<timestamp>.jsonl, one JSON
// line per (document, filter). Two shapes matter:
//  - multiple_choice: `filtered_resps` = [[loglikelihood, is_greedy], ...] (one pair per choice,
//    often as strings), `target` = the gold choice (index, or its text), `acc` = argmax == gold.
//    We softmax the loglikelihoods into class probabilities, so calibration can be measured.
//  - generate_until: `filtered_resps` = ["generated text"]. There is no confidence, so the set is
//    multiclass without probabilities (accuracy and macro-F1 only). Gold and prediction come from
//    the task's own (gold, pred) pair when a per-sample metric logs one (the harness's normalised
//    labels), else from `target` and the trimmed response, with the harness's 0/1 verdict deciding
//    correctness where its normalisation differs from plain text equality.
//  - loglikelihood with one continuation per sample (lambada, asdiv): `resps` = [[loglikelihood,
//    is_greedy]]; accuracy is the share of greedy continuations and perplexity exp(-mean ll).
// Figures lm-eval reported itself come from the results_<timestamp>.json beside the file
// (lmEvalResults.ts); a simple_evaluate dump holds both (lmEvalDump.ts).
import type { MulticlassSet, ParseResult, RowProblem } from '../types';
import { sourceOf, type FileInput, type FormatContext } from './context';
import { stripBom } from './csv';
import { forEachJsonRecord, type JsonRecordHandler, type JsonScan, type JsonSpan } from './jsonl';
import { lmEvalReported, modelOfResults, readResultsDoc, resultsPathFor, targetDelimiterOf, type LmEvalMode } from './lmEvalResults';
import { looksLikeResultsDocument, readSimpleEvaluate } from './lmEvalDump';
import { lmEvalSampleCount, lmEvalSummary, summaryResultOf } from './summaryJson';
import { normalisedArgmax } from '../metrics/lmEvalMetrics';
import { showValue } from './numbers';
import { detach } from './progress';
import { baseName } from '../../common/paths';

type Obj = Record<string, unknown>;

/** lm-eval 0.4.3+ writes samples_<task>_<ts>.jsonl; 0.4.2 wrote samples_<task>_<ts>.json, one JSON array. */
const SAMPLES_NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl?$/i;
/** doc fields that hold the question as the user wrote it (shorter than the templated prompt). */
const DOC_TEXT_KEYS = ['prompt', 'question', 'query', 'input', 'problem', 'text', 'ctx', 'context', 'sentence', 'premise', 'passage'];
/** Per-sample 0/1 verdicts lm-eval tasks log, in the order they are trusted. */
const VERDICT_KEYS = ['exact_match', 'acc', 'em', 'exact', 'correct', 'accuracy'];
/** Top-level keys of a sample that are not per-sample metrics. */
const SAMPLE_KEYS = new Set(['doc_id', 'doc', 'target', 'arguments', 'resps', 'filtered_resps', 'filter', 'metrics', 'doc_hash', 'prompt_hash', 'target_hash']);
const MAX_TEXT = 3000;
/** Choice texts up to this length (and identical on every row) name the classes; else indices do. */
const MAX_CLASS_NAME = 24;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text cut to MAX_TEXT, as a string of its own (a slice would keep the whole document alive). */
function clip(s: string): string {
  return s.length > MAX_TEXT ? detach(`${s.slice(0, MAX_TEXT)}…`) : s;
}

/** Task and timestamp from `samples_<task>_<timestamp>.jsonl` or `.json` (task names may hold underscores). */
export function lmEvalFileParts(path: string): { task?: string; timestamp?: string } {
  const m = SAMPLES_NAME.exec(baseName(path));
  if (m) return { task: m[1], timestamp: m[2] };
  const loose = /^samples_(.+?)(?:_[^_]*)?\.jsonl?$/i.exec(baseName(path));
  return loose ? { task: loose[1] } : {};
}

/**
 * By name (samples_*.jsonl, and lm-eval 0.4.2's samples_<task>_<ts>.json), or by content: lm-eval
 * writes `doc_id` then `doc` first on every line.
 */
export function isLmEvalSamples(path: string, head: string): boolean {
  const name = baseName(path);
  if (/^samples_.+\.jsonl$/i.test(name)) return true;
  if (SAMPLES_NAME.test(name) && /^\s*\[/.test(stripBom(head))) return true;
  if (!/\.(jsonl|json)$/i.test(name)) return false;
  // A simple_evaluate dump; lm-eval's own results_<timestamp>.json never holds the samples.
  if (/\.json$/i.test(name) && !/^results_/i.test(name) && looksLikeResultsDocument(stripBom(head))) return true;
  return /^\s*\[?\s*\{\s*"doc_id"\s*:\s*[^,]+,\s*"doc"\s*:/.test(stripBom(head));
}

// ---------------------------------------------------------------------------------------------
// Responses

export type Responses =
  | { kind: 'loglikelihood'; values: unknown[]; greedy?: boolean[] }
  | { kind: 'generation'; text: string; raw: unknown }
  | { kind: 'bad'; message: string };

/** [ll, is_greedy] with is_greedy a boolean or its Python spelling. */
function isLoglikelihoodPair(v: unknown): v is [unknown, unknown] {
  return Array.isArray(v) && v.length === 2 && (typeof v[1] === 'boolean' || (typeof v[1] === 'string' && /^(true|false)$/i.test(v[1])));
}

/** `filtered_resps` (what lm-eval scored) when present, else `resps` (one more level of nesting). */
export function readResponses(rec: Obj): { responses: Responses; key: string } {
  const key = Array.isArray(rec.filtered_resps) ? 'filtered_resps' : Array.isArray(rec.resps) ? 'resps' : undefined;
  if (!key) return { key: 'resps', responses: { kind: 'bad', message: 'The sample has no "filtered_resps" or "resps" list' } };
  const list = rec[key] as unknown[];
  if (!list.length) return { key, responses: { kind: 'bad', message: `"${key}" is empty` } };
  // resps wraps each request's outputs in a list ([[["-10.1", "False"]], ...], [["A"]]): unwrap single items.
  const items = list.map((v) => (Array.isArray(v) && v.length === 1 && (Array.isArray(v[0]) || typeof v[0] === 'string') ? v[0] : v));
  if (items.every((v) => isLoglikelihoodPair(v))) {
    const pairs = items as [unknown, unknown][];
    const greedy = pairs.map((v) => v[1] === true || (typeof v[1] === 'string' && v[1].toLowerCase() === 'true'));
    return { key, responses: { kind: 'loglikelihood', values: pairs.map((v) => v[0]), greedy } };
  }
  // loglikelihood_rolling logs a bare number per request.
  if (items.every((v) => typeof v === 'number')) return { key, responses: { kind: 'loglikelihood', values: items } };
  let first = items[0];
  // Repeats without a take-first filter: several generations; lm-eval scores the first.
  if (Array.isArray(first) && first.length && typeof first[0] === 'string') first = first[0];
  if (typeof first === 'string') return { key, responses: { kind: 'generation', text: first, raw: first } };
  return { key, responses: { kind: 'bad', message: `"${key}" holds ${showValue(list)}, neither [loglikelihood, is_greedy] pairs nor generated text` } };
}

/** A loglikelihood: a number or a numeric string; -inf is a legal "impossible" choice. */
export function readLoglikelihood(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isNaN(v) || v === Infinity ? undefined : v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (/^-(inf|infinity)$/i.test(s)) return -Infinity;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return undefined;
  const x = Number(s);
  return Number.isFinite(x) ? x : undefined;
}

/** Softmax of loglikelihoods (shifted by the max, so large magnitudes do not underflow to 0/0). */
export function softmax(lls: readonly number[]): number[] {
  let max = -Infinity;
  for (const x of lls) if (x > max) max = x; // not Math.max(...): a record may list very many choices
  const e = lls.map((x) => Math.exp(x - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[best]) best = i; // ties: the first, as numpy
  return best;
}

// ---------------------------------------------------------------------------------------------
// Document texts and choices

/** Request arguments in order: {"gen_args_0": {"arg_0", "arg_1"}, ...} (0.4.4+) or [[ctx, cont], ...] (older). */
export function requestArguments(rec: Obj): unknown[][] {
  const a = rec.arguments;
  if (Array.isArray(a)) return a.map((x) => (Array.isArray(x) ? x : [x]));
  if (!isObject(a)) return [];
  return Object.keys(a)
    .filter((k) => /^gen_args_\d+$/.test(k))
    .sort((x, y) => Number(x.slice(9)) - Number(y.slice(9)))
    .map((k) => {
      const g = a[k];
      if (!isObject(g)) return [];
      return Object.keys(g).filter((j) => /^arg_\d+$/.test(j)).sort((x, y) => Number(x.slice(4)) - Number(y.slice(4))).map((j) => g[j]);
    });
}

/**
 * The continuation of each request as logged (lm-eval writes target_delimiter + choice text), or
 * the doc's own choice texts when the requests do not say; `fromArgs` tells which.
 */
export function continuations(rec: Obj, k: number): { texts: string[]; fromArgs: boolean } | undefined {
  const args = requestArguments(rec);
  if (args.length === k && args.every((a) => typeof a[1] === 'string')) return { texts: args.map((a) => a[1] as string), fromArgs: true };
  const doc = rec.doc;
  if (isObject(doc) && Array.isArray(doc.choices) && doc.choices.length === k && doc.choices.every((c) => typeof c === 'string')) {
    return { texts: doc.choices as string[], fromArgs: false };
  }
  return undefined;
}

/** The choice text of a continuation: without the leading target delimiter (what lm-eval's acc_norm measures). */
export function withoutDelimiter(text: string, delimiter: string): string {
  return delimiter && text.startsWith(delimiter) ? text.slice(delimiter.length) : text;
}

function promptText(rec: Obj): string {
  const doc = rec.doc;
  if (isObject(doc)) {
    for (const key of DOC_TEXT_KEYS) {
      const v = doc[key];
      if (typeof v === 'string' && v.trim()) return clip(v);
    }
  }
  const first = requestArguments(rec)[0]?.[0];
  if (typeof first === 'string') return clip(first);
  return typeof doc === 'string' ? clip(doc) : '';
}

// ---------------------------------------------------------------------------------------------
// Gold, verdicts

/** The per-sample 0/1 verdict the harness logged (exact_match, acc, ...), with its name. */
export function verdictOf(rec: Obj, preferred?: string): { key: string; value: 0 | 1 } | undefined {
  const keys = preferred ? [preferred] : VERDICT_KEYS;
  for (const key of keys) {
    const v = rec[key];
    if (v === 0 || v === 1) return { key, value: v };
    if (typeof v === 'boolean') return { key, value: v ? 1 : 0 };
  }
  return undefined;
}

type Label = string | number | boolean;
const isLabel = (v: unknown): v is Label => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * A per-sample metric logged as the pair (gold, pred): lm-eval's f1/mcc passthrough and custom
 * multi-label metrics (NegotiationToM's micro_f1 = [gold labels, predicted labels]).
 */
function goldPredPair(rec: Obj): { key: string; gold: string; pred: string; sets: boolean; elements: string[] } | undefined {
  const listed = Array.isArray(rec.metrics) ? rec.metrics.filter((m): m is string => typeof m === 'string') : [];
  const keys = [...listed, ...Object.keys(rec).filter((k) => !SAMPLE_KEYS.has(k) && !listed.includes(k))];
  for (const key of keys) {
    const v = rec[key];
    if (!Array.isArray(v) || v.length !== 2) continue;
    const ok = (x: unknown) => isLabel(x) || (Array.isArray(x) && x.every(isLabel));
    if (ok(v[0]) && ok(v[1])) {
      // The labels a set is made of: few (a label vocabulary) or many (entity texts, free text).
      const elements = [v[0], v[1]].flatMap((x) => (Array.isArray(x) ? x : [x])).map((x) => String(x).trim()).filter((x) => x !== '');
      return { key, gold: labelText(v[0]), pred: labelText(v[1]), sets: Array.isArray(v[0]) || Array.isArray(v[1]), elements };
    }
  }
  return undefined;
}

/** The class of an empty answer: "", [] and [""] alike (a NER task's "no entity"). */
const EMPTY = '(empty)';

/**
 * A label or a label set as one class name: sets sorted, so {B, A} and [A, B] are the same class;
 * empty strings in a set are no labels, so an empty answer [""] equals an empty gold "".
 */
function labelText(v: unknown): string {
  if (Array.isArray(v)) {
    const parts = [...new Set(v.map((x) => String(x).trim()))].filter((x) => x !== '').sort();
    return parts.length ? parts.join(', ') : EMPTY;
  }
  const s = String(v).trim();
  return s === '' ? EMPTY : s;
}

export type GoldIndex = { index: number } | { message: string };

/**
 * The gold choice: an index (number or digit string), or a choice's text. A digit string that is
 * both a valid index and a different choice's text is settled by the row's own `acc`.
 */
export function goldChoice(target: unknown, choices: string[] | undefined, k: number, pred: number, acc: 0 | 1 | undefined): GoldIndex {
  if (Array.isArray(target)) {
    // Several acceptable answers: lm-eval counts the prediction right when it is any of them.
    const all = target.map((t) => goldChoice(t, choices, k, pred, undefined));
    const ok = all.filter((g): g is { index: number } => 'index' in g).map((g) => g.index);
    if (!ok.length) return all[0] ?? { message: 'target is an empty list' };
    return { index: ok.includes(pred) ? pred : ok[0] };
  }
  if (typeof target === 'number') {
    return Number.isInteger(target) && target >= 0 && target < k ? { index: target } : { message: `target ${target} is not a choice index 0..${k - 1}` };
  }
  if (typeof target !== 'string') return { message: `target is ${showValue(target)}, neither a choice index nor a choice text` };
  const s = target.trim();
  if (s === '') return { message: 'target is empty' };
  const byNumber = /^\d+$/.test(s) && Number(s) < k ? Number(s) : -1;
  const byText = choices ? choices.indexOf(s) : -1;
  // Older logs (2023) give the answer text: it names a choice only when exactly one has that text.
  if (byNumber < 0 && byText >= 0 && choices!.indexOf(s, byText + 1) !== -1) {
    return { message: `target ${showValue(target)} matches ${choices!.filter((c) => c === s).length} choices, so which one is gold is unknown` };
  }
  if (byNumber >= 0 && byText >= 0 && byNumber !== byText && acc !== undefined) {
    return { index: (pred === byText) === (acc === 1) ? byText : byNumber };
  }
  if (byNumber >= 0) return { index: byNumber };
  if (byText >= 0) return { index: byText };
  return /^\d+$/.test(s)
    ? { message: `target ${showValue(target)} is not a choice index 0..${k - 1}` }
    : { message: `target ${showValue(target)} is not one of the choices${choices ? ` (${choices.slice(0, 6).map((c) => showValue(c)).join(', ')}${choices.length > 6 ? ', ...' : ''})` : ''}` };
}

// ---------------------------------------------------------------------------------------------

interface Row {
  line: number;
  id: string;
  gold: string | number;
  pred: string | number;
  probs?: number[];
  predNorm?: number;
  texts: string[];
  numeric: Record<string, number>;
}

/**
 * A sample as kept while the file is read: what the scoring loop needs, taken out of the record at
 * once (prompt clipped, choice texts, responses, verdicts), so the record itself (its doc, the
 * request arguments with their few-shot contexts) is let go with its line.
 */
interface Sample {
  span: JsonSpan;
  line: number;
  docId: unknown;
  target: unknown;
  responses: Responses;
  respKey: string;
  prompt: string;
  /** continuations(rec, k) for the k loglikelihoods, when the responses are loglikelihoods. */
  continuations?: { texts: string[]; fromArgs: boolean };
  pair?: { key: string; gold: string; pred: string; sets: boolean; elements: string[] };
  /** The record's fields named in VERDICT_KEYS (for verdictOf). */
  verdicts: Obj;
  /** Every per-sample numeric metric the task logged (mae, f1, bleu, exact_match, ...), booleans as 0/1. */
  numeric: Record<string, number>;
}

/** Top-level fields of a sample that are numbers (or booleans): the task's per-sample metrics. */
export function numericMetrics(rec: Obj): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (SAMPLE_KEYS.has(k)) continue;
    if (typeof v === 'number') out[k] = v;
    else if (typeof v === 'boolean') out[k] = v ? 1 : 0;
  }
  return out;
}

function verdictFields(rec: Obj): Obj {
  const out: Obj = {};
  for (const k of [...VERDICT_KEYS, 'acc_norm']) if (k in rec) out[k] = rec[k];
  return out;
}

export function parseLmEval(input: FileInput, ctx: FormatContext): ParseResult {
  // A dump of simple_evaluate's return value: its results and, per task, the samples.
  const dump = readSimpleEvaluate(input);
  if (dump) {
    if ('resultsOnly' in dump) return summaryResultOf(lmEvalSummary(dump.resultsOnly));
    if ('fatal' in dump) {
      return { format: 'lm-eval', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message: dump.fatal }], skipped: 0, unlabeled: 0, fatal: dump.fatal };
    }
    const wanted = ctx.options.task;
    const task = wanted !== undefined && dump.tasks.includes(wanted) ? wanted : dump.tasks[0];
    const records = dump.samples[task];
    const each = (onRecord: JsonRecordHandler): JsonScan => {
      let n = 0;
      for (const value of records) {
        n++;
        if (onRecord(value, { line: 1, start: 0, end: 0 }) === false) break;
      }
      return { shape: 'object', problems: [], badRecords: 0, records: n, locate: () => undefined };
    };
    const result = parseSamples(task, each, { doc: dump.doc, path: input.path });
    result.tasks = dump.tasks;
    if (wanted !== undefined && wanted !== task) {
      result.problems.unshift({ line: 1, severity: 'warning', code: 'unscorable', message: `The file has no task "${wanted}"; it holds ${dump.tasks.join(', ')}. Showing ${task}.` });
    }
    return result;
  }
  const parts = lmEvalFileParts(input.path);
  const resultsPath = parts.timestamp ? resultsPathFor(input.path, parts.timestamp, ctx.io) : undefined;
  const doc = resultsPath ? readResultsDoc(resultsPath, ctx) : undefined;
  return parseSamples(
    parts.task, (onRecord) => forEachJsonRecord(sourceOf(input), onRecord, ctx.progress),
    doc && resultsPath ? { doc, path: resultsPath } : undefined,
  );
}

/** Score the samples `each` hands over; `results` is lm-eval's own results document for them, when known. */
function parseSamples(
  fileTask: string | undefined, each: (onRecord: JsonRecordHandler) => JsonScan,
  results: { doc: Record<string, unknown>; path: string } | undefined,
): ParseResult {
  let task = fileTask;
  // Records that are not objects, reported after the lines that do not parse (scan.problems), once
  // the scan can locate fields.
  const notObjects: { span: JsonSpan; message: string }[] = [];
  let skipped = 0;
  let locate: JsonScan['locate'] = () => undefined;
  const at = (span: JsonSpan, key: string) => locate(span, key) ?? { line: span.line };

  // lm-eval writes one line per (doc, filter). Mixing filters would count each doc twice: score
  // the first filter in the file and say how many rows of the others were left out.
  const samples: Sample[] = [];
  let filter: string | undefined;
  const otherFilters = new Map<string, { count: number; line: number }>();
  const scan = each((value, span) => {
    const line = span.line;
    if (!isObject(value)) {
      notObjects.push({ span, message: `Line ${line} is ${showValue(value)}, not a sample object; it is skipped.` });
      skipped++;
      return;
    }
    const f = typeof value.filter === 'string' ? value.filter : 'none';
    filter ??= f;
    if (f !== filter) {
      const o = otherFilters.get(f) ?? { count: 0, line };
      o.count++;
      otherFilters.set(f, o);
      return;
    }
    const { responses, key: respKey } = readResponses(value);
    samples.push({
      span, line, docId: value.doc_id, target: value.target, responses, respKey,
      prompt: promptText(value),
      continuations: responses.kind === 'loglikelihood' ? continuations(value, responses.values.length) : undefined,
      pair: goldPredPair(value),
      verdicts: verdictFields(value),
      numeric: numericMetrics(value),
    });
    if (!task) {
      const t = value.task_name ?? value.task;
      if (typeof t === 'string') task = t;
    }
  });
  locate = scan.locate;
  const problems: RowProblem[] = [
    ...scan.problems,
    ...notObjects.map(({ span, message }): RowProblem => ({ ...at(span, 'doc_id'), severity: 'error', code: 'missing-field', message })),
  ];
  skipped += scan.badRecords;
  const fail = (fatal: string): ParseResult => ({ format: 'lm-eval', task, set: null, problems, skipped, unlabeled: 0, fatal });
  if (scan.fatal) return fail(scan.fatal);

  if (!scan.records) {
    if (!scan.problems.length) problems.push({ line: 1, severity: 'error', code: 'empty-file', message: 'The file holds no samples.' });
    return fail(scan.problems.length ? 'No line of the file parses as JSON.' : 'The file holds no samples.');
  }

  const error = (span: JsonSpan, key: string, code: RowProblem['code'], message: string) => {
    problems.push({ ...at(span, key), severity: 'error', code, message });
    skipped++;
  };

  for (const [f, o] of otherFilters) {
    problems.push({ line: o.line, severity: 'info', code: 'duplicate-id', message: `${o.count} samples for filter "${f}" are not scored: this view scores filter "${filter}", the first in the file.` });
    skipped += o.count;
  }
  filter ??= 'none';

  // The file's shape, by majority: multiple choice (>= 2 loglikelihoods) or generation.
  let mc = 0;
  let gen = 0;
  let single = 0;
  for (const { responses: r } of samples) {
    if (r.kind === 'loglikelihood') { if (r.values.length >= 2) mc++; else single++; } else if (r.kind === 'generation') gen++;
  }
  if (!mc && !gen && !single) {
    for (const s of samples) {
      if (s.responses.kind === 'bad') error(s.span, s.respKey, 'missing-field', `${s.responses.message}; the sample is skipped.`);
    }
    return fail('No sample holds loglikelihoods of choices or generated text.');
  }
  const mode: LmEvalMode = mc || gen ? (mc >= gen ? 'mc' : 'gen') : 'single';
  const delimiter = targetDelimiterOf(results?.doc, task) ?? ' ';

  const rows: Row[] = [];
  const seen = new Map<string, number>();
  const choiceLists: (string[] | undefined)[] = [];
  let verdictKey: string | undefined = mode === 'gen' ? undefined : 'acc';
  // Rows where Eval Lens and lm-eval's per-sample verdict judge differently (generation tasks).
  let differing = 0;
  let firstDiffering = 0;
  let labelSets = false;
  const loglik: number[] = [];

  for (const sample of samples) {
    const { line, span, responses: r, respKey, docId } = sample;
    const id = typeof docId === 'number' || typeof docId === 'string' ? String(docId) : undefined;
    const who = id !== undefined ? `doc_id ${id}` : `The sample on line ${line}`;

    if (r.kind === 'bad') { error(span, respKey, 'missing-field', `${who}: ${r.message}; the sample is skipped.`); continue; }
    if (mode !== 'gen' && r.kind !== 'loglikelihood') { error(span, respKey, 'missing-field', `${who}: "${respKey}" holds generated text, but this file's samples are multiple choice; the sample is skipped.`); continue; }
    if (mode === 'gen' && r.kind !== 'generation') { error(span, respKey, 'missing-field', `${who}: "${respKey}" holds loglikelihoods, but this file's samples are generations; the sample is skipped.`); continue; }

    if (id !== undefined && seen.has(id)) {
      problems.push({ ...at(span, 'doc_id'), severity: 'warning', code: 'duplicate-id', message: `doc_id ${id} was already seen on line ${seen.get(id)} (filter "${filter}"); this sample is skipped.` });
      skipped++;
      continue;
    }

    if (r.kind === 'loglikelihood') {
      const lls: number[] = [];
      let bad: string | undefined;
      r.values.forEach((v, j) => {
        const x = readLoglikelihood(v);
        if (x === undefined && bad === undefined) bad = `choice ${j} has loglikelihood ${showValue(v)}, not a number`;
        else if (x !== undefined) lls.push(x);
      });
      if (bad !== undefined) {
        const nonFinite = r.values.some((v) => (typeof v === 'string' && /^[+-]?(nan|inf|infinity)$/i.test(v.trim())) || (typeof v === 'number' && Number.isNaN(v)) || v === Infinity);
        error(span, respKey, nonFinite ? 'not-finite' : 'not-a-number', `${who}: ${bad}; the sample is skipped.`);
        continue;
      }
      if (mode === 'single') {
        if (r.values.length !== 1) { error(span, respKey, 'missing-field', `${who}: "${respKey}" has ${r.values.length} loglikelihoods, but this file's samples have one continuation each; the sample is skipped.`); continue; }
        if (lls[0] === -Infinity) { error(span, respKey, 'not-finite', `${who}: the continuation has loglikelihood -inf; the sample is skipped.`); continue; }
        // lm-eval's acc for a single continuation: whether greedy decoding would produce it.
        const greedy = r.greedy?.[0];
        if (greedy === undefined) { error(span, respKey, 'missing-field', `${who}: "${respKey}" has no is_greedy flag beside the loglikelihood; the sample is skipped.`); continue; }
        if (id !== undefined) seen.set(id, line);
        loglik.push(lls[0]);
        const targetText = typeof sample.target === 'string' ? sample.target : sample.target === undefined ? '' : JSON.stringify(sample.target);
        rows.push({ line, id: id ?? `line ${line}`, gold: 0, pred: greedy ? 0 : 1, texts: [sample.prompt, targetText], numeric: sample.numeric });
        continue;
      }
      if (r.values.length < 2) { error(span, respKey, 'missing-field', `${who}: "${respKey}" has a single loglikelihood, not one per choice; the sample is skipped.`); continue; }
      if (lls.every((x) => x === -Infinity)) { error(span, respKey, 'not-finite', `${who}: every choice has loglikelihood -inf; the sample is skipped.`); continue; }
      const probs = softmax(lls);
      const pred = argmax(lls);
      const cont = sample.continuations;
      const choices = cont?.texts.map((c) => c.trim());
      // acc_norm: per character of the choice text, which is the continuation without the delimiter.
      const predNorm = cont ? normalisedArgmax(lls, cont.fromArgs ? cont.texts.map((c) => withoutDelimiter(c, delimiter)) : cont.texts) : undefined;
      const acc = verdictOf(sample.verdicts, 'acc');
      const g = goldChoice(sample.target, choices, lls.length, pred, acc?.value);
      if ('message' in g) {
        error(span, 'target', sample.target === undefined ? 'missing-field' : 'unknown-class', `${who}: ${sample.target === undefined ? 'the sample has no "target"' : g.message}; the sample is skipped.`);
        continue;
      }
      // The harness's own verdict is the check that we read the choices the way it did.
      if (acc && (pred === g.index ? 1 : 0) !== acc.value) {
        problems.push({
          ...at(span, 'acc'), severity: 'warning', code: 'reported-mismatch',
          message: `${who}: acc is ${acc.value}, but the highest-loglikelihood choice (${pred}) ${pred === g.index ? 'is' : 'is not'} the target (${g.index}).`,
        });
      }
      const accNorm = verdictOf(sample.verdicts, 'acc_norm');
      if (accNorm && predNorm !== undefined && (predNorm === g.index ? 1 : 0) !== accNorm.value) {
        problems.push({
          ...at(span, 'acc_norm'), severity: 'warning', code: 'reported-mismatch',
          message: `${who}: acc_norm is ${accNorm.value}, but the choice with the highest loglikelihood per character (${predNorm}) ${predNorm === g.index ? 'is' : 'is not'} the target (${g.index}).`,
        });
      }
      if (id !== undefined) seen.set(id, line);
      choiceLists.push(choices);
      rows.push({
        line, id: id ?? `line ${line}`, gold: g.index, pred, probs, predNorm, numeric: sample.numeric,
        texts: [sample.prompt, (choices ?? lls.map((_, j) => `choice ${j}`)).map((c, j) => `${j}: ${c}`).join('\n')],
      });
      continue;
    }

    // Generation.
    const pair = sample.pair;
    let gold: string;
    let pred: string;
    const response = r.text.trim() === '' ? EMPTY : r.text.trim();
    if (pair) {
      gold = pair.gold;
      pred = pair.pred;
      if (pair.sets) labelSets = true;
    } else {
      const t = sample.target;
      // An empty target is the answer "nothing" (no entity, no span): it equals an empty response.
      const refs = (Array.isArray(t) ? t : [t]).filter(isLabel).map((x) => String(x).trim()).map((x) => (x === '' ? EMPTY : x));
      if (!refs.length) {
        error(span, 'target', 'missing-field', `${who}: target is ${showValue(t)}, not an answer text; the sample is skipped.`);
        continue;
      }
      pred = response;
      gold = refs.includes(pred) ? pred : refs[0];
    }
    const verdict = verdictOf(sample.verdicts, verdictKey);
    if (verdict) {
      verdictKey ??= verdict.key;
      if (verdict.value === 1 && pred !== gold && !pair) {
        // The harness's filters/normalisation (regex extraction, case, punctuation) matched it:
        // scored as lm-eval scored it, and said so on the row.
        problems.push({
          ...at(span, verdict.key), severity: 'info', code: 'reported-mismatch',
          message: `${who}: the response ${showValue(pred)} differs in text from the target ${showValue(gold)}, but lm-eval's ${verdict.key} is 1 (its filters and normalisation); scored as correct.`,
        });
        pred = gold;
        if (!differing++) firstDiffering = line;
      } else if ((pred === gold ? 1 : 0) !== verdict.value) {
        problems.push({
          ...at(span, verdict.key), severity: 'warning', code: 'reported-mismatch',
          message: `${who}: ${verdict.key} is ${verdict.value}, but the prediction ${showValue(pred)} ${pred === gold ? 'equals' : 'differs from'} the gold ${showValue(gold)}.`,
        });
        if (!differing++) firstDiffering = line;
      }
    }
    if (id !== undefined) seen.set(id, line);
    const target = sample.target;
    const targetText = Array.isArray(target) ? target.map(String).join(' | ') : target === undefined ? '' : String(target);
    rows.push({ line, id: id ?? `line ${line}`, gold, pred, texts: [sample.prompt, r.text, targetText], numeric: sample.numeric });
  }

  if (differing) {
    problems.push({
      line: firstDiffering, severity: 'info', code: 'reported-mismatch',
      message: `${differing} of ${rows.length} samples are judged differently by a plain comparison of answer texts and by lm-eval's ${verdictKey}; each is listed on its line.`,
    });
  }
  if (!rows.length) return fail('No sample could be scored; see the problems.');

  const n = rows.length;
  let set: MulticlassSet;
  if (mode === 'single') {
    set = {
      kind: 'multiclass', n, lines: Uint32Array.from(rows.map((r) => r.line)), ids: rows.map((r) => r.id),
      classes: ['greedy', 'not greedy'], classesKnown: true,
      gold: Int32Array.from(rows.map((r) => r.gold as number)), pred: Int32Array.from(rows.map((r) => r.pred as number)),
      continuationLoglik: Float64Array.from(loglik),
      texts: { fields: ['prompt', 'target'], values: rows.map((r) => r.texts) },
    };
    problems.push({
      line: rows[0].line, severity: 'info', code: 'undefined-metric',
      message: 'Each sample has one continuation: accuracy is the share that greedy decoding would produce (lm-eval\'s acc), perplexity is exp(-mean loglikelihood); there are no choices to calibrate.',
    });
  } else if (mode === 'mc') {
    // A loop, not Math.max(...): spreading 100k rows would overflow the argument stack.
    const k = rows.reduce((m, r) => Math.max(m, r.probs!.length), 0);
    // Choice texts name the classes only when every sample offers the same short, distinct choices
    // (A/B/C/D, yes/no); otherwise a class is a position, and each row's texts list its choices.
    const first = choiceLists[0];
    const same = !!first && first.length === k && new Set(first).size === k
      && first.every((c) => c !== '' && c.length <= MAX_CLASS_NAME)
      && choiceLists.every((c) => !!c && c.length === k && c.every((x, j) => x === first[j]));
    const classes = same ? [...first] : Array.from({ length: k }, (_, j) => String(j));
    // Samples with fewer choices get probability 0 for the positions they lack.
    const probs = new Float64Array(n * k);
    const confidence = new Float64Array(n);
    rows.forEach((r, i) => {
      r.probs!.forEach((p, j) => { probs[i * k + j] = p; });
      confidence[i] = r.probs![r.pred as number];
    });
    set = {
      kind: 'multiclass', n, lines: Uint32Array.from(rows.map((r) => r.line)), ids: rows.map((r) => r.id),
      classes, classesKnown: true,
      gold: Int32Array.from(rows.map((r) => r.gold as number)), pred: Int32Array.from(rows.map((r) => r.pred as number)),
      confidence, probs,
      texts: { fields: ['prompt', 'choices'], values: rows.map((r) => r.texts) },
    };
    if (rows.every((r) => r.predNorm !== undefined)) set.predNorm = Int32Array.from(rows.map((r) => r.predNorm!));
  } else {
    const classes = [...new Set(rows.flatMap((r) => [String(r.gold), String(r.pred)]))].sort();
    const index = new Map(classes.map((c, i) => [c, i]));
    set = {
      kind: 'multiclass', n, lines: Uint32Array.from(rows.map((r) => r.line)), ids: rows.map((r) => r.id),
      classes, classesKnown: false,
      gold: Int32Array.from(rows.map((r) => index.get(String(r.gold))!)), pred: Int32Array.from(rows.map((r) => index.get(String(r.pred))!)),
      texts: { fields: ['prompt', 'response', 'target'], values: rows.map((r) => r.texts) },
    };
    // Answers are labels when they repeat: more distinct golds or answers than half the samples are free text.
    const golds = new Set(rows.map((r) => String(r.gold))).size;
    const preds = new Set(rows.map((r) => String(r.pred))).size;
    // A task's own (gold, pred) pair names labels (f1/mcc passthrough, label lists of a small
    // vocabulary), unless its sets are made of many distinct texts (a NER task's entity strings).
    const fromPairs = samples.some((x) => x.pair);
    const elements = new Set(samples.flatMap((x) => x.pair?.elements ?? [])).size;
    const textSets = fromPairs && labelSets && elements > Math.max(20, n / 4);
    if ((!fromPairs || textSets) && (golds > n / 2 || preds > n / 2)) {
      // A (gold, pred) pair of free texts is what a corpus-level metric logs per sample (lm-eval's
      // f1, bleu, chrf, ter passthrough): the task's figure is its aggregation over all the pairs,
      // so an exact-match share of the pairs is no figure lm-eval has; only a verdict keeps one.
      const corpus = fromPairs && verdictKey === undefined ? samples.find((x) => x.pair)!.pair!.key : undefined;
      const keepAccuracy = verdictKey !== undefined || (fromPairs && !corpus);
      set.freeText = {
        reason: `The answers are free text, not labels (${golds} distinct targets and ${preds} distinct answers in ${n} samples)`,
        keepAccuracy,
      };
      problems.push({
        line: rows[0].line, severity: 'info', code: 'undefined-metric',
        message: corpus !== undefined
          ? corpusMetricMessage(corpus, results, task, filter, set.freeText.reason)
          : `${set.freeText.reason}: no macro-F1 or per-class view is computed over them${keepAccuracy ? '' : ', nor a label accuracy (the task logs no per-sample 0/1 verdict)'}; the task's own per-sample metrics are shown under their names. There are no probabilities, so no calibration either.`,
      });
    } else {
      problems.push({
        line: rows[0].line, severity: 'info', code: 'undefined-metric',
        message: 'Generated answers carry no probabilities: accuracy and macro-F1 are scored, calibration metrics are not available.',
      });
    }
  }

  const result: ParseResult = { format: 'lm-eval', task, set, problems, skipped, unlabeled: 0 };
  const taskMetrics = taskMetricsOf(rows, results?.doc, task, filter);
  if (taskMetrics.length) result.taskMetrics = taskMetrics;
  const model = modelOfResults(results?.doc);
  if (model) result.sourceModel = model;
  const reported = results && task ? lmEvalReported(results.doc, results.path, task, filter, mode, verdictKey, labelSets) : undefined;
  if (reported) {
    result.reported = reported.reported;
    result.reportedPath = reported.path;
    if (Object.keys(reported.notes).length) result.reportedNotes = reported.notes;
    // A file holding part of the samples lm-eval scored (--limit, or cut short): the reported figures
    // are over all of them, shown with that count, and not compared with the ones recomputed here.
    const scoredOn = results && task ? lmEvalSampleCount(results.doc, task) : undefined;
    const held = n + skipped;
    if (scoredOn !== undefined && held < scoredOn) {
      result.reportedOn = scoredOn;
      problems.push({
        line: 1, severity: 'info', code: 'reported-subset',
        message: `This file holds ${held.toLocaleString('en-US')} of the ${scoredOn.toLocaleString('en-US')} samples lm-eval scored for ${task}: the figures of ${baseName(reported.path)} are over all ${scoredOn.toLocaleString('en-US')}, so they are shown beside the figures recomputed here, not compared with them.`,
      });
    }
  }
  return result;
}

/**
 * What a corpus-level metric is and why no figure stands in for it: its name, the aggregation the
 * results file names (a registered one, or the task's own `def name(items)`), and lm-eval's figure
 * when the results file beside the samples gives one. Not recomputed: the aggregation is the
 * task's own code (masakhaner's span_f1_agg parses "TAG: entity $$ ..." spans), not a fixed formula.
 */
function corpusMetricMessage(key: string, results: { doc: Obj; path: string } | undefined, task: string | undefined, filter: string, freeText: string): string {
  const configs = results && isObject(results.doc.configs) ? results.doc.configs : undefined;
  const config = configs && task !== undefined ? configs[task] : undefined;
  const listed = isObject(config) && Array.isArray(config.metric_list) ? config.metric_list.find((m) => isObject(m) && m.metric === key) : undefined;
  const agg = isObject(listed) && typeof listed.aggregation === 'string' ? listed.aggregation : undefined;
  const aggName = agg === undefined ? undefined : /^\s*def\s+([A-Za-z_]\w*)\s*\(/.exec(agg)?.[1] ?? (/^[A-Za-z_]\w*$/.test(agg.trim()) ? agg.trim() : undefined);
  const scores = results && isObject(results.doc.results) && task !== undefined ? results.doc.results[task] : undefined;
  const figure = isObject(scores) ? scores[`${key},${filter}`] : undefined;
  const reported = typeof figure === 'number'
    ? `lm-eval's ${key} for this run is ${showValue(figure)} (${baseName(results!.path)}, shown beside)`
    : results ? `${baseName(results.path)} gives no ${key} for ${task ?? 'the task'} under filter "${filter}"` : 'no results file beside this one gives lm-eval\'s figure';
  return `lm-eval's ${key} is a corpus-level metric: each sample logs its (gold, prediction) pair and the figure is computed once over all the pairs by the task's aggregation${aggName ? ` (${aggName})` : ''}, not as a mean over samples. It is not recomputed here; ${reported}. ${freeText}, so no exact-match accuracy, macro-F1 or per-class view stands in for it, and without probabilities there is no calibration either.`;
}

/**
 * Every numeric metric the samples logged, under its own name, one value per scored row (NaN where
 * a row did not log it), with the figure the results file reports for it under the same filter.
 */
function taskMetricsOf(rows: Row[], doc: Obj | undefined, task: string | undefined, filter: string): NonNullable<ParseResult['taskMetrics']> {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.numeric)) if (!seen.has(k)) { seen.add(k); names.push(k); }
  const results = doc && isObject(doc.results) && task !== undefined ? doc.results[task] : undefined;
  return names.map((name) => {
    const values = Float64Array.from(rows, (r) => (name in r.numeric ? r.numeric[name] : NaN));
    const figure = isObject(results) ? results[`${name},${filter}`] : undefined;
    return figure === undefined ? { name, values } : { name, values, reported: typeof figure === 'number' ? figure : null };
  });
}
