// --group-by: the report's metrics again for each group of a column (with their bootstrap
// intervals), folktexts' rates at the threshold per group and its fairness figures across groups,
// and folktexts' best threshold. The column comes from the predictions file itself or from a data
// file joined on ID (columnValues.ts, dataJoin.ts); groups are formed in grouping.ts.
import type { GroupSlice, GroupsResult, ParseResult, PredictionSet, Report, RowProblem, ScoreOptions } from '../types';
import type { CompanionReader, FileInput } from '../formats/context';
import { agrees, buildReport, gatherSet } from '../report';
import { MAX_LISTED, ownColumnNames, ownColumnValues, type RowValues } from './columnValues';
import { joinDataFile } from './dataJoin';
import { offeredColumns, offeredDataColumns } from './offeredColumns';
import { groupRows, type RowGroup } from './grouping';
import { readOneColumn } from './readColumn';
import { bestThreshold, thresholdRates } from './rates';
import { decisionScores } from '../metrics/decisions';
import { belowMinGroupSize, fairnessFigures, MIN_GROUP_SHARE, type FairnessGroup } from './fairness';

/** Groups with fewer rows than this are flagged `small`. */
export const SMALL_GROUP = 30;
/** Default K of --group-bins. */
export const DEFAULT_GROUP_BINS = 4;

/**
 * Options with `threshold` set to folktexts' best threshold when `bestThreshold` asks for it: on
 * every scored row of the file, before any join or split. Notes the choice on parsed.problems.
 */
export function resolveBestThreshold(parsed: ParseResult, o: ScoreOptions): ScoreOptions {
  if (!o.bestThreshold || parsed.set?.kind !== 'binary') return o;
  const set = parsed.set;
  const best = bestThreshold(set.score, set.label);
  if (!best) {
    parsed.problems.push({ line: 1, severity: 'warning', code: 'best-threshold', message: `The best threshold needs both labels in the file; threshold ${o.threshold} is used instead.` });
    return o;
  }
  parsed.problems.push({
    line: 1, severity: 'info', code: 'best-threshold',
    message: Number.isFinite(best.threshold)
      ? `Threshold "best": ${best.threshold} minimises fpr + (1 - tpr) on the ROC curve (fpr ${fmt(best.fpr)}, tpr ${fmt(best.tpr)}).`
      : 'Threshold "best": no score threshold beats predicting every row negative (fpr + (1 - tpr) = 1); the threshold is infinite.',
  });
  return { ...o, threshold: best.threshold };
}

/** Where the file's own columns are read from (read lazily), and how its companions are read. */
export interface SliceSource {
  input: () => FileInput | undefined;
  io: CompanionReader;
  /** Lines of the input before row 1 that set.lines do not count (a Parquet table's CSV header). */
  lineOffset?: number;
  /**
   * The file's own column names when `input` has no file to give: a Parquet table read straight
   * into typed columns names them from its schema, so the lists on offer are the CSV twin's.
   */
  columnNames?: () => string[];
}

/** Whether the rows have IDs, without making a lazily read ID column (a million strings). */
function hasRowIds(set: PredictionSet): boolean {
  if (set.idNumbers !== undefined) return true;
  const d = Object.getOwnPropertyDescriptor(set, 'ids');
  return !!d && (d.get !== undefined || d.value !== undefined);
}

/** options.listColumns and options.groupBy: the columns on offer, and the groups. */
export function attachSlices(report: Report, source: SliceSource, parsed: ParseResult, o: ScoreOptions): void {
  const list = o.listColumns;
  let input: FileInput | undefined | null = null;
  const inputOnce = () => (input === null ? (input = source.input()) : input);
  if (list && parsed.set) {
    // Not the set's own columns (score, label, ID, ...) nor free text (offeredColumns.ts).
    const data = list.dataPath ? offeredDataColumns(list.dataPath, source.io) : undefined;
    const own = inputOnce();
    const listed = own ? ownColumnNames(own, parsed.set) : source.columnNames?.().slice(0, MAX_LISTED) ?? [];
    const predictions = offeredColumns(listed, own, parsed.set, source.lineOffset ?? 0, parsed.columnSample);
    // A column chosen by name stays on offer, so the lists show what the report is grouped or clustered by.
    for (const chosen of [o.groupBy, o.cluster]) {
      if (chosen && !chosen.dataPath && listed.includes(chosen.column) && !predictions.includes(chosen.column)) predictions.push(chosen.column);
    }
    // Rows without IDs: no data file can be joined to them, and the page says so.
    const joinable = hasRowIds(parsed.set);
    report.groupColumns = { predictions, ...(data && joinable ? { data, dataPath: list.dataPath } : {}), ...(joinable ? {} : { unjoinable: true as const }) };
  }
  if (o.readColumn && parsed.set) report.columnRead = readOneColumn(o.readColumn, parsed.set, inputOnce, source);
  attachGroups(report, inputOnce, parsed, o, source);
}

