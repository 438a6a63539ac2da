// Where one model is worst (issue 20.5, `score --slices`): every slice of the columns asked for,
// its metric against the rest of the file, delta = slice - rest, with a two-sided test (Fisher's
// exact for accuracy, where each row is right or wrong; otherwise an unpaired bootstrap of the
// delta, slice and rest resampled apart) and Holm over every slice tested. A slice is not compared
// with the whole file, which contains it: the rest is what it is set against.
import type { MetricName, PredictionSet, ScoreOptions, SliceContrast } from '../types';

export type { SliceContrast } from '../types';
import { gatherSet, resampleMetrics, scoreSet } from '../report';
import { correctness } from '../compare/agreement';
import { holm } from '../compare/holm';
import { pairedBootstrap } from '../compare/pairedBootstrap';
import { fisherExact } from '../metrics/fisher';
import { groupRows } from './grouping';
import { bySignificance, type SliceColumn } from '../compare/sliceFinder';
import { DEFAULT_GROUP_BINS } from './slice';


export function sliceVsRest(set: PredictionSet, columns: readonly SliceColumn[], metric: MetricName, o: ScoreOptions, { bins = DEFAULT_GROUP_BINS, minRows = 2 } = {}): SliceContrast[] {
  const right = correctness(set, o.threshold);
  const test = metric === 'accuracy' && right ? 'fisher' : 'bootstrap';
  const out: SliceContrast[] = [];
  const inSlice = new Uint8Array(set.n);
  for (const { column, values } of columns) {
    for (const group of groupRows(values, bins).groups) {
      const restCount = set.n - group.rows.length;
      if (group.rows.length < minRows || restCount < minRows) continue;
      inSlice.fill(0);
      for (const i of group.rows) inSlice[i] = 1;
      const restRows = new Uint32Array(restCount);
      for (let i = 0, k = 0; i < set.n; i++) if (!inSlice[i]) restRows[k++] = i;
      const slice = gatherSet(set, group.rows);
      const rest = gatherSet(set, restRows);
      const sv = scoreSet(slice, { ...o, instances: false }).metrics[metric] ?? null;
      const rv = scoreSet(rest, { ...o, instances: false }).metrics[metric] ?? null;
      // Slice and rest resampled apart: stratum 0 the rest, stratum 1 the slice.
      const restScore = resampleMetrics(rest, o);
      const sliceScore = resampleMetrics(slice, o);
      const boot = o.bootstrap > 0
        ? pairedBootstrap([restCount, group.rows.length], [(ws) => restScore(ws[0]), (ws) => sliceScore(ws[1])], { resamples: o.bootstrap, seed: o.seed })[metric]?.[0]
        : undefined;
      let p: number | null;
      if (test === 'fisher') {
        let a = 0, c = 0;
        for (const i of group.rows) a += right![i];
        for (const i of restRows) c += right![i];
        p = fisherExact(a, group.rows.length - a, c, restCount - c);
      } else {
        p = boot?.p ?? null;
      }
      out.push({
        column, value: group.value, n: group.rows.length, metric, slice: sv, rest: rv,
        delta: sv === null || rv === null ? null : sv - rv, interval: boot?.interval ?? null, p_value: p, p_holm: null, test,
      });
    }
  }
  const adjusted = holm(out.map((s) => s.p_value));
  out.forEach((s, k) => { s.p_holm = adjusted[k]; });
  return out.sort(bySignificance);
}
