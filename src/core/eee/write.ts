// One scored file (a Report with its per-instance columns, and the ParseResult it was built from) as
// one Every Eval Ever evaluation: an aggregate (eval.schema.json 0.3.0) with one result, and one
// instance record (instance_level_eval.schema.json 0.3.0) per scored row; a file of per-sample task
// metrics without a gold (lighteval's trad_score, idk_score, extract_fail) has one result per metric
// and one record per row and metric. Pure: the caller names the
// uuid and the time, and writes the two texts where the schema's layout puts them (convert.ts).
//
// What each record says is Eval Lens's own reading of the row: is_correct is the row's `correct`
// (binary: score >= threshold against the label; multiclass: pred == gold; confidence: its correct
// flag), evaluation.score is 1/0, or the source's own per-sample score when it logged one. What the
// source does not say is "unknown", or an empty string or list, never a guess. What the schema has
// no field for (a risk score, choice probabilities, a probability pair, per-sample metrics, the
// report's AUC, Brier and ECE) goes into the string maps under eval_lens.* (keys.ts), so that reading
// the files back gives the same set.
import { createHash } from 'node:crypto';
import type { FormatName, MetricName, ParseResult, PredictionSet, Report } from '../types';
import { betterDirection } from '../../common/metricDirection';
import { baseName } from '../../common/paths';
import { EEE_SCHEMA_VERSION, EVAL_LENS_PREFIX, METRIC_PREFIX, SAMPLE_META, TEXT_PREFIX } from './keys';
import { modelParts, portableName, pythonJsonDumps } from './names';
import { headlineOrder, taskMetricDirection, type DeclaredMetrics } from './taskMetrics';

type Json = Record<string, unknown>;

/** The evaluation library behind each format, as EEE names libraries; 'unknown' where the file names none. */
const LIBRARY: Partial<Record<FormatName, string>> = {
  folktexts: 'folktexts', 'lm-eval': 'lm_eval', inspect: 'inspect_ai', helm: 'helm', lighteval: 'lighteval',
  promptfoo: 'promptfoo', opencompass: 'opencompass', alpacaeval: 'alpaca_eval', 'mt-bench': 'fastchat', 'arena-hard': 'arena-hard-auto',
};

/** Text fields that are the sample's input, and those that are the model's output, in order of preference. */
const INPUT_FIELDS = ['input', 'prompt', 'question', 'user_prompt', 'instruction', 'query', 'text'];
const OUTPUT_FIELDS = ['output', 'response', 'completion', 'reasoning'];

export interface EeeWriteOptions {
  /** The evaluation's uuid4 (names both files). */
  uuid: string;
  /** When the record was made, Unix seconds (retrieved_timestamp). */
  retrieved: number;
  /** The converter's name and version, for the aggregate's eval_library.additional_details. */
  generator: string;
  /** What the source's results file declares about the task's metrics (order, direction), when it does. */
  declared?: DeclaredMetrics;
}

export interface EeeEvaluation {
  /** data/<benchmark>/<developer>/<model>/ (relative, with / separators). */
  folder: string;
  aggregateName: string;
  samplesName: string;
  aggregate: Json;
  /** The JSON Lines text of the instance records, one a line, ending in a newline. */
  samples: string;
  /** Lines of `samples`: one per sample and result it has a value for. */
  rows: number;
  /** The metric id of each result of the aggregate, the headline first. */
  results: string[];
  /** The task's metrics that have no result, each with why (a mean that is not a finite number). */
  leftOut: { metric: string; reason: string }[];
}

/** Why a report cannot be written, or null when it can. */
export function notConvertible(r: Report): string | null {
  if (r.fatal) return r.fatal;
  if (r.n === 0) return Object.keys(r.reported).length ? 'it holds reported figures only, no samples to write' : 'no row was scored';
  if (!r.instances) return 'the report has no per-instance columns (score it with instances)';
  return null;
}

const num = (x: number) => String(x);

