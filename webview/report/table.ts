// The instance table: sortable, filterable, virtualized. Only the rows in view exist in the DOM (a
// pool of about 25 row elements re-filled on scroll), so 1,000,000 instances scroll as smoothly as 50.
// Clicking a row (or Enter on the active row) shows its sample (samplePeek.ts), or reveals its line in the file.
import type { Report } from '../../src/core/types';
import type { PanelState, TableColumn, TableFilter } from '../../src/protocol';
import { clear, el } from '../common/dom';
import { rememberFocus, restoreFocus } from '../common/focus';
import { formatBinRange, formatCount } from '../common/format';
import {
  cellText, className, filterRows, isFiltering, NO_FILTER, scrollTopForRow, sortIndicesByKey, sortIndicesByString,
  sortKeys, sortStrings, tableColumns, tableMinWidth, virtualWindow, type ColumnSpec,
} from './tableModel';
import { SearchBox } from './searchBox';

export const ROW_HEIGHT = 22;
const BODY_HEIGHT = 396;

type Binning = 'equalWidth' | 'equalCount';
type Sort = NonNullable<PanelState['sort']>;

export interface TableOptions {
  binning: Binning;
  sort: Sort | null;
  filter: TableFilter;
  onReveal: (instance: number) => void;
  onStateChange: (sort: Sort | null, filter: TableFilter) => void;
  /** The sample peek (issue 29): a row's click and Enter show its sample, when the report has one. */
  onOpenSample?: (instance: number) => void;
  /** The search inside the conversations held in the file (issue 29). */
  searchConversations?: (query: string) => Promise<{ rows?: { line: number; terms: number }[]; error?: string }>;
  /** The search by a column of the file the page does not hold (issue 28.1): the host reads it. */
  fileColumns?: ConstructorParameters<typeof SearchBox>[4];
}

export class InstanceTable {
  readonly element: HTMLElement;
  private readonly columns: ColumnSpec[];
  private readonly body: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly rowsHost: HTMLDivElement;
  private readonly grid: HTMLDivElement;
  private readonly headCells = new Map<TableColumn, HTMLElement>();
  private readonly countLabel: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly sortCache = new Map<string, Uint32Array>();
  private pool: HTMLDivElement[] = [];
  private rows: Uint32Array = new Uint32Array(0);
  private active = -1; // position in `rows` of the keyboard-active row
  private frame = 0;
  private readonly resizeObserver: ResizeObserver;
  private binning: Binning;
  private sort: Sort | null;
  private filter: TableFilter;
  /** The search box, and the rows its query keeps (null: no search). */
  private readonly search: SearchBox;
  private match: Uint8Array | null = null;

