// The task's own per-sample metrics (lm-eval's mae, eqbench, exact_match, …: Report.taskMetrics) as
// cards: the mean over the samples that logged it, its interval, and the figure the task's results
// file reports, flagged when the two disagree (the CLI's "✗ disagrees", src/common/taskMetrics.ts).
// NaN and infinities are spelled as Python writes them, not hidden behind "—".
import type { Report, TaskMetric } from '../../src/core/types';
import { nonFiniteWord, taskMetricDisagrees, taskMetricsFromWire } from '../../src/common/taskMetrics';
import { el } from '../common/dom';
import { reportedOnMore, reportedOnText } from '../../src/common/reportedOn';
import { formatCount, formatMetric } from '../common/format';

/** A task metric's figure: 3 decimals, or NaN / Infinity / -Infinity; "—" for none. */
export function formatTaskFigure(v: number | null | undefined): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return nonFiniteWord(v)!;
  return formatMetric(v);
}

function taskCard(report: Report, t: TaskMetric): HTMLElement {
  // Figures over more samples than the file holds stand beside the mean, not against it (reportedOn.ts).
  const subset = reportedOnMore(report);
  const mismatch = !subset && taskMetricDisagrees(t);
  const children: HTMLElement[] = [
    el('div', { className: 'card-label' }, [el('span', { className: 'card-label-text', text: t.name })]),
    el('div', { className: 'card-value', text: formatTaskFigure(t.mean), data: { taskMetric: t.name } }),
  ];
  if (t.interval) children.push(el('div', { className: 'card-interval', text: `95% CI [${formatTaskFigure(t.interval[0])}, ${formatTaskFigure(t.interval[1])}]` }));
  if (t.n !== report.n) children.push(el('div', { className: 'card-interval muted', text: `over ${formatCount(t.n)} of ${formatCount(report.n)} samples` }));
  if (t.reported === null) {
    children.push(el('div', { className: 'card-reported muted', text: 'not reported', data: { reported: 'null', mismatch: 'false' } }));
  } else if (t.reported !== undefined) {
    children.push(el('div', {
      className: `card-reported${mismatch ? ' mismatch' : ''}`,
      text: `${mismatch ? '⚠ ' : ''}reported ${formatTaskFigure(t.reported)}${subset ? reportedOnText(report) : mismatch ? ' (disagrees)' : ' ✓'}`,
      title: mismatch
        ? `The task's results file says ${formatTaskFigure(t.reported)}; the mean over this file's samples is ${formatTaskFigure(t.mean)}.`
        : 'The task reported the same figure.',
      data: { reported: formatTaskFigure(t.reported), mismatch: String(mismatch) },
    }));
  }
  return el('div', {
    className: `card task-metric${mismatch ? ' mismatch' : ''}`,
    title: `${t.name}: the task's own metric, logged for each sample; the mean over the ${formatCount(t.n)} samples that logged it. See docs/metrics.md#task_metrics.`,
    attrs: { role: 'group', 'aria-label': `${t.name} (task metric)` },
  }, children);
}

/** The task metrics section, or null when the task logs none. */
export function taskMetricsSection(report: Report): HTMLElement | null {
  // Non-finite figures arrive spelled ("Infinity"): a webview message is JSON.
  const tms = taskMetricsFromWire(report.taskMetrics ?? []);
  if (!tms.length) return null;
  const cards = el('div', { className: 'cards task-metric-cards' });
  for (const t of tms) cards.appendChild(taskCard(report, t));
  return el('section', { className: 'section', attrs: { id: 'task-metrics', 'aria-labelledby': 'task-metrics-title' } }, [
    el('h2', { text: 'Task metrics', attrs: { id: 'task-metrics-title' } }),
    el('p', { className: 'muted', text: 'Logged per sample by the task itself; each is the mean over the samples that logged it, beside the figure the task reported.' }),
    cards,
  ]);
}
