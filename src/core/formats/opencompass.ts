// OpenCompass predictions: outputs/<config>/<time>/predictions/<model>/<dataset>.json (or one
// shard of it, <dataset>_0.json, _1.json, ...), an object keyed "0", "1", ... of records with
// origin_prompt (text, or a chat's [{role, prompt}]), prediction and gold. As OpenCompass writes
// them: opencompass/openicl/icl_inferencer/icl_base_inferencer.py (GenInferencerOutputHandler and
// ChatOutputHandler.save_results: gold only when it is truthy; PPLInferencerOutputHandler: the
// predicted label, each label's PPL, gold), json.dump(indent=4, ensure_ascii=False).
// The run's figures sit in results/<model>/<dataset>.json beside the predictions folder
// (opencompass/tasks/openicl_eval.py), in percent: {"accuracy": 45.2, ...}.
//
// n is the records; accuracy and macro-F1 compare prediction and gold as labels, each trimmed of
// surrounding whitespace. OpenCompass's own figure first passes the prediction through the
// dataset's pred_postprocessor (e.g. the first option letter) and compares it with the dataset's
// reference column, so the two agree when the predictions are already clean labels.
import type { ParseResult, RowProblem } from '../types';
import type { FileInput, FormatContext } from './context';
import type { HarnessAdapter } from './adapters';
import type { SampleRecord } from '../samples/record';
import { recordsToParse } from '../samples/toParse';
import { isRecord, readJsonMembers, textOf, type JsonMember } from './jsonMembers';
import { sourceOf } from './context';
import { forEachJsonRecord } from './jsonl';
import { isOpenCompassJudgedResults, isOpenCompassResultsWithDetails, parseOpenCompassJudgedResults, parseOpenCompassResults } from './opencompassResults';
import { parsePythonJson } from './pythonJson';
import { baseName, dirName, joinPath } from '../../common/paths';

