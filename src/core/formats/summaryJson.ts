// Summary files that are JSON: what each harness writes beside (or instead of) its samples, read as
// figures named by task and metric. Each shape is checked against the harness's own writer:
//  - lm-eval results_<timestamp>.json (lm_eval/loggers/evaluation_tracker.py, save_results_aggregated):
//    "results": {task: {"<metric>,<filter>": value, "alias": ...}}, "groups" likewise, and
//    "n-samples": {task: {"original", "effective"}}, the samples each task's figures are over;
//  - lighteval results_<timestamp>.json (src/lighteval/logging/evaluation_tracker.py, save_results):
//    "config_general", "results": {"<task>|<fewshot>": {metric: value}}, "config_tasks" (with
//    effective_num_docs), "summary_tasks", "summary_general";
//  - HELM stats.json (src/helm/benchmark/metrics/statistic.py, Stat): a list of {"name": {"name",
//    "split", "sub_split"?, "perturbation"?}, "count", "sum", "sum_squared", "min", "max", "mean",
//    "variance", "stddev"}; run_spec.json beside it names the run;
//  - an object of metric -> number (folktexts results.bench-*.json, OpenCompass results, a metrics.json).
import type { ParseResult, SummaryFigure, SummaryInfo } from '../types';
import type { FormatContext } from './context';
import { baseName } from '../../common/paths';
import { modelOfResults } from './lmEvalResults';
import { readRunSpec } from './helmRun';
import { FigureList, figureValue, isMetricName, summaryResult } from './summaryFigures';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface JsonSummary {
  info: SummaryInfo;
  task?: string;
  sourceModel?: string;
}

/** The parse result of a summary read here (its task and model kept). */
export function summaryResultOf(read: JsonSummary): ParseResult {
  return summaryResult(read.info, [], { ...(read.task ? { task: read.task } : {}), ...(read.sourceModel ? { sourceModel: read.sourceModel } : {}) });
}

/** lighteval's results document: config_general beside results. */
export function isLightevalResults(doc: Obj): boolean {
  return isObject(doc.config_general) && isObject(doc.results);
}

/** lm-eval's results document: results of "<metric>,<filter>" keys (or, before 0.4, versions and config beside plain keys). */
export function isLmEvalResults(doc: Obj): boolean {
  if (!isObject(doc.results)) return false;
  const tasks = Object.values(doc.results).filter(isObject);
  if (tasks.some((t) => Object.keys(t).some((k) => /,[^,]+$/.test(k)))) return true;
  return isObject(doc.versions) && (isObject(doc.config) || isObject(doc['n-samples']));
}

/** HELM's stats.json: a list of Stat records. */
export function isHelmStats(doc: unknown): doc is Obj[] {
  return Array.isArray(doc) && doc.length > 0 && doc.every((s) => isObject(s) && isObject(s.name) && typeof s.name.name === 'string' && typeof s.count === 'number');
}

/**
 * The samples lm-eval scored a task on, when the document says: n-samples' effective count, else
 * the task's sample_len in results (lm-eval writes one or the other, by version).
 */
export function lmEvalSampleCount(doc: Obj, task: string): number | undefined {
  const ns = isObject(doc['n-samples']) ? doc['n-samples'][task] : undefined;
  const entry = isObject(doc.results) ? doc.results[task] : undefined;
  const n = isObject(ns) ? ns.effective ?? ns.original : isObject(entry) ? entry.sample_len : undefined;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** lm-eval: each task's (and group's) figures, "arc_easy/acc"; a filter other than "none" stays in the name ("gsm8k/exact_match,strict-match"). */
export function lmEvalSummary(doc: Obj): JsonSummary {
  const list = new FigureList();
  const add = (section: unknown) => {
    if (!isObject(section)) return;
    for (const [task, entries] of Object.entries(section)) {
      if (!isObject(entries)) continue;
      const n = lmEvalSampleCount(doc, task);
      for (const [key, raw] of Object.entries(entries)) {
        if (key === 'alias' || key === 'name' || key === 'sample_len' || key === 'samples') continue;
        // A group without figures of its own is written as a header, {" ": " ", "alias": group}: no metric.
        if (key.trim() === '') continue;
        // "N/A": lm-eval's word for a stderr it did not compute.
        const value = raw === 'N/A' ? null : figureValue(raw);
        if (value === undefined) continue;
        const comma = key.lastIndexOf(',');
        const metric = comma === -1 ? key : key.slice(0, comma);
        const filter = comma === -1 ? 'none' : key.slice(comma + 1);
        const shown = filter === 'none' ? metric : key;
        if (list.figures.some((f) => f.task === task && f.metric === shown)) continue; // a group repeated under "groups"
        list.add({ name: `${task}/${shown}`, task, metric: shown, value, ...(n ? { n } : {}) });
      }
    }
  };
  add(doc.results);
  add(doc.groups);
  const model = modelOfResults(doc);
  return { info: { source: "lm-eval's results summary", harness: 'lm-eval', figures: list.figures }, ...(model ? { sourceModel: model } : {}) };
}

