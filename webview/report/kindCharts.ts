// The charts a report's kind gives beyond the reliability diagram: the confidence histogram, ROC,
// the probability scatter, per-class F1 and the confusion matrix (a click filters the table).
import type { Report } from '../../src/core/types';
import type { ReportCharts } from '../../src/protocol';
import { confidenceHistogramChart } from '../common/charts/histogram';
import { classF1Chart, HORIZONTAL_FROM } from '../common/charts/classes';
import { rocChart } from '../common/charts/roc';
import { probabilityScatterChart } from '../common/charts/scatter';
import { el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';
import type { ChartSlots } from './chartSlots';
import { confusionMatrix } from './confusion';
import { classEceChart, smoothReliabilityChart } from '../common/charts/calibration';
import { kindAxes } from '../../src/common/format';
import { smoothReliabilityAside } from './smoothTable';
import { groupColour } from '../../src/charts/groupReliability';
import { worstGroupIndex } from '../../src/common/groupRanking';

export interface KindChartClicks {
  /** A class's F1 bar: the table shows that gold class. */
  onClass: (k: number) => void;
  /** A confusion cell: the table shows that gold and predicted class. */
  onCell: (gold: number, pred: number) => void;
}

/** Adds the kind's charts to `grid` (then `grid` to `root`) and the confusion matrix after it. */
export function appendKindCharts(root: HTMLElement, grid: HTMLElement, report: Report, charts: ReportCharts, slots: ChartSlots, clicks: KindChartClicks): void {
  if (report.smoothReliability) {
    // Issue 19: read at each draw, so the band the intervals pass adds (main.ts) is drawn on redraw.
    const smooth = report.smoothReliability;
    const aside = smoothReliabilityAside();
    const target = kindAxes(report.kind).target.toLowerCase();
    root.appendChild(slots.box('smooth-reliability', 'Smoothed reliability', (canvas, p) => {
      aside.fill(smooth, target);
      return smoothReliabilityChart(canvas, [{ label: 'this run', smooth }], report.kind, p);
    }, {
      height: 340, aside: aside.element,
      caption: `The ${target} near each value t, kernel-smoothed at the bandwidth σ* where smECE = σ* (no bins to choose); the shaded band around it: 95% of bootstrap resamples at that σ*; at the bottom: where the values lie (density, right axis). See docs/metrics.md#smece.`,
    }));
  }
  if (charts.histogram) {
    const histogram = charts.histogram;
    grid.appendChild(slots.box('histogram', 'Confidence: correct and incorrect', (canvas, p) => confidenceHistogramChart(canvas, histogram, p), { height: 320 }));
  }
  if (report.roc) {
    const roc = report.roc;
    grid.appendChild(slots.box('roc', `ROC curve — AUC ${formatMetric(report.metrics.auc)}`, (canvas, p) => rocChart(canvas, roc, report.metrics.auc, p), { height: 320 }));
  }
  if (charts.scatter) {
    const points = charts.scatter;
    const caption = points.total > points.x.length
      ? `${formatCount(points.total)} instances drawn as ${formatCount(points.x.length)} merged points (one per occupied cell of a 64 × 64 grid).`
      : `${formatCount(points.total)} instances.`;
    grid.appendChild(slots.box('scatter', 'Predicted vs true probability', (canvas, p) => probabilityScatterChart(canvas, points, p), { height: 480, caption }));
  }
  if (report.classStats && report.classStats.classes.length) {
    const stats = report.classStats;
    const horizontal = stats.classes.length >= HORIZONTAL_FROM;
    grid.appendChild(slots.box('f1', 'F1 per class', (canvas, p) => classF1Chart(canvas, stats, p, clicks.onClass), {
      height: horizontal ? Math.max(320, 18 * stats.classes.length + 60) : 260,
      maxVisibleHeight: 560,
      caption: horizontal && stats.classes.length > 28 ? `${stats.classes.length} classes: scroll the chart.` : undefined,
    }));
  }
  if (report.classStats?.ece?.some((v) => v !== null)) {
    const stats = report.classStats;
    const horizontal = stats.classes.length >= HORIZONTAL_FROM;
    grid.appendChild(slots.box('class-ece', 'ECE per class', (canvas, p) => classEceChart(canvas, stats, report.metrics.ece_classwise, p), {
      height: horizontal ? Math.max(320, 18 * stats.classes.length + 80) : 280,
      maxVisibleHeight: 560,
      caption: 'Each class c: the equal-width ECE of p(c) against "the answer is c" (classwise ECE); the dashed line, their mean (ece_classwise).',
    }));
  }
  root.appendChild(grid);

  if (report.classStats && report.classStats.classes.length) {
    root.appendChild(el('section', { className: 'section', attrs: { id: 'section-confusion' } }, [
      el('h2', { text: 'Confusion matrix' }),
      el('p', { className: 'caption muted', text: 'Rows: gold class; columns: predicted class. Shading: share of the gold class. Click a cell to filter the instance table.' }),
      confusionMatrix(report.classStats, clicks.onCell),
    ]));
  }
}

/** --group-by (issue 19): every group's smoothed reliability curve over one diagonal, in the group colours of the binned diagram. */
export function appendGroupSmoothReliability(root: HTMLElement, slots: ChartSlots, report: Report): void {
  const groups = report.groups;
  const runs = (groups?.groups ?? []).flatMap((g, k) => (g.smoothReliability ? [{ k, run: { label: `${g.value} (n = ${g.n})`, smooth: g.smoothReliability } }] : []));
  if (!groups || runs.length === 0) return;
  const worst = worstGroupIndex(report.kind, groups.groups);
  root.appendChild(slots.box('group-smooth-reliability', `Smoothed reliability by ${groups.column}`, (canvas, p) => smoothReliabilityChart(
    canvas, runs.map(({ k, run }) => ({ ...run, emphasis: k === worst })), report.kind, p, runs.map(({ k }) => groupColour(p, k)),
  ), {
    height: 360,
    caption: 'Each group\'s kernel-smoothed curve at its own bandwidth σ* (= its smECE, in the legend); at the bottom, where each group\'s values lie. The worst group is drawn thicker.',
  }));
}
