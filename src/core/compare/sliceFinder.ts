// Where two runs differ (issue 20.4): for every slice of every column asked for (its values, or
// the quantile groups of a numeric column, as --group-by makes them), the candidate's metric minus
// the baseline's on the aligned instances of that slice, with the paired bootstrap interval and the
// paired test the compare table uses for the metric (exact McNemar for accuracy, DeLong for AUC,
// the paired bootstrap otherwise); Holm-adjusted over every slice tested. Sorted so that what
// survives the adjustment comes first.
import type { MetricName, PredictionSet, ScoreOptions, SliceDelta, SliceTest } from '../types';
import { gatherSet, resampleMetrics, scoreSet } from '../report';
import type { RowValues } from '../slices/columnValues';
import { groupRows } from '../slices/grouping';
import { DEFAULT_GROUP_BINS } from '../slices/slice';
import { correctness, agreementCounts } from './agreement';
import { delongTest } from './delong';
import { holm } from './holm';
import { mcnemarExact } from './mcnemar';
import { oneStratum, pairedBootstrap, type Counts } from './pairedBootstrap';

export type { SliceDelta, SliceTest } from '../types';


export interface SliceColumn {
  column: string;
  /** The column's value for each aligned instance. */
  values: RowValues;
}

/** The metric a slice finder compares by default: accuracy where the kind has one, else the headline. */
export function defaultSliceMetric(set: PredictionSet): MetricName {
  return set.kind === 'probability' ? 'mse' : 'accuracy';
}

/**
 * Every slice of every column, baseline and candidate aligned (instance k of one is instance k of
 * the other). Slices of fewer than `minRows` instances are left out (nothing to test).
 */
export function findSlices(
  base: PredictionSet, cand: PredictionSet, columns: readonly SliceColumn[], metric: MetricName, o: ScoreOptions,
  { bins = DEFAULT_GROUP_BINS, minRows = 2 } = {},
): SliceDelta[] {
  const out: SliceDelta[] = [];
  const right = [correctness(base, o.threshold), correctness(cand, o.threshold)];
  const test: SliceTest = metric === 'auc' && base.kind === 'binary' ? 'delong' : metric === 'accuracy' && right[0] && right[1] ? 'mcnemar' : 'bootstrap';
  for (const { column, values } of columns) {
    for (const group of groupRows(values, bins).groups) {
      if (group.rows.length < minRows) continue;
      // Accuracy is the mean of the right/wrong bits: no need to score the slice's sets for it.
      const bits = test === 'mcnemar' ? [gatherBits(right[0]!, group.rows), gatherBits(right[1]!, group.rows)] : null;
      const sets = bits ? null : [gatherSet(base, group.rows), gatherSet(cand, group.rows)];
      const [b, c] = sets ?? [null, null];
      const bv = bits ? mean(bits[0]) : scoreSet(b!, { ...o, instances: false }).metrics[metric] ?? null;
      const cv = bits ? mean(bits[1]) : scoreSet(c!, { ...o, instances: false }).metrics[metric] ?? null;
      // Accuracy of a resample is the weighted mean of the bits: the same figure the full resample
      // gives, from the same draws, at a fraction of the cost.
      const resamplers = bits ? bits.map((r) => oneStratum((w) => ({ [metric]: weightedMean(r, w) }))) : [oneStratum(resampleMetrics(b!, o)), oneStratum(resampleMetrics(c!, o))];
      const boot = o.bootstrap > 0
        ? pairedBootstrap([group.rows.length], resamplers, { resamples: o.bootstrap, seed: o.seed })[metric]?.[0]
        : undefined;
      let p: number | null = null;
      if (bits) {
        const t = agreementCounts(bits[0], bits[1]);
        p = mcnemarExact(t.baseline_only, t.candidate_only);
      } else if (test === 'delong' && b?.kind === 'binary' && c?.kind === 'binary') {
        p = delongTest(b.score, c.score, b.label)?.p ?? null;
      } else {
        p = boot?.p ?? null;
      }
      out.push({
        column, value: group.value, n: group.rows.length, metric, baseline: bv, candidate: cv,
        delta: bv === null || cv === null ? null : cv - bv, interval: boot?.interval ?? null, p_value: p, p_holm: null, test,
      });
    }
  }
  const adjusted = holm(out.map((s) => s.p_value));
  out.forEach((s, k) => { s.p_holm = adjusted[k]; });
  return out.sort(bySignificance);
}

function weightedMean(bits: Uint8Array, w: Counts): number | null {
  let s = 0, n = 0;
  for (let i = 0; i < bits.length; i++) { s += w[i] * bits[i]; n += w[i]; }
  return n ? s / n : null;
}

function mean(bits: Uint8Array): number | null {
  let s = 0;
  for (let i = 0; i < bits.length; i++) s += bits[i];
  return bits.length ? s / bits.length : null;
}

function gatherBits(bits: Uint8Array, rows: Uint32Array): Uint8Array {
  const out = new Uint8Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = bits[rows[i]];
  return out;
}

/**
 * By Holm-adjusted p, then raw p (untested last), then the larger |delta| (on a million rows many
 * p-values are 0 to double precision: the bigger difference comes first), then column and value.
 */
export function bySignificance(a: { p_holm: number | null; p_value: number | null; delta: number | null; column: string; value: string }, b: typeof a): number {
  const ap = a.p_holm ?? Infinity, bp = b.p_holm ?? Infinity;
  if (ap !== bp) return ap - bp;
  const ar = a.p_value ?? Infinity, br = b.p_value ?? Infinity;
  if (ar !== br) return ar - br;
  const ad = Math.abs(a.delta ?? 0), bd = Math.abs(b.delta ?? 0);
  if (ad !== bd) return bd - ad;
  return a.column < b.column ? -1 : a.column > b.column ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}
