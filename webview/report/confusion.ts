// Confusion matrix as an HTML table (class names are text, never markup). Cell shading scales with
// the share of the gold class's instances; the diagonal is tinted green, errors red. Clicking a cell
// filters the instance table to that gold/predicted pair.
import type { ClassStats } from '../../src/core/types';
import { el } from '../shared/dom';
import { formatCount } from '../shared/format';
import { shortLabel } from '../shared/charts/classes';

export function confusionMatrix(stats: ClassStats, onCell: (gold: number, pred: number) => void): HTMLElement {
  const k = stats.classes.length;
  const table = el('table', { className: 'confusion', attrs: { id: 'confusion-matrix' } });
  const corner = el('th', { className: 'corner', text: 'gold ↓ / predicted →', attrs: { scope: 'col' } });
  const headRow = el('tr', {}, [corner]);
  stats.classes.forEach((name, p) => {
    headRow.appendChild(el('th', { className: 'pred-head', text: shortLabel(name, 18), title: `predicted: ${name}`, attrs: { scope: 'col' }, data: { pred: p } }));
  });
  table.appendChild(el('thead', {}, [headRow]));
  const body = el('tbody');
  for (let g = 0; g < k; g++) {
    const rowTotal = stats.confusion[g]?.reduce((a, b) => a + b, 0) ?? 0;
    const row = el('tr', {}, [el('th', { className: 'gold-head', text: shortLabel(stats.classes[g], 28), title: `gold: ${stats.classes[g]}`, attrs: { scope: 'row' }, data: { gold: g } })]);
    for (let p = 0; p < k; p++) {
      const count = stats.confusion[g]?.[p] ?? 0;
      const cell = el('td', {
        className: `${g === p ? 'hit' : 'miss'}${count ? '' : ' zero'}`,
        text: count ? formatCount(count) : '·',
        title: `gold ${stats.classes[g]}, predicted ${stats.classes[p]}: ${formatCount(count)}${rowTotal ? ` (${((100 * count) / rowTotal).toFixed(1)}% of gold)` : ''}`,
        data: { gold: g, pred: p, count },
      });
      // Shading through a custom property set via CSSOM (allowed by the CSP, unlike style attributes).
      cell.style.setProperty('--share', rowTotal ? String(count / rowTotal) : '0');
      if (count) cell.addEventListener('click', () => onCell(g, p));
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
  table.appendChild(body);
  return el('div', { className: 'confusion-wrap' }, [table]);
}
