// The instance table's search box (issue 20.1): plain text or /regex/flags across every text an
// instance has, and `column = != ~ > >= < <= value` terms joined by AND (src/common/whereTerms.ts,
// the grammar of the CLI's --where). It composes with the other filters; under it, the kept rows'
// figures beside the whole file's, with their intervals. It lives outside the toolbar (which is
// rebuilt on every filter change), so typing never loses its focus or its text.
import type { Report } from '../../src/core/types';
import { searchIndex, searchRows, unknownColumns, type SearchIndex } from '../../src/common/instanceSearch';
import type { ColumnAnswer } from './columnReads';
import { subsetFigures, type SubsetFigure } from '../../src/common/subsetMetrics';
import { el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';
import { conversationTerms, searchWithConversations } from '../../src/common/conversationMask';
import { parseWhere } from '../../src/common/whereTerms';

/** Typing pauses this long before a search runs (Enter runs it at once). */
const DEBOUNCE_MS = 180;

const NAMES: Record<SubsetFigure['metric'], string> = { accuracy: 'accuracy', brier: 'Brier', mse: 'squared error' };

export class SearchBox {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly message: HTMLElement;
  private readonly figures: HTMLElement;
  private index: SearchIndex | null = null;
  private timer = 0;
  private applied = '';
  private whole: SubsetFigure[] | null = null;
  /** Columns the host could not read, and why (asked once). */
  private readonly unreadable = new Map<string, string>();

  /**
   * `onSearch(query, mask)`: the rows to keep (null: no search), after each change of the query.
   * `conversations` (issue 29): asks the host which rows' conversations (in the file, not on the
   * page) hold the query's text terms; the rows found there are added when it answers.
   */
  constructor(
    private readonly report: Report, initial: string, private readonly onSearch: (query: string, mask: Uint8Array | null) => void,
    private readonly conversations?: (query: string) => Promise<{ rows?: { line: number; terms: number }[]; error?: string }>,
    /**
     * Columns of the file the page does not hold (issue 28.1): where a column the report offers
     * comes from, and the host's reading of it; a term naming one waits for its values.
     */
    private readonly fileColumns?: { source: (column: string) => 'predictions' | 'data' | undefined; read: (column: string, fromData: boolean) => Promise<ColumnAnswer> },
  ) {
    this.input = el('input', {
      attrs: {
        type: 'search', id: 'instance-search', spellcheck: 'false', autocomplete: 'off',
        placeholder: 'Search: text, /regex/i, or column = value AND …',
        'aria-label': 'Search the instances',
        'aria-describedby': 'instance-search-help',
      },
    });
    this.input.value = initial;
    this.message = el('span', { className: 'search-message', attrs: { id: 'instance-search-message', role: 'status', 'aria-live': 'polite' } });
    this.figures = el('p', { className: 'search-figures muted', attrs: { id: 'instance-search-figures', 'aria-live': 'polite' } });
    const help = el('span', {
      className: 'sr-only',
      attrs: { id: 'instance-search-help' },
      text: 'Plain text matches any text of an instance, ignoring case; /regex/ with flags i, m, s or u; column = value, column != value, column ~ regex, column > number; join terms with AND.',
    });
    this.element = el('div', { className: 'table-search' }, [
      el('label', { className: 'control search-control' }, [el('span', { text: 'Search' }), this.input]),
      help,
      this.message,
      this.figures,
    ]);
    this.input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => this.apply(), DEBOUNCE_MS);
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        clearTimeout(this.timer);
        this.apply();
      } else if (e.key === 'Escape' && this.input.value) {
        e.preventDefault();
        e.stopPropagation();
        this.input.value = '';
        this.apply();
      }
    });
  }

  /** The mask of the initial query (the page reloaded with a search in its state), or null. */
  initialMask(): Uint8Array | null {
    const query = this.input.value;
    if (!query.trim() || this.readColumns(query)) return null; // the columns' arrival runs it
    return this.run(query);
  }

  /** Runs `query` as if typed (an error group's answer, say). */
  set(query: string): void {
    clearTimeout(this.timer);
    this.input.value = query;
    this.apply();
  }

  /** Empties the box ("Clear filters"). */
  clear(): void {
    if (!this.input.value && !this.applied) return;
    this.input.value = '';
    this.applied = '';
    this.message.textContent = '';
  }

  /** The figures of the rows the table keeps, beside the whole file's; nothing when it keeps every row. */
  showFigures(rows: Uint32Array, filtering: boolean): void {
    const inst = this.report.instances;
    this.figures.textContent = '';
    if (!inst || !filtering) return;
    this.whole ??= subsetFigures(this.report.kind, inst, null);
    const keep = new Uint8Array(inst.lines.length);
    for (let k = 0; k < rows.length; k++) keep[rows[k]] = 1;
    const kept = subsetFigures(this.report.kind, inst, (i) => keep[i] === 1);
    const parts = kept.map((f, k) => {
      const all = this.whole![k];
      const ci = f.interval ? ` [${formatMetric(f.interval[0])}, ${formatMetric(f.interval[1])}]` : '';
      return `${NAMES[f.metric]} ${formatMetric(f.value)}${ci}${all ? `, ${formatMetric(all.value)} overall` : ''}`;
    });
    const total = inst.lines.length;
    this.figures.textContent = `${formatCount(rows.length)} of ${formatCount(total)} rows: ${parts.join('; ')}${rows.length < 30 ? ' (fewer than 30 rows: the intervals are rough)' : ''}.`;
    this.figures.dataset.rows = String(rows.length);
  }

  private apply(): void {
    const query = this.input.value;
    if (query.trim() === this.applied.trim()) return;
    this.applied = query;
    if (query.trim() && this.readColumns(query)) return; // the columns' arrival runs it
    const mask = query.trim() ? this.run(query) : null;
    if (query.trim() && !mask) return; // an error: the rows stay as they were, the message says why
    this.onSearch(query.trim(), mask);
    if (mask) void this.searchConversations(query);
  }

  /** The same query inside the conversations (issue 29): rows whose conversation holds a text term join. */
  private async searchConversations(query: string): Promise<void> {
    const parsed = parseWhere(query);
    if (!this.conversations || !this.index || 'error' in parsed || !conversationTerms(parsed.terms).length) return;
    const local = this.message.textContent;
    this.message.textContent = `${local}; searching inside the conversations…`;
    this.element.dataset.conversations = 'searching';
    const answer = await this.conversations(query);
    if (query !== this.applied) return; // typed on meanwhile
    if (answer.error || !answer.rows) {
      this.message.textContent = `${local}; the conversations could not be searched (${answer.error ?? 'no answer'})`;
      this.element.dataset.conversations = 'failed';
      return;
    }
    const found = searchWithConversations(this.index, this.report.instances!.lines, query, answer.rows);
    if ('error' in found) return;
    this.message.textContent = `${formatCount(found.count)} ${found.count === 1 ? 'match' : 'matches'}${found.fromConversations ? `, ${formatCount(found.fromConversations)} of them inside the conversations` : ', none more inside the conversations'}`;
    this.element.dataset.conversations = String(found.fromConversations);
    this.onSearch(query.trim(), found.mask);
  }

  /**
   * Asks the host for the columns `query` names that the report offers (Group by's lists) but the
   * index lacks; true while they are read, after which the query runs if it is still the one typed.
   */
  private readColumns(query: string): boolean {
    this.index ??= searchIndex(this.report);
    const files = this.fileColumns;
    if (!this.index || !files) return false;
    const wanted = unknownColumns(this.index, query).filter((c) => files.source(c) && !this.unreadable.has(c));
    if (!wanted.length) return false;
    const index = this.index;
    this.message.classList.remove('error');
    this.message.textContent = `Reading ${wanted.map((c) => JSON.stringify(c)).join(', ')} from the file…`;
    this.element.dataset.reading = wanted.join(',');
    void Promise.all(wanted.map(async (c) => [c, await files.read(c, files.source(c) === 'data')] as const)).then((answers) => {
      delete this.element.dataset.reading;
      const failed: string[] = [];
      for (const [c, answer] of answers) {
        if (answer.values && answer.values.length === index.n) index.addColumn(c, answer.values);
        else {
          const why = answer.error ?? `${answer.values?.length ?? 0} values came for ${index.n} rows`;
          this.unreadable.set(c, why);
          failed.push(`${JSON.stringify(c)} could not be read (${why.replace(/\.$/, '')})`);
        }
      }
      if (this.input.value !== query) return; // typed on meanwhile: that query runs on its own
      if (failed.length) {
        this.message.textContent = `Not searched: ${failed.join('; ')}.`;
        this.message.classList.add('error');
        this.input.setAttribute('aria-invalid', 'true');
        return;
      }
      const mask = this.run(query);
      if (mask) this.onSearch(query.trim(), mask);
    });
    return true;
  }

  private run(query: string): Uint8Array | null {
    this.index ??= searchIndex(this.report);
    if (!this.index) return null;
    const result = searchRows(this.index, query);
    if ('error' in result) {
      this.message.textContent = `Not searched: ${result.error}.`;
      this.message.classList.add('error');
      this.input.setAttribute('aria-invalid', 'true');
      return null;
    }
    this.message.classList.remove('error');
    this.input.removeAttribute('aria-invalid');
    this.message.textContent = `${formatCount(result.count)} ${result.count === 1 ? 'match' : 'matches'}`;
    return result.mask;
  }
}