/** The headline figure the evaluation's one result carries, and how to read it. */
function headline(r: Report, parsed: ParseResult, declared?: DeclaredMetrics): { metric: string; score: number; lower: boolean; min: number | string; max: number | string; kind: string; unit: string } | null {
  if (typeof r.metrics.accuracy === 'number') return { metric: 'accuracy', score: r.metrics.accuracy, lower: false, min: 0, max: 1, kind: 'accuracy', unit: 'proportion' };
  if (r.kind === 'probability' && typeof r.metrics.mse === 'number') return { metric: 'mse', score: r.metrics.mse, lower: true, min: 0, max: 1, kind: 'mse', unit: 'squared probability' };
  // A task metric with no finite mean (an MAE over infinite errors) has no score the schema can hold.
  const first = r.taskMetrics?.find((t) => typeof t.mean === 'number' && Number.isFinite(t.mean));
  if (first) return { metric: first.name, score: first.mean!, lower: taskMetricDirection(first.name, declared).better === 'lower', min: '-Infinity', max: 'Infinity', kind: first.name, unit: 'unknown' };
  // A judge file's headline (judge_score, win_rate, rating), its direction from the one table of them.
  // Not a standard error: that is a figure about another figure, never a headline.
  const own = Object.entries(r.metrics).find(([m, v]) => m !== 'stderr' && typeof v === 'number' && Number.isFinite(v));
  if (own) {
    let lower = false;
    try { lower = betterDirection(own[0] as MetricName) === 'lower'; } catch { /* a rate name: higher */ }
    return { metric: own[0], score: own[1] as number, lower, min: '-Infinity', max: 'Infinity', kind: own[0], unit: 'unknown' };
  }
  // Several models judged in one file (the report's figures are per model): the mean of the rows' own numbers.
  const set = parsed.set;
  if (set && set.n) {
    const rows = Array.from({ length: set.n }, (_, i) => judgeRow(set, i)).filter((x) => x && Number.isFinite(x.value));
    if (rows.length) {
      const name = rows[0]!.name;
      return { metric: name, score: rows.reduce((s, x) => s + x!.value, 0) / rows.length, lower: false, min: '-Infinity', max: 'Infinity', kind: name, unit: 'unknown' };
    }
  }
  return null;
}

/** How a judge file's figure's standard error and interval are made (docs/metrics.md, "Judges"). */
const JUDGE_METHODS: Record<string, (j: NonNullable<Report['judge']>) => { se: string; interval: string }> = {
  judge_score: () => ({ se: 'analytic, clustered by question', interval: 't: mean ± t(questions - 1) · standard error clustered by question' }),
  win_rate: (j) => ({
    se: j.win_rate_rule === 'arena-hard' ? 'analytic, clustered by question' : 'analytic: 100 · sd(preference - 1) / sqrt(n), as AlpacaEval\'s standard_error',
    interval: 'normal: win_rate ± 1.96 · standard error',
  }),
  position_bias: () => ({ se: 'analytic', interval: 'wilson' }),
  length_bias: () => ({ se: 'analytic', interval: 'fisher z' }),
  kappa: () => ({ se: 'analytic: large-sample (Fleiss, Cohen and Everitt 1969)', interval: 'normal: kappa ± 1.96 · standard error' }),
};

/** FastChat's MT-Bench judge prompts (judge_prompts.jsonl), as judgeName writes them after the judge model. */
const MT_BENCH_PROMPT = /(^|\/)(single|pair)(-math)?-v\d+(-multi-turn)?$/;

/**
 * The benchmark (the datastore's folder and the dataset's name) and the evaluation's name. A task
 * names both. A judge file names no task, but says what it is: FastChat's layout puts judgments in
 * data/<bench>/model_judgment/ (Arena-Hard-Auto's too), MT-Bench's judge prompts name it, and an
 * AlpacaEval file is AlpacaEval's, its evaluation the annotator config (the records' `annotator`, or
 * the folder of results/<model>/<annotator>/annotations.json). Else the
 * benchmark is "unknown" and the evaluation is named after the file.
 */
