// The report webview. It never reads files: it renders what the host posts (src/protocol.ts) and
// asks the host to reveal lines. Charts are drawn from binned or decimated data only; the instance
// table is virtualized; every text from a file goes in through textContent.
import '../common/styles.css';
import type { Report } from '../../src/core/types';
import type { HostToWebview, PanelState, TableFilter } from '../../src/protocol';
import { reportCharts } from '../../src/common/chartData';
import { reliabilityChart } from '../common/charts/reliability';
import { hmrPanel, metricCards } from './cards';
import { groupControls, groupSlice, groupsSection } from './groups';
import { modelControls } from './models';
import { exportStem } from './exportControls';
import { answerChartRequest } from '../common/chartExport';
import { instanceCount } from './data';
import { clear, el } from '../common/dom';
import { rememberFocus, restoreFocus } from '../common/focus';
import { hasTextLines, Stepper } from './stepper';
import { InstanceTable } from './table';
import { isFiltering, NO_FILTER } from './tableModel';
import { readPalette, watchTheme, type Palette } from '../common/theme';
import { post, vscodeApi } from '../common/vscodeApi';
import { ChartSlots } from './chartSlots';
import { appendGroupViews } from './groupViews';
import { announceFirstChart, announceInstances, announceRendered } from './announce';
import { appendKindCharts } from './kindCharts';
import { answerQuery, errorGroupsSection } from './errorGroups';
import { annotateCards, clusterControl, errorBarsSection, INSTANCES_ARRIVED, intervalsStatus, showIntervalsProgress } from './errorBars';
import { applyIntervals, loadedFrom, type Loaded } from './loaded';
import { showCopied } from '../common/copyStatus';
import { reportHeader } from './reportHeader';
import { opensSamples, receiveConversationMatches, searchConversations, searchesConversations } from './sampleLinks';
import { closeSamplePeek, peekSample, receiveSamplePeek, warmSamplePeek } from './samplePeek';
import { offeredSource, readColumn, receiveColumnRead } from './columnReads';
import { summaryFiguresSection } from './summaryFigures';
import { judgePanels, judgeStepperOrReason } from '../judge/judgePage';
import { fillReliabilityNote, binningToggle, errorView, fatalView, loadingView, noStepperReason, notApplicable, pendingSection, problemsSection, reliabilityBinTable, type Binning } from './reportParts';

const root = document.getElementById('root') ?? document.body.appendChild(el('main', { attrs: { id: 'root' } }));
let state: PanelState = vscodeApi().getState() ?? { path: '' };
let loaded: Loaded | null = null;
/** Teardowns so far: a render's charts drawn after its first paint are not drawn once the page changed. */
let renders = 0;
let palette: Palette = readPalette();
const slots = new ChartSlots();
let table: InstanceTable | null = null;
/** The report the instance table shows (a group's slice when a group is selected): what its CSV exports. */
let tableReport: Report | null = null;
/** The misclassified-example stepper, or a judge file's stepper of verdicts (webview/judge/): the keys and commands drive either. */
let stepper: Pick<Stepper, 'element' | 'step' | 'follow'> | null = null;
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
/** The "Error bars" section (issue 18): replaced when the intervals pass arrives. */
let errorBarsElement: HTMLElement | null = null;

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
      loaded = loadedFrom(message);
      intervalsStatus.pending = message.intervalsPending ?? 0;
      intervalsStatus.fraction = 0;
      // A reload (same path) keeps the saved selection, binning, step and table state; a new path starts fresh.
      const selected = samePath && state.selected !== undefined && state.selected < message.reports.length ? state.selected : message.selected;
      state = samePath
        ? { ...state, selected }
        : { path: message.path, selected, binning: state.binning, stepIndex: 0, sort: null, filter: NO_FILTER };
      saveState({});
      renderReport();
      {
        // Intervals that came with the report (a report kept from its closed tab: keptReport.ts).
        const shown = selectedReport();
        if (!intervalsStatus.pending && shown && shown.options.bootstrap > 0) document.body.dataset.intervals = String(shown.options.bootstrap);
      }
      break;
    }
    case 'instances':
      receivePage(message);
      break;
    case 'intervals':
      if (loaded && message.token === loaded.token) intervalsStatus.pending = 0;
      receiveIntervals(message);
      break;
    case 'intervalsProgress':
      if (loaded && message.token === loaded.token && intervalsStatus.pending) showIntervalsProgress(root, message.fraction);
      break;
    case 'conversationMatches':
      receiveConversationMatches(message);
      break;
    case 'columnRead':
      receiveColumnRead(message);
      break;
    case 'samplePeek':
      receiveSamplePeek(message);
      break;
    case 'error':
      showError(message.message);
      break;
    case 'step':
      stepper?.step(message.direction);
      break;
    case 'copied':
      showCopied();
      break;
    case 'exportChart': {
      const report = loaded?.reports[state.selected ?? 0];
      const answer = answerChartRequest(message, report ? slots.pageCharts() : [], report ? exportStem(report) : 'report', palette.background);
      post('type' in answer ? answer : { type: 'export', request: answer, answers: message.request });
      break;
    }
  }
});


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
  if (k === (state.selected ?? 0)) errorBarsElement?.dispatchEvent(new Event(INSTANCES_ARRIVED));
  if (k === (state.selected ?? 0) && current.reports[k] === selectedReport()) mountInstances(current.reports[k]);
}

