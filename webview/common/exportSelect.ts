// The "Export…" select of every page: its entries are listed each time it is opened (the table's
// rows, its filter and the charts change after the header is drawn), and a choice is handed on and
// the select shows "Export…" again. A choice is explicit (shared/choice.ts): arrows only browse.
import { onChoice } from './choice';
import { el } from './dom';

export interface ExportEntry {
  value: string;
  text: string;
  disabled?: boolean;
}

export function exportSelect(entries: () => ExportEntry[], choose: (value: string) => void): HTMLElement {
  const select = el('select', { attrs: { id: 'export-select', 'aria-label': 'Export' } });
  const fill = () => {
    select.replaceChildren(...[{ value: '', text: 'Export…' }, ...entries()].map((e) => {
      const option = el('option', { text: e.text, attrs: { value: e.value } });
      option.disabled = !!e.disabled;
      return option;
    }));
    select.value = '';
  };
  fill();
  select.addEventListener('focus', fill);
  // Arrows browse the entries; Enter (or a click in the list) runs one.
  onChoice(select, (value) => {
    select.value = '';
    if (value) choose(value);
  });
  return el('label', { className: 'control export-control' }, [el('span', { text: 'Export' }), select]);
}