export function benchmarkOf(r: Pick<Report, 'task' | 'format' | 'path'>, set: PredictionSet | null): { benchmark: string; evaluationName: string } {
  if (r.task) return { benchmark: r.task, evaluationName: r.task };
  const path = r.path.split('\\').join('/');
  const judge = set?.kind === 'scores' ? set.judge : undefined;
  if (r.format === 'mt-bench' || r.format === 'arena-hard') {
    const laid = /(?:^|\/)data\/([^/]+)\/model_judgment\//.exec(path);
    const bench = laid?.[1] ?? (r.format === 'mt-bench' && judge?.judges.length && judge.judges.every((j) => MT_BENCH_PROMPT.test(j)) ? 'mt_bench' : r.format === 'arena-hard' ? 'arena-hard' : undefined);
    if (bench) return { benchmark: bench, evaluationName: bench };
  }
  if (r.format === 'alpacaeval') {
    const parts = path.split('/');
    const file = parts[parts.length - 1];
    // Not from other file names: <model>.<annotator>.json cannot be split where models have dots (gpt-3.5-turbo).
    const annotator = judge?.judges.length === 1 ? judge.judges[0]
      : /^annotations\.jsonl?$/i.test(file) && parts.length > 2 ? parts[parts.length - 2] : undefined;
    return { benchmark: 'alpaca_eval', evaluationName: annotator ?? 'alpaca_eval' };
  }
  return { benchmark: 'unknown', evaluationName: baseName(r.path) };
}

/** A judge file's per-row number (a grade, a preference, a pair's outcome) and the row's model, by its own name. */
function judgeRow(set: PredictionSet, i: number): { name: string; value: number; model?: string } | undefined {
  const j = set.kind === 'scores' ? set.judge : undefined;
  if (!j) return undefined;
  if (j.kind === 'judged') return { name: 'judge_score', value: j.score[i], model: j.models[j.model[i]] };
  if (j.kind === 'preference') return { name: 'preference', value: j.preference[i], model: j.models[j.model[i]] };
  return { name: 'outcome', value: j.outcome[i], model: `${j.models[j.a[i]]} vs ${j.models[j.b[i]]}` };
}

/** The source's texts of row i, as EEE's input.raw, output.raw, choices, and the rest for metadata. */
function rowTexts(texts: Report['texts'], i: number): { input: string; output: string[]; choices?: string[]; rest: Record<string, string> } {
  const out = { input: '', output: [] as string[], rest: {} as Record<string, string> } as { input: string; output: string[]; choices?: string[]; rest: Record<string, string> };
  if (!texts) return out;
  const fields = texts.fields;
  const values = texts.values[i] ?? [];
  const at = (names: string[]) => names.map((n) => fields.indexOf(n)).find((k) => k >= 0 && (values[k] ?? '') !== '');
  const inputAt = at(INPUT_FIELDS);
  const outputAt = at(OUTPUT_FIELDS);
  const choicesAt = fields.indexOf('choices');
  if (inputAt !== undefined) out.input = values[inputAt];
  if (outputAt !== undefined) out.output = [values[outputAt]];
  fields.forEach((f, k) => {
    const v = values[k] ?? '';
    if (k === inputAt || k === outputAt || v === '') return;
    if (k === choicesAt) {
      // lm-eval writes one "j: text" line per choice: the list back, when every line reads so.
      const lines = v.split('\n');
      if (lines.every((l, j) => l.startsWith(`${j}: `))) { out.choices = lines.map((l, j) => l.slice(`${j}: `.length)); return; }
    }
    out.rest[f] = v;
  });
  // RAFT's data columns (Title, Abstract, …) are the input itself when no field is named as one.
  if (inputAt === undefined && Object.keys(out.rest).length) {
    out.input = Object.entries(out.rest).map(([f, v]) => `${f}: ${v}`).join('\n');
    out.rest = {};
  }
  return out;
}