/** The keys OpenCompass writes first in a record (gen: origin_prompt; chat: gold or prediction; PPL: in-context examples). */
const HEAD = /^\uFEFF?\s*\{\s*"0"\s*:\s*\{\s*"(origin_prompt|prediction|gold|in-context examples)"\s*:/;

export function isOpenCompassPredictions(head: string): boolean {
  return HEAD.test(head);
}

export const openCompassAdapter: HarnessAdapter = {
  format: 'opencompass',
  detect: (path, head) => isOpenCompassPredictions(head) || (isOpenCompassTmpJsonl(path, head) && /"origin_prompt"\s*:/.test(head)) || isOpenCompassResultsWithDetails(path, head) || isOpenCompassJudgedResults(path, head),
  parse: (input, ctx) => {
    const head = input.text().slice(0, 16 * 1024);
    if (isOpenCompassPredictions(head.slice(0, 4096))) return parseOpenCompass(input, ctx);
    if (isOpenCompassJudgedResults(input.path, head)) return parseOpenCompassJudgedResults(input);
    return isOpenCompassResultsWithDetails(input.path, head) ? parseOpenCompassResults(input) : parseOpenCompass(input, ctx);
  },
};

/** A gold or prediction OpenCompass compares as a label: a string, number or boolean (a one-element list counts as its element). */
function labelOf(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 1) v = v[0];
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** origin_prompt as text: a chat's turns one per line. */
function promptText(v: unknown): string {
  if (Array.isArray(v)) {
    return v.map((t) => (isRecord(t) ? `${typeof t.role === 'string' ? t.role : ''}: ${textOf(t.prompt ?? t.content)}` : textOf(t))).join('\n');
  }
  return textOf(v);
}

/**
 * A judge's output rather than a model's predictions: what OpenCompass's LMEvaluator writes for a
 * subjective dataset (opencompass/openicl/icl_evaluator/lm_evaluator.py, without a
 * dict_postprocessor) to results/<model>_judged-by--<judge>/<dataset>.json, or results/<model1>_<model2>/
 * for a comparison: the same records, each prediction the judge's verdict text and each gold the
 * question's reference for the judge (an object: capability, ref, answer1/answer2 for a pair). Told
 * by its folder, or by a pair's answer1/answer2. Says what it is and where its figures are.
 */
function judgeOutput(path: string, golds: readonly unknown[]): string | undefined {
  if (!golds.length || !golds.every(isRecord)) return undefined;
  const folder = baseName(dirName(path));
  const pair = golds.every((g) => isRecord(g) && typeof g.answer1 === 'string' && typeof g.answer2 === 'string');
  if (!pair && baseName(dirName(dirName(path))) !== 'results' && !/judged-by--/.test(folder)) return undefined;
  const first = golds[0] as Record<string, unknown>;
  const what = pair ? `a comparison of ${String(first.answer1)} and ${String(first.answer2)}` : /judged-by--/.test(folder) ? `${folder.replace(/_judged-by--/, ' judged by ')}` : `the run ${folder}`;
  const keys = Object.keys(first).slice(0, 6).join(', ');
  return `This is an OpenCompass judge's output (${what}): each record's prediction is the judge's verdict as text and its gold the question's reference for the judge (${keys}), not a label to compare. OpenCompass reads the verdicts with the dataset's own summarizer, whose figures are in the run's summary/ folder; Eval Lens reads judge verdicts from FastChat, AlpacaEval, Arena-Hard and arena battles files.`;
}

interface Located { model?: string; dataset: string; resultsPath?: string; shard?: { base: string; count: number } }

/** The model, dataset and results file of a predictions file at .../predictions/<model>/<dataset>.json. */
function locate(path: string, ctx: FormatContext): Located {
  const dataset = baseName(path).replace(/\.json$/i, '');
  const modelDir = dirName(path);
  const predictionsDir = dirName(modelDir);
  if (baseName(predictionsDir) !== 'predictions') return { dataset };
  const model = baseName(modelDir);
  const resultsDir = joinPath(joinPath(dirName(predictionsDir), 'results'), model);
  const direct = joinPath(resultsDir, `${dataset}.json`);
  if (ctx.io.readText(direct) !== undefined) return { model, dataset, resultsPath: direct };
  // One shard of a dataset split by size: its figure covers every shard.
  const m = /^(.*)_(\d+)$/.exec(dataset);
  if (m) {
    const whole = joinPath(resultsDir, `${m[1]}.json`);
    if (ctx.io.readText(whole) !== undefined) {
      const shards = (ctx.io.list(modelDir) ?? []).filter((n) => new RegExp(`^${m[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_\\d+\\.json$`).test(n)).length;
      return { model, dataset: m[1], resultsPath: whole, shard: { base: m[1], count: Math.max(shards, 1) } };
    }
  }
  return { model, dataset };
}

/**
 * The results file beside the predictions (results/<model>/<dataset>.json): its accuracy as a fraction
 * (OpenCompass writes percent), and, when the run dumped its details, OpenCompass's own verdict on
 * each sample by its index: since 2025 `details: [{example_abbr, pred: [..], answer: [..], correct:
 * [..]}]` (a list over the dataset's replicas), before it the evaluator's own `details`, a list or an
 * object keyed by index, of {pred, answer, correct} (or is_correct, cascade_correct).
 */
interface ResultsFile {
  accuracy?: number;
  verdicts?: Map<string, boolean>;
  /** Why the details give no verdicts (several replicas, no correct flags). */
  noVerdicts?: string;
}

function verdictOf(d: unknown): boolean | 'replicas' | undefined {
  if (!isRecord(d)) return undefined;
  for (const k of ['correct', 'is_correct', 'cascade_correct']) {
    const v = d[k];
    if (typeof v === 'boolean') return v;
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'boolean') return v[0];
    if (Array.isArray(v) && v.length > 1) return 'replicas';
  }
  return undefined;
}

function readResultsFile(path: string, ctx: FormatContext): ResultsFile {
  const text = ctx.io.readText(path);
  if (text === undefined) return {};
  let doc: unknown;
  try { doc = parsePythonJson(text.replace(/^\uFEFF/, '')); } catch { return {}; }
  if (!isRecord(doc)) return {};
  const out: ResultsFile = {};
  const details = doc.details;
  const entries: [string, unknown][] = Array.isArray(details)
    ? details.map((d, i) => [String(i), d])
    : isRecord(details) ? Object.entries(details).filter(([k]) => /^\d+$/.test(k)) : [];
  if (entries.length) {
    const verdicts = new Map<string, boolean>();
    let replicas = false;
    for (const [k, d] of entries) {
      const v = verdictOf(d);
      if (v === 'replicas') replicas = true;
      else if (v !== undefined) verdicts.set(k, v);
    }
    if (replicas) out.noVerdicts = 'its details hold several replicas of each sample';
    else if (verdicts.size === entries.length) out.verdicts = verdicts;
    else out.noVerdicts = 'its details carry no correct flag for each sample';
  }
  // accuracy (acc in older files); NQ's and TriviaQA's evaluators name the same share `score`.
  const v = typeof doc.accuracy === 'number' ? doc.accuracy : typeof doc.acc === 'number' ? doc.acc : out.verdicts && typeof doc.score === 'number' ? doc.score : undefined;
  if (v !== undefined) out.accuracy = v / 100;
  return out;
}

/** tmp_<dataset>.jsonl, written while a run is unfinished: one record a line with its idx. */
export function isOpenCompassTmpJsonl(path: string, head: string): boolean {
  const first = head.replace(/^\uFEFF/, '').split('\n', 1)[0];
  return /^tmp_.*\.jsonl$/i.test(baseName(path)) || (/^\s*\{\s*"idx"\s*:/.test(first) && /"origin_prompt"\s*:/.test(first) && /"prediction"\s*:/.test(first));
}

function membersOf(input: FileInput, ctx: FormatContext): { members: JsonMember[]; problems: RowProblem[]; fatal?: string; bad: number } {
  if (!isOpenCompassTmpJsonl(input.path, input.text().slice(0, 4096))) {
    const read = readJsonMembers(input.text(), [], 'record');
    return { members: read.members, problems: read.problems, ...(read.fatal ? { fatal: read.fatal } : {}), bad: read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length };
  }
  const members: JsonMember[] = [];
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    const idx = isRecord(value) && (typeof value.idx === 'string' || typeof value.idx === 'number') ? String(value.idx) : String(members.length);
    members.push({ key: idx, line: span.line, column: 1, value });
  }, ctx.progress);
  return { members, problems: scan.problems, ...(scan.fatal ? { fatal: scan.fatal } : {}), bad: scan.badRecords };
}

