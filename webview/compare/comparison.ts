// The comparison page: the runs, the metric table (values, deltas, intervals, p-values, the test,
// significance in words), the overlaid charts, and baseline vs candidate instance by instance.
import type { MetricName } from '../../src/core/types';
import { significanceText, type ComparisonResult, type CompareView, type MetricComparison } from '../../src/common/compareProtocol';
import { confidenceHistogramChart } from '../common/charts/histogram';
import { el } from '../common/dom';
import { baseName } from '../../src/common/paths';
import { KIND_METRICS } from '../../src/common/metricTable';
import { betterDirection, improvement } from '../../src/common/metricDirection';
import { formatCount, formatMetric, METRIC_INFO } from '../common/format';
import { classF1Overlay, reliabilityOverlay, rocOverlay, smoothReliabilityOverlay } from './charts';
import { PairsView, type PairHandlers } from './pairs';
import { whereItDiffers } from './whereItDiffers';
import { chartSection } from './slots';
import { intervalTestDisagreement, powerText } from '../../src/common/errorBarText';

const TEST_NAMES: Record<string, string> = {
  delong: "DeLong's test",
  mcnemar: 'exact McNemar',
  bootstrap: 'paired bootstrap',
};

function label(metric: string): string {
  return METRIC_INFO[metric as MetricName]?.label ?? metric;
}

