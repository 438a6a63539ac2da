// Inspect AI logs (.eval zips and .json logs) as format `inspect`. Each sample (and epoch) becomes an
// instance: gold = its target, prediction = the model's answer, correct when the first scorer's value
// is worth 1 by Inspect's value_to_float. The report's accuracy and stderr are Inspect's own, over the
// epoch-reduced values of the first scorer (what results.scores[0].metrics reports, shown beside them
// as `reported`); every scorer, epoch and the reduction get a row in `breakdown`. Confidence comes
// from a numeric `confidence` in the score's metadata, else from the answer token's logprob.
import type { BreakdownRow, MetricName, MulticlassSet, ParseResult, RowProblem } from '../types';
import type { FileInput, FormatContext } from './context';
import { isObject, readInspectLog, type InspectLog, type Obj } from './inspectLog';
import { inflateLimit } from './boundedInflate';
import { inspectAccuracy, inspectStderr, isUnscored, reducerNamed, valueToFloat, type ScoreValue } from './inspectScores';
import { AGENT_KEY, SCORING_SKIP, slimForScoring } from './inspectSlim';
import { stripRichMarkup } from './inspectMarkup';
import { AGENT_FIELDS, agentTexts, isAgentRun, type AgentCounts } from '../samples/agentColumns';

const MAX_TEXT = 3000;

/** `.eval` by name; a `.json` whose head looks like an Inspect log ({"version": n, "status": ..., "eval": ...). */
export function isInspectLog(path: string, head: string): boolean {
  if (/\.eval$/i.test(path)) return true;
  if (!/\.json$/i.test(path)) return false;
  if (/^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"[a-z_]+"\s*,\s*"eval"\s*:/.test(head)) return true;
  // A log written without its version (a header dumped by another tool: {"status", "eval", "plan",
  // "results", ...}, as every_eval_ever's tests/data/inspect/data_with_llm_scoring.json): its status
  // first, then the eval spec, told by its own first keys (EvalSpec: eval_id, run_id, created, task).
  return /^\s*\{\s*"status"\s*:\s*"(started|success|cancelled|error)"\s*,\s*"eval"\s*:\s*\{\s*"(eval_id|run_id|created|task)"\s*:/.test(head);
}

interface Entry { sample: number; id: string; epoch: number; value: ScoreValue; score: Obj }

function clip(s: string): string {
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
}

/** A message's or an input's text: a string, content parts, or a list of chat messages. */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).filter(Boolean).join('\n');
  if (isObject(v)) {
    if (typeof v.text === 'string') return v.text;
    if (v.content !== undefined) return (typeof v.role === 'string' ? `[${v.role}] ` : '') + textOf(v.content);
  }
  return v == null ? '' : JSON.stringify(v);
}

function targetText(v: unknown): string {
  return Array.isArray(v) ? v.map(String).join(' | ') : textOf(v);
}

/** A scalar, or null for unscored / not scalar. */
function scalar(v: unknown): ScoreValue | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return undefined;
}

/** Where a figure's values come from: a scorer, and the key of its dict value when it gives one. */
interface Origin { scorer: string; key?: string }

interface Scores { byName: Map<string, Entry[]>; origin: Map<string, Origin> }

/**
 * Every scorer's value of every sample. A dict value ({main_task_success: true, side_task_success:
 * false}) gives one figure per key, named by the key as Inspect's results name it (its results list
 * one entry per key, with the dict scorer as `scorer`); a key that another scorer's name or another
 * dict's key also takes is named scorer/key, so no two figures share a name.
 */
