// lm-eval's own figures for a task, from the results file beside a samples file (or
// from a simple_evaluate dump's "results"), under the names Eval Lens shows them by. Where a
// recomputed metric exists, the figure takes its name (acc -> accuracy), so the two stand side by
// side; anything else keeps lm-eval's name (acc_stderr, mcc, f1, ...). Where the names match but
// the definitions differ, a one-sentence note says so.
import type { CompanionReader, FormatContext } from './context';
import { stripBom } from './csv';
import { dirName, joinPath } from '../../common/paths';
import { parsePythonJson } from './pythonJson';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What kind of samples the figures are for: it decides which lm-eval name is `accuracy`. */
export type LmEvalMode = 'mc' | 'gen' | 'single';

export interface LmEvalReported {
  reported: Record<string, number | null>;
  notes: Record<string, string>;
  path: string;
  /** The task's target_delimiter from the results' configs, when written there. */
  targetDelimiter?: string;
}

/**
 * The results file of a samples file: results_<timestamp>.json in the same folder, else any
 * results*<timestamp>.json there (lm-eval has written results_<model>:<ts>_<ts>.json and other
 * prefixes), else <stem>_<timestamp>.json (what `--output_path <stem>.json` writes: lm-eval names
 * the results path.with_name(f"{stem}_{date_id}.json") and puts the samples beside it). The
 * timestamp pairs them, whatever stands before it; another samples file of the run is never taken.
 */
export function resultsPathFor(samplesPath: string, timestamp: string, io?: Pick<CompanionReader, 'list'>): string {
  const dir = dirName(samplesPath);
  const exact = `results_${timestamp}.json`;
  const names = io?.list(dir);
  if (names && !names.includes(exact)) {
    const found = names.filter((n) => n.endsWith(`${timestamp}.json`) && !/^samples_/i.test(n)).sort();
    // A results* name first (the usual folder layout), then the --output_path stem.
    const preferred = found.find((n) => /^results/i.test(n)) ?? found.find((n) => n.endsWith(`_${timestamp}.json`));
    if (preferred) return joinPath(dir, preferred);
  }
  return joinPath(dir, exact);
}

/** Read and parse the results document beside a samples file; undefined when absent or broken. */
export function readResultsDoc(path: string, ctx: FormatContext): Obj | undefined {
  const text = ctx.io.readText(path);
  if (text === undefined) return undefined;
  try {
    const doc = parsePythonJson(stripBom(text));
    return isObject(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** target_delimiter of a task in a results document's configs (lm-eval's default is a space). */
export function targetDelimiterOf(doc: Obj | undefined, task: string | undefined): string | undefined {
  const configs = doc && isObject(doc.configs) ? doc.configs : undefined;
  const config = configs && task ? configs[task] : undefined;
  return isObject(config) && typeof config.target_delimiter === 'string' ? config.target_delimiter : undefined;
}

/**
 * The figures of `task` under `filter` ("acc,none" -> acc), renamed for comparison. `verdictKey`
 * is the per-sample verdict Eval Lens's accuracy stands for (acc, or exact_match on generations).
 */
export function lmEvalReported(
  doc: Obj, path: string, task: string, filter: string, mode: LmEvalMode, verdictKey: string | undefined, labelSets: boolean,
): LmEvalReported | undefined {
  const results = isObject(doc.results) ? doc.results[task] : undefined;
  if (!isObject(results)) return undefined;
  const raw: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(results)) {
    const comma = key.lastIndexOf(',');
    if (comma === -1 || key.slice(comma + 1) !== filter) continue;
    const name = key.slice(0, comma);
    // "N/A" (no stderr for an aggregate metric) is shown as not reported; NaN and Infinity (Python's
    // json writes them, as in "mae,none": Infinity) are kept, and shown as such.
    raw[name] = typeof value === 'number' ? value : null;
  }
  if (!Object.keys(raw).length) return undefined;
  const accuracyKey = verdictKey ?? (mode === 'gen' ? 'exact_match' : 'acc');
  const reported: Record<string, number | null> = {};
  const notes: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === accuracyKey) reported.accuracy = value;
    else reported[name] = value;
  }
  if (mode === 'gen' && 'accuracy' in reported) {
    notes.accuracy = `lm-eval's ${accuracyKey} compares the answer after the task's filters and normalisation; here a response counts as right when lm-eval's per-sample verdict says so or its label equals the gold one (the rows where the two judge differently are listed as problems).`;
  }
  if (mode === 'gen' && 'macro_f1' in reported) {
    notes.macro_f1 = labelSets
      ? 'lm-eval\'s macro_f1 is the task\'s own aggregation over the label lists of its (gold, pred) pairs; here each distinct label set is one class and F1 is averaged over those classes, so the two differ.'
      : 'lm-eval\'s macro_f1 is the task\'s own aggregation of its (gold, pred) pairs; here F1 is averaged over every distinct answer seen as one class, which may count classes differently.';
  }
  return { reported, notes, path, targetDelimiter: targetDelimiterOf(doc, task) };
}