/** Split the report's set by the group column and attach `groups` (and its problems) to the report. */
function attachGroups(report: Report, inputOf: () => FileInput | undefined, parsed: ParseResult, o: ScoreOptions, from: SliceSource): void {
  const io = from.io;
  const by = o.groupBy;
  const set = parsed.set;
  if (!by || !set || set.n === 0) return;
  const problems: RowProblem[] = [];
  let values: RowValues;
  let unmatched = 0, ambiguous = 0;
  let source: GroupsResult['source'] = 'predictions';
  if (by.dataPath) {
    const joined = joinDataFile(set, by.dataPath, by.column, by.joinKey, io);
    if ('fatal' in joined) {
      report.problems.push(joined.fatal);
      return;
    }
    problems.push(...joined.problems);
    values = joined.values;
    unmatched = joined.unmatched;
    ambiguous = joined.ambiguous;
    source = 'data';
  } else {
    const input = inputOf();
    const own = input ? ownColumnValues(input, set, by.column, from.lineOffset ?? 0) : { missing: [] };
    if ('missing' in own) {
      report.problems.push({
        line: 1, severity: 'error', code: 'group-column',
        message: `The file has no column ${JSON.stringify(by.column)} to group by${own.missing.length ? `; its columns are ${own.missing.slice(0, 30).map((c) => JSON.stringify(c)).join(', ')}` : ''}. A column of another file needs --data FILE (joined on ID).`,
      });
      return;
    }
    values = own.values;
  }

  const grouping = groupRows(values, by.bins ?? DEFAULT_GROUP_BINS);
  // A row of the predictions file with no value in the column (an empty JSON field) is unmatched too.
  if (source === 'predictions') unmatched = grouping.missing;
  const sub: ScoreOptions = { ...o, instances: false, groupBy: undefined, bestThreshold: false, onProgress: undefined };
  const byModel = judgedByModel(set, grouping.groups);
  const kept = (byModel ? byModel.groups : grouping.groups).filter((g) => g.rows.length > 0);
  if (byModel) {
    problems.push({
      line: 1, severity: 'info', code: 'group-column',
      message: `The file judges ${byModel.models} models, and a judge's figure over several models would blend them: each group is one model's rows with one value of ${JSON.stringify(by.column)} ("model · value").`,
    });
  }
  const total = kept.reduce((s, g) => s + g.rows.length, 0);
  const groups: GroupSlice[] = [];
  const fair: FairnessGroup[] = [];
  const rowGroup = o.instances === false ? undefined : rowGroupArray(set.n, kept.length);
  for (const g of kept) {
    if (rowGroup) for (let k = 0; k < g.rows.length; k++) rowGroup[g.rows[k]] = groups.length;
    const subset = gatherSet(set, g.rows);
    // Per-sample metrics (a scores table's only figures) go with their rows: each group has their means.
    const taskMetrics = parsed.taskMetrics?.map((t) => ({ name: t.name, values: Float64Array.from(g.rows, (i) => t.values[i]) }));
    const r = buildReport(report.path, { format: parsed.format, set: subset, problems: [], skipped: 0, unlabeled: 0, ...(taskMetrics ? { taskMetrics } : {}) }, sub);
    const slice: GroupSlice = { value: g.value, n: g.rows.length, metrics: r.metrics, intervals: r.intervals, ...(r.taskMetrics ? { taskMetrics: r.taskMetrics } : {}) };
    if (g.rows.length < SMALL_GROUP) slice.small = true;
    if (r.bins) slice.bins = r.bins.equalWidth;
    if (r.smoothReliability) slice.smoothReliability = r.smoothReliability;
    if (set.kind === 'binary') {
      if (belowMinGroupSize(g.rows.length, total)) slice.excludedFromFairness = true;
      const d = decisionScores(set, o.threshold);
      const rates = thresholdRates(d.score, set.label, d.threshold, g.rows);
      fair.push({ n: g.rows.length, rates, ece: r.metrics.ece });
    }
    groups.push(slice);
  }
  const fairness = set.kind === 'binary' ? fairnessFigures(fair, total) : {};
  report.groups = {
    column: by.column, source, ...(source === 'data' ? { dataPath: by.dataPath } : {}),
    unmatched, ...(ambiguous ? { ambiguous } : {}), ...(grouping.edges ? { edges: grouping.edges } : {}),
    groups, fairness, ...(rowGroup ? { rowGroup } : {}),
  };
  if (source === 'predictions' && unmatched) {
    problems.push({ line: 1, severity: 'warning', code: 'unmatched-id', message: `${unmatched} row${unmatched === 1 ? ' has' : 's have'} no value in ${JSON.stringify(by.column)}; ${unmatched === 1 ? 'it is' : 'they are'} left out of the groups.` });
  }
  const small = groups.filter((g) => g.small);
  if (small.length) {
    problems.push({ line: 1, severity: 'info', code: 'group-column', message: `${small.length} group${small.length === 1 ? ' has' : 's have'} fewer than ${SMALL_GROUP} rows (${small.slice(0, 5).map((g) => `${JSON.stringify(g.value)}: ${g.n}`).join(', ')}); their figures are noisy.` });
  }
  const excluded = groups.filter((g) => g.excludedFromFairness);
  if (excluded.length && Object.keys(fairness).length) {
    problems.push({ line: 1, severity: 'info', code: 'group-column', message: `As in folktexts, the fairness figures leave out group${excluded.length === 1 ? '' : 's'} below ${MIN_GROUP_SHARE * 100}% of the rows: ${excluded.slice(0, 5).map((g) => JSON.stringify(g.value)).join(', ')}.` });
  }
  problems.push(...fairnessMismatches(report, fairness));
  report.problems.push(...problems);
}

