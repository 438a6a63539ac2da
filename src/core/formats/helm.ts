// HELM run folders (crfm-helm's benchmark_output/runs/<suite>/<run>/). Two files of a run hold
// samples, and each is read on its own wherever it lies, whatever its name:
//  - per_instance_stats.json: [{instance_id, perturbation?, train_trial_index, stats: [Stat]}], each
//    instance's stats (exact_match, quasi_exact_match, f1_score, rouge_l, ...) by MetricName
//    (name, split, sub_split, perturbation): src/helm/benchmark/metrics/metric.py (PerInstanceStats);
//  - scenario_state.json: {adapter_spec, request_states: [...]}, the requests and completions
//    (helmRequests.ts), from which exact match is recomputed.
// A run is reported on its test split (or its only split), from unperturbed instances only, with n
// the instances of that split; the other splits and the perturbations are rows of the breakdown.
// stats.json (the run's summary) is not read as samples here: it is the figures shown beside them.
import type { BreakdownRow, ParseResult, RowProblem } from '../types';
import type { FileInput, FormatContext } from './context';
import type { HarnessAdapter } from './adapters';
import type { SampleRecord } from '../samples/record';
import { recordsToParse, clipText } from '../samples/toParse';
import { isRecord, readJsonMembers, type JsonMember } from './jsonMembers';
import { chooseSplit, isHelmMetric, readRunSpec, readRunSummary, readScenarioStateBeside, statContext } from './helmRun';
import { choicesText, letterOf, readHelmRequests, type HelmRequest } from './helmRequests';
import { declaredLetters, withDeclaredClasses } from './helmClasses';
import { dirName, joinPath } from '../../common/paths';

