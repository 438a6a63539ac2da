// `compare --slices COL[,COL…] | auto`: the baseline file's columns (or a data file's, joined on
// ID) read for its rows, put in aligned order, and handed to the slice finder for each candidate.
import type { RowProblem, ScoreOptions, SlicesOptions } from '../types';
import type { CompanionReader } from '../formats/context';
import { diskSource } from '../formats/parquetAhead';
import { sliceColumnsOf } from '../slices/scoreSlices';
import { defaultSliceMetric, findSlices, bySignificance, type SliceColumn, type SliceDelta } from './sliceFinder';
import { holm } from './holm';
import { groupRows } from '../slices/grouping';
import { DEFAULT_GROUP_BINS } from '../slices/slice';
import type { CompareRunInput, ComparisonDetail } from './compare';

/** A slice of one candidate (run: its name, when the comparison has several). */
export type RunSliceDelta = SliceDelta & { run?: string };

export function comparisonSlices(
  detail: ComparisonDetail, runs: readonly CompareRunInput[], spec: SlicesOptions, o: ScoreOptions, io: CompanionReader,
): { slices: RunSliceDelta[]; problems: RowProblem[]; labels: Record<string, (string | undefined)[]> } {
  const baseline = runs[0];
  const set = baseline.parsed.set!;
  const found = sliceColumnsOf(set, spec, { ...diskSource(baseline.path), io });
  const problems = found.problems.map((p) => ({ ...p, path: baseline.path }));
  // The baseline's rows in aligned order: instance k of every run.
  const rows = detail.alignment.rows[0];
  const columns: SliceColumn[] = found.columns.map(({ column, values }) => ({ column, values: Array.from(rows, (r) => values[r]) }));
  const metric = spec.metric ?? defaultSliceMetric(set);
  const all: RunSliceDelta[] = [];
  for (let c = 1; c < detail.subsets.length; c++) {
    const found = findSlices(detail.subsets[0], detail.subsets[c], columns, metric, o, { bins: spec.bins });
    for (const s of found) all.push(detail.subsets.length > 2 ? { ...s, run: runs[c].name ?? runs[c].path } : s);
  }
  // Holm over every slice of every candidate: that is how many tests were made.
  if (detail.subsets.length > 2) {
    const adjusted = holm(all.map((s) => s.p_value));
    all.forEach((s, k) => { s.p_holm = adjusted[k]; });
    all.sort(bySignificance);
  }
  // Each aligned instance's slice (the group label the slices use), for a page that filters by one.
  const labels: Record<string, (string | undefined)[]> = {};
  for (const { column, values } of columns) {
    const out = new Array<string | undefined>(values.length);
    for (const g of groupRows(values, spec.bins ?? DEFAULT_GROUP_BINS).groups) for (const i of g.rows) out[i] = g.value;
    labels[column] = out;
  }
  return { slices: all, problems, labels };
}
