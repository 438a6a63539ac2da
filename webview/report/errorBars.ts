// Error bars on the report page (issue 18): the "Cluster by" select beside "Group by", a line on each
// card saying how much clustering widened its interval (×√design effect), the rough-intervals note,
// and an "Error bars" section: how the intervals were made, the clusters' standard errors and design
// effects, and the repeats (pass@k, pass^k, variances) with a stepper over the flaky items (some but
// not all attempts right). Every text is set with textContent.
import type { Report } from '../../src/core/types';
import { baseName } from '../../src/common/paths';
import { clusterWidening, formatStandardError, roughIntervalsText, standardErrorMetrics } from '../../src/common/errorBarText';
import { onChoice } from '../common/choice';
import { clear, el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';
import { post } from '../common/vscodeApi';

/** The event main.ts dispatches on the section when the report's per-instance columns arrive. */
export const INSTANCES_ARRIVED = 'eval-lens-instances';

/** The select's value for the report's clusters: 'p:COL' / 'd:COL', '' for none (or the items of repeats). */
export function clusterChoice(report: Report): string {
  const c = report.clusters;
  const cols = report.groupColumns;
  // Repeated attempts are clustered by item without a choice (the ID column).
  if (!c || (report.repeats && c.column === 'id')) return '';
  const fromData = !!cols?.data?.includes(c.column) && !cols.predictions.includes(c.column);
  return `${fromData ? 'd' : 'p'}:${c.column}`;
}

/** "Cluster by": the same columns as "Group by"; a choice re-scores the file with clustered errors. */
export function clusterControl(report: Report): HTMLElement | null {
  const cols = report.groupColumns;
  if (!cols || report.fatal) return null;
  const select = el('select', { attrs: { id: 'cluster-by', 'aria-label': 'Cluster by' } });
  select.appendChild(el('option', { text: report.repeats ? 'Items (repeated attempts)' : 'No clustering', attrs: { value: '' } }));
  const own = el('optgroup', { attrs: { label: 'This file' } });
  for (const c of cols.predictions) own.appendChild(el('option', { text: c, attrs: { value: `p:${c}` } }));
  if (cols.predictions.length) select.appendChild(own);
  if (cols.data?.length) {
    const data = el('optgroup', { attrs: { label: `Joined: ${baseName(cols.dataPath ?? '')}` } });
    for (const c of cols.data) data.appendChild(el('option', { text: c, attrs: { value: `d:${c}` } }));
    select.appendChild(data);
  }
  const current = clusterChoice(report);
  select.value = [...select.options].some((o) => o.value === current) ? current : '';
  onChoice(select, (v) => {
    post(v ? { type: 'clusterBy', column: v.slice(2), fromData: v.startsWith('d:') } : { type: 'clusterBy', column: null });
  });
  return el('label', {
    className: 'control', attrs: { id: 'cluster-control' },
    title: 'Questions that share this column (a passage, a prompt, an item) are one cluster: standard errors and intervals are clustered, as Inspect\'s stderr(cluster=).',
  }, [el('span', { text: 'Cluster by' }), select]);
}

/** "45 clusters (5 values, and 40 rows without a value, each a cluster of its own)". */
export function clusterCountText(c: NonNullable<Report['clusters']>): string {
  const s = c.singletons ?? 0;
  if (!s) return `${formatCount(c.count)} clusters`;
  return `${formatCount(c.count)} clusters (${formatCount(c.count - s)} value${c.count - s === 1 ? '' : 's'} of ${c.column}, and ${formatCount(s)} row${s === 1 ? '' : 's'} without a value, each a cluster of its own)`;
}

/** A design effect in plain words: n rows carry as much information as n / deff independent ones. */
export function designEffectWords(deff: number | null, n: number): string {
  if (deff === null || !Number.isFinite(deff) || deff <= 0) return '';
  const worth = n / deff;
  return `With a design effect of ${formatMetric(deff)}, the ${formatCount(n)} rows carry as much information as about ${formatCount(Math.max(1, Math.round(worth)))} independent rows would (n / design effect).`;
}

/** The cards' lines: "clustered by passage: SE ×1.32" under each card with a design effect, and the rough-intervals note. */
export function annotateCards(section: HTMLElement, report: Report): void {
  const c = report.clusters;
  if (c) {
    for (const value of section.querySelectorAll<HTMLElement>('.card-value[data-metric]')) {
      const metric = value.dataset.metric!;
      const widening = clusterWidening(c, metric);
      if (widening === null) continue;
      const se = report.standard_errors?.[metric];
      const clustered = c.standard_errors[metric as keyof typeof c.standard_errors];
      value.parentElement?.appendChild(el('div', {
        className: 'card-cluster muted',
        // The SE's widening, which is what √deff measures: the interval beside it is the cluster
        // bootstrap's (or, with few clusters, a t interval) and widens by its own factor (issue 28.5).
        text: `clustered by ${c.column}: SE ×${widening.toFixed(2)}`,
        title: `Design effect ${formatMetric(c.design_effect[metric as keyof typeof c.design_effect] ?? null)} = (SE clustered / SE)²: SE ${formatStandardError(se)} → ${formatStandardError(clustered)} over ${clusterCountText(c)}. ${designEffectWords(c.design_effect[metric as keyof typeof c.design_effect] ?? null, report.n)}`,
        data: { cluster: metric },
      }));
    }
  }
  if (report.rough_intervals) {
    section.appendChild(el('p', {
      className: 'rough-note', attrs: { id: 'rough-intervals' },
      text: `⚠ ${roughIntervalsText(report).replace(/^i/, 'I')}: with so few ${report.clusters ? 'clusters' : 'instances'} the 95% intervals are only approximate.`,
    }));
  }
}

/**
 * The intervals pass in flight for the reports on the page (main.ts keeps it): how many resamples,
 * and how far it is. While it runs the page says "computing", never "no intervals" (issue 28.9).
 */
export const intervalsStatus = { pending: 0, fraction: 0 };

function computingSentence(): string {
  return `Computing 95% intervals: percentile bootstrap, ${formatCount(intervalsStatus.pending)} resamples… ${Math.floor(intervalsStatus.fraction * 100)}%`;
}

/** The intervals pass moved on: the sentence that says so follows (no section is rebuilt). */
export function showIntervalsProgress(root: ParentNode, fraction: number): void {
  intervalsStatus.fraction = fraction;
  const p = root.querySelector('#interval-method');
  if (p && p.getAttribute('data-computing') === 'true') p.textContent = computingSentence();
}

function methodSentence(report: Report): string {
  const boot = report.options.bootstrap;
  const c = report.clusters;
  const clustered = c ? `, clustered by ${c.column} (${formatCount(c.count)} clusters)` : '';
  switch (report.interval_method) {
    case 't': return `95% intervals: mean ± t·SE with ${formatCount(c ? c.count - 1 : report.n - 1)} degrees of freedom for the means${boot > 0 ? `, a bootstrap of ${formatCount(boot)} resamples for the rest` : ''}${clustered}.`;
    case 'wilson': return `95% intervals: the Wilson score interval for proportions${boot > 0 ? `, a bootstrap of ${formatCount(boot)} resamples for the rest` : ''}${clustered}.`;
    default:
      if (boot > 0) return `95% intervals: percentile bootstrap, ${formatCount(boot)} resamples${c ? ' of whole clusters' : ''}${clustered}.`;
      if (intervalsStatus.pending > 0) return computingSentence();
      return `No intervals (evalLens.bootstrap is 0; evalLens.intervalMethod t or wilson needs none)${clustered}.`;
  }
}

function table(id: string, caption: string, head: string[], rows: string[][]): HTMLTableElement {
  return el('table', { className: 'error-bars-table', attrs: { id, 'aria-label': caption } }, [
    el('thead', {}, [el('tr', {}, head.map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]),
    el('tbody', {}, rows.map((r) => el('tr', {}, r.map((cell, j) => el(j === 0 ? 'th' : 'td', { className: j === 0 ? '' : 'numeric', text: cell, attrs: j === 0 ? { scope: 'row' } : {} }))))),
  ]);
}

/**
 * The standard errors table's header and rows: each metric's SE to three significant figures (and,
 * clustered, the clustered SE, the design effect and the widening); nbr only where it differs from brier.
 */
export function standardErrorRows(report: Report): { head: string[]; rows: string[][] } {
  const se = report.standard_errors ?? {};
  const c = report.clusters;
  const metrics = standardErrorMetrics(se, c?.standard_errors);
  if (!c) return { head: ['metric', 'SE'], rows: metrics.map((m) => [m, formatStandardError(se[m])]) };
  return {
    head: ['metric', 'SE', `SE clustered by ${c.column}`, 'design effect', 'SE widening (√design effect)'],
    rows: metrics.map((m) => {
      const w = clusterWidening(c, m);
      return [m, formatStandardError(se[m]), formatStandardError(c.standard_errors[m as keyof typeof c.standard_errors] ?? null),
        formatMetric(c.design_effect[m as keyof typeof c.design_effect] ?? null), w === null ? '—' : `×${w.toFixed(2)}`];
    }),
  };
}

/**
 * The "Error bars" section, or null when the report has no standard errors. `current()` gives the
 * report as it is now (its per-instance columns arrive after the section is drawn); `onReveal`
 * shows one attempt's row.
 */
export function errorBarsSection(report: Report, current: () => Report | undefined, onReveal: (instance: number) => void): HTMLElement | null {
  const se = report.standard_errors;
  if (!se || !Object.keys(se).length || report.fatal) return null;
  const computing = report.options.bootstrap === 0 && intervalsStatus.pending > 0 && (report.interval_method ?? 'bootstrap') === 'bootstrap';
  const parts: HTMLElement[] = [el('h2', { text: 'Error bars' }), el('p', { className: 'muted', attrs: { id: 'interval-method', 'data-computing': String(computing), ...(computing ? { role: 'status' } : {}) }, text: methodSentence(report) })];
  if (report.rough_intervals) parts.push(el('p', { className: 'rough-note', text: `⚠ ${roughIntervalsText(report).replace(/^i/, 'I')}.` }));
  const c = report.clusters;
  const { head, rows } = standardErrorRows(report);
  parts.push(table('standard-errors', 'Standard errors', head, rows));
  if (c) {
    const deffs = Object.values(c.design_effect).filter((d): d is number => typeof d === 'number' && Number.isFinite(d));
    const top = deffs.length ? Math.max(...deffs) : null;
    parts.push(el('p', { className: 'muted', attrs: { id: 'design-effect-words' }, text: `SE: sample standard deviation / √n, as Inspect's stderr(). Clustered: Inspect's stderr(cluster=) over ${clusterCountText(c)} of ${c.column}; design effect = (SE clustered / SE)², and the clustered SE is √(design effect) times the plain one. ${designEffectWords(top, report.n)}` }));
    if (c.few) {
      parts.push(el('p', { className: 'rough-note', attrs: { id: 'few-clusters' }, text: `⚠ Only ${formatCount(c.count)} clusters (about 30 are needed): the means' intervals are t intervals with ${formatCount(c.count - 1)} degree${c.count === 2 ? '' : 's'} of freedom on the clustered SE${c.few.others === 'none' ? '; the other metrics have no interval (a bootstrap over so few clusters has almost no distinct resamples)' : '; the other metrics\' cluster-bootstrap intervals are rough'}.` }));
    }
  }
  const rep = report.repeats;
  if (rep) parts.push(repeatsPanel(report, rep, current, onReveal));
  const section = el('section', { className: 'section error-bars', attrs: { id: 'section-error-bars' } }, parts);
  // The per-instance columns arrived (main.ts): the flaky-item stepper shows the attempts.
  section.addEventListener(INSTANCES_ARRIVED, () => section.querySelector('#flaky-stepper')?.dispatchEvent(new Event(INSTANCES_ARRIVED)));
  return section;
}

function repeatsPanel(report: Report, rep: NonNullable<Report['repeats']>, current: () => Report | undefined, onReveal: (instance: number) => void): HTMLElement {
  const ks = Object.keys(rep.pass_at_k).map(Number).sort((a, b) => a - b);
  const attempts = Object.entries(rep.attempts).sort((a, b) => Number(b[0]) - Number(a[0])).map(([k, items]) => `${formatCount(items)} with ${k}`).join(', ');
  const panel = el('div', { className: 'repeats', attrs: { id: 'repeats' } }, [
    el('h3', { text: 'Repeats: several attempts at each item' }),
    el('p', { text: `${formatCount(rep.items)} items (${attempts} attempts), ${formatCount(report.n)} rows; ${formatCount(rep.flaky_items)} flaky (some but not all attempts right). Within-item variance ${formatMetric(rep.within_item_variance)}, between-item variance ${formatMetric(rep.between_item_variance)}.` }),
    table('pass-at-k', 'pass@k and pass^k', ['k', 'pass@k (at least one of k right)', 'pass^k (all k right)'], ks.map((k) => [String(k), formatMetric(rep.pass_at_k[k]), formatMetric(rep.pass_hat_k[k])])),
  ]);
  const rows = report.repeatRows;
  if (rows && rows.flaky.length) panel.appendChild(flakyStepper(rows, current, onReveal));
  return panel;
}

/** Steps through the flaky items: each one's attempts, right or wrong, each a button to its row. */
function flakyStepper(rows: NonNullable<Report['repeatRows']>, current: () => Report | undefined, onReveal: (instance: number) => void): HTMLElement {
  let index = 0;
  const position = el('span', { className: 'stepper-position', attrs: { id: 'flaky-position', 'aria-live': 'polite' } });
  const body = el('div', { className: 'flaky-body', attrs: { id: 'flaky-body' } });
  const show = () => {
    const item = rows.flaky[index];
    position.textContent = `flaky item ${formatCount(index + 1)} of ${formatCount(rows.flaky.length)}: ${rows.items[item]}`;
    clear(body);
    const inst = current()?.instances;
    const members: number[] = [];
    for (let i = 0; i < rows.row.length; i++) if (rows.row[i] === item) members.push(i);
    if (!inst) {
      body.appendChild(el('p', { className: 'muted', text: `${members.length} attempts; their rows are still loading.` }));
      return;
    }
    const right = members.filter((i) => inst.correct[i] === 1).length;
    body.appendChild(el('p', { text: `${right} of ${members.length} attempts right.` }));
    body.appendChild(el('ul', { className: 'flaky-attempts' }, members.map((i, a) => el('li', {}, [
      el('button', {
        className: 'link-button', attrs: { type: 'button' }, data: { focusKey: `flaky-attempt-${a}` },
        text: `attempt ${a + 1}: ${inst.correct[i] === 1 ? '✓ right' : '✗ wrong'}${Number.isFinite(inst.confidence[i]) ? `, confidence ${formatMetric(inst.confidence[i])}` : ''} (line ${inst.lines[i]})`,
        onClick: () => onReveal(i),
      }),
    ]))));
  };
  const step = (d: 1 | -1) => {
    index = (index + d + rows.flaky.length) % rows.flaky.length;
    show();
  };
  show();
  const stepper = el('div', { className: 'flaky-stepper', attrs: { id: 'flaky-stepper' } }, [
    el('div', { className: 'stepper-bar' }, [
      el('h4', { text: 'Flaky items' }), position, el('span', { className: 'spacer' }),
      el('button', { className: 'button secondary', text: '‹ Previous', attrs: { type: 'button', id: 'flaky-prev' }, onClick: () => step(-1) }),
      el('button', { className: 'button', text: 'Next ›', attrs: { type: 'button', id: 'flaky-next' }, onClick: () => step(1) }),
    ]),
    body,
  ]);
  stepper.addEventListener(INSTANCES_ARRIVED, show);
  return stepper;
}
