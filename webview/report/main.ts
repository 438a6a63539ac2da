// The report webview. It never reads files: it renders what the host posts (src/protocol.ts) and
// asks the host to reveal lines. Charts are drawn from binned or decimated data only; the instance
// table is virtualized; every text from a file goes in through textContent.
import '../shared/styles.css';
import type { ReliabilityBin, Report } from '../../src/core/types';
import type { HostToWebview, PanelState, ReportCharts, TableFilter } from '../../src/protocol';
import { reportCharts } from '../../src/common/chartData';
import { cardMetrics } from '../../src/common/metricTable';
import { baseName } from '../../src/common/paths';
import { InstanceAssembler } from '../../src/common/instanceCodec';
import { confidenceHistogramChart } from '../shared/charts/histogram';
import { classF1Chart, HORIZONTAL_FROM } from '../shared/charts/classes';
import { applyDefaults, type Chart } from '../shared/charts/common';
import { reliabilityChart } from '../shared/charts/reliability';
import { rocChart } from '../shared/charts/roc';
import { probabilityScatterChart } from '../shared/charts/scatter';
import { hmrPanel, metricCards } from './cards';
import { groupReliabilityChart } from '../shared/charts/groupReliability';
import { fairnessCard, groupControls, groupSlice, groupsSection } from './groups';
import { modelControls } from './models';
import { withGroupIntervals, worstGroupIndex } from '../../src/common/groupRanking';
import { copyMarkdownButton, exportMenu, exportStem } from './exportControls';
import { answerChartRequest, type PageChart } from '../shared/chartExport';
import { confusionMatrix } from './confusion';
import { instanceCount, normalizeReport } from './data';
import { clear, el } from '../shared/dom';
import { formatBinRange, formatCount, formatMetric, kindAxes, METRIC_INFO } from '../shared/format';
import { hasTextLines, Stepper } from './stepper';
import { InstanceTable } from './table';
import { NO_FILTER } from './tableModel';
import { readPalette, watchTheme, type Palette } from '../shared/theme';
import { post, vscodeApi } from '../shared/vscodeApi';

type Binning = 'equalWidth' | 'equalCount';

interface Loaded {
  path: string;
  reports: Report[];
  summary: { raft_score?: number | null };
  /** Ties 'instances' pages and 'intervals' to this report (undefined: the message had no token). */
  token: number | undefined;
  /** Chart data per report (from the host, or computed here from inline instances). */
  charts: ReportCharts[];
  /** Per-instance pages still arriving, per report (null: complete or none expected). */
  assemblers: (InstanceAssembler | null)[];
  /** performance.now() when the 'reports' message arrived, for the 'rendered' timing. */
  receivedAt: number;
  renderedPosted: boolean;
  /** Reports whose 'instancesReady' was posted. */
  instancesPosted: Set<number>;
}

/** A chart and how to draw it again (theme changes, binning switches). */
interface ChartSlot {
  id: string;
  canvas: HTMLCanvasElement;
  make: (canvas: HTMLCanvasElement, palette: Palette) => Chart;
  chart?: Chart;
}

const root = document.getElementById('root') ?? document.body.appendChild(el('main', { attrs: { id: 'root' } }));
let state: PanelState = vscodeApi().getState() ?? { path: '' };
let loaded: Loaded | null = null;
let palette: Palette = readPalette();
let slots: ChartSlot[] = [];
let table: InstanceTable | null = null;
let stepper: Stepper | null = null;
let binTable: HTMLElement | null = null;
let reliabilityNote: HTMLElement | null = null;
/** Parts of the rendered report replaced in place: the metric cards and HMR panel (intervals), and
 *  the stepper and table placeholders (instances arriving). */
let cardsSection: HTMLElement | null = null;
let hmrSection: HTMLElement | null = null;
let stepperSlot: HTMLElement | null = null;
let tableSlot: HTMLElement | null = null;
/** The group table (replaced when the groups' intervals arrive). */
let groupsElement: HTMLElement | null = null;

function saveState(patch: Partial<PanelState>): void {
  state = { ...state, ...patch };
  vscodeApi().setState(state);
  post({ type: 'state', state });
}

