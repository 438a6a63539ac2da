// Leaderboards (issue 7, `eval-lens board`): runs x tasks, one metric per cell with its interval,
// and each row's mean (for RAFT's macro_f1, the mean is raft_score). Also folktexts' appendix
// figure (--pivot prompting: the change from multiple-choice to numeric prompting per model and
// task) and folktexts' aggregated-results*.csv read as a board of reported figures. Pure: entries
// in, a plain JSON-able Board out; reading files is ../boardFiles.ts.
import type { FormatName, Kind, MetricName, RowProblem } from '../types';
import { METRIC_NAMES } from '../types';
import { parseCsv } from '../formats/csv';
import { headlineMetric } from '../../common/metricTable';
import { betterDirection } from '../../common/metricDirection';
import { holm } from './holm';
import { headlineOrder, taskMetricDirection, type DeclaredMetrics } from '../eee/taskMetrics';

export type Prompting = 'numeric' | 'multiple-choice';

/** One run on one task: a scored file, or a row of reported figures. */
export interface BoardEntry {
  /** Row name: the model or run (from the files' metadata, see boardFiles.ts). */
  run: string;
  /** Column name. */
  task: string;
  metrics: Partial<Record<MetricName, number | null>>;
  intervals?: Partial<Record<MetricName, [number, number]>>;
  /** The task's own metrics (lighteval's trad_score, idk_freq; a summary's reported figures), by their names, in the file's order. */
  taskMetrics?: Record<string, number | null>;
  taskIntervals?: Record<string, [number, number]>;
  /** What the source declares about them (lighteval's config_tasks: order, higher_is_better). */
  declared?: DeclaredMetrics;
  format?: FormatName;
  kind?: Kind;
  /** The file the figures came from (the panel opens it). */
  path?: string;
  /** folktexts: the model and how it was prompted, for --pivot prompting. */
  model?: string;
  prompting?: Prompting;
  /** The model revision the run names (lm-eval's model_args revision=): a model's checkpoints are rows of their own (separateRevisions). */
  revision?: string;
  /** When the run was made (ms since the epoch): of two runs of one row on one task, the newest is kept. */
  date?: number;
  /** The file that stands for the whole run (lm-eval's results file), to name it where two runs meet. */
  source?: string;
}

export interface BoardRow {
  run: string;
  values: Record<string, number | null>;
  intervals: Record<string, [number, number] | null>;
  /** Mean over the row's non-null cells (RAFT with macro_f1: raft_score); null when none. */
  mean: number | null;
  /** Cells the mean is over. */
  cells: number;
  /** Files behind the cells, by task. */
  paths: Record<string, string>;
  /** 1 + the rows with a strictly better mean (ties share the better rank); null without a mean. */
  rank?: number | null;
  /** [best, worst]: 2.5% and 97.5% nearest-rank quantiles of the rank over item resamples (docs/metrics.md#rank_interval). */
  rank_interval?: [number, number] | null;
  /** 1: the top row and every row not significantly worse than it (paired bootstrap, Holm, alpha 0.05); then 2 on the rest, ... */
  tier?: number | null;
}

export interface Board {
  /**
   * One of our metrics, or (task_metric true) a task's own metric the files log (BoardEntry.taskMetrics):
   * typed MetricName so that code indexing a report's metrics by it still compiles (it finds nothing there).
   */
  metric: MetricName;
  /** The metric is a task's own (lighteval's trad_score), not one of ours: its cells come from the files' task metrics. */
  task_metric?: true;
  /** Which way is better: rows come best first by mean. */
  better: 'higher' | 'lower';
  /**
   * How the metric was chosen and its direction decided, when the board says more than its name: a
   * task metric chosen by default, or one whose direction is unknown (rows then ranked highest first).
   */
  metric_note?: string;
  /** What `mean` is: 'raft_score' for RAFT boards of macro_f1, else 'mean'. */
  mean_of: 'raft_score' | 'mean';
  columns: string[];
  rows: BoardRow[];
  /** 'computed' from predictions, 'reported' from a results table, 'pivot' for --pivot prompting. */
  source: 'computed' | 'reported' | 'pivot';
  /** --pivot prompting: each value is numeric minus multiple-choice. */
  pivot?: 'prompting';
  problems: RowProblem[];
}

/** A task's own metric name (not one of ours): a string, kept apart from MetricName in the types. */
export type TaskMetricName = string & { readonly taskMetric?: true };

export interface BoardOptions {
  /** The metric of the cells; default: the headline metric of the first entry's kind, else a task metric every entry has. */
  metric?: MetricName | TaskMetricName;
  source?: Board['source'];
}

