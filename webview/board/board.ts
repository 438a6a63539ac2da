// The leaderboard: runs × tasks, sortable by any column, cells shaded on the cividis scale (bright
// = better) with the value printed in the cell and the interval in its tooltip. A click on a cell
// opens that report; ticking two rows and a task compares them.
import type { MetricName } from '../../src/core/types';
import type { BoardRow, BoardView } from '../../src/common/compareProtocol';
import { clear, el } from '../common/dom';
import { keepFocus } from '../common/focus';
import { formatMetric, METRIC_INFO } from '../common/format';
import { cividis, position, rgb, textOn } from './scale';

export interface BoardHandlers {
  openReport: (path: string) => void;
  /** `task` null: the whole runs (every task). */
  compareRows: (runs: [string, string], task: string | null) => void;
}

type SortKey = { column: string; descending: boolean } | null;

export class BoardTable {
  readonly element: HTMLElement;
  private sort: SortKey;
  private readonly picked: string[] = [];
  /** The report button that Tab reaches in the table (one tab stop; arrows move it). */
  private cellStop = '';
  /** A box that scrolls is a focusable region with a name (keyboard users scroll it too). */
  private readonly tableHost = el('div', { className: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Leaderboard (scrolls sideways)' } });
  private readonly compareBar = el('div', { className: 'board-compare', attrs: { id: 'board-compare' } });

  constructor(private readonly view: BoardView, private readonly handlers: BoardHandlers) {
    this.sort = { column: 'mean', descending: view.higherIsBetter };
    const { board } = view;
    const metricLabel = METRIC_INFO[board.metric as MetricName]?.label ?? board.metric;
    this.element = el('div', { className: 'board' }, [
      el('header', { className: 'report-header' }, [
        el('h1', { text: `Leaderboard: ${metricLabel}`, attrs: { id: 'board-title' } }),
        el('div', { className: 'path', text: view.folder, title: view.folder }),
        board.rows.length ? el('p', { className: 'caption muted', text: `${board.rows.length} runs × ${board.columns.length} tasks. ${view.higherIsBetter ? 'Higher' : 'Lower'} is better; brighter cells are better. Hover a cell for its 95% interval, click it to open its report. Tick two runs to compare them. Click a column head to sort.` }) : null,
      ]),
      this.emptyNote(),
      // No run: no scale, table or compare bar to show (the note above says why).
      ...(board.rows.length ? [this.legend(), this.tableHost, this.compareBar] : []),
      // Open when the board has too few runs: the reasons are then what the page is about.
      view.problems.length ? el('details', { className: 'section', attrs: board.rows.length < 2 ? { open: '' } : {} }, [
        el('summary', { text: `${view.problems.length} file${view.problems.length === 1 ? '' : 's'} not on the board` }),
        el('ul', { className: 'problems', attrs: { tabindex: '0', 'aria-label': 'Files not on the board (scrolls)' } }, view.problems.map((p) => el('li', { text: p }))),
      ]) : null,
    ]);
    this.render();
  }

  /** Fewer than two runs: say why there is nothing (or little) to rank, instead of an empty table. */
  private emptyNote(): HTMLElement | null {
    const { rows } = this.view.board;
    if (rows.length >= 2) return null;
    const n = this.view.problems.length;
    const files = `${n} file${n === 1 ? '' : 's'}`;
    const text = rows.length === 1
      ? 'One run only: a leaderboard ranks two or more runs of the same tasks.'
      : n
        ? `No run to rank here: the ${files} found ${n === 1 ? 'is' : 'are'} not on the board, each for the reason listed below.`
        : 'No run to rank here: no prediction files were found in this folder.';
    return el('p', { className: 'note', text, attrs: { 'data-na': 'board', role: 'status' } });
  }

  private range(): [number, number] {
    const all = this.view.board.rows.flatMap((r) => Object.values(r.values).filter((v): v is number => typeof v === 'number'));
    return all.length ? [Math.min(...all), Math.max(...all)] : [0, 1];
  }

  private legend(): HTMLElement {
    const [lo, hi] = this.range();
    const bar = el('div', { className: 'legend-bar', attrs: { role: 'img', 'aria-label': `Colour scale from ${formatMetric(lo)} to ${formatMetric(hi)}` } });
    const stops = Array.from({ length: 11 }, (_, i) => `${rgb(cividis(i / 10))} ${i * 10}%`).join(', ');
    bar.style.backgroundImage = `linear-gradient(to right, ${stops})`;
    const worse = this.view.higherIsBetter ? lo : hi;
    const better = this.view.higherIsBetter ? hi : lo;
    return el('div', { className: 'legend', attrs: { id: 'board-legend' } }, [
      el('span', { className: 'legend-end', text: `${formatMetric(worse)} (worse)` }),
      bar,
      el('span', { className: 'legend-end', text: `${formatMetric(better)} (better)` }),
      el('span', { className: 'muted', text: 'cividis scale' }),
    ]);
  }

  private sortedRows(): BoardRow[] {
    const rows = [...this.view.board.rows];
    const s = this.sort;
    if (!s) return rows;
    const key = (r: BoardRow) => (s.column === 'run' ? r.run : s.column === 'mean' ? r.mean : r.values[s.column]);
    return rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (typeof x === 'string' || typeof y === 'string') return (s.descending ? -1 : 1) * String(x).localeCompare(String(y));
      // Missing values last either way.
      if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
      if (y === null || y === undefined) return -1;
      return s.descending ? y - x : x - y;
    });
  }

