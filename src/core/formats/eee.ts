// Every Eval Ever (EEE, evaleval/every_eval_ever, schemas 0.3.0 and the 0.2.x files before them),
// detected by content: an instance file (`<uuid>_samples.jsonl`, one record a line) is scored; an
// aggregate (`<uuid>.json`) alone is a summary of the figures it reports.
//
// Instance files: each record becomes a SampleRecord (eeeInstance.ts) and the records of one
// aggregate result (evaluation_result_id, else evaluation_name) one set, through recordsToParse. A
// file holding several results gives one report per result, as an lm-eval dump holding several tasks
// does (ParseResult.tasks; ScoreOptions.task picks one). Accuracy is the share of is_correct; n is the
// number of distinct sample_id in the result (a record repeating a sample_id is left out, with a
// problem, unless its metadata gives another epoch: then it is another attempt, as Inspect's epochs).
// A file Eval Lens wrote (eval-lens convert) carries in `metadata` what the schema cannot (a risk score
// and label, choice probabilities, a probability pair), and reads back as the kind it came from.
import type { ParseResult, RowProblem } from '../types';
import type { FileInput, FormatContext } from './context';
import { sourceOf } from './context';
import type { HarnessAdapter } from './adapters';
import type { SampleRecord } from '../samples/record';
import { recordsToParse, type RecordMode } from '../samples/toParse';
import { withDeclaredClasses } from './helmClasses';
import { forEachJsonRecord } from './jsonl';
import { stripBom } from './csv';
import { baseName } from '../../common/paths';
import { SAMPLE_META } from '../eee/keys';
import { instanceRecord } from './eeeInstance';
import { aggregateFigures, readAggregate, resultFigures, resultsFor, siblingAggregatePath, type Aggregate } from './eeeAggregate';

