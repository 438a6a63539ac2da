// Metric cards: the recomputed value with its bootstrap interval ("0.043 [0.031, 0.056]"), the
// figure the benchmark reported itself beside it (folktexts results.bench-*.json), a flag when the
// two disagree; and the R_O / R_U / HMR panel with the over/underconfidence sentence.
import type { MetricName, Report } from '../../src/core/types';
import { correctnessCounts } from '../../src/common/chartData';
import { el } from '../common/dom';
import { breakdownTable } from './breakdown';
import { cardMetrics, HMR_METRICS } from '../../src/common/metricTable';
import { betterDirection } from '../../src/common/metricDirection';
import { disagrees, formatMetric, formatWithInterval, leaningSentence, METRIC_INFO, metricTooltip } from '../common/format';
import { post } from '../common/vscodeApi';
import { baseName } from '../../src/common/paths';
import { taskMetricsSection } from './taskMetrics';
import { reportedOnMore, reportedOnText } from '../../src/common/reportedOn';

function card(report: Report, name: MetricName, headline: boolean): HTMLElement {
  const info = METRIC_INFO[name];
  const value = report.metrics[name];
  const interval = report.intervals[name];
  const hasReported = Object.prototype.hasOwnProperty.call(report.reported, name);
  const reported = hasReported ? report.reported[name] : undefined;
  // Figures over more samples than the file holds stand beside the recomputed ones, not against them.
  const subset = reportedOnMore(report);
  const mismatch = hasReported && !subset && disagrees(value, reported);
  const children: HTMLElement[] = [
    el('div', { className: 'card-label' }, [
      el('span', { className: 'card-label-text', text: `${info.label} ${betterDirection(name) === 'lower' ? '↓' : '↑'}` }),
      docButton(name, info.label),
    ]),
    el('div', { className: 'card-value', text: formatMetric(value), data: { metric: name } }),
  ];
  if (interval) children.push(el('div', { className: 'card-interval', text: `95% CI [${formatMetric(interval[0])}, ${formatMetric(interval[1])}]` }));
  const outside = outsideIntervalNote(value, interval);
  if (outside) children.push(el('div', { className: 'card-interval-note muted', text: outside.text, title: outside.title, data: { outside: name } }));
  if (hasReported && (reported === null || reported === undefined)) {
    children.push(el('div', { className: 'card-reported muted', text: 'not reported', title: 'The benchmark\'s results file has no value for this metric.', data: { reported: 'null', mismatch: 'false' } }));
  } else if (hasReported) {
    children.push(el('div', {
      className: `card-reported${mismatch ? ' mismatch' : ''}`,
      text: `${mismatch ? '⚠ ' : ''}reported ${formatMetric(reported)}${subset ? reportedOnText(report) : mismatch ? ' (disagrees)' : ' ✓'}`,
      title: subset
        ? `The benchmark's own results file says ${reported}, over ${reportedOnText(report).replace(/^ on /, '')}; this file holds ${report.n} of them.`
        : mismatch
          ? `The benchmark's own results file says ${reported}; recomputed from the predictions: ${value}.`
          : 'The benchmark reported the same figure.',
      data: { reported: String(reported), mismatch: String(mismatch) },
    }));
  }
  return el('div', {
    className: `card${headline ? ' headline' : ''}${mismatch ? ' mismatch' : ''}`,
    title: metricTooltip(name, formatWithInterval(value, interval)),
    attrs: { role: 'group', 'aria-label': info.label },
  }, children);
}

/**
 * A point estimate outside its own percentile interval ("ks 0.0020 [0.0021, 0.0073]"): said on the
 * card, not left to look like an error. It happens to metrics that resampling biases (ECE, MCE, KS:
 * a resample's gaps carry noise of their own, so nearly every draw is above the estimate).
 */
export function outsideIntervalNote(value: number | null | undefined, interval: [number, number] | undefined): { text: string; title: string } | null {
  if (!interval || typeof value !== 'number' || !Number.isFinite(value)) return null;
  const [lo, hi] = interval;
  if (value >= lo && value <= hi) return null;
  const side = value < lo ? 'below' : 'above';
  return {
    text: `estimate ${side} its interval (bootstrap bias)`,
    title: `The figure is ${side} its 95% bootstrap percentile interval: resampling shifts this metric (most draws come out ${value < lo ? 'higher' : 'lower'} than the data's own value), `
      + 'so the interval shows how much the figure varies, not a range that must hold it. See docs/metrics.md#intervals.',
  };
}

