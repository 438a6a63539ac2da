// OpenCompass results files with their per-sample details (results/<model>/<dataset>.json of a run
// made with --dump-eval-details: tasks/openicl_eval.py). Beside the figures in percent, `details`
// holds the evaluator's verdict on each sample, in one of the shapes OpenCompass has written:
//  - since 2025 (openicl/icl_evaluator/icl_base_evaluator.py, evaluate): a list of
//    {example_abbr, pred: [...], answer: [...], correct: [...]}, each value a list over replicas;
//  - before, the evaluator's own score(): a list of {pred, answer, correct} (NQEvaluator and most
//    others), or an object keyed by index ({pred, refr, is_correct}: AccwithDetailsEvaluator);
//  - format_details (tasks/openicl_eval.py, when the evaluator gave none): an object keyed by index
//    of {prompt, origin_prediction, predictions, references, correct}, with "type": "GEN" or "PPL".
// Each detail is a sample, right or wrong as OpenCompass judged it; the file's figure is reported.
import type { ParseResult, RowProblem } from '../types';
import type { FileInput } from './context';
import type { SampleRecord } from '../samples/record';
import { recordsToParse } from '../samples/toParse';
import { isRecord, textOf } from './jsonMembers';
import { parsePythonJson } from './pythonJson';
import { baseName, dirName } from '../../common/paths';
import { FigureList, summaryFailure, summaryResult } from './summaryFigures';