/** Sample IDs as the report names the rows; a repeated ID becomes numbered attempts (metadata.epoch). */
function sampleIds(r: Report, parsed: ParseResult): { ids: string[]; attempt: (number | undefined)[] } {
  const n = r.n;
  const set = parsed.set;
  const lines = r.instances!.lines;
  const linesUnique = new Set(lines).size === n;
  const ids = Array.from({ length: n }, (_, i) => r.instances!.ids?.[i] ?? (set?.idNumbers ? num(set.idNumbers[i]) : linesUnique ? `line ${lines[i]}` : `row ${i + 1}`));
  const count = new Map<string, number>();
  for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  const seen = new Map<string, number>();
  const attempt = ids.map((id) => {
    if (count.get(id)! < 2) return undefined;
    const k = (seen.get(id) ?? 0) + 1;
    seen.set(id, k);
    return k;
  });
  return { ids, attempt };
}

export function writeEvaluation(r: Report, parsed: ParseResult, o: EeeWriteOptions): EeeEvaluation {
  const why = notConvertible(r);
  if (why) throw new Error(`${r.path}: ${why}`);
  const inst = r.instances!;
  const set = parsed.set!;
  const n = r.n;
  // A table of several models' columns names the one scored (Prob_SVM -> SVM) even where it names no source model.
  const model = r.sourceModel ?? (r.models && r.models.length > 1 ? r.model : undefined) ?? 'unknown';
  const { developer, name: modelDir } = model === 'unknown' ? { developer: 'unknown', name: 'unknown' } : modelParts(model);
  const { benchmark, evaluationName } = benchmarkOf(r, set);
  const head = headline(r, parsed, o.declared);
  const unwritable = nonFiniteMetrics(r, parsed);
  if (!head) {
    const why = unwritable.length ? `no figure the schema can hold: ${unwritable.map((u) => u.reason).join('; ')}` : 'the report has no figure to carry (no accuracy, MSE or per-sample metric)';
    throw new Error(`${r.path}: ${why}`);
  }
  // Per-sample metrics with no gold to decide right from wrong (lighteval's trad_score, idk_score,
  // extract_fail): each is a figure of its own, so each is its own result (the schema's
  // evaluation_results is a list), the headline first, and every sample is written once per result
  // it has a value for (instance_level_eval.schema.json: "emit multiple instance records with
  // different evaluation_result_id values").
  // The same for any file whose figures are its task's metrics (no accuracy, no probability MSE: an
  // lm-eval generation task's mae, its answers free text).
  const taskFigures = typeof r.metrics.accuracy !== 'number' && !(set.kind === 'scores' && set.judge) && !(r.kind === 'probability' && typeof r.metrics.mse === 'number');
  const perMetric = taskFigures ? metricResults(r, parsed, o.declared) : undefined;
  // Those results leave out a metric whose mean is not a finite number: the schema's score is a JSON
  // number, and Infinity or NaN is none. Said in the file (source_metadata) and to the caller.
  const leftOut = perMetric ? unwritable : [];
  // Inspect's accuracy is the mean of its scorer's values (P counts 0.5), not always a share of is_correct.
  const accuracyValues = head.metric === 'accuracy' ? parsed.metricValues?.accuracy : undefined;
  const partialCredit = !!accuracyValues && accuracyValues.some((v) => v !== 0 && v !== 1);
  const metric = perMetric ? perMetric[0].name : head.metric;
  const resultId = `${evaluationName}/${metric}`;
  const folder = `data/${portableName(benchmark)}/${developer}/${modelDir}`;
  const threshold = r.options.threshold;
  const classes = r.classes ?? (set.kind === 'multiclass' ? set.classes : undefined);
  const { ids, attempt } = sampleIds(r, parsed);
  const taskValues = parsed.taskMetrics ?? [];
  const ownScore = taskValues.find((t) => t.name === 'score');
  const positional = !!classes && classes.every((c, j) => c === String(j));
  const mc = set.kind === 'multiclass' ? set : undefined;
  const k = classes?.length ?? 0;

  const records: Json[] = [];
  const recordsOf = new Map<string, Json[]>();
  const digest = createHash('sha256');
  for (let i = 0; i < n; i++) {
    const meta: Record<string, string> = { [SAMPLE_META.kind]: r.kind, [SAMPLE_META.sourceLine]: num(inst.lines[i]) };
    if (attempt[i] !== undefined) meta.epoch = num(attempt[i]!);
    const texts = rowTexts(r.texts, i);
    for (const [f, v] of Object.entries(texts.rest)) meta[`${TEXT_PREFIX}${f}`] = v;
    // One result per metric: each record carries its own metric only (read back, a result's task
    // metrics are its own, not the other results').
    if (!perMetric) for (const t of taskValues) if (!Number.isNaN(t.values[i])) meta[`${METRIC_PREFIX}${t.name}`] = num(t.values[i]);
    const judged = judgeRow(set, i);
    if (judged && Number.isFinite(judged.value)) meta[`${METRIC_PREFIX}${judged.name}`] = num(judged.value);
    if (judged?.model !== undefined) meta[`${EVAL_LENS_PREFIX}row_model`] = judged.model;
    let correct = inst.correct[i] === 1;
    let score = correct ? 1 : 0;
    let reference: string[] = [];
    let choices: string[] | undefined;
    const attribution: Json[] = [];
    const answer = (value: string, method: string) => attribution.push({ turn_idx: 0, source: texts.output.length ? 'output.raw' : 'eval_lens', extracted_value: value, extraction_method: method, is_terminal: true });
    if (set.kind === 'binary') {
      const s = set.score[i];
      const y = set.label[i];
      reference = [num(y)];
      // The file's own prediction column decides when it has one (BinarySet.pred), else the threshold.
      if (set.pred) answer(num(set.pred[i]), 'the prediction column');
      else answer(s >= threshold ? '1' : '0', `risk score >= ${num(threshold)}`);
      Object.assign(meta, { [SAMPLE_META.riskScore]: num(s), [SAMPLE_META.label]: num(y), [SAMPLE_META.threshold]: num(threshold) });
      if (set.pred) meta[SAMPLE_META.pred] = num(set.pred[i]);
    } else if (set.kind === 'confidence') {
      meta[SAMPLE_META.confidence] = num(set.confidence[i]);
    } else if (mc && classes) {
      const g = mc.gold[i];
      const p = mc.pred[i];
      // The choices: the task's classes, or (classes that are positions) the row's own choice texts,
      // which then name the gold and the answer too.
      const own = positional && texts.choices?.length === k ? texts.choices : undefined;
      if (mc.classesKnown || mc.probs) choices = own ?? classes;
      const nameOf = (j: number) => (j < 0 ? '' : own ? own[j] : classes[j]);
      reference = g >= 0 ? [nameOf(g)] : [];
      answer(nameOf(p), mc.probs ? 'argmax of the choice probabilities' : 'the answer as the source gives it');
      if (choices) {
        meta[SAMPLE_META.goldIndex] = num(g);
        meta[SAMPLE_META.predIndex] = num(p);
        if (mc.probs) meta[SAMPLE_META.choiceProbs] = JSON.stringify(Array.from(mc.probs.subarray(i * k, i * k + k)));
      }
      if (mc.declaredClasses !== undefined && !own) meta[SAMPLE_META.declaredClasses] = JSON.stringify(classes.slice(0, mc.declaredClasses));
      if (mc.confidence && !mc.probs && !Number.isNaN(mc.confidence[i])) meta[SAMPLE_META.confidence] = num(mc.confidence[i]);
      if (mc.freeText) Object.assign(meta, { [SAMPLE_META.freeText]: mc.freeText.reason, [SAMPLE_META.freeTextAccuracy]: mc.freeText.keepAccuracy ? 'kept' : 'dropped' });
    } else if (set.kind === 'probability') {
      const pred = set.predProb[i];
      const gold = set.goldProb[i];
      reference = [num(gold)];
      answer(num(pred), 'predicted probability');
      // No sample is right or wrong here: Eval Lens counts each as correct, and the score is its share of the MSE.
      correct = true;
      score = (pred - gold) ** 2;
      Object.assign(meta, { [SAMPLE_META.predProb]: num(pred), [SAMPLE_META.goldProb]: num(gold) });
    } else if (set.kind === 'scores') {
      // No gold: no sample is right. The score is the row's own number (a metric, a judge's grade).
      const first = taskValues.find((t) => !Number.isNaN(t.values[i]));
      correct = false;
      score = first ? first.values[i] : judged && Number.isFinite(judged.value) ? judged.value : 0;
    }
    // The sample's share of the accuracy (a P grade is 0.5), where each sample has one value (no epochs).
    if (partialCredit && accuracyValues!.length === n && Number.isFinite(accuracyValues![i])) score = accuracyValues![i];
    if (ownScore && Number.isFinite(ownScore.values[i])) score = ownScore.values[i];
    const input: Json = { raw: texts.input, reference };
    if (choices) input.choices = choices;
    const record = (id: string, value: number, metadata: Record<string, string> = meta) => ({
      schema_version: EEE_SCHEMA_VERSION,
      evaluation_id: '', // set below, once every verdict is known
      model_id: model,
      evaluation_name: evaluationName,
      evaluation_result_id: id,
      sample_id: ids[i],
      ...(texts.input ? { sample_hash: createHash('sha256').update(pythonJsonDumps({ raw: texts.input, reference })).digest('hex') } : {}),
      interaction_type: 'single_turn',
      input,
      output: { raw: texts.output },
      answer_attribution: attribution,
      evaluation: { score: Number.isFinite(value) ? value : 0, is_correct: correct },
      metadata,
    });
    if (perMetric) {
      for (const m of perMetric) {
        const v = m.values[i];
        // A sample that did not log this metric has no record under its result.
        if (Number.isNaN(v)) continue;
        (recordsOf.get(m.name) ?? recordsOf.set(m.name, []).get(m.name)!).push(record(`${evaluationName}/${m.name}`, v, { ...meta, [`${METRIC_PREFIX}${m.name}`]: num(v) }));
        digest.update(`${ids[i]}\u0000${m.name}\u0000${v}\n`);
      }
      continue;
    }
    records.push(record(resultId, score));
    digest.update(`${ids[i]}\u0000${correct ? 1 : 0}\u0000${score}\n`);
  }
  // Grouped by result, the headline's first, so each result's samples are one run of lines.
  if (perMetric) for (const m of perMetric) records.push(...(recordsOf.get(m.name) ?? []));
  // A stable id (the same file converts to the same id): the source, what was scored, and every verdict.
  const evaluationId = `${portableName(evaluationName)}/${developer}_${modelDir}/${digest.update(`${r.format}\u0000${baseName(r.path)}\u0000${r.task ?? ''}\u0000${model}`).digest('hex').slice(0, 16)}`;
  const samples = records.map((rec) => JSON.stringify({ ...rec, evaluation_id: evaluationId })).join('\n') + '\n';
  const samplesName = `${o.uuid}_samples.jsonl`;

  const details: Record<string, string> = {};
  for (const [m, v] of Object.entries(r.metrics)) if (typeof v === 'number' && Number.isFinite(v)) details[`${EVAL_LENS_PREFIX}${m}`] = num(v);
  for (const t of r.taskMetrics ?? []) if (typeof t.mean === 'number') details[`${METRIC_PREFIX}${t.name}`] = num(t.mean);
  details[`${EVAL_LENS_PREFIX}options.threshold`] = num(threshold);
  details[`${EVAL_LENS_PREFIX}options.bins`] = num(r.options.bins);
  const se = r.standard_errors?.[metric];
  // A judge file's figures have their own intervals, not the bootstrap's (judgeReport.ts attachJudge).
  const judgeMethod = r.judge ? JUDGE_METHODS[metric]?.(r.judge) : undefined;
  const interval = r.intervals[metric as keyof Report['intervals']];
  const uncertainty: Json = {
    num_samples: n,
    ...(typeof se === 'number' && Number.isFinite(se) ? { standard_error: { value: se, method: judgeMethod?.se ?? 'analytic' } } : {}),
    ...(interval ? { confidence_interval: { lower: interval[0], upper: interval[1], confidence_level: 0.95, method: judgeMethod?.interval ?? r.interval_method ?? 'bootstrap' } } : {}),
  };
  const aggregate: Json = {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: evaluationId,
    retrieved_timestamp: num(o.retrieved),
    source_metadata: {
      source_name: 'Eval Lens',
      source_type: 'evaluation_run',
      source_organization_name: 'unknown',
      evaluator_relationship: 'other',
      additional_details: {
        [`${EVAL_LENS_PREFIX}source_file`]: baseName(r.path), [`${EVAL_LENS_PREFIX}format`]: r.format, [`${EVAL_LENS_PREFIX}kind`]: r.kind,
        ...Object.fromEntries(leftOut.map((u) => [`${EVAL_LENS_PREFIX}left_out.${u.metric}`, u.reason])),
      },
    },
    eval_library: { name: LIBRARY[r.format] ?? 'unknown', version: 'unknown', additional_details: { converted_by: o.generator } },
    model_info: {
      name: model,
      id: model,
      developer,
      additional_details: { deployment_type: 'unknown', model_availability: 'unknown' },
    },
    evaluation_results: perMetric ? perMetric.map((m) => metricResult(m)) : [{
      evaluation_result_id: resultId,
      evaluation_name: evaluationName,
      source_data: { dataset_name: benchmark, source_type: 'other', additional_details: { [`${EVAL_LENS_PREFIX}source_file`]: baseName(r.path) } },
      metric_config: {
        metric_id: metric,
        metric_name: metric,
        metric_kind: head.kind,
        metric_unit: head.unit,
        lower_is_better: head.lower,
        score_type: 'continuous',
        min_score: head.min,
        max_score: head.max,
        additional_details: { [`${EVAL_LENS_PREFIX}definition`]: definitionOf(metric, partialCredit) },
      },
      score_details: { score: head.score, details, uncertainty },
    }],
    detailed_evaluation_results: {
      format: 'jsonl',
      file_path: `${folder}/${samplesName}`,
      hash_algorithm: 'sha256',
      checksum: createHash('sha256').update(samples, 'utf8').digest('hex'),
      total_rows: records.length,
    },
  };
  // The last check before anything is written: a score outside the bounds its result claims is not
  // the figure it is named (an "accuracy" of 2), and EEE's gate rejects it.
  for (const res of aggregate.evaluation_results as Json[]) {
    const why = outOfBounds(res);
    if (why) throw new Error(`${r.path}: ${why}`);
  }
  return { folder, aggregateName: `${o.uuid}.json`, samplesName, aggregate, samples, rows: records.length, results: perMetric ? perMetric.map((m) => m.name) : [metric], leftOut };

  /** One per-sample metric's result: its mean, its direction (and how it was decided), its own n and error. */
  function metricResult(m: MetricPlan): Json {
    const mse = r.standard_errors?.[m.name];
    return {
      evaluation_result_id: `${evaluationName}/${m.name}`,
      evaluation_name: evaluationName,
      source_data: { dataset_name: benchmark, source_type: 'other', additional_details: { [`${EVAL_LENS_PREFIX}source_file`]: baseName(r.path) } },
      metric_config: {
        metric_id: m.name,
        metric_name: m.name,
        metric_kind: m.name,
        metric_unit: 'unknown',
        // The schema requires the boolean; where the direction is unknown, false is only a placeholder
        // and additional_details says so, rather than claiming "higher is better".
        lower_is_better: m.better === 'lower',
        score_type: 'continuous',
        min_score: '-Infinity',
        max_score: 'Infinity',
        additional_details: {
          [`${EVAL_LENS_PREFIX}definition`]: `the mean over the samples of the task's own per-sample ${m.name}, as the source logged it`,
          [`${EVAL_LENS_PREFIX}direction`]: m.better ? `${m.better} is better: ${m.how}` : `${m.how}; lower_is_better false is a placeholder the schema requires, not a claim`,
        },
      },
      score_details: {
        score: m.mean,
        details: { ...details, ...(m.reported !== undefined && m.reported !== null ? { [`${EVAL_LENS_PREFIX}reported`]: num(m.reported) } : {}) },
        uncertainty: {
          num_samples: m.n,
          ...(typeof mse === 'number' && Number.isFinite(mse) ? { standard_error: { value: mse, method: 'analytic' } } : {}),
          ...(m.interval ? { confidence_interval: { lower: m.interval[0], upper: m.interval[1], confidence_level: 0.95, method: 'bootstrap' } } : {}),
        },
      },
    };
  }
}