/** lighteval: each task's figures, "anli:r1|0/acc", with the documents it ran on (config_tasks' effective_num_docs) when positive. */
export function lightevalSummary(doc: Obj): JsonSummary {
  const list = new FigureList();
  const configs = isObject(doc.config_tasks) ? doc.config_tasks : {};
  for (const [task, metrics] of Object.entries(doc.results as Obj)) {
    if (!isObject(metrics)) continue;
    const config = configs[task];
    const docs = isObject(config) ? config.effective_num_docs : undefined;
    const n = typeof docs === 'number' && Number.isInteger(docs) && docs > 0 ? docs : undefined;
    for (const [metric, raw] of Object.entries(metrics)) {
      const value = figureValue(raw);
      if (value === undefined) continue;
      list.add({ name: `${task}/${metric}`, task, metric, value, ...(n ? { n } : {}) });
    }
  }
  const general = doc.config_general as Obj;
  const modelConfig = isObject(general.model_config) ? general.model_config : undefined;
  const model = typeof general.model_name === 'string' ? general.model_name : typeof modelConfig?.model_name === 'string' ? modelConfig.model_name : undefined;
  return { info: { source: "lighteval's results summary", harness: 'lighteval', figures: list.figures }, ...(model ? { sourceModel: model } : {}) };
}

/**
 * HELM: every Stat's mean, "test/exact_match" (unperturbed), "test/exact_match@robustness"
 * (perturbed); n = the split's num_instances. The run is named by run_spec.json beside the file,
 * else by its folder.
 */
export function helmStatsSummary(stats: Obj[], path: string, ctx: FormatContext): JsonSummary {
  const instances = new Map<string, number>();
  for (const s of stats) {
    const name = s.name as Obj;
    if (name.name === 'num_instances' && !name.perturbation && typeof s.mean === 'number') instances.set(splitOf(name), s.mean);
  }
  const list = new FigureList();
  for (const s of stats) {
    const name = s.name as Obj;
    const split = splitOf(name);
    const pert = isObject(name.perturbation) && typeof name.perturbation.name === 'string' ? name.perturbation : undefined;
    const on = pert && typeof pert.computed_on === 'string' && pert.computed_on !== 'worst' ? `:${pert.computed_on}` : '';
    const metric = `${name.name as string}${pert ? `@${pert.name as string}${on}` : ''}`;
    // A stat over no instances has no mean (HELM leaves it out): not reported.
    const value = s.count === 0 ? null : figureValue(s.mean) ?? null;
    const n = pert ? undefined : instances.get(split);
    const figure: SummaryFigure = { name: split ? `${split}/${metric}` : metric, metric, value, ...(split ? { split } : {}) };
    if (n !== undefined && Number.isInteger(n)) figure.n = n;
    list.add(figure);
  }
  // The run's task without its model= (helmRun.ts runTask), as its per-instance files name it.
  const spec = readRunSpec(path, ctx);
  return { info: { source: 'HELM stats.json', harness: 'HELM', figures: list.figures }, ...(spec.task ? { task: spec.task } : {}), ...(spec.model ? { sourceModel: spec.model } : {}) };
}

function splitOf(name: Obj): string {
  const split = typeof name.split === 'string' ? name.split : '';
  return typeof name.sub_split === 'string' && name.sub_split ? `${split}:${name.sub_split}` : split;
}

/** Keys of a sample count among a summary's figures (folktexts' n_samples). */
const COUNT_KEY = /^(n|n_samples|num_samples|n_total|n_examples|num_examples|count|support|samples)$/i;

/**
 * An object of metric -> number: its number-valued keys, at least one named as a metric (so
 * {"run": 1, "seed": 3} is not one). Nested objects (a config) are left out.
 */
export function isFlatMetrics(doc: unknown): doc is Obj {
  if (!isObject(doc)) return false;
  const numeric = Object.entries(doc).filter(([, v]) => typeof v === 'number' || v === null);
  return numeric.some(([k, v]) => typeof v === 'number' && isMetricName(k));
}