  constructor(private readonly report: Report, private readonly options: TableOptions) {
    this.binning = options.binning;
    this.sort = options.sort;
    this.filter = { ...NO_FILTER, ...options.filter };
    this.columns = tableColumns(report);
    const template = this.columns.map((c) => c.width).join(' ');

    this.toolbar = el('div', { className: 'table-toolbar' });
    this.countLabel = el('span', { className: 'table-count', attrs: { 'aria-live': 'polite' } });

    // The ARIA grid pattern: real column headers (aria-sort) with a sort button inside, rows with a
    // roving tabindex (the active row is the one Tab reaches, arrows move it), no focusable element
    // between the grid and its rows (the scrolling body is a plain box).
    const head = el('div', { className: 'vtable-row vtable-head', attrs: { role: 'row', 'aria-rowindex': '1' } });
    for (const column of this.columns) {
      const button = el('button', {
        className: `vtable-headcell${column.numeric ? ' numeric' : ''}`,
        text: column.title,
        title: `Sort by ${column.title}`,
        attrs: { type: 'button', id: `sort-${column.key}` },
        data: { column: column.key },
        onClick: () => this.cycleSort(column.key),
      });
      const cell = el('div', { className: `vtable-cell vtable-headcol${column.numeric ? ' numeric' : ''}`, attrs: { role: 'columnheader' } }, [button]);
      this.headCells.set(column.key, cell);
      head.appendChild(cell);
    }
    this.rowsHost = el('div', { className: 'vtable-rows', attrs: { role: 'rowgroup' } });
    this.spacer = el('div', { className: 'vtable-spacer' }, [this.rowsHost]);
    this.body = el('div', { className: 'vtable-body' }, [this.spacer]);
    const grid = el('div', { className: 'vtable', attrs: { role: 'grid', 'aria-label': 'Instances', 'aria-colcount': String(this.columns.length) } }, [head, this.body]);
    this.grid = grid;
    grid.style.setProperty('--vtable-columns', template);
    grid.style.setProperty('--vtable-min-width', tableMinWidth(this.columns));
    grid.style.setProperty('--vtable-row-height', `${ROW_HEIGHT}px`);

    this.search = new SearchBox(report, this.filter.query ?? '', (query, mask) => {
      this.match = mask;
      this.filter = { ...this.filter, query: query || undefined };
      // "Clear filters" comes (or goes) with the search, as with the other filters.
      this.buildToolbar();
      this.refresh();
      this.emit();
    }, options.searchConversations, options.fileColumns);
    this.match = this.search.initialMask();
    if (!this.match) this.filter = { ...this.filter, query: undefined };
    this.element = el('section', { className: 'section table-section', attrs: { id: 'instances' } }, [
      el('h2', { text: 'Instances' }),
      options.onOpenSample ? el('p', { className: 'muted caption sample-hint', text: 'A row\'s click (or Enter on it) shows its sample below the table: the whole conversation, choices, scores and metadata (Escape closes it).' }) : null,
      this.search.element,
      this.toolbar,
      grid,
    ]);

    this.body.addEventListener('scroll', () => this.schedule());
    this.body.addEventListener('keydown', (e) => this.onKey(e));
    this.rowsHost.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.vtable-row');
      if (!row || row.dataset.position === undefined) return;
      this.active = Number(row.dataset.position);
      this.paint();
      this.activate(Number(row.dataset.index));
    });
    // Tab into the grid lands on a row: that row becomes the active (selected) one.
    this.rowsHost.addEventListener('focusin', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.vtable-row');
      if (!row || row.dataset.position === undefined || Number(row.dataset.position) === this.active) return;
      this.active = Number(row.dataset.position);
      this.paint();
    });
    this.resizeObserver = new ResizeObserver(() => this.schedule());
    this.resizeObserver.observe(this.body);

    this.buildToolbar();
    this.refresh();
  }

  /** The filtered, sorted instance indices (for tests and the stepper). */
  get visibleRows(): Uint32Array {
    return this.rows;
  }

  setFilter(patch: Partial<TableFilter>): void {
    this.filter = { ...this.filter, ...patch };
    // "Clear filters" (NO_FILTER, which has no query) empties the search too.
    if (!this.filter.query && this.match) {
      this.match = null;
      this.search.clear();
    }
    this.buildToolbar();
    this.refresh();
    this.emit();
  }

  /** Searches for `query` as if typed in the search box. */
  setSearch(query: string): void {
    this.search.set(query);
  }

  setBinning(binning: Binning): void {
    if (binning === this.binning) return;
    this.binning = binning;
    // A bin of one binning means nothing in the other.
    this.filter = { ...this.filter, bin: null };
    if (this.sort?.column === 'bin') this.sortCache.clear();
    this.buildToolbar();
    this.refresh();
    this.emit();
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    this.resizeObserver.disconnect();
    this.element.remove();
  }

  private emit(): void {
    this.options.onStateChange(this.sort, this.filter);
  }

  private cycleSort(column: TableColumn): void {
    if (this.sort?.column !== column) this.sort = { column, descending: false };
    else if (!this.sort.descending) this.sort = { column, descending: true };
    else this.sort = null;
    this.refresh();
    this.emit();
  }

  /** Instance indices in sort order (null: file order), cached per column and direction. */
  private sortedOrder(): Uint32Array | null {
    if (!this.sort || (this.sort.column === 'row' && !this.sort.descending)) return null;
    const key = `${this.sort.column}:${this.sort.descending}:${this.sort.column === 'bin' ? this.binning : ''}`;
    let order = this.sortCache.get(key);
    if (!order) {
      const keys = sortKeys(this.report, this.sort.column, this.binning);
      order = keys
        ? sortIndicesByKey(keys, this.sort.descending)
        : sortIndicesByString(sortStrings(this.report, this.sort.column), this.sort.descending);
      this.sortCache.set(key, order);
    }
    return order;
  }

  private refresh(): void {
    this.rows = filterRows(this.report, this.sortedOrder(), this.filter, this.binning, this.match);
    this.search.showFigures(this.rows, isFiltering(this.filter));
    this.active = Math.min(this.active, this.rows.length - 1);
    const total = this.report.instances?.lines.length ?? 0;
    this.countLabel.textContent = isFiltering(this.filter)
      ? `${formatCount(this.rows.length)} of ${formatCount(total)} rows`
      : `${formatCount(total)} rows`;
    this.countLabel.dataset.rows = String(this.rows.length);
    for (const [key, cell] of this.headCells) {
      const sorted = this.sort?.column === key;
      cell.setAttribute('aria-sort', sorted ? (this.sort!.descending ? 'descending' : 'ascending') : 'none');
      (cell.firstElementChild as HTMLElement).dataset.sort = sorted ? (this.sort!.descending ? 'desc' : 'asc') : '';
    }
    this.body.style.height = `${Math.min(BODY_HEIGHT, Math.max(ROW_HEIGHT * 3, this.rows.length * ROW_HEIGHT))}px`;
    this.body.scrollTop = 0;
    this.paint();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paint();
    });
  }

  /** Fills the row pool for the current scroll position. */
  private paint(): void {
    const viewport = this.body.clientHeight || BODY_HEIGHT;
    const win = virtualWindow(this.body.scrollTop, viewport, this.rows.length, ROW_HEIGHT);
    this.spacer.style.height = `${win.scrollHeight}px`;
    this.rowsHost.style.transform = `translateY(${win.top}px)`;
    while (this.pool.length < win.count) {
      const row = el('div', { className: 'vtable-row', attrs: { role: 'row' } });
      for (const column of this.columns) row.appendChild(el('div', { className: `vtable-cell${column.numeric ? ' numeric' : ''}`, attrs: { role: 'gridcell' } }));
      this.pool.push(row);
      this.rowsHost.appendChild(row);
    }
    const inst = this.report.instances;
    // The row Tab reaches: the active one when it is drawn, else the first drawn.
    const tabStop = this.active >= win.first && this.active < win.first + win.count ? this.active : win.first;
    const hadFocus = this.rowsHost.contains(document.activeElement);
    let focusTarget: HTMLElement | null = null;
    for (let k = 0; k < this.pool.length; k++) {
      const row = this.pool[k];
      if (k >= win.count || !inst) {
        row.hidden = true;
        row.tabIndex = -1;
        continue;
      }
      const position = win.first + k;
      const i = this.rows[position];
      row.hidden = false;
      row.dataset.index = String(i);
      row.dataset.position = String(position);
      row.classList.toggle('incorrect', this.report.kind !== 'probability' && this.report.kind !== 'scores' && inst.correct[i] === 0);
      row.classList.toggle('active', position === this.active);
      row.setAttribute('aria-selected', String(position === this.active));
      row.tabIndex = position === tabStop ? 0 : -1;
      if (position === tabStop) focusTarget = row;
      row.setAttribute('aria-rowindex', String(position + 2));
      const cells = row.children;
      for (let c = 0; c < this.columns.length; c++) {
        const text = cellText(this.report, this.columns[c].key, i, this.binning);
        const cell = cells[c] as HTMLElement;
        if (cell.textContent !== text) cell.textContent = text;
        const key = this.columns[c].key;
        if (key === 'gold' || key === 'pred' || key === 'id') cell.title = text;
        else if (key === 'correct') cell.dataset.correct = text;
      }
    }
    this.grid.setAttribute('aria-rowcount', String(this.rows.length + 1));
    // Pooled rows are refilled on scroll: focus follows the active row to the element now drawing it.
    if (hadFocus && focusTarget && document.activeElement !== focusTarget && this.active === tabStop) focusTarget.focus({ preventScroll: true });
  }

  /** A row's click or Enter: its sample (when the report has one), else its line in the file. */
  private activate(instance: number): void {
    if (this.options.onOpenSample) this.options.onOpenSample(instance);
    else this.options.onReveal(instance);
  }

  /** Focuses the active row (drawn first if needed): Tab into the grid, Reveal, the tests. */
  focusActive(): void {
    const row = this.pool.find((r) => !r.hidden && r.tabIndex === 0);
    row?.focus({ preventScroll: true });
  }

  private onKey(event: KeyboardEvent): void {
    if (!this.rows.length) return;
    const viewport = this.body.clientHeight || BODY_HEIGHT;
    const page = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 1);
    let next = this.active;
    switch (event.key) {
      case 'ArrowDown': next = this.active + 1; break;
      case 'ArrowUp': next = this.active - 1; break;
      case 'PageDown': next = this.active + page; break;
      case 'PageUp': next = this.active - page; break;
      case 'Home': next = 0; break;
      case 'End': next = this.rows.length - 1; break;
      case 'Enter':
        if (this.active >= 0) this.activate(this.rows[this.active]);
        event.preventDefault();
        return;
      default: return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.active = Math.max(0, Math.min(this.rows.length - 1, next));
    // Keep the active row in view.
    const win = virtualWindow(this.body.scrollTop, viewport, this.rows.length, ROW_HEIGHT);
    if (this.active < win.first + 1 || this.active > win.first + win.count - 3) {
      const topRow = this.active < win.first + 1 ? this.active : this.active - page;
      this.body.scrollTop = scrollTopForRow(Math.max(0, topRow), viewport, this.rows.length, ROW_HEIGHT);
    }
    this.paint();
  }

  /**
   * Scrolls to instance `instance` and makes it the active row (Reveal in a Parquet table or .eval
   * log, which have no text lines to open). False when the current filter hides it.
   */
  showInstance(instance: number): boolean {
    const at = this.rows.indexOf(instance);
    if (at < 0) return false;
    this.active = at;
    const viewport = this.body.clientHeight || ROW_HEIGHT * 10;
    this.body.scrollTop = scrollTopForRow(Math.max(0, at - 2), viewport, this.rows.length, ROW_HEIGHT);
    this.paint();
    this.element.scrollIntoView({ block: 'nearest' });
    this.focusActive();
    return true;
  }

  private buildToolbar(): void {
    // The focused filter (or "Clear filters", gone once it ran: then the first filter) keeps focus.
    rememberFocus(this.toolbar, 'select');
    clear(this.toolbar);
    const report = this.report;
    const controls: HTMLElement[] = [];
    // Probabilities and per-sample scores (a judge's grades) have no right or wrong answer to filter by.
    if (report.kind !== 'probability' && report.kind !== 'scores') {
      controls.push(this.select('Show', 'filter-correctness', [
        ['all', 'all rows'], ['correct', 'correct only'], ['incorrect', 'incorrect only'],
      ], this.filter.correctness, (v) => this.setFilter({ correctness: v as TableFilter['correctness'] })));
    }
    const bins = report.bins ? report.bins[this.binning] : [];
    if (bins.length) {
      const choices: [string, string][] = [['', 'any']];
      bins.forEach((b, k) => {
        if (b.count) choices.push([String(k), `${k + 1} ${formatBinRange(b.lo, b.hi, this.binning === 'equalWidth' && k === bins.length - 1)}`]);
      });
      controls.push(this.select('Bin', 'filter-bin', choices, this.filter.bin === null ? '' : String(this.filter.bin),
        (v) => this.setFilter({ bin: v === '' ? null : Number(v) })));
    }
    const classCount = report.kind === 'multiclass' ? report.classes?.length ?? 0 : report.kind === 'binary' ? 2 : 0;
    if (classCount) {
      const choices: [string, string][] = [['', 'any']];
      for (let k = 0; k < classCount; k++) choices.push([String(k), className(report, k)]);
      const goldTitle = report.kind === 'binary' ? 'Label' : 'Gold';
      controls.push(this.select(goldTitle, 'filter-gold', choices, this.filter.gold === null ? '' : String(this.filter.gold),
        (v) => this.setFilter({ gold: v === '' ? null : Number(v) })));
      controls.push(this.select('Predicted', 'filter-pred', choices, this.filter.pred === null ? '' : String(this.filter.pred),
        (v) => this.setFilter({ pred: v === '' ? null : Number(v) })));
    }
    if (isFiltering(this.filter)) {
      controls.push(el('button', { className: 'link-button', text: 'Clear filters', attrs: { type: 'button', id: 'clear-filters' }, onClick: () => this.setFilter(NO_FILTER) }));
    }
    controls.push(this.countLabel);
    for (const c of controls) this.toolbar.appendChild(c);
    restoreFocus();
  }

  private select(label: string, id: string, choices: [string, string][], value: string, onChange: (value: string) => void): HTMLElement {
    const select = el('select', { attrs: { id } });
    for (const [v, text] of choices) {
      const option = el('option', { text, attrs: { value: v } });
      select.appendChild(option);
    }
    select.value = value;
    select.addEventListener('change', () => onChange(select.value));
    return el('label', { className: 'control' }, [el('span', { text: label }), select]);
  }
}