function collectScores(log: InspectLog): Scores {
  const byName = new Map<string, Entry[]>();
  const origin = new Map<string, Origin>();
  const add = (name: string, from: Origin, e: Entry) => {
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    if (!origin.has(name)) origin.set(name, from);
    list.push(e);
  };
  const results = resultScores(log);
  // The names a key could clash with: every plain scorer's name, and how many dicts use each key.
  const plainNames = new Set<string>();
  const dictsByKey = new Map<string, Set<string>>();
  for (const s of log.samples) {
    for (const [name, score] of Object.entries(isObject(s.scores) ? s.scores : {})) {
      if (!isObject(score)) continue;
      if (!isObject(score.value)) { plainNames.add(name); continue; }
      for (const k of Object.keys(score.value)) {
        let set = dictsByKey.get(k);
        if (!set) dictsByKey.set(k, (set = new Set()));
        set.add(name);
      }
    }
  }
  const keyName = (scorer: string, key: string) => {
    const named = results.some((r) => r.name === key && r.scorer === scorer);
    const clash = plainNames.has(key) || (dictsByKey.get(key)?.size ?? 0) > 1;
    return named || !clash ? key : `${scorer}/${key}`;
  };
  // Figures in the order the log's results list them, then any others in the order met.
  for (const r of results) if (typeof r.name === 'string') byName.set(r.name, []);
  log.samples.forEach((s, i) => {
    const scores = isObject(s.scores) ? s.scores : {};
    for (const [name, score] of Object.entries(scores)) {
      if (!isObject(score)) continue;
      const base = { sample: i, id: String(s.id), epoch: Number(s.epoch ?? 1), score };
      if (isObject(score.value)) {
        for (const [k, v] of Object.entries(score.value)) {
          const sv = scalar(v);
          if (sv !== undefined) add(keyName(name, k), { scorer: name, key: k }, { ...base, value: sv });
        }
      } else {
        const sv = scalar(score.value);
        if (sv !== undefined) add(name, { scorer: name }, { ...base, value: sv });
      }
    }
  });
  for (const [name, list] of byName) if (!list.length) byName.delete(name);
  return { byName, origin };
}

/** The log's results.scores entries (one per figure: a dict scorer has one per key). */
function resultScores(log: InspectLog): Obj[] {
  return isObject(log.header.results) && Array.isArray(log.header.results.scores) ? log.header.results.scores.filter(isObject) : [];
}

/**
 * A scorer of graded numbers (0.65: the share of a challenge's constraints met), not of right or
 * wrong: some value is a number other than 0 and 1. P (0.5) is partial credit on a C/I grade and
 * stays accuracy.
 */
function isGraded(entries: Entry[]): boolean {
  return entries.some((e) => {
    if (isUnscored(e.value) || !(typeof e.value === 'number' || typeof e.value === 'string') || e.value === 'P') return false;
    const v = valueToFloat(e.value);
    return v.known && v.value !== 0 && v.value !== 1;
  });
}

/**
 * Values outside [0, 1] (ControlArena's 0-10 suspicion score, -1 for "not judged"): whatever the log
 * calls their mean (Inspect's accuracy() is any values' mean), it is no share of right answers.
 */
function outsideUnitRange(entries: Entry[]): boolean {
  return entries.some((e) => {
    if (isUnscored(e.value) || !(typeof e.value === 'number' || typeof e.value === 'string')) return false;
    const v = valueToFloat(e.value);
    return v.known && (v.value < 0 || v.value > 1);
  });
}

/**
 * Whether a graded scorer's mean is shown as a mean, not an accuracy: always when its values leave
 * [0, 1]; else when the log reports Inspect's mean() metric for it (cyse2 reports accuracy, mean and
 * std), or reports nothing for it. A log that names a share in [0, 1] only accuracy keeps that name,
 * so the figure stands beside the log's own.
 */
function gradedAsMean(log: InspectLog, scorer: string, entries: Entry[]): boolean {
  if (!isGraded(entries)) return false;
  if (outsideUnitRange(entries)) return true;
  const own = resultScores(log).find((r) => r.name === scorer);
  return !own || !isObject(own.metrics) || 'mean' in own.metrics || !('accuracy' in own.metrics);
}

function figures(values: number[], graded = false): Record<string, number | null> {
  return { [graded ? 'mean' : 'accuracy']: inspectAccuracy(values), stderr: inspectStderr(values) };
}

/** The reducer's name: the one reductions.json records for the scorer, else the eval's first epochs_reducer, else mean. */
function reducerName(log: InspectLog, from: Origin): string {
  const red = log.reductions?.find((r) => r.scorer === from.scorer);
  if (red && typeof red.reducer === 'string') return red.reducer;
  const config = isObject(log.header.eval) && isObject(log.header.eval.config) ? log.header.eval.config : {};
  const er = config.epochs_reducer;
  if (Array.isArray(er) && typeof er[0] === 'string') return er[0];
  if (typeof er === 'string') return er;
  return 'mean';
}

