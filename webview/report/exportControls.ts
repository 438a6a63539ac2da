// "Export…" in the report header and "Copy as Markdown" beside the metric cards. The webview writes
// nothing: it asks the host (message 'export'), sending what only it has, the instance table's rows
// as filtered and a chart as PNG or SVG; the host builds Markdown and JSON itself and asks where to save.
import type { Report } from '../../src/core/types';
import type { ExportRequest } from '../../src/protocol';
import { csvField } from '../../src/common/tabular';
import { baseName } from '../../src/common/paths';
import { chartChoices, chosenChartFile, type PageChart } from '../common/chartExport';
import { el } from '../common/dom';
import { exportSelect } from '../common/exportSelect';
import { cellData, csvColumnName, tableColumns } from './tableModel';
import { post } from '../common/vscodeApi';
import { withCopyStatus } from '../common/copyStatus';

export interface ExportSources {
  report: Report;
  selected: number;
  /**
   * What the instance table shows: its report (a group's rows only when a group is selected, and
   * with the per-instance columns, which arrive after the header is drawn) and its row indices as
   * filtered and sorted; null before the columns arrived.
   */
  table: () => { report: Report; rows: Uint32Array } | null;
  binning: () => 'equalWidth' | 'equalCount';
  /** The charts on the page: id, title and canvas. */
  charts: () => PageChart[];
  background: () => string;
}

/**
 * The instance table as CSV: the columns the table shows, the rows it keeps, in its order, as data
 * (full precision, correct as 1/0, identifiers for names: see cellData and csvColumnName). Built
 * line by line: a 1,000,000-row table is one string of about 60 MB, not a million row arrays.
 */
export function instanceCsv(report: Report, rows: Uint32Array, binning: 'equalWidth' | 'equalCount'): string {
  const columns = tableColumns(report);
  const keys = columns.map((c) => c.key);
  const lines: string[] = [columns.map((c) => csvField(csvColumnName(report, c))).join(',')];
  for (let j = 0; j < rows.length; j++) {
    const i = rows[j];
    let line = '';
    for (let c = 0; c < keys.length; c++) line += (c ? ',' : '') + csvField(cellData(report, keys[c], i, binning));
    lines.push(line);
  }
  return lines.join('\r\n') + '\r\n';
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
  const report = sources.selected;
  return exportSelect(() => [
    { value: 'md-file', text: 'Markdown summary to a file…' },
    { value: 'md-clipboard', text: 'Markdown summary to the clipboard' },
    { value: 'json', text: 'JSON (as eval-lens score --json)…' },
    { value: 'csv', text: 'CSV of the instance table, as filtered…', disabled: !sources.table() },
    ...chartChoices(sources.charts()),
  ], (value) => {
    if (value === 'md-file') send({ format: 'markdown', to: 'file', report });
    else if (value === 'md-clipboard') send({ format: 'markdown', to: 'clipboard', report });
    else if (value === 'json') send({ format: 'json', report });
    else if (value === 'csv') {
      const shown = sources.table();
      if (shown) send({ format: 'csv', name: `${stem}.instances.csv`, text: instanceCsv(shown.report, shown.rows, sources.binning()) });
    } else {
      const file = chosenChartFile(value, sources.charts(), stem, sources.background());
      if (file) send(file);
    }
  });
}

/** "Copy as Markdown" for the metric cards: the same table as eval-lens score --markdown. */
export function copyMarkdownButton(selected: number): HTMLElement {
  const button = el('button', { className: 'button secondary copy-markdown', text: 'Copy as Markdown', attrs: { type: 'button', id: 'copy-markdown', title: 'Copy the metrics as a Markdown table (as eval-lens score --markdown)' } });
  button.addEventListener('click', () => send({ format: 'markdown', to: 'clipboard', report: selected }));
  return withCopyStatus(button);
}
