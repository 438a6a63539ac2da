// A task's own per-sample metrics (lighteval's trad_score, idk_freq, extract_fail; an lm-eval
// generation task's exact_match and f1): which way each is better, and which is the headline. Shared
// by `convert --to eee` (one EEE result per metric, each with lower_is_better) and `board` (a task
// metric as the board's metric): both must say the same thing about the same metric.
//
// The direction is decided, in order, by
//   1. the source: lighteval's results file declares it (config_tasks.<task>.metrics[].higher_is_better),
//      lm-eval's too (higher_is_better.<task>.<metric>);
//   2. Eval Lens's own table, for a metric that is one of ours (accuracy, perplexity, brier, …);
//   3. the name: a failure or error rate, a loss, a perplexity is lower-is-better
//      (fail, failure, error, err, loss, nll, perplexity, ppl, wer, cer, ter, mse, mae, rmse, bpb as a
//      word of the name); an accuracy, a match, an F1, a BLEU/ROUGE/chrF, a pass rate or a "score" is
//      higher-is-better; a name with words of both kinds, or of neither, is unknown.
// Unknown is said as unknown, never guessed (the EEE writer still has to fill the schema's required
// boolean, and says in additional_details that it is a placeholder).
import { betterDirection } from '../../common/metricDirection';
import { METRIC_NAMES, type MetricName } from '../types';
import { parsePythonJson } from '../formats/pythonJson';
import { stripBom } from '../formats/csv';

export type Better = 'higher' | 'lower';

export interface MetricDirection {
  better?: Better;
  /** How it was decided, in words (written into EEE's additional_details and the board's note). */
  how: string;
}

/** What a results file declares about a task's metrics: their order (the task's own) and directions. */
export interface DeclaredMetrics {
  order: string[];
  higherIsBetter: Record<string, boolean>;
  /** The file it was read from. */
  from: string;
  /** Where in it the directions are (lighteval: config_tasks higher_is_better, the default). */
  field?: string;
}

const LOWER_WORDS = new Set(['fail', 'fails', 'failed', 'failure', 'failures', 'error', 'errors', 'err', 'loss', 'nll', 'perplexity', 'ppl', 'wer', 'cer', 'ter', 'mse', 'mae', 'rmse', 'bpb']);
const HIGHER_WORDS = new Set(['acc', 'accuracy', 'match', 'em', 'qem', 'pem', 'pqem', 'f1', 'bleu', 'rouge', 'rouge1', 'rouge2', 'rougel', 'rougelsum', 'chrf', 'pass', 'correct', 'score', 'mcc', 'auc', 'auroc']);

/** Which way `name` is better, and how that was decided (see the head of this file). */
export function taskMetricDirection(name: string, declared?: DeclaredMetrics): MetricDirection {
  const said = declared?.higherIsBetter[name];
  if (typeof said === 'boolean') return { better: said ? 'higher' : 'lower', how: `declared by the source (${baseOf(declared!.from)}: ${declared!.field ?? 'config_tasks higher_is_better'})` };
  if ((METRIC_NAMES as readonly string[]).includes(name)) return { better: betterDirection(name as MetricName), how: 'Eval Lens\'s metric table (docs/metrics.md)' };
  // Words of the name: snake_case, kebab, dots, camelCase and pass@k split apart.
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const lower = words.some((w) => LOWER_WORDS.has(w));
  const higher = words.some((w) => HIGHER_WORDS.has(w));
  if (lower && !higher) return { better: 'lower', how: 'the metric\'s name (a failure or error rate, a loss)' };
  if (higher && !lower) return { better: 'higher', how: 'the metric\'s name (a score, an accuracy or a match rate)' };
  return { how: 'unknown: the source does not declare it and the name does not say' };
}

/**
 * The metrics in headline order: the source's own order (the task's metric list) when it declares
 * one, else the scores (higher is better) first, then those of unknown direction, then the failure
 * rates and losses, each group in the order given. The first is the headline.
 */
