// The figures lighteval reported for a task, from the results file of the run that wrote a details
// file. lighteval writes `{output_dir}/details/{model}/{date_id}/details_{task}_{date_id}.parquet`
// and `{output_dir}/results/{model}/results_{date_id}.json` (EvaluationTracker.save_details and
// save_results), date_id being the run's timestamp; a results file copied beside the details is
// found too. Its `results` maps "<task>|<fewshot>" (with a suite before it in versions up to 0.10:
// "leaderboard|arc:challenge|25") to the task's figures ({"acc": …, "acc_stderr": …}), beside an
// "all" average; `config_general.model_name` names the model.
import type { FormatContext } from './context';
import { stripBom } from './csv';
import { baseName, dirName } from '../../common/paths';
import { parsePythonJson } from './pythonJson';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** details_<task>_<date_id>.<ext>: the task keeps its pipes ("arc:challenge|25"). */
const DETAILS_NAME = /^details_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.(?:parquet|jsonl?|ndjson)$/i;

/** The task and run timestamp a details file's name carries, when it follows lighteval's pattern. */
export function detailsName(path: string): { task: string; timestamp: string } | undefined {
  const m = DETAILS_NAME.exec(baseName(path));
  return m ? { task: m[1], timestamp: m[2] } : undefined;
}

export interface LightevalResults {
  path: string;
  /** The task's figures under lighteval's own names (numbers; null where the file says "N/A" or null). */
  figures: Record<string, number | null>;
  model?: string;
}

/** Where the run's results file may be: beside the details, then lighteval's own layout. */
export function resultsCandidates(detailsPath: string, timestamp: string): string[] {
  const dir = dirName(detailsPath);
  const sep = detailsPath.includes('\\') && !detailsPath.includes('/') ? '\\' : '/';
  const name = `results_${timestamp}.json`;
  const out = [`${dir}${sep}${name}`];
  const parts = dir.split(/[\\/]/);
  const k = parts.lastIndexOf('details');
  if (k >= 0) {
    const model = parts.slice(k + 1);
    if (model[model.length - 1] === timestamp) model.pop();
    out.push([...parts.slice(0, k), 'results', ...model, name].join(sep));
  }
  return out;
}

/** The figures of `task` in the run's results file, when one is found and names the task. */
export function lightevalResults(detailsPath: string, task: string, timestamp: string, ctx: FormatContext): LightevalResults | undefined {
  for (const path of resultsCandidates(detailsPath, timestamp)) {
    const text = ctx.io.readText(path);
    if (text === undefined) continue;
    let doc: unknown;
    try {
      doc = parsePythonJson(stripBom(text));
    } catch {
      continue;
    }
    if (!isObject(doc) || !isObject(doc.results)) continue;
    const figures = taskFigures(doc.results, task);
    if (!figures) continue;
    const general = isObject(doc.config_general) ? doc.config_general : {};
    const model = typeof general.model_name === 'string' && general.model_name.trim() ? general.model_name.trim() : undefined;
    return { path, figures, ...(model ? { model } : {}) };
  }
  return undefined;
}

/**
 * The task's entry: its own key, else the one key that names the same task with or without a
 * suite before it ("lighteval|gsm8k|0" for "gsm8k|0", and the other way round).
 */
function taskFigures(results: Obj, task: string): Record<string, number | null> | undefined {
  let entry = results[task];
  if (!isObject(entry)) {
    const keys = Object.keys(results).filter((k) => k !== 'all' && (k.endsWith(`|${task}`) || task.endsWith(`|${k}`)));
    entry = keys.length === 1 ? results[keys[0]] : undefined;
  }
  if (!isObject(entry)) return undefined;
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(entry)) out[k] = typeof v === 'number' ? v : null;
  return out;
}