/** What the accuracy result's figure is, as it was computed. */
function definitionOf(metric: string, partialCredit: boolean): string {
  if (metric !== 'accuracy') return `Eval Lens docs/metrics.md#${metric}`;
  return partialCredit
    ? 'the mean over the samples of the scorer\'s per-sample value (Inspect\'s value_to_float: C = 1, P = 0.5, I = 0), each sample\'s evaluation.score; evaluation.is_correct is a value of 1 (Eval Lens docs/metrics.md#accuracy)'
    : 'the share of samples whose evaluation.is_correct is true (Eval Lens docs/metrics.md#accuracy)';
}

/** Why a result cannot be written as it stands: a score that is no finite number, or one outside the bounds it claims; null when it can. */
export function outOfBounds(result: Record<string, unknown>): string | null {
  const config = result.metric_config as Json;
  const score = (result.score_details as Json).score;
  const metric = String(config.metric_id);
  if (typeof score !== 'number' || !Number.isFinite(score)) return `${metric} is ${String(score)}, not a finite number; the schema's score is one`;
  const bound = (b: unknown, unbounded: number) => (typeof b === 'number' ? b : b === 'Infinity' ? Infinity : b === '-Infinity' ? -Infinity : unbounded);
  const min = bound(config.min_score, -Infinity);
  const max = bound(config.max_score, Infinity);
  if (score >= min && score <= max) return null;
  return `${metric} ${num(score)} lies outside [${num(min)}, ${num(max)}], the range ${metric === 'accuracy' ? 'of a share of samples' : `a ${String(config.metric_kind)} has`}: the source's per-sample values are not what the name says (a scorer's values outside 0-1 are no right-or-wrong), so it is not written as ${metric}`;
}