function selectedReport(): Report | null {
  if (!loaded) return null;
  return loaded.reports[state.selected ?? 0] ?? loaded.reports[0] ?? null;
}

function binning(): Binning {
  return state.binning ?? 'equalWidth';
}

function filter(): TableFilter {
  return { ...NO_FILTER, ...state.filter };
}

// ---------------------------------------------------------------------------------------------
// Messages from the host

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as HostToWebview;
  if (!message || typeof message !== 'object' || typeof (message as { type?: unknown }).type !== 'string') return;
  switch (message.type) {
    case 'loading':
      showLoading(message.path);
      break;
    case 'reports': {
      const samePath = state.path === message.path;
      const reports = message.reports.map((r) => (r.instances ? normalizeReport(r) : r));
      loaded = {
        path: message.path,
        reports,
        summary: message.summary ?? {},
        token: message.token,
        charts: reports.map((r, k) => message.charts?.[k] ?? reportCharts(r)),
        assemblers: reports.map((r, k) => {
          const scheme = message.instances?.[k];
          return scheme && !r.instances ? new InstanceAssembler(scheme) : null;
        }),
        receivedAt: performance.now(),
        renderedPosted: false,
        instancesPosted: new Set(),
      };
      // A reload (same path) keeps the saved selection, binning, step and table state; a new path starts fresh.
      const selected = samePath && state.selected !== undefined && state.selected < message.reports.length ? state.selected : message.selected;
      state = samePath
        ? { ...state, selected }
        : { path: message.path, selected, binning: state.binning, stepIndex: 0, sort: null, filter: NO_FILTER };
      saveState({});
      renderReport();
      break;
    }
    case 'instances':
      receivePage(message);
      break;
    case 'intervals':
      receiveIntervals(message);
      break;
    case 'error':
      showError(message.message);
      break;
    case 'step':
      stepper?.step(message.direction);
      break;
    case 'exportChart': {
      const report = loaded?.reports[state.selected ?? 0];
      const answer = answerChartRequest(message, report ? pageCharts() : [], report ? exportStem(report) : 'report', palette.background);
      post('type' in answer ? answer : { type: 'export', request: answer, answers: message.request });
      break;
    }
  }
});

/** The charts drawn on the page, for "Export…" and the Export Report command. */
function pageCharts(): PageChart[] {
  return slots.filter((s) => s.chart).map((s) => ({ id: s.id, title: s.canvas.getAttribute('aria-label') ?? s.id, canvas: s.canvas }));
}

/** A page of per-instance data: once a report has all of its pages, its table and stepper appear. */
function receivePage(message: Extract<HostToWebview, { type: 'instances' }>): void {
  const current = loaded;
  if (!current || message.token !== current.token) return; // a page of an earlier report
  const k = message.report;
  const asm = current.assemblers[k];
  if (!asm || !asm.add(message.page) || !asm.complete) return;
  const { instances, texts, dataLines } = asm.decode();
  current.assemblers[k] = null;
  current.reports[k] = { ...current.reports[k], instances, texts: texts ?? current.reports[k].texts, dataLines: dataLines ?? current.reports[k].dataLines };
  if (k === (state.selected ?? 0) && current.reports[k] === selectedReport()) mountInstances(current.reports[k]);
}

/** Bootstrap intervals that arrived after the charts: the cards are redrawn, nothing else. */
function receiveIntervals(message: Extract<HostToWebview, { type: 'intervals' }>): void {
  const current = loaded;
  if (!current || message.token !== current.token || message.reports.length !== current.reports.length) return;
  current.reports = current.reports.map((r, k) => ({
    ...r, intervals: message.reports[k].intervals ?? {}, options: { ...r.options, bootstrap: message.reports[k].bootstrap },
    groups: withGroupIntervals(r.groups, message.reports[k].groupIntervals),
  }));
  const report = selectedReport();
  if (!report) return;
  if (cardsSection) {
    const fresh = metricCards(report);
    cardsSection.replaceWith(fresh);
    cardsSection = fresh;
  }
  if (groupsElement) {
    const fresh = groupsSection(report, { selected: state.group ?? null, onSelect: selectGroup });
    if (fresh) {
      groupsElement.replaceWith(fresh);
      groupsElement = fresh;
    }
  }
  if (hmrSection) {
    const fresh = hmrPanel(report, current.charts[state.selected ?? 0]?.counts);
    if (fresh) {
      hmrSection.replaceWith(fresh);
      hmrSection = fresh;
    }
  }
  document.body.dataset.intervals = String(message.reports[state.selected ?? 0]?.bootstrap ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Keyboard: j / k and the arrow keys step through misclassified examples

document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !stepper) return;
  const target = event.target as HTMLElement | null;
  if (target && (target.closest('input, select, textarea, [contenteditable="true"]') || target.closest('.vtable-body'))) return;
  if (event.key === 'j' || event.key === 'ArrowRight') stepper.step(1);
  else if (event.key === 'k' || event.key === 'ArrowLeft') stepper.step(-1);
  else return;
  event.preventDefault();
});

