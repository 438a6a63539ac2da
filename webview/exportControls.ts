// "Export…" in the report header and "Copy as Markdown" beside the metric cards. The webview writes
// nothing: it asks the host (message 'export'), sending what only it has, the instance table's rows
// as filtered and a chart as PNG or SVG; the host builds Markdown and JSON itself and asks where to save.
import type { Report } from '../src/core/types';
import type { ExportRequest } from '../src/protocol';
import { csvTable } from '../src/common/tabular';
import { baseName } from '../src/common/paths';
import { chartChoices, chartFile, parseChartChoice, type PageChart } from './chartExport';
import { el } from './dom';
import { cellText, tableColumns } from './tableModel';
import { post } from './vscodeApi';

export interface ExportSources {
  report: Report;
  selected: number;
  /** Row indices of the instance table as filtered and sorted; null before the columns arrived. */
  rows: () => Uint32Array | null;
  binning: () => 'equalWidth' | 'equalCount';
  /** The charts on the page: id, title and canvas. */
  charts: () => PageChart[];
  background: () => string;
}

/** The instance table as CSV: the columns the table shows, the rows it keeps, in its order. */
export function instanceCsv(report: Report, rows: Uint32Array, binning: 'equalWidth' | 'equalCount'): string {
  const columns = tableColumns(report);
  return csvTable({
    columns: columns.map((c) => c.title),
    rows: Array.from(rows, (i) => columns.map((c) => cellText(report, c.key, i, binning))),
  });
}

function send(request: ExportRequest): void {
  post({ type: 'export', request });
}

/** The start of an exported file's name: the RAFT task, or the file's name without its extension. */
export function exportStem(report: Report): string {
  return (report.task ?? baseName(report.path)).replace(/\.[^.]*$/, '');
}

/** The header's "Export…" menu. */
export function exportMenu(sources: ExportSources): HTMLElement {
  const stem = exportStem(sources.report);
  const select = el('select', { attrs: { id: 'export-select', 'aria-label': 'Export' } });
  const option = (value: string, text: string, disabled = false) => {
    const o = el('option', { text, attrs: { value } });
    if (disabled) o.disabled = true;
    return o;
  };
  const fill = () => {
    select.replaceChildren(
      option('', 'Export…'),
      option('md-file', 'Markdown summary to a file…'),
      option('md-clipboard', 'Markdown summary to the clipboard'),
      option('json', 'JSON (as eval-lens score --json)…'),
      option('csv', 'CSV of the instance table, as filtered…', !sources.rows()),
      ...chartChoices(sources.charts()).map((c) => option(c.value, c.text)),
    );
    select.value = '';
  };
  fill();
  // The table's rows and the charts change after the header is drawn: list them when opened.
  select.addEventListener('focus', fill);
  select.addEventListener('change', () => {
    const v = select.value;
    select.value = '';
    if (v === 'md-file') send({ format: 'markdown', to: 'file', report: sources.selected });
    else if (v === 'md-clipboard') send({ format: 'markdown', to: 'clipboard', report: sources.selected });
    else if (v === 'json') send({ format: 'json', report: sources.selected });
    else if (v === 'csv') {
      const rows = sources.rows();
      if (rows) send({ format: 'csv', name: `${stem}.instances.csv`, text: instanceCsv(sources.report, rows, sources.binning()) });
    } else {
      const choice = parseChartChoice(v);
      const chart = choice && sources.charts().find((c) => c.id === choice.id);
      const file = chart && chartFile(chart, choice.format, stem, sources.background());
      if (file) send(file);
    }
  });
  return el('label', { className: 'control export-control' }, [el('span', { text: 'Export' }), select]);
}

/** "Copy as Markdown" for the metric cards: the same table as eval-lens score --markdown. */
export function copyMarkdownButton(selected: number): HTMLElement {
  const button = el('button', { className: 'button secondary copy-markdown', text: 'Copy as Markdown', attrs: { type: 'button', id: 'copy-markdown', title: 'Copy the metrics as a Markdown table (as eval-lens score --markdown)' } });
  button.addEventListener('click', () => send({ format: 'markdown', to: 'clipboard', report: selected }));
  return button;
}