const PER_INSTANCE_HEAD = /^\uFEFF?\s*\[\s*\{\s*"/;
const SCENARIO_STATE_HEAD = /^\uFEFF?\s*\{\s*"adapter_spec"\s*:\s*\{\s*"method"\s*:/;

export function isHelmPerInstanceStats(head: string): boolean {
  // A list of {instance_id, train_trial_index, stats: [{name: {name, split}, ...}]} (PerInstanceStats).
  return PER_INSTANCE_HEAD.test(head) && /"instance_id"\s*:/.test(head) && /"train_trial_index"\s*:/.test(head)
    && /"stats"\s*:\s*\[\s*\{\s*"name"\s*:\s*\{\s*"name"\s*:/.test(head);
}

export function isHelmScenarioState(head: string): boolean {
  return SCENARIO_STATE_HEAD.test(head);
}

/**
 * display_predictions.json, written by helm-summarize beside a run's files for HELM's web frontend
 * (src/helm/benchmark/presentation/run_display.py, DisplayPrediction): [{instance_id, perturbation?,
 * train_trial_index, predicted_text, mapped_output?, stats: {metric: value}, annotations?}], the
 * stats being per_instance_stats.json's of the metrics the run's groups show.
 */
export function isHelmDisplayPredictions(head: string): boolean {
  return PER_INSTANCE_HEAD.test(head) && /^\uFEFF?\s*\[\s*\{\s*"instance_id"\s*:/.test(head) && /"train_trial_index"\s*:/.test(head)
    && /"predicted_text"\s*:/.test(head) && /"stats"\s*:\s*\{/.test(head);
}

/** The run's other files that hold no samples: run_spec.json and scenario.json. */
const RUN_SPEC_HEAD = /^\uFEFF?\s*\{\s*"name"\s*:\s*"[^"]*"\s*,\s*"scenario_spec"\s*:\s*\{\s*"class_name"\s*:\s*"helm\./;
const SCENARIO_HEAD = /^\uFEFF?\s*\{\s*"name"\s*:[^{}]*"definition_path"\s*:\s*"https:\/\/github\.com\/stanford-crfm\/helm\//;
/** helm-summarize's display_requests.json (DisplayRequest: instance_id, train_trial_index, request). */
const DISPLAY_REQUESTS_HEAD = /^\uFEFF?\s*\[\s*\{\s*"instance_id"\s*:\s*"[^"]*"\s*,\s*(?:"perturbation"\s*:\s*\{[^{}]*\}\s*,\s*)?"train_trial_index"\s*:\s*\d+\s*,\s*"request"\s*:\s*\{/;
/** helm-summarize's instances.json (Instance: input {text}, references [{output, tags}], split, id). */
const INSTANCES_HEAD = /^\uFEFF?\s*\[\s*\{\s*"input"\s*:\s*\{\s*"text"\s*:/;

function companionOf(head: string): string | undefined {
  if (RUN_SPEC_HEAD.test(head)) return "HELM's run_spec.json (the run's specification)";
  if (SCENARIO_HEAD.test(head)) return "HELM's scenario.json (the scenario's description)";
  if (DISPLAY_REQUESTS_HEAD.test(head)) return "HELM's display_requests.json (the prompts sent, for HELM's web frontend)";
  if (INSTANCES_HEAD.test(head) && /"references"\s*:\s*\[/.test(head) && /"split"\s*:/.test(head)) return "HELM's instances.json (the run's questions and references, for HELM's web frontend)";
  return undefined;
}

export const helmAdapter: HarnessAdapter = {
  format: 'helm',
  detect: (_path, head) => isHelmPerInstanceStats(head) || isHelmDisplayPredictions(head) || isHelmScenarioState(head) || companionOf(head) !== undefined,
  parse: (input, ctx) => {
    const head = input.text().slice(0, 4096);
    if (isHelmScenarioState(head)) return parseScenarioState(input, ctx);
    const companion = companionOf(head);
    if (companion) return { ...unscorable(`This is ${companion}: it holds no samples. Eval Lens scores a HELM run from per_instance_stats.json (or scenario_state.json) in the same run folder, with stats.json's figures beside it.`), kind: undefined };
    return parsePerInstanceStats(input, ctx, isHelmDisplayPredictions(head) && !isHelmPerInstanceStats(head));
  },
};

function unscorable(message: string, problems: RowProblem[] = []): ParseResult {
  return { format: 'helm', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message, kind: 'multiclass' };
}

/** One entry of per_instance_stats.json, read. */
interface Entry {
  id: string;
  trial: number;
  split: string;
  perturbation?: string;
  line: number;
  metrics: Record<string, number>;
}

function readEntry(m: JsonMember, problems: RowProblem[]): Entry | undefined {
  const e = m.value;
  const bad = (message: string) => { problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'missing-field', message: `Entry on line ${m.line}: ${message}; it is left out.` }); };
  if (!isRecord(e)) { bad('it is not an object'); return undefined; }
  if (typeof e.instance_id !== 'string' || !e.instance_id) { bad('it has no instance_id'); return undefined; }
  if (!Array.isArray(e.stats)) { bad(`instance ${e.instance_id} has no stats list`); return undefined; }
  const metrics: Record<string, number> = {};
  let split: string | undefined;
  let perturbation = isRecord(e.perturbation) ? (typeof e.perturbation.name === 'string' ? e.perturbation.name : 'perturbed') : undefined;
  let badStats = 0;
  for (const s of e.stats) {
    const c = isRecord(s) ? statContext(s.name) : undefined;
    if (!c || !isRecord(s)) { badStats++; continue; }
    // A stat with no values (count 0: training costs HELM does not know) has no mean: not logged.
    if (typeof s.mean !== 'number') { if (typeof s.count === 'number' && s.count > 0) badStats++; continue; }
    split ??= c.split;
    perturbation ??= c.perturbation;
    if (isHelmMetric(c.name) && !(c.name in metrics)) metrics[c.name] = s.mean;
  }
  if (badStats) {
    problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'not-a-number', message: `Entry on line ${m.line} (instance ${e.instance_id}): ${badStats} stat${badStats === 1 ? '' : 's'} without a name, or counted without a numeric mean, left out; its other stats are kept.` });
  }
  return {
    id: e.instance_id, trial: typeof e.train_trial_index === 'number' ? e.train_trial_index : 0,
    split: split ?? '', ...(perturbation ? { perturbation } : {}), line: m.line, metrics,
  };
}

/** One entry of display_predictions.json: its stats are a flat object of metric -> value; its split is the instance's (instances.json), else none. */
function readDisplayEntry(m: JsonMember, problems: RowProblem[], splitOf: Map<string, string>): Entry | undefined {
  const e = m.value;
  const bad = (message: string) => { problems.push({ line: m.line, column: m.column, severity: 'warning', code: 'missing-field', message: `Prediction on line ${m.line}: ${message}; it is left out.` }); };
  if (!isRecord(e)) { bad('it is not an object'); return undefined; }
  if (typeof e.instance_id !== 'string' || !e.instance_id) { bad('it has no instance_id'); return undefined; }
  if (!isRecord(e.stats)) { bad(`instance ${e.instance_id} has no stats object`); return undefined; }
  const metrics: Record<string, number> = {};
  for (const [name, v] of Object.entries(e.stats)) if (typeof v === 'number' && isHelmMetric(name)) metrics[name] = v;
  const perturbation = isRecord(e.perturbation) ? (typeof e.perturbation.name === 'string' ? e.perturbation.name : 'perturbed') : undefined;
  return {
    id: e.instance_id, trial: typeof e.train_trial_index === 'number' ? e.train_trial_index : 0,
    split: splitOf.get(e.instance_id) ?? '', ...(perturbation ? { perturbation } : {}), line: m.line, metrics,
  };
}

/** Each instance's split, from helm-summarize's instances.json beside the file (empty when it is not there). */
function instanceSplits(filePath: string, ctx: FormatContext): Map<string, string> {
  const out = new Map<string, string>();
  const text = ctx.io.readText(joinPath(dirName(filePath), 'instances.json'));
  if (text === undefined) return out;
  try {
    const doc: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (Array.isArray(doc)) for (const i of doc) if (isRecord(i) && typeof i.id === 'string' && typeof i.split === 'string') out.set(i.id, i.split);
  } catch { /* no splits: the entries are read without one */ }
  return out;
}

function mean(values: readonly number[]): number | null {
  const finite = values.filter((v) => !Number.isNaN(v));
  return finite.length ? finite.reduce((a, b) => a + b, 0) / finite.length : null;
}

/**
 * Each instance once: its metrics averaged over its train trials (HELM averages each trial's mean;
 * the same when every trial has every instance). Entries of one instance and one train_trial_index
 * are one trial's stats split in parts, not trials: a HELM Safety run writes each instance twice
 * (the annotators' scores, then the counts and timings), so they are merged, a name's first value kept.
 */
function byInstance(entries: readonly Entry[]): { id: string; line: number; trials: number; metrics: Record<string, number> }[] {
  const groups = new Map<string, Map<number, Entry>>();
  for (const e of entries) {
    let g = groups.get(e.id);
    if (!g) groups.set(e.id, (g = new Map()));
    const trial = g.get(e.trial);
    if (trial) trial.metrics = { ...e.metrics, ...trial.metrics };
    else g.set(e.trial, { ...e, metrics: { ...e.metrics } });
  }
  return [...groups.entries()].map(([id, byTrial]) => {
    const g = [...byTrial.values()];
    const names = [...new Set(g.flatMap((e) => Object.keys(e.metrics)))];
    const metrics: Record<string, number> = {};
    for (const n of names) metrics[n] = mean(g.map((e) => e.metrics[n] ?? NaN)) ?? NaN;
    return { id, line: g[0].line, trials: g.length, metrics };
  });
}

function metricMeans(rows: readonly { metrics: Record<string, number> }[], withAccuracy: boolean): Record<string, number | null> {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  const out: Record<string, number | null> = {};
  if (withAccuracy && names.includes('exact_match')) out.accuracy = mean(rows.map((r) => r.metrics.exact_match ?? NaN));
  for (const n of names) out[n] = mean(rows.map((r) => r.metrics[n] ?? NaN));
  return out;
}

/** Texts of each instance from the request states beside the file (scenario_state.json), by instance id. */
function textsById(filePath: string, split: string, ctx: FormatContext): Map<string, HelmRequest> {
  const out = new Map<string, HelmRequest>();
  const state = readScenarioStateBeside(filePath, ctx);
  if (!state || !isRecord(state.doc) || !Array.isArray(state.doc.request_states)) return out;
  const members = state.doc.request_states.map((value, k) => ({ key: String(k), line: 1, column: 1, value }));
  const adapterSpec = isRecord(state.doc.adapter_spec) ? state.doc.adapter_spec : {};
  for (const r of readHelmRequests(members, adapterSpec, [])) {
    if (r.split === split && !r.perturbation && !r.perChoice && !out.has(r.instanceId)) out.set(r.instanceId, r);
  }
  return out;
}

const HELM_TEXTS = {
  fields: ['input', 'choices', 'reference', 'output', 'answer', 'prompt'],
  of: (r: SampleRecord): string[] => [
    clipText(r.input?.raw), clipText(r.input?.choices?.join('\n')), clipText((r.input?.reference ?? []).join('\n')),
    clipText(r.output?.raw?.join('\n')), clipText(r.answer), clipText(r.metadata?.prompt),
  ],
};

function withTexts(rec: SampleRecord, req: HelmRequest | undefined): SampleRecord {
  if (!req) return rec;
  return {
    ...rec,
    input: { raw: req.input, reference: req.correct, ...(req.outputMapping ? { choices: [choicesText(req.outputMapping)] } : {}) },
    output: { raw: [req.completion] },
    answer: req.answer ?? req.completion.trim(),
    metadata: { prompt: req.prompt },
  };
}

function parsePerInstanceStats(input: FileInput, ctx: FormatContext, display = false): ParseResult {
  const what = display ? 'display_predictions.json' : 'per_instance_stats.json';
  const read = readJsonMembers(input.text(), [], display ? 'prediction' : 'entry');
  const problems: RowProblem[] = [...read.problems];
  if (read.fatal) return unscorable(`${read.fatal} (HELM ${what})`, problems);
  const splitOf = display ? instanceSplits(input.path, ctx) : new Map<string, string>();
  const entries = read.members.map((m) => (display ? readDisplayEntry(m, problems, splitOf) : readEntry(m, problems))).filter((e): e is Entry => !!e);
  if (display) {
    if (entries.length && entries.every((e) => !Object.keys(e.metrics).length)) {
      return unscorable(`HELM's display_predictions.json shows, for each prediction, the stats of the metrics its run's groups display; here none is a per-instance score (only counts and timings, e.g. num_prompt_tokens): the run's figures are aggregates. Score per_instance_stats.json of the same run folder, or see stats.json.`, problems);
    }
    problems.push({ line: 1, severity: 'info', code: 'filtered', message: 'HELM\'s display_predictions.json (written by helm-summarize for its web frontend) holds, per prediction, the stats of the metrics its run\'s groups display; per_instance_stats.json beside it holds them all.' });
  }
  const plain = entries.filter((e) => !e.perturbation);
  const splits = [...new Set(plain.map((e) => e.split))];
  const chosen = chooseSplit(splits);
  if (!chosen) return unscorable('The file holds no unperturbed instance with stats: nothing to report the run on.', problems);
  const { split } = chosen;
  if (chosen.note) problems.push({ line: 1, severity: 'info', code: 'unscorable', message: chosen.note });
  const instances = byInstance(plain.filter((e) => e.split === split));
  const trials = Math.max(...instances.map((i) => i.trials));
  const perturbed = entries.filter((e) => e.perturbation);
  if (perturbed.length) {
    problems.push({ line: 1, severity: 'info', code: 'filtered', message: `${perturbed.length} perturbed entr${perturbed.length === 1 ? 'y' : 'ies'} (${[...new Set(perturbed.map((e) => e.perturbation))].join(', ')}) left out of the headline figures: the run is reported on unperturbed instances; each perturbation is a row of the breakdown.` });
  }
  // The texts come from another file (scenario_state.json): read only when something shows or searches them.
  const o = ctx.options;
  const wantTexts = o.instances !== false || !!o.where?.terms.length || !!o.slices || !!o.groupBy || !!o.listColumns;
  const texts = wantTexts ? textsById(input.path, split, ctx) : new Map<string, HelmRequest>();
  const everyEm = instances.every((i) => typeof i.metrics.exact_match === 'number' && !Number.isNaN(i.metrics.exact_match));
  const verdict = everyEm && trials === 1;
  const records: SampleRecord[] = instances.map((i) => withTexts({
    sample_id: i.id, line: i.line, metrics: i.metrics, evaluation_name: split,
    ...(verdict ? { evaluation: { score: i.metrics.exact_match, is_correct: i.metrics.exact_match === 1 } } : {}),
  }, texts.get(i.id)));
  const spec = readRunSpec(input.path, ctx);
  const summary = readRunSummary(input.path, split, ctx);
  const reported = summary && summary.means.has('exact_match') ? { accuracy: summary.means.get('exact_match')! } : undefined;
  const result = recordsToParse(records, {
    format: 'helm', task: spec.task, mode: verdict ? 'verdict' : 'scores', problems,
    skipped: read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length + (read.members.length - entries.length),
    ...(reported ? { reported, reportedPath: summary!.path } : summary ? { reportedPath: summary.path } : {}),
    sourceModel: spec.model, texts: HELM_TEXTS,
  });
  if (!result.set) return result;
  for (const t of result.taskMetrics ?? []) if (summary?.means.has(t.name)) t.reported = summary.means.get(t.name)!;
  // Several train trials: each instance's figures are its trials' mean, and accuracy their mean.
  if (!verdict && everyEm) result.metrics = { accuracy: mean(instances.map((i) => i.metrics.exact_match)) };
  if (trials > 1) problems.push({ line: 1, severity: 'info', code: 'filtered', message: `Each instance ran in ${trials} train trials: its figures are the mean over its trials, and n counts instances.` });
  const numInstances = summary?.means.get('num_instances');
  if (typeof numInstances === 'number' && numInstances !== instances.length) {
    problems.push({ line: 1, severity: 'info', code: 'reported-mismatch', message: `stats.json counts ${numInstances} ${split} instances; this file holds ${instances.length}.` });
  }
  const breakdown = helmBreakdown(entries, split);
  if (breakdown.length) result.breakdown = breakdown;
  return result;
}

/** The other splits (unperturbed), and each perturbation of the reported split, as breakdown rows. */
function helmBreakdown(entries: readonly Entry[], split: string): BreakdownRow[] {
  const rows: BreakdownRow[] = [];
  const otherSplits = [...new Set(entries.filter((e) => !e.perturbation && e.split !== split).map((e) => e.split))];
  for (const s of otherSplits) {
    const inst = byInstance(entries.filter((e) => !e.perturbation && e.split === s));
    rows.push({ label: `split ${s || '(none)'}`, n: inst.length, metrics: metricMeans(inst, true) });
  }
  const perturbations = [...new Set(entries.filter((e) => e.perturbation && e.split === split).map((e) => e.perturbation!))];
  for (const p of perturbations) {
    const inst = byInstance(entries.filter((e) => e.perturbation === p && e.split === split));
    rows.push({ label: `${split}, perturbation ${p}`, n: inst.length, metrics: metricMeans(inst, true) });
  }
  return rows;
}

/**
 * scenario_state.json alone: each request's exact match recomputed as crfm-helm does
 * (helmRequests.ts). A multiple-choice run (output_mapping) is read as labels: the gold is the
 * letter of the reference tagged correct, the prediction the letter the model wrote (a letter
 * that maps to a correct text counts as the gold's), so accuracy is HELM's exact match and macro-F1
 * is over the letters. A generation run is read as HELM's own verdicts (exact match).
 */
function parseScenarioState(input: FileInput, ctx: FormatContext): ParseResult {
  const read = readJsonMembers(input.text(), ['request_states'], 'request state');
  const problems: RowProblem[] = [...read.problems];
  if (read.fatal) return unscorable(`${read.fatal} (HELM scenario_state.json)`, problems);
  const adapterSpec = isRecord(read.doc) && isRecord(read.doc.adapter_spec) ? read.doc.adapter_spec : {};
  const requests = readHelmRequests(read.members, adapterSpec, problems);
  if (requests.some((r) => r.perChoice)) {
    const method = typeof adapterSpec.method === 'string' ? adapterSpec.method : 'multiple_choice_separate';
    return unscorable(`This HELM run (method ${method}) sends one request per choice; its exact match is not recomputed from scenario_state.json. Score per_instance_stats.json of the same run folder instead.`, problems);
  }
  const plain = requests.filter((r) => !r.perturbation);
  const chosen = chooseSplit([...new Set(plain.map((r) => r.split))]);
  if (!chosen) return unscorable('The file holds no unperturbed request state: nothing to report the run on.', problems);
  if (chosen.note) problems.push({ line: 1, severity: 'info', code: 'unscorable', message: chosen.note });
  const onSplit = plain.filter((r) => r.split === chosen.split);
  const firstTrial = new Map<string, HelmRequest>();
  for (const r of onSplit) if (!firstTrial.has(r.instanceId) || r.trial < firstTrial.get(r.instanceId)!.trial) firstTrial.set(r.instanceId, r);
  const trials = new Set(onSplit.map((r) => r.trial)).size;
  if (trials > 1) problems.push({ line: 1, severity: 'info', code: 'filtered', message: `The run has ${trials} train trials; each instance is scored on its first trial (per_instance_stats.json holds every trial's stats).` });
  const perturbedCount = requests.length - plain.length;
  if (perturbedCount) problems.push({ line: 1, severity: 'info', code: 'filtered', message: `${perturbedCount} perturbed request state${perturbedCount === 1 ? '' : 's'} left out: the run is reported on unperturbed instances.` });
  const firstTrials = [...firstTrial.values()];
  // A scenario judged by annotators (HELM Safety's anthropic_red_team, harm_bench, xstest: LLM judges
  // score each completion) tags no reference correct: exact match has nothing to compare with.
  // Annotators (annotator_specs, each request state's annotations) score the completions where a
  // run has them (HELM Safety, HELM Capabilities' judged scenarios): there exact match is none of
  // the run's metrics, even where a reference is tagged correct (xstest's "safe" is the judge's label).
  const doc = isRecord(read.doc) ? read.doc : {};
  const annotators = Array.isArray(doc.annotator_specs) ? doc.annotator_specs.length : 0;
  const annotated = annotators > 0 || (read.members.length > 0 && read.members.every((m) => isRecord(m.value) && isRecord(m.value.annotations) && Object.keys(m.value.annotations).length > 0));
  if (annotated) {
    const names = Object.keys((read.members.map((m) => (isRecord(m.value) && isRecord(m.value.annotations) ? m.value.annotations : undefined)).find((a) => a) ?? {}) as Record<string, unknown>);
    return unscorable(`This HELM run's completions are scored by annotators (${names.length ? names.join(', ') : `${annotators} annotator spec${annotators === 1 ? '' : 's'}`}), not by exact match with a reference, so scenario_state.json alone gives no figure. Score per_instance_stats.json of the same run folder, which holds the annotators' per-instance scores.`, problems);
  }
  const unjudged = firstTrials.filter((r) => !r.correct.length);
  if (unjudged.length === firstTrials.length) {
    return unscorable(`No reference of this run's ${chosen.split} instances is tagged correct (${firstTrials.length} of ${firstTrials.length}), so exact match has nothing to compare with. Score per_instance_stats.json of the same run folder, which holds the run's own per-instance scores.`, problems);
  }
  if (unjudged.length) {
    problems.push({ line: unjudged[0].line, severity: 'warning', code: 'missing-field', message: `${unjudged.length} of ${firstTrials.length} instances (first on line ${unjudged[0].line}: ${unjudged[0].instanceId}) have no reference tagged correct; exact match cannot be recomputed for them, so they are left out.` });
  }
  const chosenRequests = firstTrials.filter((r) => r.correct.length);
  const mc = chosenRequests.every((r) => r.outputMapping);
  const records = chosenRequests.map((r) => {
    const base = withTexts({ sample_id: r.instanceId, line: r.line, evaluation_name: chosen.split, evaluation: { score: r.exactMatch ? 1 : 0, is_correct: r.exactMatch } }, r);
    if (!mc) return { ...base, gold: r.correct[0] ?? '(no correct reference)' };
    const gold = letterOf(r.outputMapping!, r.correct[0] ?? '') ?? r.correct[0] ?? '(no correct reference)';
    return { ...base, gold, pred: r.exactMatch ? gold : r.extracted || '(no answer)' };
  });
  const spec = readRunSpec(input.path, ctx);
  const summary = readRunSummary(input.path, chosen.split, ctx);
  const reported = summary?.means.has('exact_match') ? { accuracy: summary.means.get('exact_match')! } : undefined;
  const model = typeof adapterSpec.model === 'string' ? adapterSpec.model : spec.model;
  const result = recordsToParse(records, {
    format: 'helm', task: spec.task, mode: mc ? 'labels' : 'verdict', problems,
    skipped: read.members.length - requests.length + read.problems.filter((p) => p.code === 'json-parse' && p.line > 1).length + unjudged.length,
    ...(reported ? { reported, reportedPath: summary!.path } : {}),
    sourceModel: model, texts: HELM_TEXTS,
  });
  // The run declares its classes (the output_mapping letters): macro-F1 averages over those.
  if (mc && result.set?.kind === 'multiclass' && !result.set.freeText) {
    result.set = withDeclaredClasses(result.set, declaredLetters(chosenRequests.map((r) => r.outputMapping!)));
  }
  return result;
}