// ---------------------------------------------------------------------------------------------
// Theme: redraw every chart with the new colours

watchTheme(() => {
  palette = readPalette();
  drawCharts();
});

// ---------------------------------------------------------------------------------------------
// Views

function teardown(): void {
  for (const slot of slots) slot.chart?.destroy();
  slots = [];
  table?.destroy();
  table = null;
  stepper = null;
  binTable = null;
  reliabilityNote = null;
  cardsSection = null;
  hmrSection = null;
  stepperSlot = null;
  tableSlot = null;
  groupsElement = null;
  clear(root);
}

function showLoading(path: string): void {
  teardown();
  root.appendChild(el('div', { className: 'status loading', attrs: { id: 'loading', role: 'status' } }, [
    el('div', { className: 'spinner', attrs: { 'aria-hidden': 'true' } }),
    el('span', { text: `Scoring ${path}…` }),
  ]));
}

function showError(message: string): void {
  teardown();
  root.appendChild(el('div', { className: 'status error', attrs: { id: 'error', role: 'alert' } }, [
    el('h2', { text: 'Could not score' }),
    el('p', { text: message }),
    state.path ? el('p', { className: 'muted path', text: state.path }) : null,
  ]));
}

function drawCharts(): void {
  applyDefaults(palette);
  for (const slot of slots) {
    slot.chart?.destroy();
    slot.chart = slot.make(slot.canvas, palette);
  }
}

function redrawSlot(id: string): void {
  const slot = slots.find((s) => s.id === id);
  if (!slot) return;
  slot.chart?.destroy();
  slot.chart = slot.make(slot.canvas, palette);
}

interface ChartBoxOptions {
  height?: number;
  /** Scroll the chart inside a box of at most this height (tall per-class charts). */
  maxVisibleHeight?: number;
  caption?: string;
  controls?: HTMLElement;
  wide?: boolean;
  /** Shown beside the chart (the reliability bins table). */
  aside?: HTMLElement;
}

function chartBox(id: string, title: string, make: ChartSlot['make'], options: ChartBoxOptions = {}): HTMLElement {
  const canvas = el('canvas', { attrs: { id: `chart-${id}`, role: 'img', 'aria-label': title } });
  slots.push({ id, canvas, make });
  const frame = el('div', { className: 'chart-frame' }, [canvas]);
  frame.style.height = `${options.height ?? 280}px`;
  let body: HTMLElement = frame;
  if (options.maxVisibleHeight && (options.height ?? 0) > options.maxVisibleHeight) {
    body = el('div', { className: 'chart-scroll' }, [frame]);
    body.style.maxHeight = `${options.maxVisibleHeight}px`;
  }
  const main = el('div', { className: 'chart-main' }, [
    body,
    options.caption ? el('p', { className: 'caption muted', text: options.caption }) : null,
  ]);
  return el('section', { className: `section chart${options.wide ? ' wide' : ''}`, attrs: { id: `section-${id}` } }, [
    el('div', { className: 'chart-head' }, [el('h2', { text: title }), options.controls ?? null]),
    options.aside ? el('div', { className: 'chart-with-aside' }, [main, options.aside]) : main,
  ]);
}