/** The board of `entries`: one row per run, one column per task, ranked by mean (best first). */
export function buildBoard(entries: readonly BoardEntry[], options: BoardOptions = {}): Board {
  const chosen = options.metric ?? defaultMetric(entries);
  const task = !isMetricName(chosen) || (options.metric === undefined && !entries.some((e) => typeof e.metrics[chosen] === 'number'));
  const fallback = options.metric === undefined && task ? defaultTaskMetric(entries) : undefined;
  const metric: MetricName | TaskMetricName = fallback?.metric ?? chosen;
  const direction = isMetricName(metric) && !fallback ? { better: betterDirection(metric), how: '' } : taskMetricDirection(metric, entries.find((e) => e.declared)?.declared);
  // A direction nobody states is not claimed: the rows are still ordered (highest first), and said so.
  const better = direction.better ?? 'higher';
  const notes = [
    ...(fallback ? [fallback.note] : []),
    ...(!isMetricName(metric) || fallback ? [direction.better ? `${direction.better} is better: ${direction.how}` : `direction ${direction.how}: rows ordered highest first, not ranked by a claim`] : []),
  ];
  const isTaskMetric = !isMetricName(metric) || !!fallback;
  const valueOf = (e: BoardEntry): number | null | undefined => (isMetricName(metric) && !fallback ? e.metrics[metric] : e.taskMetrics?.[metric] ?? (isMetricName(metric) ? e.metrics[metric] : undefined));
  const intervalOf = (e: BoardEntry) => (isMetricName(metric) && !fallback ? e.intervals?.[metric] : e.taskIntervals?.[metric] ?? (isMetricName(metric) ? e.intervals?.[metric] : undefined));
  const columns = [...new Set(entries.map((e) => e.task))].sort();
  const byRun = new Map<string, BoardRow>();
  const { kept, problems } = newestPerCell(entries);
  for (const e of kept) {
    let row = byRun.get(e.run);
    if (!row) byRun.set(e.run, (row = { run: e.run, values: {}, intervals: {}, mean: null, cells: 0, paths: {} }));
    const v = valueOf(e);
    row.values[e.task] = typeof v === 'number' && Number.isFinite(v) ? v : null;
    row.intervals[e.task] = intervalOf(e) ?? null;
    if (e.path) row.paths[e.task] = e.path;
  }
  const rows = [...byRun.values()];
  for (const row of rows) {
    for (const c of columns) if (!(c in row.values)) { row.values[c] = null; row.intervals[c] = null; }
    const present = columns.map((c) => row.values[c]).filter((v): v is number => v !== null);
    row.cells = present.length;
    row.mean = present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
    if (present.length < columns.length) {
      problems.push({ line: 1, severity: 'info', code: 'missing-field', message: `${row.run} has no ${metric} for ${columns.filter((c) => row.values[c] === null).join(', ')}: its mean is over ${present.length} of ${columns.length} tasks.` });
    }
  }
  rankRows(rows, better);
  assignRanks(rows, better);
  const raft = entries.length > 0 && entries.every((e) => e.format === 'raft');
  return {
    metric: metric as MetricName, ...(isTaskMetric ? { task_metric: true as const } : {}), better, ...(notes.length ? { metric_note: notes.join('; ') } : {}), mean_of: raft && metric === 'macro_f1' ? 'raft_score' : 'mean', columns, rows,
    source: options.source ?? 'computed', problems,
  };
}

/**
 * A model evaluated at several revisions (pythia's checkpoints, model_args revision=step113000):
 * one row per revision, "model@revision", rather than one row whose cells mix the runs. A model
 * named at one revision only keeps its plain name.
 */
export function separateRevisions(entries: BoardEntry[]): void {
  const revisions = new Map<string, Set<string>>();
  for (const e of entries) if (e.revision) (revisions.get(e.run) ?? revisions.set(e.run, new Set()).get(e.run)!).add(e.revision);
  for (const e of entries) if (e.revision && revisions.get(e.run)!.size > 1) e.run = `${e.run}@${e.revision}`;
}

/**
 * One entry per row and task: where two runs of one row give the same task (one model and
 * revision evaluated twice), the newest (by date; without dates, the first read) is kept, and one
 * warning per row names the runs, not one per task.
 */