/**
 * HELM's leaderboard tables, as helm-summarize writes them (src/helm/benchmark/presentation/table.py,
 * Table: {title, header: [HeaderCell {value, ...}], rows: [[Cell {value, ...}]], links}): groups/<group>.json
 * and groups.json (a list of tables), groups/json/<group>_<metric group>.json (one table). Each row is a
 * model (or a group), its first cell naming it; every numeric cell is a figure under its column's header.
 */
const HELM_TABLE_HEAD = /^\uFEFF?\s*\[?\s*\{\s*"title"\s*:\s*"[^"]*"\s*,\s*"header"\s*:\s*\[\s*\{\s*"value"\s*:/;

export function looksLikeHelmTables(head: string): boolean {
  return HELM_TABLE_HEAD.test(head);
}

const isHelmTable = (t: unknown): t is Obj => isObject(t) && typeof t.title === 'string' && Array.isArray(t.header) && Array.isArray(t.rows);

export function isHelmTables(doc: unknown): boolean {
  return isHelmTable(doc) || (Array.isArray(doc) && doc.length > 0 && doc.every(isHelmTable));
}

export function helmTablesSummary(doc: unknown): JsonSummary {
  const tables = (Array.isArray(doc) ? doc : [doc]) as Obj[];
  const list = new FigureList();
  const cellValue = (c: unknown) => (isObject(c) ? c.value : undefined);
  for (const t of tables) {
    const header = (t.header as unknown[]).map((h) => String(cellValue(h) ?? ''));
    for (const row of t.rows as unknown[]) {
      if (!Array.isArray(row) || !row.length) continue;
      const label = String(cellValue(row[0]) ?? '');
      row.forEach((cell, i) => {
        const value = cellValue(cell);
        if (i === 0 || typeof value !== 'number') return;
        const column = header[i] || `column ${i + 1}`;
        const prefix = tables.length > 1 && t.title ? `${t.title as string}/` : '';
        list.add({ name: `${prefix}${label}/${column}`, metric: column, model: label, ...(t.title ? { task: t.title as string } : {}), value });
      });
    }
  }
  return { info: { source: "HELM's leaderboard tables (helm-summarize's groups)", harness: 'HELM', figures: list.figures } };
}

/**
 * An object whose `results` holds, per task, an object of metric -> number, written by a harness
 * other than lm-eval or lighteval (a judge pipeline's {"results": {"mcq": {"accuracy", "correct",
 * "total"}}}): each task's figures, as an object of metrics is read.
 */
export function isNestedResults(doc: unknown): doc is Obj {
  if (!isObject(doc) || !isObject(doc.results)) return false;
  const tasks = Object.values(doc.results);
  return tasks.length > 0 && tasks.every(isObject) && tasks.some((t) => isFlatMetrics(t));
}

/** "<task>/<metric>" for each number of each task, with the task's count (total, n, ...) as n when it has one. */
export function nestedResultsSummary(doc: Obj): JsonSummary {
  const list = new FigureList();
  for (const [task, metrics] of Object.entries(doc.results as Obj)) {
    if (!isObject(metrics)) continue;
    const countKey = Object.keys(metrics).find((k) => (COUNT_KEY.test(k) || /^total$/i.test(k)) && typeof metrics[k] === 'number');
    const count = countKey ? (metrics[countKey] as number) : undefined;
    const n = count !== undefined && Number.isInteger(count) && count > 0 ? count : undefined;
    for (const [metric, raw] of Object.entries(metrics)) {
      if (typeof raw !== 'number' && raw !== null) continue;
      list.add({ name: `${task}/${metric}`, task, metric, value: raw, ...(n && metric !== countKey ? { n } : {}) });
    }
  }
  return { info: { source: 'a results summary (per task, an object of metrics)', figures: list.figures } };
}

export function flatMetricsSummary(doc: Obj, path: string): JsonSummary {
  const list = new FigureList();
  const countKey = Object.keys(doc).find((k) => COUNT_KEY.test(k) && typeof doc[k] === 'number');
  const count = countKey ? (doc[countKey] as number) : undefined;
  const n = count !== undefined && Number.isInteger(count) && count > 0 ? count : undefined;
  for (const [key, raw] of Object.entries(doc)) {
    if (typeof raw !== 'number' && raw !== null) continue;
    list.add({ name: key, metric: key, value: raw, ...(n && key !== countKey ? { n } : {}) });
  }
  const folktexts = /^results\.bench-.*\.json$/i.test(baseName(path)) || 'brier_score_loss' in doc;
  return { info: { source: folktexts ? "folktexts' results summary" : 'an object of metrics', ...(folktexts ? { harness: 'folktexts' } : {}), figures: list.figures } };
}
