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
  const detect = `could detect ±${fmt(mde)}`;
  if (nNeeded === null || nNeeded === undefined) return delta === 0 ? `${detect}; Δ is 0: no number of items would make it significant` : detect;
  return `${detect}; ${groupedInteger(nNeeded)} item${nNeeded === 1 ? '' : 's'} would make this Δ significant`;
}