/** The task's per-sample metrics whose mean is not a finite number (an MAE where some error is infinite), each with why it has no result. */
function nonFiniteMetrics(r: Report, parsed: ParseResult): { metric: string; reason: string }[] {
  const values = new Map((parsed.taskMetrics ?? []).map((t) => [t.name, t.values]));
  return (r.taskMetrics ?? []).filter((t) => typeof t.mean === 'number' && !Number.isFinite(t.mean)).map((t) => {
    const v = values.get(t.name);
    const infinite = v ? v.reduce((k, x) => k + (x === Infinity || x === -Infinity ? 1 : 0), 0) : 0;
    const of = infinite ? ` (${infinite} of ${t.n} samples' ${t.name} are infinite)` : '';
    return { metric: t.name, reason: `${t.name}'s mean is ${num(t.mean!)}${of}, and the schema's score must be a finite number` };
  });
}

interface MetricPlan {
  name: string;
  values: Float64Array;
  mean: number;
  n: number;
  interval?: [number, number];
  reported?: number | null;
  better?: 'higher' | 'lower';
  how: string;
}

/** The report's per-sample metrics with a mean, headline first (taskMetrics.ts), with their values; undefined when there is none. */
function metricResults(r: Report, parsed: ParseResult, declared: DeclaredMetrics | undefined): MetricPlan[] | undefined {
  const values = new Map((parsed.taskMetrics ?? []).map((t) => [t.name, t.values]));
  const have = (r.taskMetrics ?? []).filter((t) => typeof t.mean === 'number' && Number.isFinite(t.mean) && values.has(t.name));
  if (!have.length) return undefined;
  const byName = new Map(have.map((t) => [t.name, t]));
  return headlineOrder(have.map((t) => t.name), declared).map((name) => {
    const t = byName.get(name)!;
    const d = taskMetricDirection(name, declared);
    return {
      name, values: values.get(name)!, mean: t.mean!, n: t.n,
      ...(t.interval ? { interval: t.interval } : {}), ...(t.reported !== undefined ? { reported: t.reported } : {}),
      ...(d.better ? { better: d.better } : {}), how: d.how,
    };
  });
}