function header(report: Report): HTMLElement {
  const reports = loaded!.reports;
  const chips: [string, string][] = [
    ['format', report.format],
    ['kind', report.kind],
  ];
  if (report.task) chips.push(['task', report.task]);
  chips.push(['n', formatCount(report.n)], ['skipped', formatCount(report.skipped)]);
  if (report.unlabeled) chips.push(['unlabeled', formatCount(report.unlabeled)]);
  chips.push(['problems', formatCount(report.problems.length)]);

  const children: (HTMLElement | null)[] = [
    el('h1', { text: report.task ? `${report.task}` : baseName(report.path), attrs: { id: 'report-title' } }),
    el('div', { className: 'report-path-row' }, [
      el('div', { className: 'path', text: report.path, title: report.path, attrs: { id: 'report-path' } }),
      el('button', { className: 'link-button', text: 'Compare with…', title: 'Compare this run with another one', attrs: { type: 'button', id: 'compare-with' }, onClick: () => post({ type: 'compareWith', path: report.path }) }),
    ]),
    el('div', { className: 'chips' }, chips.map(([k, v]) => el('span', { className: 'chip', data: { chip: k } }, [el('span', { className: 'chip-key', text: k }), el('span', { className: 'chip-value', text: v })]))),
  ];
  if (reports.length > 1) {
    const select = el('select', { attrs: { id: 'report-select', 'aria-label': 'Report' } });
    reports.forEach((r, k) => {
      const headline = cardMetrics(r).find((m) => r.metrics[m] !== undefined);
      const label = `${r.task ?? baseName(r.path)}${headline ? ` — ${METRIC_INFO[headline].label} ${formatMetric(r.metrics[headline])}` : ''}${r.fatal ? ' (not scored)' : ''}`;
      select.appendChild(el('option', { text: label, attrs: { value: String(k) } }));
    });
    select.value = String(state.selected ?? 0);
    select.addEventListener('change', () => {
      saveState({ selected: Number(select.value), stepIndex: 0, filter: NO_FILTER, sort: null });
      renderReport();
    });
    const raft = loaded!.summary.raft_score;
    children.push(el('div', { className: 'report-picker' }, [
      el('label', { className: 'control' }, [el('span', { text: `Report (${reports.length})` }), select]),
      raft !== undefined
        ? el('span', { className: 'raft-score', attrs: { id: 'raft-score' }, data: { value: String(raft) } }, [
          el('span', { className: 'chip-key', text: `RAFT score over ${reports.filter((r) => r.format === 'raft' && !r.fatal).length} tasks` }),
          el('strong', { text: formatMetric(raft) }),
        ])
        : null,
    ]));
  }
  children.push(el('div', { className: 'export-actions' }, [
    exportMenu({
      report, selected: state.selected ?? 0, binning,
      rows: () => table?.visibleRows ?? null,
      charts: pageCharts,
      background: () => palette.background,
    }),
    copyMarkdownButton(state.selected ?? 0),
  ]));
  return el('header', { className: 'report-header' }, children);
}

function binningToggle(): HTMLElement {
  const make = (value: Binning, text: string) => {
    const button = el('button', {
      className: `segment${binning() === value ? ' on' : ''}`,
      text,
      attrs: { type: 'button', 'aria-pressed': String(binning() === value), id: `binning-${value}` },
      onClick: () => setBinning(value),
    });
    return button;
  };
  return el('div', { className: 'segmented', attrs: { role: 'group', 'aria-label': 'Binning' } }, [
    make('equalWidth', 'Equal width'),
    make('equalCount', 'Equal count'),
  ]);
}

function setBinning(value: Binning): void {
  if (value === binning()) return;
  saveState({ binning: value, filter: { ...filter(), bin: null } });
  const report = selectedReport();
  if (!report) return;
  document.querySelectorAll<HTMLButtonElement>('.segmented .segment').forEach((b) => {
    const on = b.id === `binning-${value}`;
    b.classList.toggle('on', on);
    b.setAttribute('aria-pressed', String(on));
  });
  table?.setBinning(value);
  refreshReliability(report);
}

function selectBin(bin: number | null): void {
  const current = filter().bin;
  const next = current === bin ? null : bin;
  if (table) {
    table.setFilter({ bin: next }); // its onStateChange saves the state and redraws the diagram
    return;
  }
  saveState({ filter: { ...filter(), bin: next } });
  const report = selectedReport();
  if (report) refreshReliability(report);
}

