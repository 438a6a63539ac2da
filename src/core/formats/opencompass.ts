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
import { isRecord, readJsonMembers, textOf } from './jsonMembers';
import { parsePythonJson } from './pythonJson';
import { baseName, dirName, joinPath } from '../../common/paths';

/** The keys OpenCompass writes first in a record (gen: origin_prompt; chat: gold or prediction; PPL: in-context examples). */
const HEAD = /^\uFEFF?\s*\{\s*"0"\s*:\s*\{\s*"(origin_prompt|prediction|gold|in-context examples)"\s*:/;

export function isOpenCompassPredictions(head: string): boolean {
  return HEAD.test(head);
}

export const openCompassAdapter: HarnessAdapter = {
  format: 'opencompass',
  detect: (_path, head) => isOpenCompassPredictions(head),
  parse: parseOpenCompass,
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

/** The results file's accuracy as a fraction (OpenCompass writes it in percent), or undefined. */
function readResultsAccuracy(path: string, ctx: FormatContext): number | undefined {
  const text = ctx.io.readText(path);
  if (text === undefined) return undefined;
  let doc: unknown;
  try { doc = parsePythonJson(text.replace(/^\uFEFF/, '')); } catch { return undefined; }
  if (!isRecord(doc)) return undefined;
  const v = typeof doc.accuracy === 'number' ? doc.accuracy : doc.acc;
  return typeof v === 'number' ? v / 100 : undefined;
}

function parseOpenCompass(input: FileInput, ctx: FormatContext): ParseResult {
  const read = readJsonMembers(input.text(), [], 'record');
  const problems: RowProblem[] = [...read.problems];
  const where = locate(input.path, ctx);
  const accuracy = where.resultsPath ? readResultsAccuracy(where.resultsPath, ctx) : undefined;
  const reported = accuracy !== undefined ? { accuracy } : undefined;
  const base = {
    format: 'opencompass' as const, task: where.dataset,
    ...(where.model ? { sourceModel: where.model } : {}),
    ...(reported ? { reported, reportedPath: where.resultsPath } : {}),
  };
  const fail = (message: string): ParseResult => ({ ...base, set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message, kind: 'multiclass' });
  if (read.fatal) return fail(`${read.fatal} (OpenCompass predictions)`);
  const records: SampleRecord[] = [];
  let noGold = 0;
  let notLabel = 0;
  for (const m of read.members) {
    const r = m.value;
    const skip = (code: RowProblem['code'], message: string) => problems.push({ line: m.line, column: m.column, severity: 'warning', code, message: `Record "${m.key}" (line ${m.line}): ${message}; it is left out.` });
    if (!isRecord(r)) { skip('missing-field', 'it is not an object'); continue; }
    if (!('prediction' in r)) { skip('missing-field', 'it has no prediction'); continue; }
    if (!('gold' in r)) { noGold++; skip('missing-field', 'it has no gold (OpenCompass leaves gold out when it is empty, 0 or the dataset has no output column)'); continue; }
    const gold = labelOf(r.gold);
    const pred = labelOf(r.prediction);
    if (gold === undefined || pred === undefined) {
      notLabel++;
      skip('bad-label', `its ${gold === undefined ? 'gold' : 'prediction'} is ${Array.isArray(gold === undefined ? r.gold : r.prediction) ? 'a list' : 'an object'}, not a label`);
      continue;
    }
    records.push({
      sample_id: m.key, line: m.line,
      input: { raw: promptText(r.origin_prompt), reference: [gold] },
      output: { raw: [textOf(r.prediction)] },
      gold, pred, answer: pred,
    });
  }
  const total = read.members.length;
  if (!records.length) {
    if (noGold === total) return fail(`No record of these OpenCompass predictions carries a gold answer, so nothing can be compared here${reported ? '; the results file beside them reports its own figure' : ''}.`);
    if (notLabel) return fail(`The gold answers of these OpenCompass predictions are not labels (${notLabel} of ${total} records hold a list or an object, e.g. a subjective evaluation's judging criteria): they are scored by OpenCompass's evaluator or judge, not by comparing prediction and gold.`);
    return fail('The file holds no OpenCompass record with a prediction and a gold label.');
  }
  const notes: Record<string, string> = {};
  if (reported) {
    notes.accuracy = `OpenCompass writes accuracy in percent (${+(reported.accuracy * 100).toPrecision(12)}); it is shown as a fraction. OpenCompass compares each prediction after the dataset's post-processing (e.g. the first option letter) with the dataset's reference; here prediction and gold are compared as written, trimmed.`;
    if (where.shard) notes.accuracy += ` This file is one shard of ${where.shard.count} (${where.shard.base}_0.json, ...); the reported figure covers them all.`;
  }
  const result = recordsToParse(records, {
    ...base, mode: 'labels', problems,
    skipped: total - records.length + read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length,
  });
  if (Object.keys(notes).length) result.reportedNotes = notes;
  return result;
}