/** The values reductions.json records for a scorer, by sample id. */
function recordedReductions(log: InspectLog, from: Origin): Map<string, ScoreValue> | undefined {
  const { key } = from;
  const red = log.reductions?.find((r) => r.scorer === from.scorer);
  if (!red || !Array.isArray(red.samples)) return undefined;
  const out = new Map<string, ScoreValue>();
  for (const s of red.samples) {
    if (!isObject(s)) continue;
    const v = key !== undefined && isObject(s.value) ? s.value[key] : s.value;
    const sv = scalar(v);
    if (sv !== undefined) out.set(String(s.sample_id), sv);
  }
  return out;
}

interface Reduced { values: number[]; byId: Map<string, number>; label: string; problems: RowProblem[] }

/** Reduce a scorer's epochs per sample with Inspect's reducer; check against reductions.json when it is there. */
function reduce(log: InspectLog, scorer: string, from: Origin, entries: Entry[], path: string): Reduced {
  const name = reducerName(log, from);
  const reducer = reducerNamed(name);
  const recorded = recordedReductions(log, from);
  const problems: RowProblem[] = [];
  const byId = new Map<string, number>();
  if (reducer) {
    const groups = new Map<string, ScoreValue[]>();
    for (const e of entries) {
      if (isUnscored(e.value)) continue;
      let g = groups.get(e.id);
      if (!g) groups.set(e.id, (g = []));
      g.push(e.value);
    }
    for (const [id, vs] of groups) {
      const r = reducer(vs);
      if (!Number.isNaN(r)) byId.set(id, r);
    }
    if (recorded) {
      const off = [...byId].filter(([id, v]) => recorded.has(id) && Math.abs(valueToFloat(recorded.get(id)!).value - v) > 1e-9);
      if (off.length) {
        problems.push({
          line: 1, severity: 'warning', code: 'reported-mismatch', path,
          message: `${scorer}: reductions.json records ${off.length} reduced value(s) that differ from the "${name}" reducer recomputed here (first: sample ${off[0][0]}).`,
        });
      }
    }
  } else if (recorded) {
    // A custom reducer: trust the values the log recorded.
    for (const [id, v] of recorded) if (!isUnscored(v)) byId.set(id, valueToFloat(v).value);
    problems.push({ line: 1, severity: 'info', code: 'unknown-reducer', message: `${scorer}: reducer "${name}" is not one of Inspect's built-in reducers; its values are taken from reductions.json as recorded.` });
  } else {
    problems.push({ line: 1, severity: 'warning', code: 'unknown-reducer', message: `${scorer}: reducer "${name}" is unknown and the log records no reductions, so its reduced score is not computed.` });
  }
  return { values: [...byId.values()], byId, label: `reduced (${name})`, problems };
}

/**
 * What the log itself reports: results.scores[].metrics, by bare metric name when the log has one
 * scorer (also when its samples carry no scores, as in a cancelled log), else the first scorer by
 * bare name and the others as scorer/metric. The "accuracy" of a figure whose values leave [0, 1]
 * (`notShares`) is their mean, reported under the figure's own name (max_sus_scorer 2.0), so that no
 * suspicion score reads as an accuracy; so is a dict scorer's key's (`ownNamed`: main_task_success),
 * which stands beside the key's own figure.
 */
function reportedFigures(log: InspectLog, primary: string | undefined, notShares: ReadonlySet<string> = new Set(), ownNamed: ReadonlySet<string> = new Set()): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const results = resultScores(log);
  const bare = (name: unknown) => results.length === 1 || name === primary;
  for (const r of results) {
    if (!isObject(r.metrics)) continue;
    for (const [metric, m] of Object.entries(r.metrics)) {
      const v = isObject(m) ? m.value : undefined;
      if (typeof v !== 'number' && v !== null) continue;
      // A reported accuracy outside [0, 1] says so itself, samples or none (a cancelled log's results).
      const notShare = notShares.has(String(r.name)) || (typeof v === 'number' && (v < 0 || v > 1));
      if (metric === 'accuracy' && (notShare || (ownNamed.has(String(r.name)) && r.name !== primary))) out[String(r.name)] = v;
      else out[bare(r.name) ? metric : `${String(r.name)}/${metric}`] = v;
    }
  }
  return out;
}

/** Scorers that grade free text with a model (Inspect's model_graded_qa, model_graded_fact, and the like). */
function isModelGraded(log: InspectLog, scorer: string, from: Origin): boolean {
  const names = [scorer, from.scorer, ...resultScores(log).filter((r) => r.name === scorer || r.name === from.scorer).map((r) => String(r.scorer ?? ''))];
  return names.some((n) => /model_graded|llm_judge|llm_grader|judge|grader/i.test(n));
}