  private setSort(column: string): void {
    const s = this.sort;
    this.sort = s?.column === column ? { column, descending: !s.descending } : { column, descending: column !== 'run' && this.view.higherIsBetter }; // best first
    keepFocus(this.element, () => this.render());
  }

  private render(): void {
    const { board, paths } = this.view;
    const [lo, hi] = this.range();
    const columns = ['run', ...board.columns, 'mean'];
    // Issue 18: each run's rank, the ranks a bootstrap of the items gives it, and its tier, in words.
    const ranked = board.rows.some((r) => r.rank_interval || r.tier);
    const head = el('tr', {}, [
      el('th', { className: 'pick', attrs: { scope: 'col' }, text: 'compare' }),
      ...columns.map((c) => {
        const on = this.sort?.column === c;
        return el('th', {
          attrs: { scope: 'col', 'aria-sort': on ? (this.sort!.descending ? 'descending' : 'ascending') : 'none' },
        }, [el('button', {
          className: 'sort-head', text: `${c === 'mean' ? (board.metric === 'macro_f1' ? 'mean (raft_score)' : 'mean') : c}${on ? (this.sort!.descending ? ' ▼' : ' ▲') : ''}`,
          attrs: { type: 'button' }, data: { column: c, focusKey: `sort-${c}` }, title: `Sort by ${c}`, onClick: () => this.setSort(c),
        })]);
      }),
      ...(ranked ? [
        el('th', { className: 'rank-col', text: 'rank', attrs: { scope: 'col' }, title: '1 + the runs with a strictly better mean' }),
        el('th', { className: 'rank-col', text: 'rank 95%', attrs: { scope: 'col' }, title: 'The ranks a bootstrap of the items gives this run (2.5% to 97.5%; the same draw for every run)' }),
        el('th', { className: 'rank-col', text: 'tier', attrs: { scope: 'col' }, title: 'Tier 1: the top run and every run not significantly worse than it (paired bootstrap, Holm, α 0.05); then tier 2 among the rest, …' }),
      ] : []),
    ]);
    const shade = (td: HTMLElement, v: number | null | undefined) => {
      if (typeof v !== 'number') return;
      const color = cividis(position(v, lo, hi, this.view.higherIsBetter));
      td.style.backgroundColor = rgb(color);
      td.style.color = textOn(color);
    };
    const body = this.sortedRows().map((row) => {
      const box = el('input', { attrs: { type: 'checkbox', 'aria-label': `Pick ${row.run} to compare` }, data: { run: row.run, focusKey: `pick-${row.run}` } });
      box.checked = this.picked.includes(row.run);
      box.addEventListener('change', () => this.pick(row.run, box.checked));
      const cells = board.columns.map((task) => {
        const v = row.values[task];
        const interval = row.intervals[task];
        const path = paths[row.run]?.[task];
        const title = `${row.run} · ${task}: ${formatMetric(v)}${interval ? `, 95% interval [${formatMetric(interval[0])}, ${formatMetric(interval[1])}]` : ', no interval'}${path ? '\nClick to open the report.' : ''}`;
        const td = el('td', {
          className: `cell numeric${path ? ' clickable' : ''}`,
          text: path ? undefined : formatMetric(v),
          title,
          data: { run: row.run, task, value: String(v) },
          onClick: path ? () => this.handlers.openReport(path) : undefined,
        });
        // A cell that opens a report is a button (Enter opens it); its interval is its description.
        if (path) td.appendChild(el('button', { className: 'cell-open', text: formatMetric(v), title, attrs: { type: 'button' }, data: { focusKey: `open-${row.run}-${task}` } }));
        shade(td, v);
        return td;
      });
      const mean = el('td', { className: 'cell numeric mean', text: formatMetric(row.mean), data: { run: row.run, task: 'mean', value: String(row.mean) } });
      shade(mean, row.mean);
      const ri = row.rank_interval;
      const rankCells = ranked ? [
        el('td', { className: 'numeric rank rank-col', text: row.rank ? String(row.rank) : '—', data: { rank: String(row.rank ?? '') } }),
        el('td', { className: 'numeric rank-interval rank-col', text: ri ? (ri[0] === ri[1] ? `${ri[0]}` : `${ri[0]}–${ri[1]}`) : '—', title: ri ? `In 95% of the resamples this run ranks between ${ri[0]} and ${ri[1]}.` : undefined, data: { rankInterval: ri ? ri.join(',') : '' } }),
        el('td', { className: 'tier rank-col', text: row.tier ? `tier ${row.tier}` : '—', data: { tier: String(row.tier ?? '') } }),
      ] : [];
      return el('tr', { data: { run: row.run } }, [el('td', { className: 'pick' }, [box]), el('th', { text: row.run, attrs: { scope: 'row' } }), ...cells, mean, ...rankCells]);
    });
    clear(this.tableHost);
    this.tableHost.setAttribute('tabindex', '0'); // a scroll box: focusable, named
    this.tableHost.setAttribute('role', 'region');
    this.tableHost.setAttribute('aria-label', 'Leaderboard table (scrolls sideways)');
    const table = el('table', { className: 'board-table', attrs: { id: 'board-table' } }, [el('thead', {}, [head]), el('tbody', {}, body)]);
    this.tableHost.appendChild(table);
    this.rovingCells(table);
    this.renderCompareBar();
  }

