// promptfoo results (`promptfoo eval -o results.json`): {evalId, results: {version, timestamp,
// prompts, results: [EvaluateResult], stats}, config, shareableUrl, metadata} (promptfoo's
// createOutputData / writeOutput; version 2 summaries have the same results.results). Fields as promptfoo's
// src/types/index.ts defines them: EvaluateResult (promptIdx, testIdx, provider {id, label},
// prompt.raw, vars, response.output, error, failureReason: 0 none / 1 assertion / 2 error, success,
// score, namedScores, gradingResult {pass, score, reason}), EvaluateStats (successes, failures,
// errors), CompletedPrompt (one column of the eval: a prompt on a provider, with its metrics
// testPassCount, testFailCount, testErrorCount, score (a sum), namedScores (sums) and namedScoresCount).
//
// Each result is one sample, judged by promptfoo itself: the pass rate (accuracy) is the share of
// results with success, a failed result (an assertion or an error) being a failure like any other.
// The per-sample figures are `score` and each namedScores key, a key's mean taken over the results
// that carry it. A file comparing several providers (or prompts) holds several columns: each is a
// model of the file, scored alone (ScoreOptions.model picks one, the first by default), since one
// figure over several models would mean nothing.
import type { BreakdownRow, ParseResult, RowProblem } from '../types';
import type { FileInput, FormatContext } from './context';
import type { HarnessAdapter } from './adapters';
import type { SampleRecord } from '../samples/record';
import { clipText, recordsToParse } from '../samples/toParse';
import { finiteNumber, isRecord, readJsonMembers, textOf, type JsonMember } from './jsonMembers';

const EXPORT_HEAD = /^\uFEFF?\s*\{\s*"evalId"\s*:\s*"[^"]*"\s*,\s*"results"\s*:\s*\{/;
const SUMMARY_HEAD = /"results"\s*:\s*\{\s*"version"\s*:\s*\d+\s*,\s*"timestamp"\s*:/;

export function isPromptfooResults(head: string): boolean {
  return /^\uFEFF?\s*\{/.test(head) && (EXPORT_HEAD.test(head) || SUMMARY_HEAD.test(head));
}

export const promptfooAdapter: HarnessAdapter = {
  format: 'promptfoo',
  detect: (_path, head) => isPromptfooResults(head),
  parse: parsePromptfoo,
};

const FAILURE_REASONS: Record<number, string> = { 0: 'none', 1: 'assertion failed', 2: 'error' };

/** One column of the eval (a prompt on a provider): its name, and promptfoo's own metrics of it. */
interface Column { name: string; metrics?: Record<string, unknown> }

function providerName(p: unknown): string {
  if (typeof p === 'string') return p;
  if (isRecord(p)) {
    if (typeof p.label === 'string' && p.label) return p.label;
    if (typeof p.id === 'string') return p.id;
  }
  return '(unknown provider)';
}

/** The columns of results.prompts, named by provider, and by prompt too where a provider has several. */
function columnsOf(prompts: unknown): Column[] {
  if (!Array.isArray(prompts)) return [];
  const raw = prompts.map((p) => (isRecord(p) ? p : {}));
  const names = raw.map((p) => providerName(p.provider));
  const count = (n: string) => names.filter((x) => x === n).length;
  return raw.map((p, i) => ({
    name: count(names[i]) > 1 ? `${names[i]} #${i}` : names[i],
    ...(isRecord(p.metrics) ? { metrics: p.metrics } : {}),
  }));
}

interface Row { member: JsonMember; result: Record<string, unknown>; column: string }

function readRows(members: readonly JsonMember[], columns: Column[], problems: RowProblem[]): Row[] {
  const rows: Row[] = [];
  for (const m of members) {
    const r = m.value;
    const bad = (message: string) => problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'missing-field', message: `Result on line ${m.line}: ${message}; it is left out.` });
    if (!isRecord(r)) { bad('it is not an object'); continue; }
    if (typeof r.success !== 'boolean') { bad('it has no success (true or false)'); continue; }
    const promptIdx = typeof r.promptIdx === 'number' ? r.promptIdx : undefined;
    const column = promptIdx !== undefined && columns[promptIdx] ? columns[promptIdx].name : providerName(r.provider);
    rows.push({ member: m, result: r, column });
  }
  return rows;
}

const PROMPTFOO_TEXTS = {
  fields: ['input', 'output', 'explanation', 'failure'],
  of: (r: SampleRecord): string[] => [
    clipText(r.input?.raw), clipText(r.output?.raw?.join('\n')), clipText(r.judgement?.explanation), clipText(r.metadata?.failure),
  ],
};

