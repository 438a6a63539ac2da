// The charts a report's kind gives beyond the reliability diagram: the confidence histogram, ROC,
// the probability scatter, per-class F1 and the confusion matrix (a click filters the table).
import type { Report } from '../../src/core/types';
import type { ReportCharts } from '../../src/protocol';
import { confidenceHistogramChart } from '../shared/charts/histogram';
import { classF1Chart, HORIZONTAL_FROM } from '../shared/charts/classes';
import { rocChart } from '../shared/charts/roc';
import { probabilityScatterChart } from '../shared/charts/scatter';
import { el } from '../shared/dom';
import { formatCount, formatMetric } from '../shared/format';
import type { ChartSlots } from './chartSlots';
import { confusionMatrix } from './confusion';

export interface KindChartClicks {
  /** A class's F1 bar: the table shows that gold class. */
  onClass: (k: number) => void;
  /** A confusion cell: the table shows that gold and predicted class. */
  onCell: (gold: number, pred: number) => void;
}

/** Adds the kind's charts to `grid` (then `grid` to `root`) and the confusion matrix after it. */
export function appendKindCharts(root: HTMLElement, grid: HTMLElement, report: Report, charts: ReportCharts, slots: ChartSlots, clicks: KindChartClicks): void {
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
  root.appendChild(grid);

  if (report.classStats && report.classStats.classes.length) {
    root.appendChild(el('section', { className: 'section', attrs: { id: 'section-confusion' } }, [
      el('h2', { text: 'Confusion matrix' }),
      el('p', { className: 'caption muted', text: 'Rows: gold class; columns: predicted class. Shading: share of the gold class. Click a cell to filter the instance table.' }),
      confusionMatrix(report.classStats, clicks.onCell),
    ]));
  }
}