/** The model's confidence in its answer: score metadata `confidence`, else exp(logprob) of the answer token. */
function confidenceOf(sample: Obj, score: Obj, answer: string): number {
  const meta = isObject(score.metadata) ? score.metadata : undefined;
  const c = meta?.confidence;
  if (typeof c === 'number' && c >= 0 && c <= 1) return c;
  const output = isObject(sample.output) ? sample.output : undefined;
  const choice = Array.isArray(output?.choices) && isObject(output.choices[0]) ? output.choices[0] : undefined;
  const content = isObject(choice?.logprobs) && Array.isArray(choice.logprobs.content) ? choice.logprobs.content : undefined;
  if (!content || !answer || !Array.isArray(sample.choices)) return NaN;
  // The last generated token that is the answer letter ("ANSWER: C" ends with the token " C").
  for (let i = content.length - 1; i >= 0; i--) {
    const t = content[i];
    if (isObject(t) && typeof t.token === 'string' && t.token.trim() === answer && typeof t.logprob === 'number') return Math.exp(t.logprob);
  }
  return NaN;
}

/** Sample entries of a zip that could not be read (over the inflation limit, damaged), and chunked samples. */
function unreadProblems(log: InspectLog): RowProblem[] {
  const out: RowProblem[] = (log.refused ?? []).slice(0, 20).map((r) => ({
    line: 1, severity: 'error', code: 'unscorable',
    message: `${r.message}: that sample is left out; the others are scored.`,
  }));
  const more = (log.refused?.length ?? 0) - out.length;
  if (more > 0) out.push({ line: 1, severity: 'error', code: 'unscorable', message: `${more} more sample entries could not be read either.` });
  if (log.chunked) {
    out.push({ line: 1, severity: 'warning', code: 'unscorable', message: `${log.chunked} sample(s) are stored in Inspect's chunked layout (samples/<id>_epoch_<n>/…), which Eval Lens does not read yet: they are left out.` });
  }
  return out;
}

function statusProblem(log: InspectLog, n: number): RowProblem | undefined {
  const status = log.header.status;
  if (status === 'success' || status === undefined) return undefined;
  const results = isObject(log.header.results) ? log.header.results : {};
  const planned = typeof results.total_samples === 'number' ? ` of ${results.total_samples} planned` : '';
  // Inspect's error texts may carry Rich's console markup ([bold]ERROR[/bold]: ...): plain words here.
  const error = isObject(log.header.error) && typeof log.header.error.message === 'string' ? ` (${stripRichMarkup(log.header.error.message).split('\n')[0]})` : '';
  return {
    line: 1, severity: 'info', code: 'incomplete-log',
    message: `This Inspect log's status is "${String(status)}"${error}: it is scored on the ${n} sample(s) it holds${planned}.`,
  };
}

/**
 * The samples (x epochs) the log's results are over, when the log holds fewer: its results are of
 * the whole run, this file a part of it (a log cut down to one sample, as every_eval_ever's test
 * data). completed_samples is what Inspect scored (below total_samples on errors or early stopping).
 */
function runSampleCount(log: InspectLog): { count: number; field: string } | undefined {
  const results = isObject(log.header.results) ? log.header.results : {};
  const field = ['completed_samples', 'total_samples'].find((k) => Number.isInteger(results[k]) && (results[k] as number) > 0);
  if (!field) return undefined;
  const count = results[field] as number;
  // Entries that are in the file but could not be read are held, not missing from it.
  const held = log.samples.length + (log.refused?.length ?? 0) + (log.chunked ?? 0);
  return held < count ? { count, field } : undefined;
}