export function headlineOrder(names: readonly string[], declared?: DeclaredMetrics): string[] {
  const rank = (n: string) => {
    const k = declared?.order.indexOf(n) ?? -1;
    if (k >= 0) return k;
    const d = taskMetricDirection(n, declared).better;
    return 1e6 + (d === 'higher' ? 0 : d === undefined ? 1 : 2);
  };
  return names.map((n, i) => ({ n, i, r: rank(n) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.n);
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON object of a results file (Python's JSON: NaN, Infinity), undefined when unreadable or not an object. */
function readObject(path: string, readText: (p: string) => string | undefined): Obj | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    const doc: unknown = parsePythonJson(stripBom(text));
    return isObject(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/**
 * lighteval's results file (results_<date>.json) on a task's metrics: config_tasks.<task>.metrics is
 * a list of {metric_name: name | [names], higher_is_better: bool | {name: bool}}; the task key may
 * differ by a suite prefix ("community|gpqa-diamond-idk|0" vs "gpqa-diamond-idk|0"), as its results
 * do. Without config_tasks, the order of the task's figures in `results` (stderr left out).
 */
export function lightevalDeclared(path: string, task: string, readText: (p: string) => string | undefined): DeclaredMetrics | undefined {
  const doc = readObject(path, readText);
  if (!doc) return undefined;
  const entry = (o: unknown): Obj | undefined => {
    if (!isObject(o)) return undefined;
    if (isObject(o[task])) return o[task] as Obj;
    const keys = Object.keys(o).filter((k) => k !== 'all' && (k.endsWith(`|${task}`) || task.endsWith(`|${k}`)));
    return keys.length === 1 && isObject(o[keys[0]]) ? o[keys[0]] as Obj : undefined;
  };
  const order: string[] = [];
  const higherIsBetter: Record<string, boolean> = {};
  const config = entry(doc.config_tasks);
  const metrics = config && Array.isArray(config.metrics) ? config.metrics : [];
  for (const m of metrics) {
    if (!isObject(m)) continue;
    const names = (Array.isArray(m.metric_name) ? m.metric_name : [m.metric_name]).filter((x): x is string => typeof x === 'string');
    for (const n of names) {
      if (!order.includes(n)) order.push(n);
      const h = isObject(m.higher_is_better) ? m.higher_is_better[n] : m.higher_is_better;
      if (typeof h === 'boolean') higherIsBetter[n] = h;
    }
  }
  if (!order.length) {
    const figures = entry(doc.results);
    if (figures) for (const k of Object.keys(figures)) if (!k.endsWith('_stderr')) order.push(k);
  }
  return order.length || Object.keys(higherIsBetter).length ? { order, higherIsBetter, from: path } : undefined;
}

/**
 * lm-eval's results file on a task's metrics: `higher_is_better.<task>` maps each metric to its
 * direction (the task's own declaration, which the harness writes for every task); the order is the
 * task's metric_list (configs.<task>.metric_list[].metric), else the order of its figures in
 * `results.<task>` ("mae,none": the name before the filter; alias and _stderr left out).
 */
export function lmEvalDeclared(path: string, task: string, readText: (p: string) => string | undefined): DeclaredMetrics | undefined {
  const doc = readObject(path, readText);
  if (!doc) return undefined;
  const higherIsBetter: Record<string, boolean> = {};
  const declared = isObject(doc.higher_is_better) ? doc.higher_is_better[task] : undefined;
  if (isObject(declared)) for (const [k, v] of Object.entries(declared)) if (typeof v === 'boolean') higherIsBetter[k] = v;
  const order: string[] = [];
  const config = isObject(doc.configs) ? doc.configs[task] : undefined;
  const list = isObject(config) && Array.isArray(config.metric_list) ? config.metric_list : [];
  for (const m of list) if (isObject(m) && typeof m.metric === 'string' && !order.includes(m.metric)) order.push(m.metric);
  if (!order.length) {
    const figures = isObject(doc.results) ? doc.results[task] : undefined;
    if (isObject(figures)) {
      for (const k of Object.keys(figures)) {
        const name = k.split(',')[0];
        if (k === 'alias' || name.endsWith('_stderr') || order.includes(name)) continue;
        order.push(name);
      }
    }
  }
  return order.length || Object.keys(higherIsBetter).length ? { order, higherIsBetter, from: path, field: 'higher_is_better' } : undefined;
}

function baseOf(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1];
}
