// The views of a grouped report ("Group by"): the group table (a row filters the instance table),
// the groups' overlaid reliability diagrams (binned and smoothed) and folktexts' fairness card.
import type { Report } from '../../src/core/types';
import { worstGroupIndex } from '../../src/common/groupRanking';
import { groupReliabilityChart } from '../common/charts/groupReliability';
import type { ChartSlots } from './chartSlots';
import { fairnessCard, groupsSection } from './groups';
import { appendGroupSmoothReliability } from './kindCharts';

/** Appends the group views of `report` to `root`; returns the group table (replaced when intervals arrive). */
export function appendGroupViews(root: HTMLElement, slots: ChartSlots, report: Report, selected: number | null, onSelect: (group: number | null) => void): HTMLElement | null {
  const groups = report.groups;
  if (!groups) return null;
  const table = groupsSection(report, { selected, onSelect });
  if (table) root.appendChild(table);
  if (groups.groups.some((g) => g.bins?.length)) {
    const worst = worstGroupIndex(report.kind, groups.groups);
    root.appendChild(slots.box('group-reliability', `Reliability diagram by ${groups.column}`, (canvas, p) => groupReliabilityChart(canvas, report.kind, groups.groups, worst, p), {
      height: 340, caption: 'Each group\'s equal-width bins: mean score against the share of positives (mean correctness for top-label confidence). The worst group is drawn thicker.',
    }));
  }
  appendGroupSmoothReliability(root, slots, report);
  const fairness = fairnessCard(report);
  if (fairness) root.appendChild(fairness);
  return table;
}
