// A chart's numbers for a screen reader: a short description (what it shows, its series and their
// totals or ranges), tied to the canvas by aria-describedby, and the data as an HTML table in a
// disclosure right after the chart (Tab reaches it, Enter opens it). Both are read from the
// drawn Chart.js configuration, so every chart of every page gets them, and they follow a redraw
// (a binning switch, a theme change). Every text goes in through textContent.
import type { Chart } from './charts/common';
import { clear, el } from './dom';

/** Rows at most per point series (an ROC curve holds about 1,500 points). */
export const TABLE_POINTS = 101;

interface CategorySeries { label: string; values: (number | null)[] }
interface PointSeries { label: string; points: { x: number; y: number }[] }

interface ChartFacts {
  categoryTitle: string;
  valueTitle: string;
  xTitle: string;
  yTitle: string;
  labels: string[];
  categories: CategorySeries[];
  series: PointSeries[];
  kind: string;
}

function axisTitle(chart: Chart, axis: string): string {
  const scales = (chart.options.scales ?? {}) as Record<string, { title?: { text?: string | string[] } } | undefined>;
  const text = scales[axis]?.title?.text;
  return Array.isArray(text) ? text.join(' ') : text ?? '';
}

/** A floating bar's value, [start, end] (or no bar). */
function isSpan(v: unknown): boolean {
  return v === null || (Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number');
}

function read(chart: Chart): ChartFacts {
  const horizontal = (chart.options as { indexAxis?: string }).indexAxis === 'y';
  const labels = (chart.data.labels ?? []).map((l) => (Array.isArray(l) ? l.join(' ') : String(l)));
  const categories: CategorySeries[] = [];
  const series: PointSeries[] = [];
  chart.data.datasets.forEach((d, k) => {
    const label = typeof d.label === 'string' && d.label ? d.label : `series ${k + 1}`;
    const data = d.data as unknown[];
    if (data.length && data.every((v) => v === null || typeof v === 'number')) {
      categories.push({ label, values: data as (number | null)[] });
    } else if (data.length && data.every(isSpan)) {
      // Floating bars (a forest plot's intervals): the low and the high end, each a column.
      const spans = data as ([number, number] | null)[];
      categories.push({ label: `${label}: low`, values: spans.map((v) => (v ? v[0] : null)) }, { label: `${label}: high`, values: spans.map((v) => (v ? v[1] : null)) });
    } else {
      const points = data.filter((p): p is { x: number; y: number } => !!p && typeof p === 'object' && typeof (p as { x?: unknown }).x === 'number' && typeof (p as { y?: unknown }).y === 'number');
      if (points.length) series.push({ label, points });
    }
  });
  return {
    categoryTitle: axisTitle(chart, horizontal ? 'y' : 'x'),
    valueTitle: axisTitle(chart, horizontal ? 'x' : 'y') || 'value',
    xTitle: axisTitle(chart, 'x') || 'x',
    yTitle: axisTitle(chart, 'y') || 'y',
    labels, categories, series,
    kind: (chart.config as { type?: string }).type ?? 'chart',
  };
}

function num(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(3);
}

/** Every k-th point and the last: at most `max` rows. */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]);
}

/** One or two sentences: the chart's kind, its series and their totals (bars) or spans (curves). */
export function describeChart(chart: Chart, title: string): string {
  const d = read(chart);
  const parts: string[] = [`${title}.`];
  if (d.categories.length) {
    const kind = d.kind === 'bar' ? 'Bar chart' : 'Chart';
    const totals = d.categories.map((s) => {
      const values = s.values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
      const integers = values.every(Number.isInteger);
      return integers
        ? `${s.label} ${num(values.reduce((a, b) => a + b, 0))} in all`
        : `${s.label} from ${num(Math.min(...values))} to ${num(Math.max(...values))}`;
    });
    parts.push(`${kind} of ${d.valueTitle} over ${d.labels.length} ${d.categoryTitle ? `${d.categoryTitle} ` : ''}categories: ${totals.join('; ')}.`);
  }
  if (d.series.length) {
    const spans = d.series.map((s) => `${s.label}, ${num(s.points.length)} points`);
    parts.push(`${d.yTitle} against ${d.xTitle}: ${spans.join('; ')}.`);
  }
  parts.push('The numbers are in the data table after the chart.');
  return parts.join(' ');
}

/** The chart's data as tables: one for its category series (bins, classes), one per point series. */
export function chartTables(chart: Chart, title: string): HTMLElement[] {
  const d = read(chart);
  const out: HTMLElement[] = [];
  if (d.categories.length) {
    const table = el('table', { className: 'chart-data-table' }, [
      el('caption', { className: 'sr-only', text: title }),
      el('thead', {}, [el('tr', {}, [d.categoryTitle || 'category', ...d.categories.map((s) => s.label)].map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]),
      el('tbody', {}, d.labels.map((label, i) => el('tr', {}, [
        el('th', { text: label, attrs: { scope: 'row' } }),
        ...d.categories.map((s) => el('td', { className: 'numeric', text: num(s.values[i]) })),
      ]))),
    ]);
    out.push(table);
  }
  for (const s of d.series) {
    const rows = thin(s.points, TABLE_POINTS);
    out.push(el('table', { className: 'chart-data-table' }, [
      el('caption', { text: rows.length < s.points.length ? `${s.label} (${rows.length} of ${num(s.points.length)} points, evenly spaced)` : s.label }),
      el('thead', {}, [el('tr', {}, [d.xTitle, d.yTitle].map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]),
      el('tbody', {}, rows.map((p) => el('tr', {}, [el('td', { className: 'numeric', text: num(p.x) }), el('td', { className: 'numeric', text: num(p.y) })]))),
    ]));
  }
  return out;
}

/** The description (for aria-describedby) and the "Data table" disclosure of one chart. */
export class ChartData {
  readonly description: HTMLElement;
  readonly details: HTMLDetailsElement;
  private readonly body: HTMLElement;
  private chart: Chart | null = null;

  constructor(id: string, private readonly title: string) {
    // Hidden: read as the canvas's description (aria-describedby reads hidden text), not twice.
    this.description = el('p', { attrs: { id: `chart-desc-${id}`, hidden: '' } });
    this.body = el('div', { className: 'chart-data-body', attrs: { tabindex: '0', role: 'region', 'aria-label': `${title}: data table (scrolls)` } });
    this.details = el('details', { className: 'chart-data', attrs: { id: `chart-data-${id}` } }, [
      el('summary', { text: 'Data table', attrs: { 'aria-label': `Data table: ${title}` } }),
      this.body,
    ]);
    // Built when opened (a 77-class chart or a 1,500-point curve is not built unasked).
    this.details.addEventListener('toggle', () => this.fill());
  }

  /** After each draw: the description now, the table when it is open. */
  update(chart: Chart | undefined): void {
    this.chart = chart ?? null;
    this.description.textContent = chart ? describeChart(chart, this.title) : '';
    this.fill();
  }

  private fill(): void {
    if (!this.details.open || !this.chart) return;
    clear(this.body);
    this.body.append(...chartTables(this.chart, this.title));
  }
}
