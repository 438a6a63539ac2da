// Error bars (issue 18) in words, the same in the CLI's documents and on the pages: rough intervals,
// how much clustering widened them, and what a comparison could detect.
import type { ClustersResult } from '../core/types';

/** "intervals are rough (n < 30)", or with clusters "intervals are rough (24 clusters < 30)". */
export function roughIntervalsText(r: { clusters?: Pick<ClustersResult, 'count'> }): string {
  return r.clusters ? `intervals are rough (${r.clusters.count} clusters < 30)` : 'intervals are rough (n < 30)';
}

/** How many times wider clustering made a metric's intervals: √design_effect (null without one). */
export function clusterWidening(clusters: ClustersResult | undefined, metric: string): number | null {
  const d = clusters?.design_effect[metric as keyof ClustersResult['design_effect']];
  return typeof d === 'number' && Number.isFinite(d) && d >= 0 ? Math.sqrt(d) : null;
}

/** 128561 -> "128,561" (no locale: the same text everywhere). */
export function groupedInteger(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A comparison's power in words: "could detect ±0.0030; 128,561 items would make this Δ significant"
 * (80% power, two-sided α 0.05). `fmt` formats the mde; null when there is no mde.
 */
export function powerText(mde: number | null | undefined, nNeeded: number | null | undefined, delta: number | null | undefined, fmt: (v: number) => string): string | null {
  if (mde === null || mde === undefined || !Number.isFinite(mde)) return null;
  // No spread in the paired differences (the runs agree on every instance): no power to speak of.
  if (mde === 0 && (delta === 0 || delta === null || delta === undefined)) return 'the runs agree on every aligned instance: Δ is 0 with no spread, so there is no power to estimate';
  const detect = `could detect ±${fmt(mde)}`;
  if (nNeeded === null || nNeeded === undefined) return delta === 0 ? `${detect}; Δ is 0: no number of items would make it significant` : detect;
  return `${detect}; ${groupedInteger(nNeeded)} item${nNeeded === 1 ? '' : 's'} would make this Δ significant`;
}

/**
 * Whether a Δ's 95% interval and its test's p-value tell the same story. They can disagree: the
 * exact McNemar test counts only the instances where the runs differ (conservative when those are
 * few) while a percentile bootstrap interval is approximate there; DeLong's test is asymptotic.
 * Null when they agree (or either is missing); else a sentence for the reader.
 */
export function intervalTestDisagreement(
  interval: readonly [number, number] | null | undefined, p: number | null | undefined, testName: string, alpha = 0.05,
): string | null {
  if (!interval || p === null || p === undefined || !Number.isFinite(p)) return null;
  const excludesZero = interval[0] > 0 || interval[1] < 0;
  const significant = p < alpha;
  if (excludesZero === significant) return null;
  return excludesZero
    ? `The 95% interval (paired bootstrap) excludes 0 but the ${testName} test does not reject (p = ${String(Number(p.toPrecision(2)))}): the two are approximations that part on few differing instances; read the difference as not established.`
    : `The ${testName} test rejects (p = ${String(Number(p.toPrecision(2)))}) but the 95% interval (paired bootstrap) contains 0: the two are approximations that part near the edge; read the difference as borderline.`;
}

/**
 * A standard error with three significant figures: 0.00148 as "0.00148" and 0.0213 as "0.0213"
 * (three decimals made them "0.001" and "0.021"); "—" for none.
 */
export function formatStandardError(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (v === 0) return '0';
  const text = v.toPrecision(3);
  // 1234 -> "1.23e+3": write large ones out.
  return text.includes('e') && Math.abs(v) >= 1 ? String(Number(text)) : text;
}

/**
 * The metrics an "Error bars" table lists, in the report's order: each with a standard error, but
 * not nbr where it is brier's figure again (a binary report's normalised Brier is its Brier score).
 */
export function standardErrorMetrics(se: Readonly<Record<string, number | null | undefined>>, clustered?: Readonly<Record<string, number | null | undefined>>): string[] {
  return Object.keys(se).filter((m) => typeof se[m] === 'number'
    && !(m === 'nbr' && se.nbr === se.brier && (clustered?.nbr ?? null) === (clustered?.brier ?? null)));
}