function parseOpenCompass(input: FileInput, ctx: FormatContext): ParseResult {
  const read = membersOf(input, ctx);
  const problems: RowProblem[] = [...read.problems];
  const tmp = /^tmp_/i.test(baseName(input.path));
  const where = locate(input.path.replace(/(^|[\\/])tmp_([^\\/]*)\.jsonl$/i, '$1$2.json'), ctx);
  const results = where.resultsPath ? readResultsFile(where.resultsPath, ctx) : {};
  // The details are per index of the whole dataset: a shard's own indices start again at 0.
  const verdicts = where.shard ? undefined : results.verdicts;
  const reported = results.accuracy !== undefined ? { accuracy: results.accuracy } : undefined;
  const base = {
    format: 'opencompass' as const, task: where.dataset,
    ...(where.model ? { sourceModel: where.model } : {}),
    ...(reported ? { reported, reportedPath: where.resultsPath } : {}),
  };
  const fail = (message: string): ParseResult => ({ ...base, set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message, kind: 'multiclass' });
  if (read.fatal) return fail(`${read.fatal} (OpenCompass predictions)`);
  if (tmp) problems.push({ line: 1, severity: 'info', code: 'filtered', message: 'A tmp_<dataset>.jsonl is what OpenCompass writes while the run is unfinished: these are the samples inferred so far.' });
  interface Read { m: JsonMember; r: Record<string, unknown>; gold?: string; pred?: string; hasGold: boolean; listGold: boolean; listPred: boolean }
  const rows: Read[] = [];
  for (const m of read.members) {
    const r = m.value;
    const skip = (message: string) => problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'missing-field', message: `Record "${m.key}" (line ${m.line}): ${message}; it is left out.` });
    if (!isRecord(r)) { skip('it is not an object'); continue; }
    if (!('prediction' in r)) { skip('it has no prediction'); continue; }
    rows.push({
      m, r, gold: labelOf(r.gold), pred: labelOf(r.prediction), hasGold: 'gold' in r,
      listGold: Array.isArray(r.gold) && r.gold.length > 1, listPred: Array.isArray(r.prediction) && r.prediction.length > 1,
    });
  }
  const total = read.members.length;
  const comparable = rows.filter((x) => x.gold !== undefined && x.pred !== undefined);
  // OpenCompass's own verdicts decide where prediction and gold cannot be compared as written (free
  // text, several acceptable answers, several returns) or where the comparison disagrees with them.
  const useVerdicts = !!verdicts && rows.length > 0 && rows.every((x) => verdicts.has(x.m.key))
    && (comparable.length < rows.length || comparable.some((x) => (x.gold === x.pred) !== verdicts.get(x.m.key)));
  if (useVerdicts) return verdictResult(rows.map((x) => ({ ...x, correct: verdicts!.get(x.m.key)! })), base, problems, total, where, read.bad);
  const noGold = rows.filter((x) => !x.hasGold).length;
  const listGold = rows.filter((x) => x.listGold).length;
  const listPred = rows.filter((x) => x.listPred).length;
  const detailsWhere = where.resultsPath
    ? `${where.resultsPath} holds no per-sample verdicts${results.noVerdicts ? ` (${results.noVerdicts})` : where.shard ? ' for a shard (its indices are the whole dataset\'s)' : ''}`
    : 'no results/<model>/<dataset>.json with them is beside this file';
  if (listGold) {
    return fail(`${listGold} of ${total} records of these OpenCompass predictions have several acceptable gold answers (a list, as NQ's or TriviaQA's): OpenCompass's evaluator decides each, and scoring the others alone would be another sample. Its verdicts come from a run with --dump-eval-details, in the results file beside the predictions; ${detailsWhere}.`);
  }
  if (listPred) {
    return fail(`${listPred} of ${total} records hold several predictions (a list: num_return_sequences > 1), which OpenCompass's evaluator scores together (e.g. pass@k); there is no one prediction to compare with the gold. Its per-sample verdicts would come from the results file of a run with --dump-eval-details; ${detailsWhere}.`);
  }
  const records: SampleRecord[] = [];
  for (const x of rows) {
    const { m, r } = x;
    const skip = (code: RowProblem['code'], message: string) => problems.push({ line: m.line, column: m.column, severity: 'warning', code, message: `Record "${m.key}" (line ${m.line}): ${message}; it is left out.` });
    if (!x.hasGold) { skip('missing-field', 'it has no gold (OpenCompass leaves gold out when it is empty, 0 or the dataset has no output column)'); continue; }
    if (x.gold === undefined || x.pred === undefined) {
      skip('bad-label', `its ${x.gold === undefined ? 'gold' : 'prediction'} is ${Array.isArray(x.gold === undefined ? r.gold : r.prediction) ? 'a list' : 'an object'}, not a label`);
      continue;
    }
    records.push({
      sample_id: m.key, line: m.line,
      input: { raw: promptText(r.origin_prompt), reference: [x.gold] },
      output: { raw: [textOf(r.prediction)] },
      gold: x.gold, pred: x.pred, answer: x.pred,
    });
  }
  if (!records.length) {
    if (noGold === total) return fail(`No record of these OpenCompass predictions carries a gold answer, so nothing can be compared here${reported ? '; the results file beside them reports its own figure' : ''}.`);
    if (comparable.length === 0 && rows.length) {
      const judged = judgeOutput(input.path, rows.map((x) => x.r.gold));
      if (judged) return fail(judged);
      const goldNot = rows.filter((x) => x.hasGold && x.gold === undefined).length;
      const what = goldNot ? 'gold answers' : 'predictions';
      return fail(`The ${what} of these OpenCompass predictions are not labels (${goldNot || rows.length - goldNot} of ${total} records hold a list or an object, e.g. a subjective evaluation's judging criteria): they are scored by OpenCompass's evaluator or judge, not by comparing prediction and gold; ${detailsWhere}.`);
    }
    return fail('The file holds no OpenCompass record with a prediction and a gold label.');
  }
  const notes: Record<string, string> = {};
  if (reported) {
    notes.accuracy = `OpenCompass writes accuracy in percent (${+(reported.accuracy * 100).toPrecision(12)}); it is shown as a fraction. OpenCompass compares each prediction after the dataset's post-processing (e.g. the first option letter) with the dataset's reference; here prediction and gold are compared as written, trimmed.`;
    if (where.shard) notes.accuracy += ` This file is one shard of ${where.shard.count} (${where.shard.base}_0.json, ...); the reported figure covers them all.`;
  }
  const result = recordsToParse(records, {
    ...base, mode: 'labels', problems,
    skipped: total - records.length + read.bad,
  });
  if (Object.keys(notes).length) result.reportedNotes = notes;
  return result;
}