/** An instance record's first line: the schema's identity keys before its content. */
export function looksLikeEeeInstance(head: string): boolean {
  const text = stripBom(head);
  if (!/^\s*\{/.test(text)) return false;
  const nl = text.indexOf('\n');
  const first = nl === -1 ? text : text.slice(0, nl);
  return /"schema_version"\s*:\s*"/.test(first) && /"evaluation_id"\s*:\s*"/.test(first) && /"sample_id"\s*:/.test(first)
    && /"(interaction_type|answer_attribution)"\s*:/.test(first);
}

/** An aggregate document: the schema's identity keys, and its results or its source and model blocks. */
export function looksLikeEeeAggregate(head: string): boolean {
  const text = stripBom(head);
  if (!/^\s*\{/.test(text) || looksLikeEeeInstance(text)) return false;
  // String values: the schema files themselves name the same keys, with objects as values.
  return /"schema_version"\s*:\s*"/.test(text) && /"evaluation_id"\s*:\s*"/.test(text)
    && (/"evaluation_results"\s*:/.test(text) || (/"source_metadata"\s*:/.test(text) && /"model_info"\s*:/.test(text)));
}

function fatalResult(message: string, problems: RowProblem[] = []): ParseResult {
  return { format: 'eee', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
}

export const eeeAdapter: HarnessAdapter = {
  format: 'eee',
  detect: (_path, head) => looksLikeEeeInstance(head) || looksLikeEeeAggregate(head),
  parse: (input, ctx) => (looksLikeEeeInstance(headOf(input)) ? parseInstances(input, ctx) : parseAggregateAlone(input)),
};

function headOf(input: FileInput): string {
  if (input.givenText !== undefined) return input.givenText.slice(0, 16 * 1024);
  return new TextDecoder('utf-8').decode(input.bytes.subarray(0, 16 * 1024));
}

// ---------------------------------------------------------------------------------------------
// An aggregate alone: a summary.

function parseAggregateAlone(input: FileInput): ParseResult {
  let doc: unknown;
  try {
    doc = JSON.parse(stripBom(input.text()));
  } catch (e) {
    const message = `${baseName(input.path)} is not valid JSON: ${e instanceof Error ? e.message : String(e)}.`;
    return { ...fatalResult(message), problems: [{ line: 1, severity: 'error', code: 'json-parse', message }] };
  }
  const agg = readAggregate(doc);
  if ('fatal' in agg) return fatalResult(agg.fatal);
  const reported = aggregateFigures(agg);
  if (!Object.keys(reported).length) return fatalResult('The aggregate reports no figure (no evaluation result has a finite score).', agg.problems);
  const samples = agg.samplesPath ? ` Its per-sample records are in ${baseName(agg.samplesPath)}, scored on their own.` : ' It has no per-sample records.';
  const problems: RowProblem[] = [
    ...agg.problems,
    {
      line: 1, severity: 'info', code: 'unscorable',
      message: `An Every Eval Ever aggregate (schema ${agg.schemaVersion}): ${agg.results.length} reported result${agg.results.length === 1 ? '' : 's'}, shown as reported; there is nothing to recompute in it.${samples}`,
    },
  ];
  // A summary (ParseResult.summary): n = 0, no fatal, the figures as the file gives them.
  const figures = agg.results.flatMap((r) => [
    { name: `${r.name}/${r.metric}`, metric: r.metric, task: r.name, ...(agg.model ? { model: agg.model } : {}), ...(r.samples !== undefined ? { n: r.samples } : {}), value: r.score },
    ...Object.entries(r.extra).filter(([m]) => m !== r.metric).map(([m, v]) => ({ name: `${r.name}/${m}`, metric: m, task: r.name, ...(agg.model ? { model: agg.model } : {}), value: v })),
  ]);
  return {
    format: 'eee', set: null, kind: 'scores', problems, skipped: 0, unlabeled: 0,
    reported, reportedPath: input.path,
    summary: { source: `an Every Eval Ever aggregate (schema ${agg.schemaVersion})`, ...(agg.library ? { harness: agg.library } : {}), figures },
    ...(agg.model ? { sourceModel: agg.model } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// An instance file.

interface Group {
  key: string;
  records: SampleRecord[];
  seen: Map<string, number>;
}

function parseInstances(input: FileInput, ctx: FormatContext): ParseResult {
  const groups = new Map<string, Group>();
  const problems: RowProblem[] = [];
  let skipped = 0;
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    const got = instanceRecord(value, span.line);
    if ('problem' in got) {
      problems.push(got.problem);
      skipped++;
      return;
    }
    let g = groups.get(got.result);
    if (!g) groups.set(got.result, (g = { key: got.result, records: [], seen: new Map() }));
    addRecord(g, got.record, problems) || skipped++;
  }, ctx.progress);
  if (scan.fatal) return fatalResult(scan.fatal, scan.problems);
  problems.unshift(...scan.problems);
  skipped += scan.badRecords;
  const tasks = [...groups.keys()];
  if (!tasks.length) return fatalResult('The file holds no instance record that could be scored.', problems);
  const wanted = ctx.options.task;
  const task = wanted !== undefined && groups.has(wanted) ? wanted : tasks[0];
  if (wanted !== undefined && wanted !== task) {
    problems.unshift({ line: 1, severity: 'warning', code: 'unscorable', message: `The file has no evaluation result "${wanted}"; it holds ${tasks.join(', ')}. Showing ${task}.` });
  }
  let records = groups.get(task)!.records;
  // Records whose is_correct is null carry a score only: a result of them all is a set of scores
  // (their mean is the figure); beside records with verdicts they are left out, said once.
  const scoreOnly = records.filter((r) => typeof r.evaluation?.is_correct !== 'boolean');
  if (scoreOnly.length && scoreOnly.length < records.length) {
    problems.push({ line: scoreOnly[0].line, severity: 'warning', code: 'missing-field', message: `${scoreOnly.length} record${scoreOnly.length === 1 ? '' : 's'} of result "${task}" (first on line ${scoreOnly[0].line}) have a null evaluation.is_correct beside records with a verdict; accuracy is the share of is_correct, so they are left out.` });
    skipped += scoreOnly.length;
    records = records.filter((r) => typeof r.evaluation?.is_correct === 'boolean');
  }
  const scoresOnly = scoreOnly.length === groups.get(task)!.records.length;
  withoutOtherResultsMetrics(records, task, tasks);
  const agg = siblingAggregate(input.path, ctx);
  const aggResults = agg ? resultsFor(agg, task, records[0].evaluation_name) : [];
  // The figure the share of is_correct stands beside: the accuracy among them, else the first.
  const aggResult = aggResults.find((r) => r.metric === 'accuracy') ?? aggResults[0];
  const mode = scoresOnly ? 'scores' : modeOf(records);
  if (scoresOnly) { if (!scoreIsAMetric(records)) for (const r of records) r.metrics = { score: r.evaluation?.score ?? NaN, ...r.metrics }; } else withOwnScore(records);
  const parsed = recordsToParse(records, {
    format: 'eee', task: task || undefined, mode, problems, skipped,
    ...(aggResult ? { reported: resultFigures(aggResults), reportedPath: siblingAggregatePath(input.path) } : {}),
    ...(records[0].model_id ? { sourceModel: records[0].model_id } : agg?.model ? { sourceModel: agg.model } : {}),
  });
  if (tasks.length > 1) parsed.tasks = tasks;
  // The aggregate's figure for a per-sample metric stands beside that metric's mean.
  for (const t of parsed.taskMetrics ?? []) if (t.reported === undefined && parsed.reported && t.name in parsed.reported) t.reported = parsed.reported[t.name];
  const freeText = records[0].metadata?.[SAMPLE_META.freeText];
  if (freeText && parsed.set?.kind === 'multiclass' && mode !== 'verdict') {
    parsed.set.freeText = { reason: freeText, keepAccuracy: records[0].metadata?.[SAMPLE_META.freeTextAccuracy] !== 'dropped' };
  }
  // The task's declared classes (HELM's letters) come first among the choices: the macro mean runs over them.
  const declared = declaredClassesOf(records);
  if (declared && parsed.set?.kind === 'multiclass' && (mode === 'choices' || mode === 'labels')) {
    const set = parsed.set;
    if (declared.every((c, j) => set.classes[j] === c)) set.declaredClasses = declared.length;
    else if (!set.probs) parsed.set = withDeclaredClasses(set, declared);
  }
  // The aggregate's figure was computed on more (or fewer) samples than this file holds: said beside it.
  if (aggResult?.samples !== undefined && parsed.set && aggResult.samples !== parsed.set.n) parsed.reportedOn = aggResult.samples;
  accuracyFromVerdicts(parsed, records, mode, ctx.options.threshold);
  return parsed;
}

/** The classes the task declares (eval_lens.declared_classes), when every record names the same ones. */
function declaredClassesOf(records: readonly SampleRecord[]): string[] | undefined {
  const text = records[0].metadata?.[SAMPLE_META.declaredClasses];
  if (!text || !records.every((r) => r.metadata?.[SAMPLE_META.declaredClasses] === text)) return undefined;
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) && list.length > 0 && list.every((c) => typeof c === 'string') ? (list as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/** One record into its group: a repeated sample_id is another attempt only when its metadata names another epoch. */
function addRecord(g: Group, r: SampleRecord, problems: RowProblem[]): boolean {
  const epoch = r.metadata?.epoch;
  const first = g.seen.get(r.sample_id);
  if (first === undefined) {
    g.seen.set(r.sample_id, r.line);
    g.records.push(r);
    return true;
  }
  if (epoch !== undefined) {
    // Attempts at one sample: each its own row, named as Eval Lens names Inspect's epochs.
    const id = `${r.sample_id} (epoch ${epoch})`;
    if (!g.seen.has(id)) {
      g.seen.set(id, r.line);
      // The first attempt is renamed too, once a second one shows up.
      const earlier = g.records.find((x) => x.sample_id === r.sample_id);
      if (earlier?.metadata?.epoch !== undefined) {
        const renamed = `${earlier.sample_id} (epoch ${earlier.metadata.epoch})`;
        if (renamed !== id) { g.seen.set(renamed, earlier.line); earlier.sample_id = renamed; }
      }
      g.records.push({ ...r, sample_id: id });
      return true;
    }
  }
  problems.push({ line: r.line, severity: 'warning', code: 'duplicate-id', message: `Line ${r.line}: sample_id ${r.sample_id} of result "${g.key}" was seen on line ${first}; n counts each sample once, so this record is left out.` });
  return false;
}

/** The richest reading every record of the result allows. */
function modeOf(records: SampleRecord[]): RecordMode {
  const kind = records[0].metadata?.[SAMPLE_META.kind];
  const all = (f: (r: SampleRecord) => boolean) => records.every(f);
  if (kind && all((r) => r.metadata?.[SAMPLE_META.kind] === kind)) {
    if (kind === 'binary' && all((r) => !!r.risk)) return 'binary';
    if (kind === 'probability' && all((r) => !!r.probability)) return 'probability';
    if (kind === 'confidence' && all((r) => typeof r.confidence === 'number')) return 'confidence';
    if (kind === 'scores') return 'scores';
    if (kind === 'multiclass') {
      const k = (r: SampleRecord) => r.input?.choices?.length ?? 0;
      if (all((r) => r.goldIndex !== undefined && r.predIndex !== undefined && r.goldIndex < k(r) && r.predIndex < k(r) && (!r.choiceProbs || r.choiceProbs.length === k(r)))) return 'choices';
      if (all((r) => r.input?.reference?.length === 1 && r.answer !== undefined)) {
        for (const r of records) { r.gold = r.input!.reference![0]; r.pred = r.answer; }
        return 'labels';
      }
    }
  }
  return 'verdict';
}

/**
 * A file of one result per metric (Eval Lens writes `<evaluation>/<metric>` results: HELM Safety's
 * three scores, lighteval's trad_score and idk_freq): the metrics named by the file's other results
 * are theirs, not this result's (files written before 0.3.0 support put every metric on every record).
 */
function withoutOtherResultsMetrics(records: SampleRecord[], task: string, tasks: readonly string[]): void {
  const cut = task.lastIndexOf('/');
  if (cut < 0) return;
  const prefix = task.slice(0, cut + 1);
  const others = tasks.filter((t) => t !== task && t.startsWith(prefix)).map((t) => t.slice(prefix.length));
  if (!others.length) return;
  for (const r of records) if (r.metrics) for (const m of others) delete r.metrics[m];
}

/** Whether a metric of the records already is their evaluation.score, sample by sample (then `score` would say it twice). */
function scoreIsAMetric(records: SampleRecord[]): boolean {
  const names = Object.keys(records[0].metrics ?? {});
  return names.some((m) => records.every((r) => r.evaluation?.score !== undefined && r.metrics !== undefined && Object.is(r.metrics[m], r.evaluation.score)));
}

/** evaluation.score as a per-sample metric `score`, when it says more than is_correct (partial credit, a grade) and no metric of the records is it already. */
function withOwnScore(records: SampleRecord[]): void {
  const more = records.some((r) => r.evaluation?.score !== undefined && r.evaluation.score !== (r.evaluation.is_correct ? 1 : 0));
  if (!more || scoreIsAMetric(records)) return;
  for (const r of records) r.metrics = { score: r.evaluation?.score ?? NaN, ...r.metrics };
}

/**
 * The schema's accuracy is the share of is_correct. Where the set's own accuracy differs from it (a
 * binary file read at another threshold than it was written at, labels edited by hand), the share
 * is the accuracy and a problem says why. A verdict-only result is told what it lacks.
 */
function accuracyFromVerdicts(parsed: ParseResult, records: SampleRecord[], mode: RecordMode, threshold: number): void {
  if (!parsed.set || mode === 'scores' || mode === 'probability') return;
  if (parsed.set.kind === 'multiclass' && parsed.set.freeText?.keepAccuracy === false) return;
  const right = records.reduce((s, r) => s + (r.evaluation?.is_correct ? 1 : 0), 0);
  const share = right / records.length;
  if (mode === 'verdict') {
    const missing = records.some((r) => typeof r.confidence !== 'number');
    if (missing) {
      parsed.problems.push({
        line: 1, severity: 'info', code: 'undefined-metric',
        message: 'The records carry a verdict (evaluation.is_correct) but no probability or confidence: AUC, Brier, log loss and ECE need one, so they are missing.',
      });
    }
    return;
  }
  const own = ownAccuracy(parsed, threshold);
  if (own === undefined || Math.abs(own - share) < 1e-12) return;
  parsed.metrics = { ...parsed.metrics, accuracy: share };
  const written = records[0].metadata?.[SAMPLE_META.threshold];
  const why = mode === 'binary' && written !== undefined && Number(written) !== threshold
    ? `is_correct was decided at threshold ${written} and this report uses ${threshold}`
    : 'the records\' labels and their is_correct disagree';
  parsed.problems.push({ line: 1, severity: 'warning', code: 'reported-mismatch', message: `Accuracy is the share of is_correct (${share}); ${why}, so the other figures are not computed from the same verdicts.` });
}

/** The accuracy the report would compute from the set (binary: at the report's threshold, as report.ts decides). */
function ownAccuracy(parsed: ParseResult, threshold: number): number | undefined {
  const set = parsed.set;
  if (!set || set.n === 0) return undefined;
  let right = 0;
  if (set.kind === 'multiclass') for (let i = 0; i < set.n; i++) right += set.gold[i] === set.pred[i] ? 1 : 0;
  else if (set.kind === 'confidence') for (let i = 0; i < set.n; i++) right += set.correct[i];
  else if (set.kind === 'binary') for (let i = 0; i < set.n; i++) right += (set.pred ? set.pred[i] : set.score[i] >= threshold ? 1 : 0) === set.label[i] ? 1 : 0;
  else return undefined;
  return right / set.n;
}

/** The `<uuid>.json` beside `<uuid>_samples.jsonl`, when there is one and it reads. */
function siblingAggregate(samplesPath: string, ctx: FormatContext): Aggregate | undefined {
  const path = siblingAggregatePath(samplesPath);
  const text = path ? ctx.io.readText(path) : undefined;
  if (text === undefined) return undefined;
  try {
    const agg = readAggregate(JSON.parse(stripBom(text)));
    return 'fatal' in agg ? undefined : agg;
  } catch {
    return undefined;
  }
}
