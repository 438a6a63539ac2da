// `score --slices COL[,COL…] | auto`: the columns' values for each scored row, then sliceVsRest.
// auto: every column of the file (and of --data) with 2 to 20 values, or numeric with more (cut at
// its quantiles), that is not one of the set's own columns (its scores, labels, predictions) and
// not an ID (a distinct text per row).
import type { PredictionSet, RowProblem, ScoreOptions, SlicesOptions } from '../types';
import type { FileInput } from '../formats/context';
import { ownColumnNames, ownColumnsValues, type RowValues } from './columnValues';
import { dataColumnNames } from './dataJoin';
import { MAX_DISTINCT_FOR_VALUES } from './grouping';
import { valuesOf } from './where';
import { sliceVsRest, type SliceContrast } from './sliceVsRest';
import { defaultSliceMetric, type SliceColumn } from '../compare/sliceFinder';
import type { SliceSource } from './slice';

/** Whether a column should be sliced by when --slices auto picks. */
export function autoSliceable(values: RowValues, set: PredictionSet): boolean {
  const distinct = new Set<string>();
  let numeric = true;
  for (const v of values) {
    if (v === undefined) continue;
    distinct.add(v);
    if (numeric && !Number.isFinite(Number(v.trim() || 'x'))) numeric = false;
    if (!numeric && distinct.size > MAX_DISTINCT_FOR_VALUES) return false; // text with many values: an ID or free text
  }
  if (distinct.size < 2) return false;
  return !ownRoleColumn(values, set);
}

/** A column that holds the set's own figures (its score, label, prediction): slicing by it says nothing new. */
function ownRoleColumn(values: RowValues, set: PredictionSet): boolean {
  const arrays: ArrayLike<number>[] = set.kind === 'binary' ? [set.score, set.label]
    : set.kind === 'confidence' ? [set.confidence, set.correct]
      : set.kind === 'probability' ? [set.predProb, set.goldProb] : [];
  const same = (a: ArrayLike<number>) => values.every((v, i) => v !== undefined && Math.abs(Number(v) - a[i]) <= 1e-9 * Math.max(1, Math.abs(a[i])));
  // The IDs, numeric (folktexts' index) or text, are no slice either.
  if (set.idNumbers) arrays.push(set.idNumbers);
  if (arrays.some(same)) return true;
  if (set.ids && values.every((v, i) => v !== undefined && v.trim() === set.ids![i])) return true;
  if (set.kind === 'multiclass') {
    const named = (idx: Int32Array) => values.every((v, i) => v !== undefined && v.trim() === set.classes[idx[i]]);
    return named(set.gold) || named(set.pred);
  }
  return false;
}

/**
 * The columns --slices asks for (or, with auto, every column of the file and of --data that is
 * worth slicing by), each with its value for every row of `set`; a column that cannot be read is a
 * problem. The file's own columns are read in one pass.
 */
export function sliceColumnsOf(set: PredictionSet, spec: SlicesOptions, source: SliceSource): { columns: SliceColumn[]; problems: RowProblem[] } {
  let input: FileInput | undefined | null = null;
  const inputOnce = () => (input === null ? (input = source.input()) : input);
  const auto = spec.columns === 'auto';
  const file = inputOnce();
  const names = auto
    ? [...(file ? ownColumnNames(file, set) : []), ...(spec.dataPath ? dataColumnNames(spec.dataPath, source.io) ?? [] : [])]
    : spec.columns as string[];
  const unique = [...new Set(names)];
  const read = file ? ownColumnsValues(file, set, unique, source.lineOffset ?? 0) : new Map();
  const problems: RowProblem[] = [];
  const columns: SliceColumn[] = [];
  for (const column of unique) {
    const own = read.get(column);
    const values = own && 'values' in own ? own.values : valuesOf(set, column, spec, inputOnce, source);
    if (typeof values === 'string') {
      problems.push({ line: 1, severity: 'error', code: 'group-column', message: `--slices: ${values}` });
      continue;
    }
    // An empty cell is no value: "SEX =" is no slice to test (it only inflated Holm's count, issue 28.4).
    const present: RowValues = Array.from(values as ArrayLike<string | undefined>, (v) => (v === '' ? undefined : v));
    if (auto && !autoSliceable(present, set)) continue;
    columns.push({ column, values: present });
  }
  return { columns, problems };
}

export function scoreSlices(set: PredictionSet, spec: SlicesOptions, o: ScoreOptions, source: SliceSource): { slices: SliceContrast[]; problems: RowProblem[] } {
  // A table of per-sample scores has no metric of its own to contrast (its figures are the means).
  if (set.kind === 'scores' && spec.metric === undefined) {
    return { slices: [], problems: [{ line: 1, severity: 'info', code: 'unscorable', message: '--slices contrasts a metric of predictions against their gold labels; a table of per-sample scores has none (its figures are the means of its columns: --group-by COLUMN gives them per group).' }] };
  }
  const { columns, problems } = sliceColumnsOf(set, spec, source);
  const metric = spec.metric ?? defaultSliceMetric(set);
  return { slices: sliceVsRest(set, columns, metric, o, { bins: spec.bins }), problems };
}