/**
 * The model a results document names: model_name (lm-eval 0.4.3+), else pretrained= of
 * config.model_args (a string or an object), else config.model.
 */
export function modelOfResults(doc: Obj | undefined): string | undefined {
  if (!doc) return undefined;
  if (typeof doc.model_name === 'string' && doc.model_name.trim()) return modelName(doc.model_name);
  const config = isObject(doc.config) ? doc.config : undefined;
  const args = config?.model_args;
  if (typeof args === 'string') {
    const m = /(?:^|,)\s*(?:pretrained|model|model_name|engine)=([^,]+)/.exec(args);
    if (m) return modelName(m[1]);
  } else if (isObject(args) && typeof args.pretrained === 'string') return modelName(args.pretrained);
  return typeof config?.model === 'string' && config.model.trim() ? config.model.trim() : undefined;
}

/** A Hub id as it is (org/name); a local checkpoint path (/gpfs/.../FLOR-760M) by its last folder. */
function modelName(raw: string): string {
  const t = raw.trim().replace(/[\\/]+$/, '');
  return /^(\/|\.{1,2}[\\/]|~|[A-Za-z]:[\\/])|\\/.test(t) ? t.split(/[\\/]/).pop()! : t;
}

/** Which run of a model a results document is: the model revision it names and when it was made. */
export interface LmEvalRunStamp {
  /** revision= of config.model_args (a checkpoint: pythia's step143000), else config.model_revision. */
  revision?: string;
  /** When the run was made, in ms since the epoch: the document's `date`, else the timestamp of its name. */
  date?: number;
}

/**
 * The revision and date of the run a results document stands for, so that two runs of one model
 * (two checkpoints, or the same one evaluated twice) are told apart rather than merged.
 */
export function runStampOfResults(doc: Obj | undefined, path?: string): LmEvalRunStamp {
  const config = doc && isObject(doc.config) ? doc.config : undefined;
  const args = config?.model_args;
  let revision: string | undefined;
  if (typeof args === 'string') revision = /(?:^|,)\s*revision=([^,]+)/.exec(args)?.[1].trim();
  else if (isObject(args) && typeof args.revision === 'string') revision = args.revision.trim();
  if (!revision && typeof config?.model_revision === 'string') revision = config.model_revision.trim();
  // lm-eval 0.4 writes `date` as seconds since the epoch (time.time()).
  const date = typeof doc?.date === 'number' && Number.isFinite(doc.date) ? doc.date * 1000 : path ? dateOfName(path) : undefined;
  return { ...(revision ? { revision } : {}), ...(date !== undefined ? { date } : {}) };
}

/** The date_id lm-eval puts in its file names (2025-01-24T19-02-29.392595), read as UTC. */
function dateOfName(path: string): number | undefined {
  const m = /(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}(?:\.\d{1,3})?)\d*(?=\D*$)/.exec(path.split(/[\\/]/).pop() ?? '');
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  return Number.isFinite(t) ? t : undefined;
}
