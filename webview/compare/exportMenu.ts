// The compare panel's "Export…" menu and "Copy as Markdown". The webview writes nothing: it asks the
// host (message 'export'), which builds the CLI's documents (`eval-lens compare --markdown / --json /
// --csv`) itself, or saves what only the page has (the aligned instances as filtered, a chart as PNG
// or SVG), and asks where to save it.
import type { CompareExportRequest } from '../../src/common/compareProtocol';
import { chartChoices, chosenChartFile, type PageChart } from '../common/chartExport';
import { exportSelect } from '../common/exportSelect';
import { el } from '../common/dom';
import { formatCount } from '../common/format';
import type { PairsView } from './pairs';
import { withCopyStatus } from '../common/copyStatus';

type Documents = [string, string, CompareExportRequest][];

/** The documents the host builds as a command of the CLI prints them (`compare` or `board`). */
function documents(command: 'compare' | 'board'): Documents {
  return [
    ['md-file', 'Markdown summary to a file…', { format: 'markdown', to: 'file' }],
    ['md-clipboard', 'Markdown summary to the clipboard', { format: 'markdown', to: 'clipboard' }],
    ['json', `JSON (as eval-lens ${command} --json)…`, { format: 'json' }],
    ['csv', command === 'compare' ? 'CSV of the metrics (as eval-lens compare --csv)…' : 'CSV, a row per run and task (as eval-lens board --csv)…', { format: 'csv' }],
  ];
}

/** File names start with this. */
export const COMPARE_STEM = 'comparison';

export interface CompareExportSources {
  /** The instance-by-instance view, when the kind has a notion of correct. */
  pairs: () => PairsView | null;
  charts: () => PageChart[];
  background: () => string;
}

const NOTHING_ELSE: CompareExportSources = { pairs: () => null, charts: () => [], background: () => '' };

/** The leaderboard's "Export…": its Markdown, JSON and CSV as `eval-lens board` prints them. */
export function boardExportMenu(send: (request: CompareExportRequest) => void): HTMLElement {
  return compareExportMenu(send, NOTHING_ELSE, 'board');
}

export function compareExportMenu(send: (request: CompareExportRequest) => void, sources: CompareExportSources, command: 'compare' | 'board' = 'compare'): HTMLElement {
  const DOCUMENTS = documents(command);
  return exportSelect(() => {
    const pairs = sources.pairs()?.filteredCount();
    return [
      ...DOCUMENTS.map(([value, text]) => ({ value, text })),
      ...(pairs ? [{ value: 'instances', text: `CSV of the aligned instances, as filtered (${formatCount(pairs.rows)} rows${pairs.capped ? ', as sent' : ''})…` }] : []),
      ...chartChoices(sources.charts()),
    ];
  }, (value) => {
    const document = DOCUMENTS.find(([v]) => v === value);
    if (document) return send(document[2]);
    if (value === 'instances') {
      const view = sources.pairs();
      if (view) send({ format: 'file', file: { format: 'csv', name: `${COMPARE_STEM}.${view.filter ?? 'all'}.instances.csv`, text: view.filteredCsv() } });
      return;
    }
    const file = chosenChartFile(value, sources.charts(), COMPARE_STEM, sources.background());
    if (file) send({ format: 'file', file });
  });
}

/** "Copy as Markdown" beside the metric table: the same tables as eval-lens compare (or board) --markdown. */
export function copyMarkdownButton(send: (request: CompareExportRequest) => void, command: 'compare' | 'board' = 'compare'): HTMLElement {
  return withCopyStatus(el('button', {
    className: 'button secondary copy-markdown', text: 'Copy as Markdown',
    attrs: { type: 'button', id: 'copy-markdown', title: `Copy the ${command === 'compare' ? 'comparison' : 'leaderboard'} as Markdown (as eval-lens ${command} --markdown)` },
    onClick: () => send({ format: 'markdown', to: 'clipboard' }),
  }));
}