/** "?": asks the host to open the metric's entry in docs/metrics.md. */
function docButton(name: MetricName, label: string): HTMLElement {
  return el('button', {
    className: 'metric-doc',
    text: '?',
    title: `What is ${label}? Opens its definition (docs/metrics.md#${name})`,
    attrs: { type: 'button', 'aria-label': `Definition of ${label}` },
    // data-doc, not data-metric: [data-metric] marks a card's value.
    data: { doc: name, focusKey: `doc-${name}` },
    onClick: () => post({ type: 'openMetricDoc', metric: name }),
  });
}

export function metricCards(report: Report): HTMLElement {
  const shown = cardMetrics(report).filter((m) => report.metrics[m] !== undefined);
  const cards = el('div', { className: 'cards', attrs: { id: 'metric-cards' } });
  shown.forEach((m, k) => cards.appendChild(card(report, m, k === 0)));
  // Reported figures that the core has no recomputed counterpart for: listed, not compared.
  // A task metric's reported figure stands on its card (taskMetrics.ts), not again in this list.
  const known = new Set<string>([...shown, ...(report.taskMetrics ?? []).filter((t) => t.reported !== undefined).map((t) => t.name)]);
  const extra = Object.entries(report.reported).filter(([k]) => !known.has(k) && !HMR_METRICS.includes(k as MetricName));
  const section = el('section', { className: 'section' }, [cards]);
  const tasks = taskMetricsSection(report);
  if (tasks) section.appendChild(tasks);
  if (extra.length) {
    const list = el('p', { className: 'muted reported-extra' });
    list.textContent = `Also reported by the benchmark${report.reportedPath ? ` (${baseName(report.reportedPath)})` : ''}: `
      + extra.map(([k, v]) => `${k} ${report.reportedNonFinite?.[k] ?? formatMetric(v)}`).join(', ');
    section.appendChild(list);
  }
  // Where a reported figure's name matches a recomputed one but its definition differs: one sentence each.
  for (const [name, note] of Object.entries(report.reportedNotes ?? {})) {
    section.appendChild(el('p', { className: 'muted reported-note', text: `${name}: ${note}`, data: { note: name } }));
  }
  if (report.decision === 'acc_norm') {
    section.appendChild(el('p', { className: 'muted decision-note', text: 'The calibration views judge lm-eval\'s acc_norm choice (setting evalLens.lmEvalDecision).' }));
  }
  if (report.breakdown?.length) section.appendChild(breakdownTable(report.breakdown));
  return section;
}

/**
 * `counts`: right and wrong answers with a known confidence, when known beforehand (the report's
 * chart data); otherwise counted from the report's instances.
 */
export function hmrPanel(report: Report, counts?: { right: number; wrong: number } | null): HTMLElement | null {
  const { r_o: rO, r_u: rU, hmr } = report.metrics;
  if (rO === undefined && rU === undefined && hmr === undefined) return null;
  const cards = el('div', { className: 'cards hmr-cards' });
  for (const name of HMR_METRICS) {
    if (report.metrics[name] === undefined) continue;
    if (name === 'hmr_beta' && report.options.hmrBeta === 1) continue; // equals HMR
    cards.appendChild(card(report, name, name === 'hmr'));
  }
  counts ??= report.instances ? correctnessCounts(report.instances) : undefined;
  const sentence = el('p', { className: 'leaning', text: leaningSentence(rO, rU, counts), attrs: { id: 'leaning' } });
  if (rO != null && rU != null) {
    sentence.dataset.leans = counts?.wrong === 0 ? (rU < 0.98 ? 'under' : 'neither')
      : counts?.right === 0 ? (rO < 0.98 ? 'over' : 'neither')
        : Math.abs(rO - rU) < 0.02 ? 'neither' : rO < rU ? 'over' : 'under';
  }
  return el('section', { className: 'section hmr' }, [el('h2', { text: 'Over- and underconfidence (HMR)' }), cards, sentence]);
}


