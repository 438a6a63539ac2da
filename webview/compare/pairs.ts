// Baseline vs one candidate, instance by instance: the 2×2 agreement matrix (a click filters the
// table), the stepper through "baseline right, candidate wrong" and the reverse, and the table of
// aligned instances. Every text from a file goes in through textContent.
import type { AgreementCell, PairRow, PairTable } from '../../src/common/compareProtocol';
import { searchPairs } from '../../src/common/pairSearch';
import { csvTable } from '../../src/common/tabular';
import { clear, el } from '../common/dom';
import { keepFocus } from '../common/focus';
import { formatCount, formatMetric } from '../common/format';

export const CELL_LABELS: Record<AgreementCell, string> = {
  both_right: 'both right',
  baseline_only: 'baseline right, candidate wrong',
  candidate_only: 'candidate right, baseline wrong',
  both_wrong: 'both wrong',
};

const PAGE = 100;

export interface PairHandlers {
  reveal: (path: string, line: number) => void;
  /** The sample view (issue 29): aligned instance `id` of candidate `candidate`, both runs side by side. */
  openSamples?: (candidate: number, id: string) => void;
  filtered: (cell: AgreementCell | null, rows: number) => void;
}

export class PairsView {
  readonly element: HTMLElement;
  private cell: AgreementCell | null = null;
  /** "Where it differs": the slice the table is filtered to (null: every slice). */
  private slice: { column: string; value: string } | null = null;
  /** The search's rows (null: no search), its box and what it says. */
  private found: Set<PairRow> | null = null;
  private readonly searchBox: HTMLInputElement;
  private readonly searchMessage: HTMLElement;
  private stepCell: 'baseline_only' | 'candidate_only' = 'baseline_only';
  private stepIndex = 0;
  private page = 0;
  private readonly matrix: HTMLElement;
  private readonly stepper: HTMLElement;
  private readonly table: HTMLElement;
  /** One polite live region that outlives the re-renders: what a filter, a step or a page changed. */
  private readonly live = el('div', { className: 'sr-only', attrs: { id: 'pairs-announce', role: 'status', 'aria-live': 'polite' } });