/** Bootstrap intervals that arrived after the charts: the cards are redrawn, nothing else. */
function receiveIntervals(message: Extract<HostToWebview, { type: 'intervals' }>): void {
  const current = loaded;
  if (!current || message.token !== current.token || message.reports.length !== current.reports.length) return;
  applyIntervals(current, message);
  const report = selectedReport();
  if (!report) return;
  if (report.smoothReliability?.lower) slots.redraw('smooth-reliability', palette);
  rememberFocus(root); // a card's "?" or a group's button is replaced below
  if (cardsSection) {
    const fresh = metricCards(report);
    annotateCards(fresh, report);
    cardsSection = swap(cardsSection, fresh);
  }
  errorBarsElement = swap(errorBarsElement, errorBarsElement && errorBarsSection(report, () => selectedReport() ?? undefined, (i) => revealAttempt(report, i)));
  groupsElement = swap(groupsElement, groupsElement && groupsSection(report, { selected: state.group ?? null, onSelect: selectGroup }));
  hmrSection = swap(hmrSection, hmrSection && hmrPanel(report, current.charts[state.selected ?? 0]?.counts));
  restoreFocus();
  document.body.dataset.intervals = String(message.reports[state.selected ?? 0]?.bootstrap ?? 0);
}

/** Puts `fresh` where `old` is on the page (when both exist); returns what is there now. */
function swap(old: HTMLElement | null, fresh: HTMLElement | null): HTMLElement | null {
  if (!old || !fresh) return old;
  old.replaceWith(fresh);
  return fresh;
}

// ---------------------------------------------------------------------------------------------
// Keyboard: j / k and the arrow keys step through misclassified examples

document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !stepper) return;
  const target = event.target as HTMLElement | null;
  if (target && (target.closest('input, select, textarea, [contenteditable="true"]') || target.closest('.vtable-body, #sample-peek'))) return;
  if (event.key === 'j' || event.key === 'ArrowRight') stepper.step(1);
  else if (event.key === 'k' || event.key === 'ArrowLeft') stepper.step(-1);
  else return;
  event.preventDefault();
});

// ---------------------------------------------------------------------------------------------
// Theme: redraw every chart with the new colours

watchTheme(() => {
  palette = readPalette();
  slots.drawAll(palette);
});

// ---------------------------------------------------------------------------------------------
// Views

function teardown(): void {
  renders++;
  closeSamplePeek({ returnFocus: false });
  slots.destroyAll();
  table?.destroy();
  table = null;
  tableReport = null;
  stepper = null;
  binTable = null;
  reliabilityNote = null;
  cardsSection = null;
  hmrSection = null;
  stepperSlot = null;
  tableSlot = null;
  groupsElement = null;
  errorBarsElement = null;
  // The page is rebuilt (another report, a group, a re-score): the focused control gets focus
  // back when it is drawn again (renderReport, or mountInstances for the table's own controls).
  rememberFocus(root);
  clear(root);
}

