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
// results with success, a failed result (an assertion or an error) being a failure like any other,
// as in promptfoo's own pass rate; results that errored (no output) are also counted in a warning.
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
import { sourceOf } from './context';
import { forEachJsonRecord } from './jsonl';
import { isPromptfooCsv, readPromptfooCsv } from './promptfooCsv';
import { FigureList, summaryResult } from './summaryFigures';

const EXPORT_HEAD = /^\uFEFF?\s*\{\s*"evalId"\s*:\s*("[^"]*"|null)\s*,\s*"results"\s*:\s*\{/;
const SUMMARY_HEAD = /"results"\s*:\s*\{\s*"version"\s*:\s*\d+\s*,\s*"timestamp"\s*:/;

export function isPromptfooResults(head: string): boolean {
  return /^\uFEFF?\s*\{/.test(head) && (EXPORT_HEAD.test(head) || SUMMARY_HEAD.test(head));
}

/**
 * The Node package's `Eval` record as `JSON.stringify(await promptfoo.evaluate(...))` writes it
 * (promptfoo's src/models/eval.ts): {_resultsLoaded, createdAt, id: "eval-…", config, results,
 * prompts, persisted, vars}. Its class field `_resultsLoaded` comes first; without it, the
 * constructor's order (createdAt, then id). `results` is empty once the eval was persisted (the
 * results stay in promptfoo's database), else it holds the EvalResults, whose keys are an
 * EvaluateResult's (promptIdx, testIdx, success, score, namedScores, gradingResult).
 */
const EVAL_RECORD_HEAD = /^\uFEFF?\s*\{\s*(?:"_resultsLoaded"\s*:\s*(?:true|false)\s*,\s*"createdAt"\s*:\s*\d+|"createdAt"\s*:\s*\d+\s*,\s*"id"\s*:\s*"eval-)/;

export function isPromptfooEvalRecord(head: string): boolean {
  return EVAL_RECORD_HEAD.test(head);
}

/**
 * `promptfoo eval -o results.jsonl`: one EvaluateResult a line (util/output.ts, appendJsonlResults
 * of toEvaluateResult): its grading keys, and where it stands in the eval (promptIdx, testIdx).
 */
export function isPromptfooJsonl(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '');
  const nl = text.indexOf('\n');
  const first = nl === -1 ? text : text.slice(0, nl);
  return /^\s*\{/.test(first) && /"(gradingResult|success)"\s*:/.test(first) && /"(promptIdx|promptId|testIdx)"\s*:/.test(first)
    && /"(response|provider|failureReason)"\s*:/.test(first);
}

export const promptfooAdapter: HarnessAdapter = {
  format: 'promptfoo',
  detect: (path, head) => isPromptfooResults(head) || isPromptfooEvalRecord(head) || isPromptfooJsonl(head) || isPromptfooCsv(path, head),
  parse: (input, ctx) => {
    const head = input.text().slice(0, 16 * 1024);
    if (isPromptfooResults(head)) return parsePromptfoo(input, ctx);
    if (isPromptfooEvalRecord(head)) return parseEvalRecord(input, ctx);
    if (isPromptfooJsonl(head)) return parsePromptfooJsonl(input, ctx);
    return parsePromptfooCsv(input, ctx);
  },
};

const FAILURE_REASONS: Record<number, string> = { 0: 'none', 1: 'assertion failed', 2: 'error' };

/** One column of the eval (a prompt on a provider): its name, and promptfoo's own metrics of it. */
interface Column { name: string; provider: string; label?: string; metrics?: Record<string, unknown> }

function providerName(p: unknown): string {
  if (typeof p === 'string') return p;
  if (isRecord(p)) {
    if (typeof p.label === 'string' && p.label) return p.label;
    if (typeof p.id === 'string') return p.id;
  }
  return '(unknown provider)';
}

/**
 * The columns of results.prompts (version 3), or of results.table.head.prompts (version 2), named by
 * provider, and by prompt too where a provider has several. `label` is the prompt's template, which a
 * version-2 result (no promptIdx) is matched on.
 */
function columnsOf(prompts: unknown): Column[] {
  if (!Array.isArray(prompts)) return [];
  const raw = prompts.map((p) => (isRecord(p) ? p : {}));
  const names = raw.map((p) => providerName(p.provider));
  const count = (n: string) => names.filter((x) => x === n).length;
  return raw.map((p, i) => ({
    name: count(names[i]) > 1 ? `${names[i]} #${i}` : names[i],
    provider: names[i],
    ...(promptLabel(p) !== undefined ? { label: promptLabel(p) } : {}),
    ...(isRecord(p.metrics) ? { metrics: p.metrics } : {}),
  }));
}

/** A prompt's template as promptfoo names it: label (version 3), display (version 2), else raw. */
function promptLabel(p: Record<string, unknown>): string | undefined {
  for (const k of ['label', 'display', 'raw']) if (typeof p[k] === 'string') return p[k] as string;
  return undefined;
}

interface Row { member: JsonMember; result: Record<string, unknown>; column: string }

function readRows(members: readonly JsonMember[], columns: Column[], problems: RowProblem[]): Row[] {
  const rows: Row[] = [];
  for (const m of members) {
    const r = m.value;
    const bad = (message: string) => problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'missing-field', message: `Result on line ${m.line}: ${message}; it is left out.` });
    if (!isRecord(r)) { bad('it is not an object'); continue; }
    if (typeof r.success !== 'boolean') { bad('it has no success (true or false)'); continue; }
    rows.push({ member: m, result: r, column: columnOf(r, columns) });
  }
  return rows;
}

/** A result's column: by promptIdx (version 3), else by provider and prompt template (version 2), else its provider. */
function columnOf(r: Record<string, unknown>, columns: Column[]): string {
  const promptIdx = typeof r.promptIdx === 'number' ? r.promptIdx : undefined;
  if (promptIdx !== undefined && columns[promptIdx]) return columns[promptIdx].name;
  const provider = providerName(r.provider);
  const prompt = isRecord(r.prompt) ? r.prompt : {};
  const label = typeof prompt.label === 'string' ? prompt.label : typeof prompt.display === 'string' ? prompt.display : undefined;
  // A results.jsonl's columns are indexed by promptIdx and may have holes.
  const listed = columns.filter((c): c is Column => !!c);
  const match = listed.find((c) => c.provider === provider && c.label !== undefined && c.label === label)
    ?? (listed.filter((c) => c.provider === provider).length === 1 ? listed.find((c) => c.provider === provider) : undefined);
  return match?.name ?? provider;
}

/**
 * The columns of a results.jsonl, which has no prompts list: each promptIdx a column, named by its
 * provider, and by promptIdx too where a provider has several (as columnsOf names them).
 */
function columnsOfResults(members: readonly JsonMember[]): Column[] {
  const byIdx = new Map<number, string>();
  for (const m of members) {
    const r = m.value;
    if (isRecord(r) && typeof r.promptIdx === 'number' && !byIdx.has(r.promptIdx)) byIdx.set(r.promptIdx, providerName(r.provider));
  }
  const columns: Column[] = [];
  const names = [...byIdx.values()];
  for (const [i, provider] of byIdx) {
    columns[i] = { name: names.filter((x) => x === provider).length > 1 ? `${provider} #${i}` : provider, provider };
  }
  return columns;
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

function failed(problems: RowProblem[], message: string): ParseResult {
  return { format: 'promptfoo', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message, kind: 'multiclass' };
}

function parsePromptfoo(input: FileInput, ctx: FormatContext): ParseResult {
  const read = readJsonMembers(input.text(), ['results', 'results'], 'result');
  const problems: RowProblem[] = [...read.problems];
  if (read.fatal) return failed(problems, `${read.fatal} (promptfoo results: results.results)`);
  const doc = isRecord(read.doc) ? read.doc : {};
  const summary = isRecord(doc.results) ? doc.results : {};
  const table = isRecord(summary.table) && isRecord(summary.table.head) ? summary.table.head : {};
  const columns = columnsOf(Array.isArray(summary.prompts) ? summary.prompts : table.prompts);
  const config = isRecord(doc.config) ? doc.config : {};
  const task = typeof config.description === 'string' && config.description.trim() ? config.description.trim() : typeof doc.evalId === 'string' ? doc.evalId : undefined;
  return scoreRows(input, ctx, {
    members: read.members, columns, problems, task, stats: isRecord(summary.stats) ? summary.stats : undefined,
    badMembers: read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length,
  });
}

/**
 * The Node package's Eval record: its results, when it holds them, are scored as results.results
 * are; without them (a persisted eval), its columns' own metrics are what it says, a summary.
 */
function parseEvalRecord(input: FileInput, ctx: FormatContext): ParseResult {
  const read = readJsonMembers(input.text(), ['results'], 'result');
  const problems: RowProblem[] = [...read.problems];
  if (read.fatal) return failed(problems, `${read.fatal} (a promptfoo Eval record: results)`);
  const doc = isRecord(read.doc) ? read.doc : {};
  const columns = columnsOf(doc.prompts);
  const config = isRecord(doc.config) ? doc.config : {};
  const task = typeof config.description === 'string' && config.description.trim() ? config.description.trim() : typeof doc.id === 'string' ? doc.id : undefined;
  if (read.members.length) {
    return scoreRows(input, ctx, { members: read.members, columns, problems, task, badMembers: read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length });
  }
  const figures = new FigureList();
  for (const c of columns) {
    const m = c.metrics;
    const reported = m ? columnReported(m) : undefined;
    if (!m || !reported) continue;
    const n = num(m.testPassCount) + num(m.testFailCount) + num(m.testErrorCount);
    for (const [metric, value] of Object.entries(reported)) figures.add({ name: `${c.name}/${metric}`, metric, model: c.name, n, value });
  }
  problems.push({
    line: 1, severity: 'info', code: 'filtered',
    message: 'A promptfoo Eval record (the Node package\'s evaluate() result) whose results stayed in promptfoo\'s database ("results": []): its columns\' own pass rates and mean scores are shown; `promptfoo export` or `eval -o results.json` writes the results themselves.',
  });
  return summaryResult({ source: 'a promptfoo Eval record without its results', harness: 'promptfoo', figures: figures.figures }, problems, task ? { task } : {});
}

/** `-o results.jsonl`: the same results, one a line, without the eval's prompts or stats. */
function parsePromptfooJsonl(input: FileInput, ctx: FormatContext): ParseResult {
  const members: JsonMember[] = [];
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => { members.push({ key: String(members.length), line: span.line, column: 1, value }); }, ctx.progress);
  const problems: RowProblem[] = [...scan.problems];
  if (scan.fatal) return failed(problems, `${scan.fatal} (promptfoo results.jsonl)`);
  problems.push({ line: 1, severity: 'info', code: 'filtered', message: 'A promptfoo results.jsonl holds the results only, not the eval\'s own pass rates (its stats and prompt metrics are in `-o results.json`): nothing to show beside the figures as reported.' });
  return scoreRows(input, ctx, { members, columns: columnsOfResults(members), problems, badMembers: scan.badRecords });
}

/** `-o results.csv`: the table of outputs, each prompt's verdict and score per test (promptfooCsv.ts). */
function parsePromptfooCsv(input: FileInput, ctx: FormatContext): ParseResult {
  const csv = readPromptfooCsv(input);
  const problems = [...csv.problems];
  if (!csv.members.length) {
    return failed(problems, 'This promptfoo table holds no verdict: no cell says PASS, FAIL or ERROR (a table written without assertions, or before promptfoo wrote them), so there is nothing to score.');
  }
  problems.push({
    line: 1, severity: 'info', code: 'filtered',
    message: csv.layout === 'blocks'
      ? 'A promptfoo CSV writes each score and named score with two decimals: their means here are of those rounded values (`-o results.json` keeps them whole). It holds no stats of the eval to show beside them.'
      : 'A promptfoo CSV of the older layout: each cell\'s verdict, and its score with two decimals where the cell writes one ("[PASS] (1.00)"); their means are of those rounded values.',
  });
  const columns: Column[] = csv.columns.map((c) => ({ name: c.name, provider: c.provider }));
  return scoreRows(input, ctx, { members: csv.members, columns, problems, badMembers: 0 });
}

interface RowsInput {
  members: readonly JsonMember[];
  columns: Column[];
  problems: RowProblem[];
  task?: string;
  stats?: Record<string, unknown>;
  /** Members that did not parse (each a problem already). */
  badMembers: number;
}

function scoreRows(input: FileInput, ctx: FormatContext, o: RowsInput): ParseResult {
  const { columns, problems, stats, task } = o;
  const rows = readRows(o.members, columns, problems);
  if (!rows.length) return failed(problems, 'The promptfoo results hold no result with a success verdict.');
  const listed = columns.filter((c): c is Column => !!c);
  const models = [...new Set([...listed.map((c) => c.name), ...rows.map((r) => r.column)])].filter((m) => rows.some((r) => r.column === m));
  const wanted = ctx.options.model;
  const found = wanted === undefined ? undefined : models.find((m) => m.toLowerCase() === wanted.trim().toLowerCase());
  if (wanted !== undefined && !found) problems.push({ line: 1, severity: 'warning', code: 'unscorable', message: `The file has no model "${wanted}"; its models are ${models.join(', ')}. Scoring ${models[0]}.` });
  const model = found ?? models[0];
  const records = rows.filter((r) => r.column === model).map(recordOf);
  const column = listed.find((c) => c.name === model);
  let reported = column?.metrics ? columnReported(column.metrics) : undefined;
  if (models.length === 1 && stats) {
    // One model: the eval's own stats are its figure (the same as its column's, when both are there).
    const total = num(stats.successes) + num(stats.failures) + num(stats.errors);
    if (total) reported = { ...(reported ?? {}), accuracy: num(stats.successes) / total };
  }
  const errored = erroredWarning(rows, model, stats);
  if (errored) problems.push(errored);
  if (models.length > 1) {
    problems.push({ line: 1, severity: 'info', code: 'filtered', message: `The file holds ${models.length} models (${models.join(', ')}); ${model} is scored (${records.length} of ${rows.length} results). One figure over several models would mean nothing: score each with --model NAME, or compare them.` });
  }
  const result = recordsToParse(records, {
    format: 'promptfoo', task, mode: 'verdict', problems,
    skipped: o.members.length - rows.length + o.badMembers,
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

/** promptfoo's ResultFailureReason.ERROR: the provider (or the test) failed, so there is no output to grade. */
const isErrored = (r: Row) => r.result.failureReason === 2;

/**
 * Results that errored (an API error, a timeout: no output) said out loud. They stay in the pass
 * rate as not passed, because promptfoo's own pass rate, successes / (successes + failures +
 * errors), counts them so and the figure must match what promptfoo printed; but an error is not a
 * wrong answer, so the warning gives the pass rate over the results that have an output, and says
 * when there are none (then the accuracy says nothing of the model). Older files without
 * failureReason are not guessed at: their `error` also holds an assertion's reason.
 */
function erroredWarning(rows: readonly Row[], model: string, stats: Record<string, unknown> | undefined): RowProblem | undefined {
  const mine = rows.filter((r) => r.column === model);
  const errored = mine.filter(isErrored);
  if (!errored.length) return undefined;
  const first = errored.map((r) => (typeof r.result.error === 'string' ? r.result.error.trim().replace(/\s+/g, ' ') : '')).find((e) => e);
  const example = first ? ` (the first: "${first.length > 160 ? `${first.slice(0, 159)}…` : first}")` : '';
  const inFile = rows.filter(isErrored).length;
  const statErrors = stats && typeof stats.errors === 'number' ? stats.errors : undefined;
  const fileNote = rows.length > mine.length || statErrors !== undefined
    ? ` In the whole file ${inFile} of ${rows.length} results errored${statErrors !== undefined ? ` (its stats: ${statErrors} errors)` : ''}.`
    : '';
  const answered = mine.filter((r) => !isErrored(r));
  const passed = answered.filter((r) => r.result.success === true).length;
  const rest = answered.length
    ? ` Over the ${answered.length} result${answered.length === 1 ? '' : 's'} with an output the pass rate is ${(passed / answered.length).toFixed(4)} (${passed} passed).`
    : ' No result has an output: the accuracy says nothing of the model.';
  return {
    line: errored[0].member.line, severity: 'warning', code: answered.length ? 'missing-field' : 'unscorable',
    message: `${errored.length} of ${mine.length} results${rows.length > mine.length ? ` of ${model}` : ''} errored, with no output${example}. They count as not passed, as in promptfoo's own pass rate, though an error is no wrong answer.${rest}${fileNote}`,
  };
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