  constructor(private readonly pairs: PairTable, private readonly labels: [string, string], private readonly handlers: PairHandlers) {
    this.matrix = el('section', { className: 'section', attrs: { id: 'agreement' } });
    this.stepper = el('section', { className: 'section stepper', attrs: { id: 'pair-stepper', tabindex: '-1' } });
    this.table = el('section', { className: 'section', attrs: { id: 'pair-table' } });
    // The search lives outside the table section, which is rebuilt on every filter: typing keeps its focus.
    this.searchBox = el('input', { attrs: { type: 'search', id: 'pair-search', spellcheck: 'false', placeholder: 'Search: text, /regex/i, or column = value AND …', 'aria-label': 'Search the aligned instances' } });
    this.searchMessage = el('span', { className: 'search-message', attrs: { id: 'pair-search-message', role: 'status', 'aria-live': 'polite' } });
    this.searchBox.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.search(this.searchBox.value); });
    this.searchBox.addEventListener('search', () => { if (!this.searchBox.value) this.search(''); });
    const searchRow = el('div', { className: 'table-search', attrs: { id: 'pair-search-row' } }, [
      el('label', { className: 'control search-control' }, [el('span', { text: 'Search' }), this.searchBox]), this.searchMessage,
    ]);
    this.element = el('div', { className: 'pairs' }, [this.matrix, this.stepper, searchRow, this.table, this.live]);
    this.renderMatrix();
    this.renderStepper();
    this.renderTable();
  }

  /** Filters the table to one cell (null: every aligned instance sent). */
  setCell(cell: AgreementCell | null): void {
    this.cell = this.cell === cell ? null : cell;
    this.page = 0;
    // Focus stays on the cell pressed ("Show all cells" is gone once it ran: then the matrix).
    keepFocus(this.element, () => {
      this.renderMatrix();
      this.renderTable();
    }, '#agreement-matrix button');
    const rows = this.rowsOf(this.cell).length;
    this.announce(`Instance table: ${this.cell ? CELL_LABELS[this.cell] : 'all cells'}, ${formatCount(rows)} rows.`);
  }

  /** Filters the table (and the stepper) to the rows that satisfy `query` (empty: no search). */
  search(query: string): void {
    if (!query.trim()) {
      this.found = null;
      this.searchMessage.textContent = '';
      this.searchBox.removeAttribute('aria-invalid');
    } else {
      const result = searchPairs(this.pairs, query);
      if ('error' in result) {
        this.searchMessage.textContent = `Not searched: ${result.error}.`;
        this.searchBox.setAttribute('aria-invalid', 'true');
        return;
      }
      this.found = result.keep;
      this.searchBox.removeAttribute('aria-invalid');
      this.searchMessage.textContent = `${formatCount(result.keep.size)} ${result.keep.size === 1 ? 'match' : 'matches'} among the ${formatCount(this.pairs.rows.length)} aligned instances sent`;
    }
    this.page = 0;
    this.stepIndex = 0;
    keepFocus(this.element, () => {
      this.renderStepper();
      this.renderTable();
    });
  }

  /** Filters the table (and the stepper) to one slice of "Where it differs" (null: every slice). */
  setSlice(slice: { column: string; value: string } | null): void {
    this.slice = slice && this.pairs.sliceColumns?.includes(slice.column) ? slice : null;
    this.page = 0;
    this.stepIndex = 0;
    keepFocus(this.element, () => {
      this.renderMatrix();
      this.renderStepper();
      this.renderTable();
    });
    const rows = this.rowsOf(this.cell).length;
    this.announce(`Instance table: ${this.slice ? `${this.slice.column} = ${this.slice.value}, ` : ''}${this.cell ? CELL_LABELS[this.cell] : 'all cells'}, ${formatCount(rows)} rows.`);
  }

  private announce(text: string): void {
    this.live.textContent = text;
  }

  /** How many rows the instance table holds as filtered (all pages), and whether its cell was capped. */
  filteredCount(): { rows: number; capped: boolean } {
    const rows = this.rowsOf(this.cell).length;
    return { rows, capped: this.cellTotal() > rows };
  }

  /** Aligned instances in the cell the table is filtered to (all cells: every one), sent or not. */
  private cellTotal(): number {
    return this.cell ? this.pairs.counts[this.cell] : Object.values(this.pairs.counts).reduce((a, b) => a + b, 0);
  }

  /** The instance table as CSV: every row sent for the cell it is filtered to (all pages), in its order. */
  filteredCsv(): string {
    const [base, cand] = this.labels;
    return csvTable({
      columns: ['ID', 'gold', `${base}: predicted`, `${base}: score`, `${cand}: predicted`, `${cand}: score`, 'agreement', `${base}: line`, `${cand}: line`],
      rows: this.rowsOf(this.cell).map((r) => [r.id, r.gold, r.preds[0], r.values[0], r.preds[1], r.values[1], CELL_LABELS[r.cell], r.lines[0], r.lines[1]]),
    });
  }

  /** The cell the table is filtered to, for the export's file name. */
  get filter(): AgreementCell | null {
    return this.cell;
  }

  step(direction: 1 | -1): void {
    const rows = this.rowsOf(this.stepCell);
    if (!rows.length) return;
    this.stepIndex = (((this.stepIndex + direction) % rows.length) + rows.length) % rows.length;
    keepFocus(this.element, () => this.renderStepper());
    this.announceStep();
  }

  private announceStep(): void {
    const rows = this.rowsOf(this.stepCell);
    const row = rows[this.stepIndex];
    this.announce(row ? `${CELL_LABELS[this.stepCell]}: ${formatCount(this.stepIndex + 1)} of ${formatCount(rows.length)}, ID ${row.id}.` : `No instance where ${CELL_LABELS[this.stepCell]}.`);
  }

  private rowsOf(cell: AgreementCell | null): PairRow[] {
    const slice = this.slice;
    const k = slice ? this.pairs.sliceColumns!.indexOf(slice.column) : -1;
    const found = this.found;
    return this.pairs.rows.filter((r) => (!cell || r.cell === cell) && (!slice || r.slices?.[k] === slice.value) && (!found || found.has(r)));
  }

  private renderMatrix(): void {
    const { counts } = this.pairs;
    const total = counts.both_right + counts.baseline_only + counts.candidate_only + counts.both_wrong;
    const [base, cand] = this.labels;
    const cellButton = (cell: AgreementCell) => {
      const n = counts[cell];
      const share = total ? n / total : 0;
      const on = this.cell === cell;
      const button = el('button', {
        className: `agree-cell ${cell}${on ? ' on' : ''}`,
        attrs: { type: 'button', 'aria-pressed': String(on), id: `agree-${cell}` },
        data: { cell, count: n },
        title: `${CELL_LABELS[cell]}: click to ${on ? 'show every instance' : 'filter the instance table'}`,
        onClick: () => this.setCell(cell),
      }, [
        el('span', { className: 'agree-count', text: formatCount(n) }),
        el('span', { className: 'agree-share muted', text: `${(share * 100).toFixed(1)}%` }),
        el('span', { className: 'agree-label', text: CELL_LABELS[cell] }),
      ]);
      button.style.setProperty('--share', String(share));
      return el('td', {}, [button]);
    };
    clear(this.matrix);
    this.matrix.append(
      el('h2', { text: 'Agreement' }),
      el('p', { className: 'caption muted', text: `Rows: ${base} (baseline); columns: ${cand} (candidate). ${formatCount(total)} aligned instances. The discordant cells are what McNemar's test weighs. Click a cell to filter the instance table.` }),
      el('table', { className: 'agreement', attrs: { id: 'agreement-matrix' } }, [
        el('thead', {}, [el('tr', {}, [
          el('th', { className: 'corner', text: 'baseline ↓ / candidate →' }),
          el('th', { text: `${cand} right`, attrs: { scope: 'col' } }),
          el('th', { text: `${cand} wrong`, attrs: { scope: 'col' } }),
        ])]),
        el('tbody', {}, [
          el('tr', {}, [el('th', { text: `${base} right`, attrs: { scope: 'row' } }), cellButton('both_right'), cellButton('baseline_only')]),
          el('tr', {}, [el('th', { text: `${base} wrong`, attrs: { scope: 'row' } }), cellButton('candidate_only'), cellButton('both_wrong')]),
        ]),
      ]),
    );
  }

  private renderStepper(): void {
    const rows = this.rowsOf(this.stepCell);
    this.stepIndex = Math.max(0, Math.min(this.stepIndex, rows.length - 1));
    const [base, cand] = this.labels;
    const mode = el('div', { className: 'segmented', attrs: { role: 'group', 'aria-label': 'Which disagreements' } },
      (['baseline_only', 'candidate_only'] as const).map((c) => el('button', {
        className: `segment${this.stepCell === c ? ' on' : ''}`,
        text: `${CELL_LABELS[c]} (${formatCount(this.pairs.counts[c])})`,
        attrs: { type: 'button', 'aria-pressed': String(this.stepCell === c), id: `step-${c}` },
        onClick: () => { this.stepCell = c; this.stepIndex = 0; keepFocus(this.element, () => this.renderStepper()); this.announceStep(); },
      })));
    const position = el('span', { className: 'stepper-position', attrs: { id: 'pair-position' }, text: rows.length ? `${formatCount(this.stepIndex + 1)} of ${formatCount(rows.length)}` : '' });
    // With a slice the rows are the slice's (issue 28.4: "(first 0 sent)" said nothing of the slice).
    const sent = this.pairs.counts[this.stepCell] > this.pairs.cap ? ` (of the at most ${formatCount(this.pairs.cap)} sent)` : '';
    const capped = this.slice
      ? el('span', { className: 'muted', attrs: { id: 'pair-step-slice' }, text: `in ${this.slice.column} = ${this.slice.value}: ${formatCount(rows.length)} of ${formatCount(this.pairs.counts[this.stepCell])}${sent}` })
      : this.pairs.counts[this.stepCell] > rows.length ? el('span', { className: 'muted', text: `(first ${formatCount(rows.length)} sent)` }) : null;
    clear(this.stepper);
    this.stepper.dataset.cell = this.stepCell;
    this.stepper.dataset.total = String(rows.length);
    this.stepper.dataset.index = String(rows.length ? this.stepIndex : -1);
    this.stepper.append(el('div', { className: 'stepper-bar' }, [
      el('h2', { text: 'Disagreements' }), mode, position, capped, el('span', { className: 'spacer' }),
      el('span', { className: 'hint', text: 'j / k or ← / → to step' }),
      el('button', { className: 'button secondary', text: '‹ Previous', attrs: { type: 'button', id: 'pair-prev' }, onClick: () => this.step(-1) }),
      el('button', { className: 'button', text: 'Next ›', attrs: { type: 'button', id: 'pair-next' }, onClick: () => this.step(1) }),
    ]));
    const row = rows[this.stepIndex];
    if (!row) {
      this.stepper.append(el('p', { className: 'muted', text: `No instance where ${CELL_LABELS[this.stepCell]}.` }));
      return;
    }
    this.stepper.dataset.id = row.id;
    const side = (k: 0 | 1, label: string, right: boolean) => el('div', { className: `pair-side ${right ? 'right' : 'wrong'}`, data: { side: k === 0 ? 'baseline' : 'candidate' } }, [
      el('div', { className: 'pair-side-head' }, [
        el('strong', { text: label }),
        el('span', { className: 'verdict', text: right ? '✓ right' : '✗ wrong' }),
      ]),
      el('dl', { className: 'stepper-facts' }, [
        el('dt', { text: 'Predicted' }), el('dd', { text: row.preds[k], data: { fact: 'pred' } }),
        el('dt', { text: 'Score / confidence' }), el('dd', { text: formatMetric(row.values[k]) }),
        el('dt', { text: 'Line' }), el('dd', { text: String(row.lines[k]) }),
      ]),
      el('button', { className: 'link-button', text: 'Reveal in file', attrs: { type: 'button', 'aria-label': `Reveal in file: ${label}, line ${row.lines[k]}` }, data: { focusKey: `reveal-${k}` }, onClick: () => this.handlers.reveal(this.pairs.paths[k], row.lines[k]) }),
    ]);
    const baseRight = row.cell === 'both_right' || row.cell === 'baseline_only';
    const candRight = row.cell === 'both_right' || row.cell === 'candidate_only';
    this.stepper.append(
      el('dl', { className: 'stepper-facts pair-gold' }, [el('dt', { text: 'ID' }), el('dd', { text: row.id, data: { fact: 'id' } }), el('dt', { text: 'Gold' }), el('dd', { text: row.gold, data: { fact: 'gold' } })]),
      ...(this.handlers.openSamples ? [el('button', {
        className: 'button secondary pair-samples', text: 'Open both samples side by side',
        title: 'Both conversations, their scores and a word diff of the two final outputs, beside this page',
        attrs: { type: 'button', id: 'pair-open-samples' }, onClick: () => this.handlers.openSamples!(this.pairs.candidate, row.id),
      })] : []),
      el('div', { className: 'pair-sides' }, [side(0, `${base} (baseline)`, baseRight), side(1, `${cand} (candidate)`, candRight)]),
    );
    if (row.texts && this.pairs.textFields.length) {
      this.pairs.textFields.forEach((field, f) => this.stepper.append(el('div', { className: 'text-field' }, [
        el('div', { className: 'text-field-name', text: field }),
        el('div', { className: 'text-field-value', text: row.texts?.[f] ?? '', data: { field }, attrs: { tabindex: '0', role: 'region', 'aria-label': field } }),
      ])));
    }
  }

  private turnPage(page: number, pages: number): void {
    this.page = page;
    keepFocus(this.element, () => this.renderTable());
    this.announce(`Instance table: page ${page + 1} of ${pages}.`);
  }

  private renderTable(): void {
    const rows = this.rowsOf(this.cell);
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));
    this.page = Math.min(this.page, pages - 1);
    const shown = rows.slice(this.page * PAGE, (this.page + 1) * PAGE);
    const [base, cand] = this.labels;
    const total = this.cellTotal();
    clear(this.table);
    this.table.dataset.cell = this.cell ?? 'all';
    this.table.dataset.rows = String(rows.length);
    const head = ['ID', 'gold', `${base}: predicted`, `${base}: score`, `${cand}: predicted`, `${cand}: score`, 'agreement', ...(this.handlers.openSamples ? ['samples'] : [])];
    this.table.append(
      el('div', { className: 'chart-head' }, [
        el('h2', { text: 'Aligned instances' }),
        el('span', { className: 'muted', attrs: { id: 'pair-table-count' }, text: `${this.slice ? `${this.slice.column} = ${this.slice.value}, ` : ''}${this.cell ? CELL_LABELS[this.cell] : 'all cells'}: ${formatCount(rows.length)}${!this.slice && total > rows.length ? ` of ${formatCount(total)} (at most ${formatCount(this.pairs.cap)} a cell are sent)` : this.slice && total > this.pairs.cap ? ` (of the at most ${formatCount(this.pairs.cap)} a cell sent)` : ''}` }),
        this.slice ? el('button', { className: 'link-button', text: 'Every slice', attrs: { type: 'button', id: 'pair-table-every-slice' }, onClick: () => this.setSlice(null) }) : null,
        this.cell ? el('button', { className: 'link-button', text: 'Show all cells', attrs: { type: 'button', id: 'pair-table-all' }, onClick: () => this.setCell(this.cell) }) : null,
      ]),
      el('div', { className: 'pair-table-wrap', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Aligned instances (scrolls)' } }, [el('table', { className: 'pair-table' }, [
        el('thead', {}, [el('tr', {}, head.map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]),
        el('tbody', {}, shown.map((r) => el('tr', {
          className: `pair-row ${r.cell}`, data: { id: r.id, cell: r.cell }, title: 'Reveal in the baseline file',
          onClick: () => this.handlers.reveal(this.pairs.paths[0], r.lines[0]),
        }, [
          el('td', {}, [el('button', { className: 'link-button row-reveal', text: r.id, title: `Reveal ID ${r.id} in the baseline file (line ${r.lines[0]})`, attrs: { type: 'button' }, onClick: (e) => { e.stopPropagation(); this.handlers.reveal(this.pairs.paths[0], r.lines[0]); } })]), el('td', { text: r.gold }),
          el('td', { text: r.preds[0] }), el('td', { className: 'numeric', text: formatMetric(r.values[0]) }),
          el('td', { text: r.preds[1] }), el('td', { className: 'numeric', text: formatMetric(r.values[1]) }),
          el('td', { text: CELL_LABELS[r.cell] }),
          this.handlers.openSamples ? el('td', {}, [el('button', {
            className: 'link-button row-samples', text: 'side by side', title: `Open ID ${r.id} of both runs side by side (the sample view)`,
            attrs: { type: 'button', 'aria-label': `Open ID ${r.id} of both runs side by side` },
            onClick: (e) => { e.stopPropagation(); this.handlers.openSamples!(this.pairs.candidate, r.id); },
          })]) : null,
        ]))),
      ])]),
      ...(pages > 1 ? [el('div', { className: 'pager' }, [
        el('button', { className: 'button secondary', text: '‹', attrs: { type: 'button', 'aria-label': 'Previous page', id: 'pair-page-prev' }, onClick: () => this.turnPage(Math.max(0, this.page - 1), pages) }),
        el('span', { text: `page ${this.page + 1} of ${pages}` }),
        el('button', { className: 'button secondary', text: '›', attrs: { type: 'button', 'aria-label': 'Next page', id: 'pair-page-next' }, onClick: () => this.turnPage(Math.min(pages - 1, this.page + 1), pages) }),
      ])] : []),
    );
    this.handlers.filtered(this.cell, rows.length);
  }
}