function showLoading(path: string): void {
  teardown();
  root.appendChild(loadingView(path));
}

function showError(message: string): void {
  teardown();
  root.appendChild(errorView(message, state.path));
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

function refreshReliability(report: Report, redraw = true): void {
  if (redraw) slots.redraw('reliability', palette);
  if (binTable && report.bins) {
    const fresh = reliabilityBinTable(report.bins[binning()], binning() === 'equalWidth', report, filter().bin, selectBin);
    // A bin's button pressed by keyboard keeps focus in the new table: remembered in the box that
    // stays (looked up in the old table, replaced, it found the old button, and focus fell to the body).
    rememberFocus(binTable.parentElement ?? root);
    binTable.replaceWith(fresh);
    binTable = fresh;
    restoreFocus();
  }
  if (reliabilityNote) fillReliabilityNote(reliabilityNote, filter().bin, () => selectBin(null));

}

function renderReport(): void {
  teardown();
  const report = selectedReport();
  if (!loaded || !report) {
    root.appendChild(el('div', { className: 'status', attrs: { id: 'empty' } }, [
      el('h2', { text: 'No prediction files' }),
      el('p', { text: loaded ? `Nothing in ${loaded.path} could be scored as predictions.` : 'Nothing to show.' }),
    ]));
    if (loaded) announceRendered(loaded, state.selected ?? 0, null);
    return;
  }
  root.appendChild(reportHeader(report, {
    reports: loaded.reports, summary: loaded.summary, selected: state.selected ?? 0,
    onSelect: (k) => {
      saveState({ selected: k, stepIndex: 0, filter: NO_FILTER, sort: null });
      renderReport();
    },
    exports: { binning, table: () => (table && tableReport ? { report: tableReport, rows: table.visibleRows } : null), charts: () => slots.pageCharts(), background: () => palette.background },
  }));
  const models = modelControls(report);
  if (models) root.appendChild(models);
  const controls = groupControls(report);
  if (controls) root.appendChild(controls);
  // "Cluster by" beside "Group by": the same columns.
  const cluster = clusterControl(report);
  if (cluster && controls) controls.insertBefore(cluster, controls.querySelector('#join-data'));
  if (report.fatal) root.appendChild(fatalView(report));
  // A summary file: a table of its figures as the file gives them (nothing recomputed: no cards, no charts).
  if (report.summary) {
    root.appendChild(summaryFiguresSection(report));
    const problems = problemsSection(report);
    if (problems) root.appendChild(problems);
    announceRendered(loaded, state.selected ?? 0, report);
    restoreFocus();
    return;
  }
  const k = state.selected ?? 0;
  const charts = loaded.charts[k] ?? reportCharts(report);
  cardsSection = metricCards(report);
  annotateCards(cardsSection, report);
  root.appendChild(cardsSection);
  hmrSection = hmrPanel(report, charts.counts);
  if (hmrSection) root.appendChild(hmrSection);
  renderGroups(report);
  errorBarsElement = errorBarsSection(report, () => selectedReport() ?? undefined, (i) => revealAttempt(report, i));
  if (errorBarsElement) root.appendChild(errorBarsElement);
  // A judge file (issue 27): judged scores, pairwise preferences, arena ratings, the judge against humans.
  const judge = judgePanels(report, slots);
  if (judge) root.appendChild(judge);

  const grid = el('div', { className: 'chart-grid' });
  if (report.bins) {
    const bins = report.bins;
    reliabilityNote = el('p', { className: 'caption muted', attrs: { id: 'reliability-note' } });
    binTable = reliabilityBinTable(bins[binning()], binning() === 'equalWidth', report, filter().bin, selectBin);
    const aside = el('div', { className: 'bin-aside' }, [el('h3', { text: 'Bins' }), binTable, reliabilityNote]);
    root.appendChild(slots.box('reliability', 'Reliability diagram', (canvas, p) => reliabilityChart(canvas, bins[binning()], {
      kind: report.kind,
      palette: p,
      equalWidth: binning() === 'equalWidth',
      selectedBin: filter().bin,
      onBinClick: (b) => selectBin(b),
    }), { height: 340, controls: binningToggle(binning(), setBinning), aside }));
  }
  appendKindCharts(root, grid, report, charts, slots, {
    onClass: (k) => table?.setFilter({ gold: k, pred: null }),
    onCell: (g, p) => {
      table?.setFilter({ gold: g, pred: p, correctness: 'all', bin: null });
      document.getElementById('instances')?.scrollIntoView({ behavior: 'smooth' });
    },
  });
  const errors = errorGroupsSection(report, (pick) => {
    if (pick.answer !== undefined) table?.setSearch(answerQuery(pick.answer));
    else table?.setFilter({ gold: pick.gold, pred: pick.pred, correctness: 'all', bin: null });
    document.getElementById('instances')?.scrollIntoView({ behavior: 'smooth' });
  });
  if (errors) root.appendChild(errors);

  // The stepper and the table need the per-instance columns: placeholders until they arrive.
  const pending = !report.instances && !!loaded.assemblers[k];
  if ((hasStepper(report) || report.judge) && (report.instances || pending)) {
    stepperSlot = pendingSection('stepper-pending', report.judge ? 'Verdicts to check' : 'Misclassified examples', report.n);
    root.appendChild(stepperSlot);
  } else if (!report.fatal && report.n > 0) {
    const why = noStepperReason(report);
    if (why) root.appendChild(notApplicable('stepper', why));
  }

  const problems = problemsSection(report);
  if (problems) root.appendChild(problems);

  if (report.instances || pending) {
    tableSlot = pendingSection('instances-pending', 'Instances', report.n);
    root.appendChild(tableSlot);
  }

  // The bins table and note; its chart is drawn with the others (once, not twice).
  refreshReliability(report, false);
  const rendering = renders;
  const shown = loaded;
  slots.drawFirstThenRest(palette, () => rendering === renders, () => {
    announceRendered(shown, state.selected ?? 0, report);
    if (report.instances) mountInstances(report);
    else restoreFocus();
  });
  announceFirstChart(shown);
}

/** --group-by: the group table, the fairness card and the overlaid per-group reliability diagrams. */
function renderGroups(report: Report): void {
  const groups = report.groups;
  if (!groups) return;
  if (state.group != null && !(state.group < groups.groups.length)) state = { ...state, group: null };
  groupsElement = appendGroupViews(root, slots, report, state.group ?? null, selectGroup);
}

/** A click on a group's row: the instance table and the stepper show that group only (null: all rows). */
function selectGroup(group: number | null): void {
  saveState({ group, stepIndex: 0, filter: NO_FILTER, sort: null });
  renderReport();
  document.getElementById('section-groups')?.scrollIntoView();
}

/** A flaky item's attempt (the Error bars section): its row in the table, or its line in the editor. */
function revealAttempt(report: Report, instance: number): void {
  const inst = selectedReport()?.instances;
  if (!inst) return;
  if (!hasTextLines(report.path)) table?.showInstance(instance);
  else post({ type: 'reveal', path: report.path, line: inst.lines[instance] });
}

/** Misclassified examples to step through: a label to be wrong about (multiclass, and binary: the wrong side of the threshold). */
function hasStepper(report: Report): boolean {
  return report.kind === 'multiclass' || report.kind === 'binary';
}

/** A row's sample (issue 29), in the page below the stepper or the table that asked (samplePeek.ts). */
function showSample(report: Report, instance: number, from: 'stepper' | 'table'): void {
  const after = from === 'table' ? table?.element : stepper?.element;
  if (!after) return;
  peekSample({
    report, reportIndex: state.selected ?? 0, instance, after,
    returnFocus: from === 'table'
      ? () => table?.focusActive()
      : () => stepper?.element.querySelector<HTMLElement>('#stepper-sample')?.focus(),
  });
}

/** The stepper and the instance table, in place of their placeholders, once the columns are here. */
function mountInstances(whole: Report, only: { stepperOnly?: boolean } = {}): void {
  // A group filter: the table and the stepper get that group's rows only.
  const report = state.group != null && whole.groups?.rowGroup ? groupSlice(whole, state.group) : whole;
  const inst = report.instances;
  if (!inst) return;
  if (stepperSlot && hasStepper(report)) {
    const order = state.stepOrder ?? (report.kind === 'binary' ? 'confident' : 'file');
    stepper = new Stepper(report, {
      index: state.stepIndex ?? 0,
      order,
      onOrder: (next) => {
        saveState({ stepOrder: next, stepIndex: 0 });
        const fresh = stepper;
        if (!fresh) return;
        // The same place in the page: a new stepper in the old one's place.
        stepperSlot = el('div');
        fresh.element.replaceWith(stepperSlot);
        stepper = null;
        mountInstances(whole, { stepperOnly: true });
      },
      onStep: (index, total) => {
        if (state.stepIndex !== index) saveState({ stepIndex: index });
        post({ type: 'stepped', index, total });
      },
      onReveal: (path, line, instance) => {
        if (path === report.path && !hasTextLines(path)) table?.showInstance(instance);
        else post({ type: 'reveal', path, line });
      },
      onOpenSample: opensSamples(report) ? (i) => showSample(report, i, 'stepper') : undefined,
    });
    stepperSlot.replaceWith(stepper.element);
    stepperSlot = null;
    if (only.stepperOnly) {
      // A new order keeps following the table's search and filters.
      stepper.follow(table && isFiltering(filter()) ? table.visibleRows : null);
      (stepper.element.querySelector('#stepper-order') as HTMLElement | null)?.focus();
      return;
    }
  } else if (stepperSlot && report.judge) {
    // A judge file's verdicts to check: the lowest grades, the losses, the pairs that flip with the order.
    const made = judgeStepperOrReason(report, state.selected ?? 0, {
      index: state.stepIndex ?? 0,
      doubt: state.judgeDoubt,
      onDoubt: (key) => saveState({ judgeDoubt: key, stepIndex: 0 }),
      onStep: (index, total) => {
        if (state.stepIndex !== index) saveState({ stepIndex: index });
        post({ type: 'stepped', index, total });
      },
      onReveal: (path, line, instance) => {
        if (path === report.path && !hasTextLines(path)) table?.showInstance(instance);
        else post({ type: 'reveal', path, line });
      },
      onOpenSample: opensSamples(report) ? (i) => showSample(report, i, 'stepper') : undefined,
    });
    if ('stepper' in made) {
      stepper = made.stepper;
      stepperSlot.replaceWith(made.stepper.element);
    } else {
      stepperSlot.replaceWith(made.reason);
    }
    stepperSlot = null;
  }
  if (tableSlot) {
    if (instanceCount(report) > 0) {
      table = new InstanceTable(report, {
        binning: binning(),
        sort: state.sort ?? null,
        filter: filter(),
        onReveal: (i) => { if (hasTextLines(report.path)) post({ type: 'reveal', path: report.path, line: inst.lines[i] }); },
        onOpenSample: opensSamples(report) ? (i) => showSample(report, i, 'table') : undefined,
        searchConversations: searchesConversations(report) ? (query) => searchConversations(state.selected ?? 0, query) : undefined,
        fileColumns: { source: (column) => offeredSource(report, column), read: (column, fromData) => readColumn(state.selected ?? 0, column, fromData) },
        onStateChange: (sort, tableFilter) => {
          const binChanged = tableFilter.bin !== filter().bin;
          saveState({ sort, filter: tableFilter });
          if (binChanged) refreshReliability(report);
          // The stepper walks the mistakes among the rows the table shows.
          stepper?.follow(isFiltering(tableFilter) && table ? table.visibleRows : null);
        },
      });
      stepper?.follow(isFiltering(filter()) ? table.visibleRows : null);
      if (opensSamples(report)) warmSamplePeek();
      tableReport = report;
      tableSlot.replaceWith(table.element);
    } else {
      tableSlot.remove();
    }
    tableSlot = null;
  }
  if (loaded) announceInstances(loaded, state.selected ?? 0, report);
  restoreFocus();
}

post({ type: 'ready', state: state.path ? state : undefined });
// For tests and benchmarks: when the script was ready, in ms since the webview's document started.
document.body.dataset.readyAt = String(Math.round(performance.now()));