function refreshReliability(report: Report): void {
  redrawSlot('reliability');
  if (binTable && report.bins) {
    const fresh = reliabilityBinTable(report.bins[binning()], binning() === 'equalWidth', report);
    binTable.replaceWith(fresh);
    binTable = fresh;
  }
  if (reliabilityNote) {
    const bin = filter().bin;
    clear(reliabilityNote);
    if (bin !== null) {
      reliabilityNote.append(
        el('span', { text: `The instance table shows bin ${bin + 1} only. ` }),
        el('button', { className: 'link-button', text: 'Go to table', attrs: { type: 'button' }, onClick: () => document.getElementById('instances')?.scrollIntoView({ behavior: 'smooth' }) }),
        el('button', { className: 'link-button', text: 'Show all bins', attrs: { type: 'button' }, onClick: () => selectBin(null) }),
      );
    } else {
      reliabilityNote.append(el('span', { text: 'Click a bin to filter the instance table to its instances.' }));
    }
  }
}

/** The bins as a small table: counts readable by people and by tests (data-count). */
function reliabilityBinTable(bins: ReliabilityBin[], equalWidth: boolean, report: Report): HTMLElement {
  const axes = kindAxes(report.kind);
  const selected = filter().bin;
  const table = el('table', { className: 'bins', attrs: { id: 'bin-table' }, data: { binning: equalWidth ? 'equalWidth' : 'equalCount' } });
  table.appendChild(el('thead', {}, [el('tr', {}, ['bin', 'range', 'n', axes.valueShort, axes.targetShort === 'label' ? 'positive' : axes.targetShort, 'gap'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]));
  const body = el('tbody');
  bins.forEach((b, k) => {
    const row = el('tr', {
      className: `${b.count ? 'clickable' : 'empty'}${selected === k ? ' selected' : ''}`,
      data: { bin: k, count: b.count },
      title: b.count ? 'Filter the instance table to this bin' : 'Empty bin',
      onClick: b.count ? () => selectBin(k) : undefined,
    }, [
      el('td', { text: String(k + 1) }),
      el('td', { text: formatBinRange(b.lo, b.hi, equalWidth && k === bins.length - 1) }),
      el('td', { className: 'numeric bin-count', text: formatCount(b.count) }),
      el('td', { className: 'numeric', text: formatMetric(b.meanValue) }),
      el('td', { className: 'numeric', text: formatMetric(b.meanTarget) }),
      el('td', { className: 'numeric', text: formatMetric(b.gap) }),
    ]);
    body.appendChild(row);
  });
  table.appendChild(body);
  return table;
}

function problemsSection(report: Report): HTMLElement | null {
  if (!report.problems.length) return null;
  const shown = report.problems.slice(0, 200);
  const list = el('ul', { className: 'problems' });
  for (const p of shown) {
    const where = `${p.path ? `${baseName(p.path)}:` : ''}${p.line}${p.column ? `:${p.column}` : ''}`;
    list.appendChild(el('li', { className: `problem ${p.severity}` }, [
      el('button', { className: 'link-button', text: where, attrs: { type: 'button' }, onClick: () => post({ type: 'reveal', path: p.path ?? report.path, line: p.line }) }),
      el('span', { className: 'problem-code', text: p.code }),
      el('span', { text: p.message }),
    ]));
  }
  const more = report.problems.length - shown.length;
  return el('details', { className: 'section problems-section', attrs: { id: 'problems' } }, [
    el('summary', { text: `${formatCount(report.problems.length)} problem${report.problems.length === 1 ? '' : 's'} in the file${more > 0 ? ` (first ${shown.length} listed; all are in the Problems panel)` : ''}` }),
    list,
  ]);
}

function renderReport(): void {
  teardown();
  const report = selectedReport();
  if (!loaded || !report) {
    root.appendChild(el('div', { className: 'status', attrs: { id: 'empty' } }, [
      el('h2', { text: 'No prediction files' }),
      el('p', { text: loaded ? `Nothing in ${loaded.path} could be scored as predictions.` : 'Nothing to show.' }),
    ]));
    announceRendered(null);
    return;
  }
  root.appendChild(header(report));
  const models = modelControls(report);
  if (models) root.appendChild(models);
  const controls = groupControls(report);
  if (controls) root.appendChild(controls);
  if (report.fatal) {
    root.appendChild(el('div', { className: 'status error', attrs: { role: 'alert', id: 'fatal' } }, [el('p', { text: report.fatal })]));
  }
  const k = state.selected ?? 0;
  const charts = loaded.charts[k] ?? reportCharts(report);
  cardsSection = metricCards(report);
  root.appendChild(cardsSection);
  hmrSection = hmrPanel(report, charts.counts);
  if (hmrSection) root.appendChild(hmrSection);
  renderGroups(report);

  const grid = el('div', { className: 'chart-grid' });
  if (report.bins) {
    const bins = report.bins;
    reliabilityNote = el('p', { className: 'caption muted', attrs: { id: 'reliability-note' } });
    binTable = reliabilityBinTable(bins[binning()], binning() === 'equalWidth', report);
    const aside = el('div', { className: 'bin-aside' }, [el('h3', { text: 'Bins' }), binTable, reliabilityNote]);
    root.appendChild(chartBox('reliability', 'Reliability diagram', (canvas, p) => reliabilityChart(canvas, bins[binning()], {
      kind: report.kind,
      palette: p,
      equalWidth: binning() === 'equalWidth',
      selectedBin: filter().bin,
      onBinClick: (b) => selectBin(b),
    }), { height: 340, controls: binningToggle(), aside }));
  }
  if (charts.histogram) {
    const histogram = charts.histogram;
    grid.appendChild(chartBox('histogram', 'Confidence: correct and incorrect', (canvas, p) => confidenceHistogramChart(canvas, histogram, p), { height: 320 }));
  }
  if (report.roc) {
    const roc = report.roc;
    grid.appendChild(chartBox('roc', `ROC curve — AUC ${formatMetric(report.metrics.auc)}`, (canvas, p) => rocChart(canvas, roc, report.metrics.auc, p), { height: 320 }));
  }
  if (charts.scatter) {
    const points = charts.scatter;
    const caption = points.total > points.x.length
      ? `${formatCount(points.total)} instances drawn as ${formatCount(points.x.length)} merged points (one per occupied cell of a 64 × 64 grid).`
      : `${formatCount(points.total)} instances.`;
    grid.appendChild(chartBox('scatter', 'Predicted vs true probability', (canvas, p) => probabilityScatterChart(canvas, points, p), { height: 480, caption }));
  }
  if (report.classStats && report.classStats.classes.length) {
    const stats = report.classStats;
    const horizontal = stats.classes.length >= HORIZONTAL_FROM;
    grid.appendChild(chartBox('f1', 'F1 per class', (canvas, p) => classF1Chart(canvas, stats, p, (k) => table?.setFilter({ gold: k, pred: null })), {
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
      confusionMatrix(report.classStats, (g, p) => {
        table?.setFilter({ gold: g, pred: p, correctness: 'all', bin: null });
        document.getElementById('instances')?.scrollIntoView({ behavior: 'smooth' });
      }),
    ]));
  }

  // The stepper and the table need the per-instance columns: placeholders until they arrive.
  const pending = !report.instances && !!loaded.assemblers[k];
  if (report.kind === 'multiclass' && (report.instances || pending)) {
    stepperSlot = pendingSection('stepper-pending', 'Misclassified examples', report.n);
    root.appendChild(stepperSlot);
  }

  const problems = problemsSection(report);
  if (problems) root.appendChild(problems);

  if (report.instances || pending) {
    tableSlot = pendingSection('instances-pending', 'Instances', report.n);
    root.appendChild(tableSlot);
  }

  refreshReliability(report);
  drawCharts();
  announceRendered(report);
  if (report.instances) mountInstances(report);
}

function pendingSection(id: string, title: string, rows: number): HTMLElement {
  return el('section', { className: 'section pending', attrs: { id, 'aria-busy': 'true' } }, [
    el('h2', { text: title }),
    el('p', { className: 'muted', text: `Loading ${formatCount(rows)} instance${rows === 1 ? '' : 's'}…` }),
  ]);
}

/** --group-by: the group table, the fairness card and the overlaid per-group reliability diagrams. */
function renderGroups(report: Report): void {
  const groups = report.groups;
  if (!groups) return;
  if (state.group != null && !(state.group < groups.groups.length)) state = { ...state, group: null };
  groupsElement = groupsSection(report, { selected: state.group ?? null, onSelect: selectGroup });
  if (groupsElement) root.appendChild(groupsElement);
  if (groups.groups.some((g) => g.bins?.length)) {
    const worst = worstGroupIndex(report.kind, groups.groups);
    root.appendChild(chartBox('group-reliability', `Reliability diagram by ${groups.column}`, (canvas, p) => groupReliabilityChart(canvas, report.kind, groups.groups, worst, p), {
      height: 340, caption: 'Each group\'s equal-width bins: mean score against the share of positives (mean correctness for top-label confidence). The worst group is drawn thicker.',
    }));
  }
  const fairness = fairnessCard(report);
  if (fairness) root.appendChild(fairness);
}

/** A click on a group's row: the instance table and the stepper show that group only (null: all rows). */
function selectGroup(group: number | null): void {
  saveState({ group, stepIndex: 0, filter: NO_FILTER, sort: null });
  renderReport();
  document.getElementById('section-groups')?.scrollIntoView();
}

/** The stepper and the instance table, in place of their placeholders, once the columns are here. */
function mountInstances(whole: Report): void {
  // A group filter: the table and the stepper get that group's rows only.
  const report = state.group != null && whole.groups?.rowGroup ? groupSlice(whole, state.group) : whole;
  const inst = report.instances;
  if (!inst) return;
  if (stepperSlot && report.kind === 'multiclass') {
    stepper = new Stepper(report, {
      index: state.stepIndex ?? 0,
      onStep: (index, total) => {
        if (state.stepIndex !== index) saveState({ stepIndex: index });
        post({ type: 'stepped', index, total });
      },
      onReveal: (path, line, instance) => {
        if (path === report.path && !hasTextLines(path)) table?.showInstance(instance);
        else post({ type: 'reveal', path, line });
      },
    });
    stepperSlot.replaceWith(stepper.element);
    stepperSlot = null;
  }
  if (tableSlot) {
    if (instanceCount(report) > 0) {
      table = new InstanceTable(report, {
        binning: binning(),
        sort: state.sort ?? null,
        filter: filter(),
        onReveal: (i) => { if (hasTextLines(report.path)) post({ type: 'reveal', path: report.path, line: inst.lines[i] }); },
        onStateChange: (sort, tableFilter) => {
          const binChanged = tableFilter.bin !== filter().bin;
          saveState({ sort, filter: tableFilter });
          if (binChanged) refreshReliability(report);
        },
      });
      tableSlot.replaceWith(table.element);
    } else {
      tableSlot.remove();
    }
    tableSlot = null;
  }
  announceInstances(report);
}

/** Posts 'instancesReady' once per report and load, when its table (and stepper) exist. */
function announceInstances(report: Report): void {
  const current = loaded;
  const k = state.selected ?? 0;
  if (!current || current.instancesPosted.has(k)) return;
  current.instancesPosted.add(k);
  requestAnimationFrame(() => {
    const ms = Math.round(performance.now() - current.receivedAt);
    post({ type: 'instancesReady', path: current.path, selected: k, ms, rows: instanceCount(report) });
    document.body.dataset.instancesMs = String(ms);
    document.body.dataset.instances = String(instanceCount(report));
  });
}

/** Posts 'rendered' once the first frame with the charts has been painted. */
function announceRendered(report: Report | null): void {
  const current = loaded;
  if (!current || current.renderedPosted) return;
  current.renderedPosted = true;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const ms = Math.round(performance.now() - current.receivedAt);
    post({ type: 'rendered', path: current.path, selected: state.selected ?? 0, ms, token: current.token });
    // For tests: what was rendered, and how long it took from the message to the painted charts.
    document.body.dataset.renderedMs = String(ms);
    document.body.dataset.receivedAt = String(Math.round(current.receivedAt));
    document.body.dataset.rendered = report?.path ?? current.path;
  }));
}

post({ type: 'ready', state: state.path ? state : undefined });
// For tests and benchmarks: when the script was ready, in ms since the webview's document started.
document.body.dataset.readyAt = String(Math.round(performance.now()));
