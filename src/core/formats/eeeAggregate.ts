// Every Eval Ever aggregate files (eval.schema.json: one `<uuid>.json` per evaluation run, with its
// `evaluation_results[]`). Alone, an aggregate is a summary: the figures it reports, by result and
// metric, and nothing to recompute. Beside an instance file (`<uuid>_samples.jsonl`, the schema's
// layout), it gives that file's results their reported figure, the model and the library.
import { METRIC_NAMES, RATE_NAMES, type RowProblem } from '../types';
import { baseName, dirName, joinPath } from '../../common/paths';
import { EVAL_LENS_PREFIX } from '../eee/keys';
import { asText, isObject } from './eeeInstance';

type Obj = Record<string, unknown>;

export interface AggregateResult {
  /** evaluation_result_id when the file gives one. */
  id?: string;
  name: string;
  /** Our name for the metric (accuracy when the file's metric is accuracy), else the file's metric_id / metric_name. */
  metric: string;
  score: number;
  /** Figures Eval Lens wrote into score_details.details (`eval_lens.<metric>`), by metric name. */
  extra: Record<string, number>;
  /** score_details.uncertainty.num_samples, when given. */
  samples?: number;
}

export interface Aggregate {
  schemaVersion: string;
  model?: string;
  library?: string;
  results: AggregateResult[];
  /** detailed_evaluation_results.file_path, when the run has per-sample records. */
  samplesPath?: string;
  problems: RowProblem[];
}

/** The figures the writer puts into score_details.details as eval_lens.<name> (a report's metrics). */
const EVAL_LENS_FIGURES: ReadonlySet<string> = new Set<string>([...METRIC_NAMES, ...RATE_NAMES]);

/** accuracy, acc, exact_match-as-accuracy… are all "accuracy" when the file's metric id or kind says so. */
function metricName(config: Obj): string {
  const id = asText(config.metric_id);
  const kind = asText(config.metric_kind);
  const name = asText(config.metric_name);
  if ([id, kind, name].some((x) => x !== undefined && /^acc(uracy)?$/i.test(x.trim()))) return 'accuracy';
  if (id ?? name ?? kind) return (id ?? name ?? kind)!;
  const description = (asText(config.evaluation_description) ?? '').trim();
  // Every Eval Ever's own converters (lm_eval's, 0.3.0) write the harness's metric key there and
  // nothing else: "acc", "exact_match", "micro_f1".
  if (/^[A-Za-z][\w@.,-]*$/.test(description)) return /^acc(uracy)?$/i.test(description) ? 'accuracy' : description;
  // Older files (0.1, 0.2) name the metric only in prose: "accuracy", "Accuracy on IFEval".
  return /^accuracy\b/i.test(description) ? 'accuracy' : 'score';
}

/** `key`, or `key #2`, `key #3`… when taken: two results of one name and metric keep both figures. */
function uniqueKey(out: Record<string, number>, key: string): string {
  if (!(key in out)) return key;
  let k = 2;
  while (`${key} #${k}` in out) k++;
  return `${key} #${k}`;
}

/** An aggregate document, or the sentence saying why it is not one. */
export function readAggregate(doc: unknown): Aggregate | { fatal: string } {
  if (!isObject(doc)) return { fatal: 'The file is not a JSON object.' };
  if (!Array.isArray(doc.evaluation_results)) return { fatal: 'The file has no evaluation_results list (eval.schema.json requires one).' };
  const problems: RowProblem[] = [];
  const results: AggregateResult[] = [];
  doc.evaluation_results.forEach((r, i) => {
    if (!isObject(r)) return;
    const name = asText(r.evaluation_name) ?? `result ${i + 1}`;
    const config = isObject(r.metric_config) ? r.metric_config : {};
    const details = isObject(r.score_details) ? r.score_details : {};
    const score = details.score;
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      problems.push({ line: 1, severity: 'warning', code: 'not-a-number', message: `evaluation_results[${i}] (${name}) has no finite score_details.score; it is left out.` });
      return;
    }
    const extra: Record<string, number> = {};
    if (isObject(details.details)) {
      for (const [k, v] of Object.entries(details.details)) {
        // eval_lens.<metric> for Eval Lens's own figures only: eval_lens.options.* and eval_lens.metric.*
        // are settings and per-sample means, eval_lens.reported the source's own figure, no metric.
        if (!k.startsWith(EVAL_LENS_PREFIX) || !EVAL_LENS_FIGURES.has(k.slice(EVAL_LENS_PREFIX.length))) continue;
        const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (Number.isFinite(x)) extra[k.slice(EVAL_LENS_PREFIX.length)] = x;
      }
    }
    const uncertainty = isObject(details.uncertainty) ? details.uncertainty : {};
    const samples = typeof uncertainty.num_samples === 'number' ? uncertainty.num_samples : undefined;
    results.push({ ...(r.evaluation_result_id !== undefined ? { id: asText(r.evaluation_result_id) } : {}), name, metric: metricName(config), score, extra, ...(samples !== undefined ? { samples } : {}) });
  });
  const model = isObject(doc.model_info) ? asText(doc.model_info.id) ?? asText(doc.model_info.name) : undefined;
  const library = isObject(doc.eval_library) ? asText(doc.eval_library.name) : undefined;
  const detailed = isObject(doc.detailed_evaluation_results) ? asText(doc.detailed_evaluation_results.file_path) : undefined;
  return {
    schemaVersion: asText(doc.schema_version) ?? 'unknown',
    ...(model ? { model } : {}),
    ...(library ? { library } : {}),
    results,
    ...(detailed ? { samplesPath: detailed } : {}),
    problems,
  };
}

/** The aggregate's figures as `reported`: `<result>/<metric>`, and Eval Lens's own figures as `<result>/<metric>` too. */
export function aggregateFigures(agg: Aggregate): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of agg.results) {
    out[uniqueKey(out, `${r.name}/${r.metric}`)] = r.score;
    for (const [m, v] of Object.entries(r.extra)) if (m !== r.metric) out[uniqueKey(out, `${r.name}/${m}`)] = v;
  }
  return out;
}

/** `<uuid>.json` beside `<uuid>_samples.jsonl`: where the schema's layout keeps an instance file's aggregate. */
export function siblingAggregatePath(samplesPath: string): string | undefined {
  const m = /^(.*)_samples\.jsonl$/i.exec(baseName(samplesPath));
  return m ? joinPath(dirName(samplesPath), `${m[1]}.json`) : undefined;
}

/**
 * The aggregate results an instance group points at: the one of its evaluation_result_id, else every
 * result of its evaluation_name without an id (lm_eval's converter writes one per metric: acc,
 * exact_match, micro_f1…), else the only result.
 */
export function resultsFor(agg: Aggregate, resultId: string, evaluationName: string | undefined): AggregateResult[] {
  const byId = agg.results.find((r) => r.id !== undefined && r.id === resultId);
  if (byId) return [byId];
  const byName = agg.results.filter((r) => r.id === undefined && (r.name === resultId || r.name === evaluationName));
  if (byName.length) return byName;
  return agg.results.length === 1 ? [agg.results[0]] : [];
}

/** The results' figures by our metric names, for `reported` beside the recomputed ones. */
export function resultFigures(results: readonly AggregateResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    out[uniqueKey(out, r.metric)] = r.score;
    for (const [m, v] of Object.entries(r.extra)) if (!(m in out)) out[m] = v;
  }
  return out;
}