/** The records scored by OpenCompass's own per-sample verdicts (the results file's details). */
function verdictResult(
  rows: { m: JsonMember; r: Record<string, unknown>; correct: boolean }[], base: Pick<ParseResult, 'format' | 'task' | 'sourceModel' | 'reported' | 'reportedPath'>,
  problems: RowProblem[], total: number, where: Located, bad: number,
): ParseResult {
  problems.push({
    line: 1, severity: 'info', code: 'filtered',
    message: `Each sample is right or wrong as OpenCompass's evaluator judged it (the details of ${where.resultsPath}): its predictions are free text or its gold answers lists, so they are not compared here as labels. Accuracy is the share judged correct.`,
  });
  const records: SampleRecord[] = rows.map(({ m, r, correct }) => ({
    sample_id: m.key, line: m.line,
    input: { raw: promptText(r.origin_prompt), reference: Array.isArray(r.gold) ? r.gold.map(textOf) : 'gold' in r ? [textOf(r.gold)] : [] },
    output: { raw: Array.isArray(r.prediction) ? r.prediction.map(textOf) : [textOf(r.prediction)] },
    evaluation: { score: correct ? 1 : 0, is_correct: correct },
  }));
  return recordsToParse(records, { ...base, mode: 'verdict', problems, skipped: total - records.length + bad });
}