export function parseInspect(input: FileInput, ctx: FormatContext): ParseResult {
  ctx.progress?.check();
  let log: InspectLog;
  try {
    // Each sample is read, cut down to what scoring needs (inspectSlim.ts) and let go before the
    // next; a large .eval on disk is read by range (input.ranges), never held whole.
    log = readInspectLog(input.ranges ?? input.bytes, () => input.text(), inflateLimit(ctx.options.maxFileBytes), { keep: slimForScoring, skip: SCORING_SKIP, progress: ctx.progress });
  } catch (e) {
    const message = `Not a readable Inspect log: ${e instanceof Error ? e.message : String(e)}.`;
    return { format: 'inspect', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  }
  const evalInfo = isObject(log.header.eval) ? log.header.eval : {};
  const task = typeof evalInfo.task === 'string' ? evalInfo.task : undefined;
  const sourceModel = typeof evalInfo.model === 'string' && evalInfo.model ? { sourceModel: evalInfo.model } : {};
  const problems: RowProblem[] = [];
  const status = statusProblem(log, log.samples.length);
  if (status) problems.push(status);
  problems.push(...unreadProblems(log));
  const { byName: scorers, origin } = collectScores(log);
  // The headline: the first figure the results list (a dict scorer's first key), else the first met.
  const primary = [...scorers.keys()][0];
  // Figures whose values leave [0, 1]: their means are named as the figure, never accuracy.
  const notShares = new Set([...scorers].filter(([, list]) => outsideUnitRange(list)).map(([name]) => name));
  const dictKeys = new Set([...origin].filter(([, o]) => o.key !== undefined).map(([name]) => name));
  const reported = reportedFigures(log, primary, notShares, dictKeys);
  if (!primary) {
    const message = !log.samples.length && log.refused?.length
      ? `Not a readable Inspect log: ${log.refused[0].message}.`
      : log.samples.length ? 'The log\'s samples carry no scores.' : 'The log holds no samples (it was written without them, or cancelled before the first one).';
    problems.push({ line: 1, severity: 'error', code: 'unscorable', message });
    return { format: 'inspect', task, set: null, problems, skipped: 0, unlabeled: 0, fatal: message, reported, ...sourceModel };
  }

  // Breakdown: every scorer per epoch (when there are several) and reduced.
  const breakdown: BreakdownRow[] = [];
  const epochs = [...new Set(log.samples.map((s) => Number(s.epoch ?? 1)))].sort((a, b) => a - b);
  let metrics: Partial<Record<MetricName, number | null>> = {};
  let primaryValues: Float64Array | undefined;
  const primaryAsMean = gradedAsMean(log, primary, scorers.get(primary)!);
  const primaryOrigin = origin.get(primary)!;
  const unknownValues = new Set<string>();
  // Each figure's reduced value by sample id, for its task metric (below).
  const reducedById = new Map<string, Map<string, number>>();
  for (const [scorer, entries] of scorers) {
    const asMean = gradedAsMean(log, scorer, entries);
    for (const e of entries) if (!isUnscored(e.value) && !valueToFloat(e.value).known) unknownValues.add(`${scorer}: ${JSON.stringify(e.value)}`);
    if (epochs.length > 1) {
      for (const ep of epochs) {
        const vs = entries.filter((e) => e.epoch === ep && !isUnscored(e.value)).map((e) => valueToFloat(e.value).value);
        breakdown.push({ label: `${scorer} · epoch ${ep}`, n: vs.length, metrics: figures(vs, asMean) });
      }
    }
    const red = reduce(log, scorer, origin.get(scorer)!, entries, input.path);
    reducedById.set(scorer, red.byId);
    problems.push(...red.problems);
    const f = figures(red.values, asMean);
    breakdown.push({ label: `${scorer} · ${red.label}`, n: red.values.length, metrics: f });
    if (scorer === primary) {
      // A graded scorer's mean is a task metric named `mean` (below), not the report's accuracy.
      metrics = primaryAsMean ? { stderr: f.stderr } : { accuracy: f.accuracy, stderr: f.stderr };
      primaryValues = Float64Array.from(red.values);
    }
  }
  if (unknownValues.size) {
    problems.push({ line: 1, severity: 'warning', code: 'not-a-number', message: `Score values Inspect's value_to_float cannot read count as 0, as Inspect counts them: ${[...unknownValues].slice(0, 3).join(', ')}${unknownValues.size > 3 ? ', …' : ''}.` });
  }

  // Instances: the first scorer's scored samples, every epoch.
  const entries = scorers.get(primary)!.filter((e) => !isUnscored(e.value));
  const n = entries.length;
  const classes: string[] = [];
  const classIndex = new Map<string, number>();
  const classOf = (name: string) => {
    let k = classIndex.get(name);
    if (k === undefined) { k = classes.length; classes.push(name); classIndex.set(name, k); }
    return k;
  };
  const gold = new Int32Array(n);
  const pred = new Int32Array(n);
  const confidence = new Float64Array(n);
  const lines = new Uint32Array(n);
  const ids: string[] = [];
  const values: string[][] = [];
  // The answer each sample was scored on (the scorer's extracted answer, else the completion).
  const answers: string[] = [];
  // An agent run (a tool call, or more than one turn): its turns, tool calls, tokens and tools as columns.
  const agentic = isAgentRun(entries.map((e) => log.samples[e.sample][AGENT_KEY] as AgentCounts));
  entries.forEach((e, i) => {
    const s = log.samples[e.sample];
    const output = isObject(s.output) ? s.output : {};
    const target = targetText(s.target).trim();
    const answer = typeof e.score.answer === 'string' ? e.score.answer.trim() : textOf(output.completion).trim();
    const right = valueToFloat(e.value).value === 1;
    answers.push(answer);
    gold[i] = classOf(target);
    // Correctness is the scorer's verdict, not string equality: a wrong answer that reads like the
    // target (or a right one that does not) is named so that gold and prediction say the truth.
    const answerName = answer || '(no answer)';
    pred[i] = right ? gold[i] : classOf(answerName === target ? `${answerName} (scored ${String(e.value)})` : answerName);
    confidence[i] = confidenceOf(s, e.score, answer);
    lines[i] = log.lines[e.sample];
    ids.push(epochs.length > 1 ? `${e.id} (epoch ${e.epoch})` : e.id);
    const choices = Array.isArray(s.choices) ? s.choices.map((c, k) => `${String.fromCharCode(65 + k)}) ${textOf(c)}`).join('\n') : '';
    const scoreText = [...scorers].map(([name, list]) => {
      const mine = list.find((x) => x.sample === e.sample);
      return mine ? `${name}: ${JSON.stringify(mine.value)}` : '';
    }).filter(Boolean).join(', ');
    values.push([clip(textOf(s.input)), clip(choices), clip(targetText(s.target)), clip(textOf(output.completion) || answer), scoreText, clip(typeof e.score.explanation === 'string' ? e.score.explanation : '')]);
    if (agentic) values[i].push(...agentTexts(s[AGENT_KEY] as AgentCounts));
  });
  const set: MulticlassSet = {
    kind: 'multiclass', n, lines, ids, classes, classesKnown: false, gold, pred,
    // Graded values have no right answer for a confidence to be calibrated against.
    confidence: !primaryAsMean && confidence.some((c) => !Number.isNaN(c)) ? confidence : undefined,
    texts: { fields: ['input', 'choices', 'target', 'output', 'scores', 'explanation', ...(agentic ? AGENT_FIELDS : [])], values },
  };
  // Free-text answers (a model-graded scorer, or more distinct targets or answers than half the
  // instances) are no classes: Inspect's graded accuracy stays, macro-F1 and per-class views go.
  const distinctTargets = new Set(entries.map((_, i) => gold[i])).size;
  // The answers the scorer compared (A, D, A), not the completions around them ("… so the answer is A").
  const distinctAnswers = new Set(answers).size;
  const modelGraded = isModelGraded(log, primary, primaryOrigin);
  // No sample has a target (ControlArena's tasks are judged by their scorers alone): the answers
  // are matched against nothing, so there are no classes for a macro-F1, only the scorer's verdicts.
  const noTargets = n > 0 && entries.every((_, i) => classes[gold[i]] === '');
  // On a handful of samples, distinct counts say little: there the texts must also read as prose.
  const prose = (t: string) => t.length > 40 || t.trim().split(/\s+/).length >= 4;
  const manyDistinct = distinctTargets > n / 2 || distinctAnswers > n / 2;
  const freeText = modelGraded || (manyDistinct && (n >= 10 || classes.some(prose) || answers.some(prose)));
  // A graded figure's mean: named `mean` (Inspect's mean() metric) when its values are shares in
  // [0, 1]; named as the figure itself (max_sus_scorer, main_task_success) when they leave [0, 1]
  // or it is a key of a dict scorer, so that it reads as what it is.
  const gradedName = notShares.has(primary) || primaryOrigin.key !== undefined ? primary : 'mean';
  if (n > 0 && primaryAsMean) {
    // No accuracy over graded values: the set's right-or-wrong (a value of 1) is not the scorer's figure.
    const example = String(entries.find((e) => isGraded([e]))!.value);
    set.freeText = { reason: `The scorer ${primary} gives graded values (${example}), not right or wrong`, keepAccuracy: false };
    const shownAs = notShares.has(primary) ? `${gradedName}, not as an accuracy (its values leave [0, 1])` : `${gradedName === 'mean' ? 'Inspect\'s mean' : gradedName}, not as an accuracy`;
    problems.push({ line: 1, severity: 'info', code: 'undefined-metric', message: `${set.freeText.reason}: their mean is shown as ${shownAs}; no macro-F1, per-class view or calibration is computed.` });
  } else if (n > 0 && noTargets) {
    set.freeText = { reason: `The samples have no targets (every target is empty), so their answers are no classes`, keepAccuracy: true };
    problems.push({ line: 1, severity: 'info', code: 'undefined-metric', message: `${set.freeText.reason}: the accuracy is the scorer's verdict; no macro-F1 or per-class view is computed.` });
  } else if (n > 0 && freeText) {
    set.freeText = {
      reason: modelGraded
        ? `The scorer ${primary} grades free-text answers with a model`
        : `The answers are free text, not labels (${distinctTargets} distinct targets and ${distinctAnswers} distinct answers in ${n} samples)`,
      keepAccuracy: true,
    };
    problems.push({ line: 1, severity: 'info', code: 'undefined-metric', message: `${set.freeText.reason}: the accuracy is the scorer's grade; no macro-F1 or per-class view is computed over the answers.` });
  }
  const skipped = scorers.get(primary)!.length - n;
  if (skipped) problems.push({ line: 1, severity: 'info', code: 'missing-field', message: `${skipped} sample(s) are unscored by ${primary} (NaN, Inspect's "unscored"): left out, as Inspect leaves them out.` });
  // Epochs: said beside n (n counts sample x epoch), with the reducer that made the accuracy.
  const sampleCount = new Set(log.samples.map((x) => String(x.id))).size;
  const epochInfo = epochs.length > 1 ? { epochs: { count: epochs.length, reducer: reducerName(log, primaryOrigin), samples: sampleCount } } : {};
  const metricValues = !primaryAsMean && primaryValues && primaryValues.length ? { metricValues: { accuracy: primaryValues } } : {};
  // Task metrics, one value per instance (slices and filters index them so): the instance's sample's
  // reduced value, which each epoch of a sample carries; over samples of equal epochs their mean is
  // Inspect's (the mean of the reduced values).
  const perInstance = (name: string) => {
    const byId = reducedById.get(name) ?? new Map<string, number>();
    return Float64Array.from(entries, (e) => byId.get(e.id) ?? NaN);
  };
  // The log's own figure for a figure's mean, under the names reportedFigures gives it.
  const single = resultScores(log).length === 1;
  const reportedMean = (name: string, shownAs: string) => {
    const prefix = name === primary || single ? '' : `${name}/`;
    const v = [reported[shownAs], reported[`${prefix}mean`], reported[`${prefix}accuracy`]].find((x) => x !== undefined);
    return v !== undefined ? { reported: v } : {};
  };
  const taskMetrics: NonNullable<ParseResult['taskMetrics']> = [];
  // A graded scorer's mean, under its name (gradedName), beside the log's own figure for it.
  if (primaryAsMean && primaryValues) {
    const own = gradedName === 'mean' ? (reported.mean !== undefined ? { reported: reported.mean } : {}) : reportedMean(primary, gradedName);
    taskMetrics.push({ name: gradedName, values: perInstance(primary), ...own });
  }
  // A dict scorer's keys: one figure each, the mean of the key's values, beside the log's figure.
  for (const name of scorers.keys()) {
    if (origin.get(name)!.key === undefined || (name === primary && primaryAsMean)) continue;
    taskMetrics.push({ name, values: perInstance(name), ...reportedMean(name, name) });
  }
  const gradedMean = taskMetrics.length ? { taskMetrics } : {};
  // Figures over more samples than the file holds are shown with their count, not compared (reportedOn.ts).
  const run = Object.keys(reported).length ? runSampleCount(log) : undefined;
  if (run) {
    const all = run.count.toLocaleString('en-US');
    problems.push({
      line: 1, severity: 'info', code: 'reported-subset',
      message: `This log holds ${log.samples.length.toLocaleString('en-US')} of the ${all} samples its run scored (results.${run.field}): the figures in its results are over all ${all}, so they are shown beside the figures recomputed here, not compared with them.`,
    });
  }
  const subset = run ? { reportedOn: run.count } : {};
  return { format: 'inspect', task, set, problems, skipped, unlabeled: 0, reported, metrics, ...metricValues, breakdown, ...epochInfo, ...sourceModel, ...subset, ...gradedMean };
}
