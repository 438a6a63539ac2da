// The compare panel's "Export…" menu. The webview writes nothing: it asks the host (message
// 'export'), which builds the document as `eval-lens compare` does and asks where to save it.
import type { CompareExportRequest } from '../../src/common/compareProtocol';
import { el } from '../dom';

const CHOICES: [string, string, CompareExportRequest][] = [
  ['md-file', 'Markdown summary to a file…', { format: 'markdown', to: 'file' }],
  ['md-clipboard', 'Markdown summary to the clipboard', { format: 'markdown', to: 'clipboard' }],
  ['json', 'JSON (as eval-lens compare --json)…', { format: 'json' }],
  ['csv', 'CSV of the metrics (as eval-lens compare --csv)…', { format: 'csv' }],
];

export function compareExportMenu(send: (request: CompareExportRequest) => void): HTMLElement {
  const select = el('select', { attrs: { id: 'export-select', 'aria-label': 'Export' } });
  const placeholder = el('option', { text: 'Export…', attrs: { value: '' } });
  select.replaceChildren(placeholder, ...CHOICES.map(([value, text]) => el('option', { text, attrs: { value } })));
  select.value = '';
  select.addEventListener('change', () => {
    const choice = CHOICES.find(([value]) => value === select.value);
    select.value = '';
    if (choice) send(choice[2]);
  });
  return el('label', { className: 'control export-control' }, [el('span', { text: 'Export' }), select]);
}