/** A results file with details: the details key and a verdict and a prediction key in its head. */
export function isOpenCompassResultsWithDetails(path: string, head: string): boolean {
  if (!/\.json$/i.test(path) || !/^\uFEFF?\s*\{/.test(head)) return false;
  return /"details"\s*:\s*[[{]/.test(head) && /"(correct|is_correct|cascade_correct)"\s*:/.test(head) && /"(pred|predictions|origin_prediction)"\s*:/.test(head);
}

/**
 * A subjective dataset's results file (results/<model>_judged-by--<judge>/<dataset>.json): the
 * dataset's dict_postprocessor (opencompass/datasets/subjective/*.py: mtbench_postprocess,
 * alignbench's, compass_arena's, ...) writes its figures (a mean rating per capability and `total`,
 * or win rates) and, under `details`, the judge's output itself, keyed "0", "1", ... of
 * {origin_prompt, prediction (the judge's text), gold (the question's reference for the judge)}.
 */
export function isOpenCompassJudgedResults(path: string, head: string): boolean {
  if (!/\.json$/i.test(path) || !/^\uFEFF?\s*\{/.test(head)) return false;
  return /"details"\s*:\s*\{\s*"0"\s*:\s*\{\s*"(origin_prompt|prediction|gold)"\s*:/.test(head);
}

/** Its figures as a summary: every top-level number, named as the file names it; the details are the judge's texts. */
export function parseOpenCompassJudgedResults(input: FileInput): ParseResult {
  const dataset = baseName(input.path).replace(/\.json$/i, '');
  const folder = baseName(dirName(input.path));
  const judged = /^(.*)_judged-by--(.+)$/.exec(folder);
  let doc: unknown;
  try { doc = parsePythonJson(input.text().replace(/^\uFEFF/, '')); } catch (e) { return summaryFailure(`${baseName(input.path)} is not valid JSON: ${e instanceof Error ? e.message : String(e)}.`); }
  if (!isRecord(doc)) return summaryFailure('An OpenCompass results file is a JSON object.');
  const list = new FigureList();
  for (const [k, v] of Object.entries(doc)) {
    if (k === 'details') continue;
    if (typeof v === 'number' || v === null) list.add({ name: `${dataset}/${k}`, task: dataset, metric: k, ...(judged ? { model: judged[1] } : {}), value: v });
  }
  const details = isRecord(doc.details) ? Object.keys(doc.details).length : 0;
  const problems: RowProblem[] = [{
    line: 1, severity: 'info', code: 'filtered',
    message: `An OpenCompass subjective evaluation's results${judged ? ` (${judged[1]} judged by ${judged[2]})` : ''}: its figures are the dataset's postprocessor's, on the judge's own scale as written; its ${details} details are the judge's verdict texts, which that postprocessor parsed, so nothing is recomputed here.`,
  }];
  return summaryResult({ source: "an OpenCompass subjective evaluation's results (a judge's figures)", harness: 'OpenCompass', figures: list.figures }, problems, { task: dataset, ...(judged ? { sourceModel: judged[1] } : {}) });
}

/** The figure a results file reports beside its details, as a fraction: accuracy, acc, else score. */
const FIGURES = ['accuracy', 'acc', 'score'];

const first = (v: unknown): unknown => (Array.isArray(v) && v.length === 1 ? v[0] : v);

function verdict(d: Record<string, unknown>): boolean | 'replicas' | undefined {
  for (const k of ['correct', 'is_correct', 'cascade_correct']) {
    const v = d[k];
    if (typeof v === 'boolean') return v;
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'boolean') return v[0];
    if (Array.isArray(v) && v.length > 1) return 'replicas';
  }
  return undefined;
}

export function parseOpenCompassResults(input: FileInput): ParseResult {
  const problems: RowProblem[] = [];
  const dataset = baseName(input.path).replace(/\.json$/i, '');
  const model = baseName(dirName(input.path));
  const fail = (message: string): ParseResult => ({ format: 'opencompass', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message, kind: 'multiclass', task: dataset });
  let doc: unknown;
  try { doc = parsePythonJson(input.text().replace(/^\uFEFF/, '')); } catch (e) { return fail(`${baseName(input.path)} is not valid JSON: ${e instanceof Error ? e.message : String(e)}.`); }
  if (!isRecord(doc)) return fail('An OpenCompass results file is a JSON object.');
  const details = doc.details;
  const entries: [string, unknown][] = Array.isArray(details)
    ? details.map((d, i) => [String(i), d])
    : isRecord(details) ? Object.entries(details).filter(([k]) => /^\d+$/.test(k)) : [];
  const records: SampleRecord[] = [];
  let replicas = 0;
  let noVerdict = 0;
  for (const [key, d] of entries) {
    if (!isRecord(d)) { noVerdict++; continue; }
    const v = verdict(d);
    if (v === 'replicas') { replicas++; continue; }
    if (v === undefined) { noVerdict++; continue; }
    const pred = first(d.pred ?? d.predictions);
    const gold = first(d.answer ?? d.refr ?? d.references);
    records.push({
      sample_id: typeof d.example_abbr === 'string' ? d.example_abbr : key,
      line: 1,
      input: { raw: textOf(d.prompt ?? d.origin_prompt ?? ''), reference: Array.isArray(gold) ? gold.map(textOf) : gold === undefined ? [] : [textOf(gold)] },
      output: { raw: [textOf(d.origin_prediction ?? pred ?? '')] },
      ...(pred !== undefined ? { answer: textOf(pred) } : {}),
      evaluation: { score: v ? 1 : 0, is_correct: v },
    });
  }
  if (replicas) return fail(`The details of this OpenCompass results file hold ${replicas} samples judged over several replicas (a list of verdicts each, as with n > 1 runs): no one verdict per sample to score; its figures are ${FIGURES.filter((k) => typeof doc[k as keyof typeof doc] === 'number').join(', ') || 'in the file'}.`);
  if (!records.length) return fail('The details of this OpenCompass results file carry no per-sample verdict (correct, is_correct): nothing to score.');
  if (noVerdict) problems.push({ line: 1, severity: 'warning', code: 'missing-field', message: `${noVerdict} details carry no verdict (correct, is_correct); they are left out.` });
  const figure = FIGURES.find((k) => typeof (doc as Record<string, unknown>)[k] === 'number');
  const reported = figure ? { accuracy: ((doc as Record<string, number>)[figure]) / 100 } : undefined;
  problems.push({ line: 1, severity: 'info', code: 'filtered', message: `An OpenCompass results file with its per-sample details (a run with --dump-eval-details): each sample is right or wrong as OpenCompass's evaluator judged it${figure ? `, and its ${figure} (written in percent) is the reported figure` : ''}.` });
  const result = recordsToParse(records, {
    format: 'opencompass', task: dataset, mode: 'verdict', problems, skipped: noVerdict,
    ...(reported ? { reported, reportedPath: input.path } : {}), ...(model ? { sourceModel: model } : {}),
  });
  return result;
}