function newestPerCell(entries: readonly BoardEntry[]): { kept: BoardEntry[]; problems: RowProblem[] } {
  const cells = new Map<string, BoardEntry[]>();
  for (const e of entries) {
    const key = `${e.run}\u0000${e.task}`;
    const list = cells.get(key);
    if (list) list.push(e); else cells.set(key, [e]);
  }
  const kept: BoardEntry[] = [];
  // Per row: the runs that met on some task, and on how many tasks.
  const met = new Map<string, { runs: BoardEntry[]; tasks: number; dated: boolean }>();
  for (const list of cells.values()) {
    let best = list[0];
    for (const e of list.slice(1)) if (e.date !== undefined && (best.date === undefined || e.date > best.date)) best = e;
    kept.push(best);
    if (list.length < 2) continue;
    const m = met.get(best.run) ?? met.set(best.run, { runs: [], tasks: 0, dated: true }).get(best.run)!;
    m.tasks++;
    if (list.some((e) => e.date === undefined)) m.dated = false;
    for (const e of [best, ...list]) if (!m.runs.some((r) => runFile(r) === runFile(e))) m.runs.push(e);
  }
  const problems: RowProblem[] = [];
  for (const [run, m] of met) {
    const named = fileNames(m.runs.map((e) => runFile(e) ?? '(unnamed)'));
    const files = m.runs.map((e, k) => `${named[k]}${e.date !== undefined ? ` (${dateText(e.date)})` : ''}`);
    const tasks = `${m.tasks} task${m.tasks === 1 ? '' : 's'}`;
    const which = m.dated ? `the board shows the newest, ${named[0]}` : `the board shows the first read, ${named[0]} (the runs carry no date)`;
    const newest = m.runs[0];
    problems.push({
      line: 1, severity: 'warning', code: 'duplicate-id', ...(runFile(newest) ? { path: runFile(newest) } : {}),
      message: `${run}${newest.revision ? ` (revision ${newest.revision})` : ''} has ${m.runs.length === 2 ? 'two runs' : `${m.runs.length} runs`} of the same ${tasks}: ${files.join(', ')}; ${which}.`,
    });
  }
  return { kept, problems };
}

/** The file a run is known by: its results file, else the file of the entry. */
function runFile(e: BoardEntry): string | undefined {
  return e.source ?? e.path;
}

/** Files by their names when those tell them apart (they are mostly in one folder), else by their paths. */
function fileNames(paths: readonly string[]): string[] {
  const names = paths.map((p) => p.split(/[\\/]/).pop() ?? p);
  return new Set(names).size === names.length ? names : [...paths];
}

/** 2025-01-26 22:29 UTC. */
function dateText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Files whose figures are their task's own metrics (lighteval's trad_score, idk_freq, extract_fail)
 * have no value for our headline: the board's metric is then the first task metric every entry has,
 * in headline order (the task's own order when its results file declares one, else scores before
 * metrics of unknown direction before failure rates; eee/taskMetrics.ts). Else the one most entries
 * have. Undefined when no entry has a task metric.
 */
function defaultTaskMetric(entries: readonly BoardEntry[]): { metric: TaskMetricName; note: string } | undefined {
  const withAny = entries.filter((e) => e.taskMetrics && Object.values(e.taskMetrics).some((v) => typeof v === 'number'));
  if (!withAny.length) return undefined;
  const names: string[] = [];
  for (const e of withAny) for (const [k, v] of Object.entries(e.taskMetrics!)) if (typeof v === 'number' && !names.includes(k)) names.push(k);
  const count = (n: string) => entries.filter((e) => typeof e.taskMetrics?.[n] === 'number').length;
  const ordered = headlineOrder(names, withAny.find((e) => e.declared)?.declared);
  const everyRow = ordered.filter((n) => count(n) === entries.length);
  const metric = everyRow[0] ?? [...ordered].sort((a, b) => count(b) - count(a))[0];
  const others = ordered.filter((n) => n !== metric);
  const note = `${metric}: the files' own task metric, ${everyRow.length ? 'the first in headline order that every result has' : `the one most results have (${count(metric)} of ${entries.length})`}${others.length ? `; --metric picks another (${others.join(', ')})` : ''}`;
  return { metric, note };
}

/** The task metrics the entries have, for --metric's message when it names none of them. */
export function taskMetricNames(entries: readonly BoardEntry[]): string[] {
  const names = new Set<string>();
  for (const e of entries) for (const [k, v] of Object.entries(e.taskMetrics ?? {})) if (typeof v === 'number') names.add(k);
  return [...names];
}

function defaultMetric(entries: readonly BoardEntry[]): MetricName {
  const first = entries.find((e) => e.kind !== undefined || e.format !== undefined);
  return first ? headlineMetric({ format: first.format ?? 'generic', kind: first.kind ?? 'binary' }) : 'accuracy';
}