function signed(v: number | null): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatMetric(Math.abs(v))}`;
}

/** The metrics in the report's order for the kind, then any others the comparison has. */
function metricOrder(comparison: ComparisonResult): string[] {
  const known: readonly string[] = [...KIND_METRICS[comparison.kind].cards, ...KIND_METRICS[comparison.kind].computed];
  const present = Object.keys(comparison.metrics);
  return [...new Set([...known.filter((m) => present.includes(m)), ...present.filter((m) => !known.includes(m))])];
}

/** Display names of the runs: the panel's labels, else the files' names. */
function runNames(view: CompareView): { label: string; path: string }[] {
  return view.runs.length ? view.runs : view.comparison.runs.map((r) => ({ label: baseName(r.path), path: r.path }));
}

function metricTable(comparison: ComparisonResult, runs: { label: string; path: string }[], id = 'metric-table', title = 'Metrics'): HTMLElement {
  const candidates = runs.slice(1).map((_, k) => k + 1);
  const holm = Object.values(comparison.metrics).some((m) => m?.p_values_holm?.some((p) => p !== null && p !== undefined));
  // Power (issue 18): what these items could detect, and how many would make the Δ significant.
  const power = Object.values(comparison.metrics).some((m) => m?.mde?.some((v) => v !== null && v !== undefined));
  const head = el('tr', {}, [
    el('th', { text: 'Metric', attrs: { scope: 'col' } }),
    el('th', { text: 'Test', attrs: { scope: 'col' } }),
    el('th', { className: 'numeric', text: runs[0].label, title: runs[0].path, attrs: { scope: 'col' } }),
    ...candidates.flatMap((k) => [
      el('th', { className: 'numeric', text: runs[k].label, title: runs[k].path, attrs: { scope: 'col' } }),
      el('th', { className: 'numeric', text: `Δ ${runs.length > 2 ? `(${k})` : ''}`.trim(), title: 'candidate − baseline', attrs: { scope: 'col' } }),
      el('th', { className: 'numeric', text: '95% interval of Δ', attrs: { scope: 'col' } }),
      el('th', { text: holm ? 'p (Holm-adjusted)' : 'p-value', attrs: { scope: 'col' } }),
      ...(power ? [el('th', { text: 'Power (80%, α 0.05)', title: 'The smallest difference these paired items detect 80% of the time, and the items the observed Δ would need to be significant', attrs: { scope: 'col' } })] : []),
    ]),
  ]);
  const notes: string[] = [];
  const body = metricOrder(comparison).map((name) => {
    const m: MetricComparison = comparison.metrics[name]!;
    const info = METRIC_INFO[name as MetricName];
    return el('tr', { data: { metric: name } }, [
      el('th', { attrs: { scope: 'row' } }, [
        el('span', { text: label(name) }),
        info ? el('span', { className: 'better muted', text: betterDirection(name as MetricName) === 'higher' ? ' ↑ better' : ' ↓ better' }) : null,
      ]),
      el('td', { className: 'test', text: TEST_NAMES[m.test] ?? m.test, data: { test: m.test } }),
      el('td', { className: 'numeric', text: formatMetric(m.values[0]) }),
      ...candidates.flatMap((k) => {
        const p = m.p_values_holm?.[k] ?? m.p_values[k];
        const resamples = comparison.bootstrap?.resamples ?? 0;
        const sig = significanceText(p, 0.05, m.test === 'bootstrap' && resamples > 0 ? 2 / resamples : undefined);
        const delta = m.deltas[k];
        const better = delta === null || delta === 0 || !info ? '' : improvement(name as MetricName, delta) > 0 ? 'better' : 'worse';
        const interval = m.intervals[k];
        // Issue 28.10: an interval and a test that disagree are said to, not left side by side.
        const disagree = intervalTestDisagreement(interval, p, TEST_NAMES[m.test] ?? m.test);
        if (disagree) notes.push(`${label(name)}${runs.length > 2 ? ` (${k})` : ''}: ${disagree}`);
        return [
          el('td', { className: 'numeric', text: formatMetric(m.values[k]) }),
          el('td', { className: `numeric delta ${better}`, text: `${signed(delta)}${better ? ` (${better})` : ''}`, data: { delta: String(delta) } }),
          // No 'pending': a comparison's intervals come with it, or not at all (evalLens.bootstrap 0, an undefined metric).
          el('td', {
            className: 'numeric', text: interval ? `[${signed(interval[0])}, ${signed(interval[1])}]${disagree ? ' ‡' : ''}` : '—',
            title: interval ? disagree ?? undefined : resamples > 0 ? 'No interval: the metric is undefined on too many resamples' : 'No interval: evalLens.bootstrap is 0',
          }),
          el('td', {
            className: `significance ${sig.significant === true ? 'sig' : sig.significant === false ? 'ns' : 'none'}`,
            text: `${sig.significant ? '✱ ' : ''}${sig.text}${disagree ? ' ‡' : ''}`,
            title: m.statistics?.[k] !== null && m.statistics?.[k] !== undefined ? `statistic ${formatMetric(m.statistics[k])}` : undefined,
            data: { p: String(p) },
          }),
          ...(power ? [el('td', { className: 'power', text: powerText(m.mde?.[k], m.n_needed?.[k], delta, (v) => formatMetric(v)) ?? '—', data: { mde: String(m.mde?.[k] ?? null), nNeeded: String(m.n_needed?.[k] ?? null) } })] : []),
        ];
      }),
    ]);
  });
  return el('section', { className: 'section', attrs: { id } }, [
    el('h2', { text: title }),
    el('p', { className: 'caption muted', text: `On the ${formatCount(comparison.aligned)} instances every run has. Δ = candidate − baseline; ✱ marks p < 0.05 (two-sided)${holm ? ', Holm-adjusted over the candidates' : ''}. ${comparison.bootstrap?.resamples ? `Intervals: paired percentile bootstrap, ${formatCount(comparison.bootstrap.resamples)} resamples (seed ${comparison.bootstrap.seed}).` : 'No bootstrap (evalLens.bootstrap is 0): no intervals.'}${comparison.aligned_by === 'row-order' ? ' Aligned by row order (no IDs).' : ''}` }),
    // A box that scrolls is a focusable region with a name (keyboard users scroll it too).
    el('div', { className: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': `${title} (scrolls sideways)` } }, [el('table', { className: 'metric-table' }, [el('thead', {}, [head]), el('tbody', {}, body)])]),
    ...notes.map((text) => el('p', { className: 'caption interval-test-note', text: `‡ ${text}` })),
  ]);
}

function runsHeader(view: CompareView, openReport: (path: string) => void): HTMLElement {
  const { comparison } = view;
  const runs = runNames(view);
  return el('header', { className: 'report-header' }, [
    el('h1', { text: `Comparison of ${runs.length} runs`, attrs: { id: 'compare-title' } }),
    el('div', { className: 'chips' }, [
      ['kind', comparison.kind], ['aligned', formatCount(comparison.aligned)],
      ['left out', comparison.unmatched.map(formatCount).join(' / ')],
    ].map(([k, v]) => el('span', { className: 'chip', data: { chip: k } }, [el('span', { className: 'chip-key', text: k }), el('span', { className: 'chip-value', text: v })]))),
    el('ol', { className: 'run-list', attrs: { id: 'runs' } }, runs.map((r, k) => el('li', { data: { run: k } }, [
      el('span', { className: 'run-swatch', attrs: { 'aria-hidden': 'true' }, data: { run: k } }),
      el('strong', { text: r.label }),
      el('span', { className: 'muted', text: k === 0 ? ' baseline · ' : ' candidate · ' }),
      el('span', { className: 'muted', text: `n = ${formatCount(comparison.runs[k]?.n ?? 0)} · ` }),
      el('button', { className: 'link-button', text: baseName(r.path), title: r.path, attrs: { type: 'button' }, onClick: () => openReport(r.path) }),
    ]))),
    view.note ? el('p', { className: 'note', attrs: { id: 'compare-note', role: 'note' }, text: view.note }) : null,
    comparison.problems.length ? el('ul', { className: 'problems', attrs: { tabindex: '0', 'aria-label': 'Problems (scrolls)' } }, comparison.problems.map((p) => el('li', { className: `problem ${p.severity}`, text: p.message }))) : null,
  ]);
}

export function renderComparison(root: HTMLElement, view: CompareView, handlers: PairHandlers & { openReport: (path: string) => void }): PairsView | null {
  const { runs, comparison } = view;
  root.appendChild(runsHeader(view, handlers.openReport));
  root.appendChild(metricTable(comparison, runNames(view)));
  // Run folders: one table per task the runs share.
  for (const [task, sub] of Object.entries(comparison.tasks ?? {})) {
    root.appendChild(metricTable(sub, runNames(view), `metric-table-${task}`, `Task ${task}`));
  }
  const grid = el('div', { className: 'chart-grid' });
  if (runs.length && runs.every((r) => r.bins)) {
    grid.appendChild(chartSection('reliability-width', 'Reliability: equal-width bins', (c, p) => reliabilityOverlay(c, runs, 'equalWidth', comparison.kind, comparison.metrics.ece?.values ?? [], p), 340));
    grid.appendChild(chartSection('reliability-count', 'Reliability: equal-count bins', (c, p) => reliabilityOverlay(c, runs, 'equalCount', comparison.kind, comparison.metrics.ece_quantile?.values ?? [], p), 340));
  }
  if (runs.some((r) => r.smoothReliability)) {
    grid.appendChild(chartSection('smooth-reliability', 'Smoothed reliability', (c, p) => smoothReliabilityOverlay(c, runs, comparison.kind, p), 360));
  }
  if (runs.some((r) => r.roc)) {
    const aucs = comparison.metrics.auc?.values ?? runs.map(() => null);
    grid.appendChild(chartSection('roc', 'ROC curves', (c, p) => rocOverlay(c, runs, aucs, p), 340));
  }
  if (runs.some((r) => r.classStats?.classes.length)) {
    const n = runs[0].classStats?.classes.length ?? 0;
    grid.appendChild(chartSection('f1', 'F1 per class', (c, p) => classF1Overlay(c, runs, p), n >= 8 ? Math.max(320, 26 * n + 80) : 300));
  }
  root.appendChild(grid);
  if (runs.some((r) => r.histogram)) {
    const row = el('div', { className: 'chart-grid side-by-side', attrs: { id: 'histograms' } });
    runs.forEach((r, k) => {
      const h = r.histogram;
      if (h) row.appendChild(chartSection(`histogram-${k}`, `Confidence: ${r.label}`, (c, p) => confidenceHistogramChart(c, h, p), 260));
    });
    root.appendChild(row);
  }
  const pairs = view.pairs[0];
  let pv: PairsView | null = null;
  const where = whereItDiffers(comparison.slices, (s) => {
    pv?.setSlice({ column: s.column, value: s.value });
    document.getElementById('pair-table')?.scrollIntoView({ behavior: 'smooth' });
  });
  if (where) root.appendChild(where);
  else if (comparison.slices_note) root.appendChild(el('p', { className: 'muted', attrs: { id: 'slices-note' }, text: comparison.slices_note }));
  if (!pairs || !runs.length) return null;
  const picker = view.pairs.length > 1 ? el('p', { className: 'muted', text: `Instance by instance: ${runs[0].label} vs ${runs[1].label} (the first candidate).` }) : null;
  if (picker) root.appendChild(picker);
  pv = new PairsView(pairs, [runs[0].label, runs[pairs.candidate].label], handlers);
  root.appendChild(pv.element);
  return pv;
}
