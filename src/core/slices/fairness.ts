// folktexts' evaluate_binary_predictions_fairness: for each group-wise rate m, m_ratio = min/max
// over groups (0 when max is 0) and m_diff = max - min; equalized odds from fnr/fpr ratios and
// tpr/fpr differences. Groups below 4% of the rows are left out (its min_group_size), and with fewer
// than two groups there is nothing to compare ({}), as in folktexts.
import { GROUP_RATE_KEYS, type GroupRateKey } from './rates';

/** folktexts' min_group_size: a group needs this share of the rows to count. */
export const MIN_GROUP_SHARE = 0.04;

export interface FairnessGroup {
  n: number;
  rates: Record<GroupRateKey, number>;
  /** The group's ece (null when undefined); the largest gap between groups is ece_diff. */
  ece?: number | null;
}

/** True when folktexts would skip the group: fewer rows than min_group_size of the total. */
export function belowMinGroupSize(n: number, total: number): boolean {
  return n < MIN_GROUP_SHARE * total;
}

export function fairnessFigures(groups: readonly FairnessGroup[], total: number): Record<string, number> {
  if (groups.length <= 1) return {};
  const kept = groups.filter((g) => !belowMinGroupSize(g.n, total));
  if (!kept.length) return {};
  const out: Record<string, number> = {};
  for (const key of GROUP_RATE_KEYS) {
    const values = kept.map((g) => g.rates[key]);
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    out[`${key}_ratio`] = hi === 0 ? 0 : lo / hi;
    out[`${key}_diff`] = hi - lo;
  }
  out.equalized_odds_ratio = Math.min(out.fnr_ratio, out.fpr_ratio);
  out.equalized_odds_diff = Math.max(out.tpr_diff, out.fpr_diff);
  const eces = kept.map((g) => g.ece).filter((e): e is number => typeof e === 'number');
  if (eces.length >= 2) out.ece_diff = Math.max(...eces) - Math.min(...eces);
  return out;
}