function recordOf(row: Row): SampleRecord {
  const r = row.result;
  const metrics: Record<string, number> = {};
  const score = finiteNumber(r.score);
  if (score !== undefined) metrics.score = score;
  const named = isRecord(r.namedScores) ? r.namedScores : isRecord(r.gradingResult) && isRecord(r.gradingResult.namedScores) ? r.gradingResult.namedScores : {};
  for (const [k, v] of Object.entries(named)) {
    const x = finiteNumber(v);
    if (x !== undefined) metrics[k === 'score' ? 'namedScores.score' : k] = x;
  }
  const grading = isRecord(r.gradingResult) ? r.gradingResult : undefined;
  const reason = typeof grading?.reason === 'string' ? grading.reason : typeof r.error === 'string' ? r.error : undefined;
  const prompt = isRecord(r.prompt) && typeof r.prompt.raw === 'string' ? r.prompt.raw : textOf(r.vars);
  const response = isRecord(r.response) ? r.response : undefined;
  const failure = typeof r.failureReason === 'number' ? FAILURE_REASONS[r.failureReason] ?? String(r.failureReason) : '';
  return {
    sample_id: typeof r.testIdx === 'number' ? String(r.testIdx) : row.member.key,
    line: row.member.line,
    model_id: row.column,
    input: { raw: prompt },
    output: { raw: [textOf(response?.output ?? (typeof r.error === 'string' ? r.error : ''))] },
    evaluation: { ...(score !== undefined ? { score } : {}), is_correct: r.success as boolean },
    metrics,
    ...(reason ? { judgement: { explanation: reason } } : {}),
    metadata: { failure: r.success ? '' : failure, ...(typeof r.error === 'string' && r.error ? { error: r.error } : {}) },
  };
}

function num(v: unknown): number { return typeof v === 'number' && Number.isFinite(v) ? v : 0; }

/** promptfoo's own figures for a column (CompletedPrompt.metrics): pass rate, mean score, each named score's mean. */
function columnReported(metrics: Record<string, unknown>): Record<string, number | null> | undefined {
  const total = num(metrics.testPassCount) + num(metrics.testFailCount) + num(metrics.testErrorCount);
  if (!total) return undefined;
  const out: Record<string, number | null> = { accuracy: num(metrics.testPassCount) / total };
  if (typeof metrics.score === 'number') out.score = metrics.score / total;
  const sums = isRecord(metrics.namedScores) ? metrics.namedScores : {};
  const counts = isRecord(metrics.namedScoresCount) ? metrics.namedScoresCount : {};
  for (const [k, v] of Object.entries(sums)) {
    const c = num(counts[k]);
    if (typeof v === 'number' && c > 0) out[k === 'score' ? 'namedScores.score' : k] = v / c;
  }
  return out;
}

function parsePromptfoo(input: FileInput, ctx: FormatContext): ParseResult {
  const read = readJsonMembers(input.text(), ['results', 'results'], 'result');
  const problems: RowProblem[] = [...read.problems];
  const fail = (message: string): ParseResult => ({ format: 'promptfoo', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message, kind: 'multiclass' });
  if (read.fatal) return fail(`${read.fatal} (promptfoo results: results.results)`);
  const doc = isRecord(read.doc) ? read.doc : {};
  const summary = isRecord(doc.results) ? doc.results : {};
  const columns = columnsOf(summary.prompts);
  const rows = readRows(read.members, columns, problems);
  if (!rows.length) return fail('The promptfoo results hold no result with a success verdict.');
  const models = [...new Set([...columns.map((c) => c.name), ...rows.map((r) => r.column)])].filter((m) => rows.some((r) => r.column === m));
  const wanted = ctx.options.model;
  const found = wanted === undefined ? undefined : models.find((m) => m.toLowerCase() === wanted.trim().toLowerCase());
  if (wanted !== undefined && !found) problems.push({ line: 1, severity: 'warning', code: 'unscorable', message: `The file has no model "${wanted}"; its models are ${models.join(', ')}. Scoring ${models[0]}.` });
  const model = found ?? models[0];
  const records = rows.filter((r) => r.column === model).map(recordOf);
  const column = columns.find((c) => c.name === model);
  const stats = isRecord(summary.stats) ? summary.stats : undefined;
  let reported = column?.metrics ? columnReported(column.metrics) : undefined;
  if (models.length === 1 && stats) {
    // One model: the eval's own stats are its figure (the same as its column's, when both are there).
    const total = num(stats.successes) + num(stats.failures) + num(stats.errors);
    if (total) reported = { ...(reported ?? {}), accuracy: num(stats.successes) / total };
  }
  if (models.length > 1) {
    problems.push({ line: 1, severity: 'info', code: 'filtered', message: `The file holds ${models.length} models (${models.join(', ')}); ${model} is scored (${records.length} of ${rows.length} results). One figure over several models would mean nothing: score each with --model NAME, or compare them.` });
  }
  const config = isRecord(doc.config) ? doc.config : {};
  const task = typeof config.description === 'string' && config.description.trim() ? config.description.trim() : typeof doc.evalId === 'string' ? doc.evalId : undefined;
  const result = recordsToParse(records, {
    format: 'promptfoo', task, mode: 'verdict', problems,
    skipped: read.members.length - rows.length + read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length,
    ...(reported ? { reported: { accuracy: reported.accuracy ?? null }, reportedPath: input.path } : {}),
    sourceModel: model, texts: PROMPTFOO_TEXTS,
  });
  if (!result.set) return result;
  for (const t of result.taskMetrics ?? []) if (reported && t.name in reported) t.reported = reported[t.name];
  if (models.length > 1) {
    result.models = models;
    result.model = model;
    result.breakdown = models.map((m) => modelRow(m, rows.filter((r) => r.column === m)));
  }
  return result;
}

/** A model's pass rate and mean score, for the breakdown of a file holding several. */
function modelRow(model: string, rows: readonly Row[]): BreakdownRow {
  const scores = rows.map((r) => finiteNumber(r.result.score)).filter((x): x is number => x !== undefined);
  return {
    label: `model ${model}`,
    n: rows.length,
    metrics: {
      accuracy: rows.length ? rows.filter((r) => r.result.success === true).length / rows.length : null,
      score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    },
  };
}