  /**
   * The cells that open reports are one tab stop: arrows move between them (so ticking two runs
   * and pressing Compare is a few Tabs, not one per cell), Enter opens one.
   */
  private rovingCells(table: HTMLTableElement): void {
    const buttons = () => [...table.querySelectorAll<HTMLButtonElement>('button.cell-open')];
    const all = buttons();
    if (!all.length) return;
    const stop = all.find((b) => b.dataset.focusKey === this.cellStop) ?? all[0];
    for (const b of all) b.tabIndex = b === stop ? 0 : -1;
    const place = (b: HTMLButtonElement) => ({ row: (b.closest('tr') as HTMLTableRowElement).sectionRowIndex, col: (b.closest('td') as HTMLTableCellElement).cellIndex });
    table.addEventListener('focusin', (event) => {
      const b = (event.target as HTMLElement).closest<HTMLButtonElement>('button.cell-open');
      if (!b) return;
      for (const other of buttons()) other.tabIndex = other === b ? 0 : -1;
      this.cellStop = b.dataset.focusKey ?? '';
    });
    table.addEventListener('keydown', (event) => {
      const from = (event.target as HTMLElement).closest<HTMLButtonElement>('button.cell-open');
      if (!from) return;
      const dir = ({ ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] } as Record<string, [number, number]>)[event.key];
      if (!dir) return;
      event.preventDefault();
      const at = place(from);
      // The nearest button in that direction (rows may lack a task).
      const candidates = buttons().map((b) => ({ b, ...place(b) })).filter((c) => (dir[0] ? c.col === at.col && Math.sign(c.row - at.row) === dir[0] : c.row === at.row && Math.sign(c.col - at.col) === dir[1]));
      candidates.sort((a, b) => Math.abs(a.row - at.row) + Math.abs(a.col - at.col) - (Math.abs(b.row - at.row) + Math.abs(b.col - at.col)));
      candidates[0]?.b.focus();
    });
  }

  private pick(run: string, on: boolean): void {
    const at = this.picked.indexOf(run);
    if (on && at === -1) this.picked.push(run);
    if (!on && at !== -1) this.picked.splice(at, 1);
    while (this.picked.length > 2) this.picked.shift();
    keepFocus(this.element, () => this.render());
  }

  private renderCompareBar(): void {
    clear(this.compareBar);
    const [a, b] = this.picked;
    const common = a && b ? this.view.board.columns.filter((t) => this.view.paths[a]?.[t] && this.view.paths[b]?.[t]) : [];
    // The whole runs first (every task, and raft_score, as `eval-lens compare run-1 run-2`): a task
    // of its own is a choice the user makes, never a default that is easy to miss.
    const whole = a && b && common.length > 1 ? [el('option', { text: `every task (${common.length}): the whole runs`, attrs: { value: '*' } })] : [];
    const select = el('select', { attrs: { id: 'board-task', 'aria-label': 'Task to compare on' } }, [
      ...whole, ...common.map((t) => el('option', { text: `${t} only`, attrs: { value: t } })),
    ]);
    this.compareBar.append(
      el('span', { text: a && b ? `Compare ${a} (baseline) with ${b} on` : 'Tick two runs to compare them.' }),
      ...(a && b ? [select] : []),
      el('button', {
        className: 'button', text: 'Compare', attrs: { type: 'button', id: 'board-compare-button' },
        onClick: () => { if (a && b && select.value) this.handlers.compareRows([a, b], select.value === '*' ? null : select.value); },
      }),
    );
    (this.compareBar.lastChild as HTMLButtonElement).disabled = !(a && b && common.length);
  }
}
