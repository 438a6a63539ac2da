// What a HELM run folder holds beside the file being read (crfm-helm's benchmark_output/runs/<suite>/
// <run>/): the run's summary stats.json, its run_spec.json, and the naming of HELM's stats.
// Fields as crfm-helm writes them: src/helm/benchmark/metrics/statistic.py (Stat: name, count, sum,
// mean, ...), metric_name.py (MetricName: name, k, split, sub_split, perturbation), run_spec.py.
import type { FormatContext } from './context';
import { baseName, dirName, joinPath } from '../../common/paths';
import { parsePythonJson } from './pythonJson';
import { isRecord } from './jsonMembers';

/**
 * HELM's bookkeeping stats (counts, tokens, runtimes, finish reasons, costs), which every run
 * logs per instance beside its metrics; they are not shown as the run's per-sample metrics.
 * max_prob and logprob are the model's own probability of its answer (inputs to HELM's
 * calibration metrics), not scores of the answer either.
 */
const BOOKKEEPING = /^(num_|finish_reason_|inference_|training_|batch_size$|prompt_truncated$|max_prob$|logprob$)/;

export function isHelmMetric(name: string): boolean {
  return !BOOKKEEPING.test(name);
}

/** A MetricName's parts that place a stat: its split, sub-split and perturbation. */
export interface StatContext {
  name: string;
  split?: string;
  subSplit?: string;
  perturbation?: string;
}

/** The context of a serialised MetricName, or undefined when it is not one. */
export function statContext(nameField: unknown): StatContext | undefined {
  if (!isRecord(nameField) || typeof nameField.name !== 'string') return undefined;
  const p = nameField.perturbation;
  return {
    name: nameField.name,
    split: typeof nameField.split === 'string' ? nameField.split : undefined,
    subSplit: typeof nameField.sub_split === 'string' ? nameField.sub_split : undefined,
    perturbation: isRecord(p) ? (typeof p.name === 'string' ? p.name : 'perturbed') : undefined,
  };
}

/** The split a run is reported on: 'test', else its only split, else the first one seen. */
export function chooseSplit(splits: readonly string[]): { split: string; note?: string } | undefined {
  if (!splits.length) return undefined;
  if (splits.includes('test')) return { split: 'test' };
  if (splits.length === 1) return { split: splits[0] };
  return { split: splits[0], note: `The run has no test split; it is reported on its ${splits[0]} split (of ${splits.join(', ')}).` };
}

function readJson(ctx: FormatContext, path: string): unknown {
  const text = ctx.io.readText(path);
  if (text === undefined) return undefined;
  try { return parsePythonJson(text.replace(/^\uFEFF/, '')); } catch { return undefined; }
}

/** The run's summary figures (stats.json beside the file): each unperturbed stat's mean on `split`, by name. */
export interface RunSummary {
  path: string;
  means: Map<string, number | null>;
}

export function readRunSummary(filePath: string, split: string, ctx: FormatContext): RunSummary | undefined {
  const path = joinPath(dirName(filePath), 'stats.json');
  const stats = readJson(ctx, path);
  if (!Array.isArray(stats)) return undefined;
  const means = new Map<string, number | null>();
  for (const s of stats) {
    if (!isRecord(s)) continue;
    const c = statContext(s.name);
    if (!c || c.split !== split || c.subSplit !== undefined || c.perturbation !== undefined) continue;
    const mean = typeof s.mean === 'number' ? s.mean : null;
    // One stat per full MetricName (metric_name.py): with split, sub-split and perturbation fixed, one per name.
    if (!means.has(c.name)) means.set(c.name, mean);
  }
  return means.size ? { path, means } : undefined;
}

/**
 * The task of a run: its run spec's name ("bbq:subject=all,method=multiple_choice_joint,model=
 * meta_llama-3-8b-chat", run_spec.py) without the model's arguments (model=, model_deployment=).
 * The model is the run's model, not its task: the same scenario run by two models is one task, so
 * `compare` pairs their run folders and `convert --to eee` files both under one benchmark.
 */
export function runTask(name: string): string {
  const colon = name.indexOf(':');
  if (colon < 0) return name;
  const args = name.slice(colon + 1).split(',').filter((a) => !/^model(?:_deployment)?=/.test(a));
  return args.length ? `${name.slice(0, colon)}:${args.join(',')}` : name.slice(0, colon);
}

/** The run's task and model, from run_spec.json beside the file (else the folder's name). */
export function readRunSpec(filePath: string, ctx: FormatContext): { task: string; model?: string } {
  const spec = readJson(ctx, joinPath(dirName(filePath), 'run_spec.json'));
  const folder = baseName(dirName(filePath));
  if (!isRecord(spec)) return { task: runTask(folder) || baseName(filePath) };
  const adapter = isRecord(spec.adapter_spec) ? spec.adapter_spec : {};
  const model = typeof adapter.model === 'string' ? adapter.model : undefined;
  return { task: runTask(typeof spec.name === 'string' && spec.name ? spec.name : folder), model };
}

/** scenario_state.json beside the file, parsed, or undefined. */
export function readScenarioStateBeside(filePath: string, ctx: FormatContext): { path: string; doc: unknown } | undefined {
  const path = joinPath(dirName(filePath), 'scenario_state.json');
  const doc = readJson(ctx, path);
  return doc === undefined ? undefined : { path, doc };
}