/**
 * A judge file grading several models (MT-Bench single grades, AlpacaEval's generators): its figures
 * are per model (judgeReport.ts gives none over several), so a group holding rows of several models
 * would have no figure at all. Such groups are split by model, model first ("model · value"); null
 * when the file judges one model, its rows are pairs (each about two models), or each group already
 * holds one model (grouping by the model column itself).
 */
function judgedByModel(set: PredictionSet, groups: RowGroup[]): { groups: RowGroup[]; models: number } | null {
  const judge = set.kind === 'scores' ? set.judge : undefined;
  if (!judge || judge.kind === 'pair') return null;
  const model = judge.model;
  const mixed = groups.some((g) => g.rows.some((i) => model[i] !== model[g.rows[0]]));
  if (!mixed) return null;
  const present = [...new Set(model)].sort((a, b) => a - b);
  const out: RowGroup[] = [];
  for (const m of present) {
    for (const g of groups) {
      const rows = g.rows.filter((i) => model[i] === m);
      if (rows.length) out.push({ value: `${judge.models[m]} · ${g.value}`, rows });
    }
  }
  return { groups: out, models: present.length };
}

/** -1 for every row, in the narrowest signed array that holds group indices below `groups`. */
function rowGroupArray(n: number, groups: number): Int8Array | Int16Array | Int32Array {
  const out = groups <= 127 ? new Int8Array(n) : groups <= 32767 ? new Int16Array(n) : new Int32Array(n);
  return out.fill(-1);
}

/** Reported fairness keys (results.bench-*.json) that disagree with the recomputed ones. */
function fairnessMismatches(report: Report, fairness: Record<string, number>): RowProblem[] {
  const out: RowProblem[] = [];
  for (const [key, mine] of Object.entries(fairness)) {
    const theirs = report.reported[key];
    if (typeof theirs !== 'number') continue;
    if (!agrees(theirs, mine)) {
      out.push({
        line: 1, severity: 'warning', code: 'reported-mismatch', path: report.reportedPath,
        message: `${key}: the results file reports ${fmt(theirs)}, recomputed by ${JSON.stringify(report.groups?.column)} ${fmt(mine)}.`,
      });
    }
  }
  return out;
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}