/** Best mean first; rows without a mean last; ties by name. */
export function rankRows(rows: BoardRow[], better: 'higher' | 'lower'): void {
  const sign = better === 'higher' ? -1 : 1;
  rows.sort((a, b) => {
    if (a.mean === null || b.mean === null) return a.mean === null ? (b.mean === null ? a.run.localeCompare(b.run) : 1) : -1;
    return sign * (a.mean - b.mean) || a.run.localeCompare(b.run);
  });
}

/** rank = 1 + the rows with a strictly better mean; null without one. */
export function assignRanks(rows: BoardRow[], better: 'higher' | 'lower'): void {
  for (const row of rows) {
    if (row.mean === null) { row.rank = null; continue; }
    let ahead = 0;
    for (const other of rows) if (other.mean !== null && isBetter(other.mean, row.mean, better)) ahead++;
    row.rank = 1 + ahead;
  }
}

function isBetter(a: number, b: number, better: 'higher' | 'lower'): boolean {
  return better === 'higher' ? a > b : a < b;
}

/** Nearest-rank quantile of ascending values: x[ceil(q m) - 1]. */
function nearestRank(sorted: Float64Array, q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/**
 * rank_interval and tier of every row from resampled row means: samples[j][r] is row j's mean in
 * resample r (the same item draw for every row, stratified by task; NaN where undefined). Rows
 * must be in board order (best mean first).
 */
export function rankIntervals(rows: BoardRow[], samples: readonly Float64Array[], better: 'higher' | 'lower', alpha = 0.05): void {
  const resamples = samples[0]?.length ?? 0;
  const ranks = rows.map(() => [] as number[]);
  for (let r = 0; r < resamples; r++) {
    for (let j = 0; j < rows.length; j++) {
      const v = samples[j][r];
      if (rows[j].mean === null || !Number.isFinite(v)) continue;
      let ahead = 0;
      for (let k = 0; k < rows.length; k++) if (rows[k].mean !== null && Number.isFinite(samples[k][r]) && isBetter(samples[k][r], v, better)) ahead++;
      ranks[j].push(1 + ahead);
    }
  }
  rows.forEach((row, j) => {
    const sorted = Float64Array.from(ranks[j]).sort();
    row.rank_interval = row.mean === null || !sorted.length ? null : [nearestRank(sorted, 0.025), nearestRank(sorted, 0.975)];
  });
  // Tiers: the best remaining row and every row not significantly worse than it, then again.
  let remaining = rows.map((_, j) => j).filter((j) => rows[j].mean !== null);
  for (const row of rows) if (row.mean === null) row.tier = null;
  let tier = 1;
  while (remaining.length) {
    const top = remaining[0];
    const others = remaining.slice(1);
    const p = others.map((j) => pairedP(samples[top], samples[j]));
    const adjusted = holm(p);
    const members = [top, ...others.filter((j, k) => !(adjusted[k] !== null && adjusted[k]! < alpha && isBetter(rows[top].mean!, rows[j].mean!, better)))];
    for (const j of members) rows[j].tier = tier;
    remaining = remaining.filter((j) => !members.includes(j));
    tier++;
  }
}

/** The paired bootstrap's two-sided p of the resampled differences b - a (docs/metrics.md#bootstrap_p). */
function pairedP(a: Float64Array, b: Float64Array): number | null {
  let m = 0, atMost = 0, atLeast = 0;
  for (let r = 0; r < a.length; r++) {
    const d = b[r] - a[r];
    if (!Number.isFinite(d)) continue;
    m++;
    if (d <= 0) atMost++;
    if (d >= 0) atLeast++;
  }
  return m ? Math.min(1, (2 * Math.min(atMost, atLeast)) / m) : null;
}

/**
 * folktexts' appendix figure: per model (row) and task (column), metric(numeric prompting) -
 * metric(multiple-choice prompting). Models or tasks with only one prompting are left out, with a note.
 */
export function pivotPrompting(entries: readonly BoardEntry[], metric: MetricName): Board {
  const key = (e: BoardEntry) => `${e.model ?? e.run}\u0000${e.task}`;
  const numeric = new Map<string, BoardEntry>();
  const choice = new Map<string, BoardEntry>();
  for (const e of entries) {
    if (e.prompting === 'numeric') numeric.set(key(e), e);
    else if (e.prompting === 'multiple-choice') choice.set(key(e), e);
  }
  const pivoted: BoardEntry[] = [];
  let unpaired = 0;
  for (const [k, num] of numeric) {
    const mc = choice.get(k);
    if (!mc) { unpaired++; continue; }
    const a = num.metrics[metric];
    const b = mc.metrics[metric];
    pivoted.push({
      run: num.model ?? num.run, task: num.task, format: num.format, kind: num.kind,
      metrics: { [metric]: typeof a === 'number' && typeof b === 'number' ? a - b : null },
    });
  }
  unpaired += [...choice.keys()].filter((k) => !numeric.has(k)).length;
  const board = buildBoard(pivoted, { metric, source: 'pivot' });
  board.pivot = 'prompting';
  if (unpaired) board.problems.push({ line: 1, severity: 'info', code: 'missing-field', message: `${unpaired} model × task result${unpaired === 1 ? ' has' : 's have'} only one prompting and ${unpaired === 1 ? 'is' : 'are'} left out of the pivot.` });
  if (!pivoted.length) board.problems.push({ line: 1, severity: 'warning', code: 'missing-field', message: 'No model × task has both numeric and multiple-choice results: nothing to pivot.' });
  return board;
}

/** folktexts' column names for ours (docs/metrics.md; results JSON and aggregated CSV). */
const FOLKTEXTS_COLUMNS: Partial<Record<MetricName, string>> = {
  accuracy: 'accuracy', auc: 'roc_auc', brier: 'brier_score_loss', log_loss: 'log_loss', ece: 'ece', ece_quantile: 'ece_quantile',
};

/** Whether a file name is folktexts' aggregated results table. */
export function isAggregatedResults(path: string): boolean {
  return /(^|[\\/])aggregated[-_]results[^\\/]*\.csv$/i.test(path);
}

/**
 * folktexts' aggregated-results*.csv (one row per model x task x prompting, as its paper's
 * figures are made from): one entry per row, the figures as reported. The model is the `name`
 * column (else config_model_name / model_name), the task config_task_name, the prompting
 * config_numeric_risk_prompting; the index (`model__task__-1__Num|QA`) fills what is missing.
 */
export function aggregatedResultsEntries(text: string, path: string): { entries: BoardEntry[]; problems: RowProblem[] } {
  const table = parseCsv(text);
  const header = table.header.map((h) => h.trim());
  const col = (name: string) => header.indexOf(name);
  const entries: BoardEntry[] = [];
  const problems: RowProblem[] = [];
  for (const rec of table.records) {
    const f = (name: string) => (col(name) >= 0 ? rec.fields[col(name)]?.trim() ?? '' : '');
    const index = rec.fields[0] ?? '';
    const parts = index.split('__');
    const model = f('name') || f('config_model_name') || f('model_name') || parts[0];
    const task = f('config_task_name') || parts[1];
    const flag = f('config_numeric_risk_prompting').toLowerCase();
    const suffix = parts[parts.length - 1];
    const prompting: Prompting | undefined = flag === 'true' || suffix === 'Num' ? 'numeric' : flag === 'false' || suffix === 'QA' ? 'multiple-choice' : undefined;
    if (!model || !task) {
      problems.push({ line: rec.line, severity: 'warning', code: 'missing-field', path, message: 'The row names no model or task; it is left out of the board.' });
      continue;
    }
    const metrics: BoardEntry['metrics'] = {};
    for (const [m, c] of Object.entries(FOLKTEXTS_COLUMNS)) {
      if (col(c) < 0) continue;
      const raw = f(c);
      const v = raw === '' ? NaN : Number(raw);
      metrics[m as MetricName] = Number.isFinite(v) ? v : null;
    }
    entries.push({ run: prompting ? `${model} · ${prompting}` : model, task, metrics, format: 'folktexts', kind: 'binary', path, model, prompting });
  }
  return { entries, problems };
}

/**
 * Naming a folktexts run from its results JSON (results.bench-*.json): config.model_name,
 * config.task_name, config.numeric_risk_prompting (or the top-level model_name).
 */
export function folktextsNaming(results: unknown): { model?: string; task?: string; prompting?: Prompting } {
  if (!results || typeof results !== 'object') return {};
  const r = results as Record<string, unknown>;
  const config = (r.config && typeof r.config === 'object' ? r.config : {}) as Record<string, unknown>;
  const model = str(config.model_name) ?? str(r.model_name);
  const task = str(config.task_name) ?? str(r.task_name);
  const flag = config.numeric_risk_prompting ?? r.numeric_risk_prompting;
  return {
    ...(model ? { model: model.replace(/--/g, '/') } : {}),
    ...(task ? { task } : {}),
    ...(typeof flag === 'boolean' ? { prompting: flag ? 'numeric' : 'multiple-choice' } : {}),
  };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** Metrics a board may show (our metric names, docs/metrics.md). */
export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}
