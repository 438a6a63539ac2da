// Confusion matrix as an HTML table (class names are text, never markup). Cell shading scales with
// the share of the gold class's instances; the diagonal is tinted green, errors red. Clicking a cell
// filters the instance table to that gold/predicted pair.
import type { ClassStats } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount } from '../common/format';
import { shortLabel } from '../common/charts/classes';

/**
 * One tab stop for the whole matrix (77 classes make 5,929 cells): arrows move between cells,
 * Home/End to a row's ends, Enter or Space filters the instance table to a non-empty cell.
 */
function rovingCells(table: HTMLTableElement, k: number, onCell: (gold: number, pred: number) => void): void {
  const cellAt = (g: number, p: number) => table.tBodies[0]?.rows[g]?.cells[p + 1] as HTMLElement | undefined;
  let at: [number, number] = [0, 0];
  const first = cellAt(0, 0);
  if (first) first.tabIndex = 0;
  table.addEventListener('keydown', (event) => {
    const [g, p] = at;
    let next: [number, number] | null = null;
    switch (event.key) {
      case 'ArrowRight': next = [g, Math.min(k - 1, p + 1)]; break;
      case 'ArrowLeft': next = [g, Math.max(0, p - 1)]; break;
      case 'ArrowDown': next = [Math.min(k - 1, g + 1), p]; break;
      case 'ArrowUp': next = [Math.max(0, g - 1), p]; break;
      case 'Home': next = [g, 0]; break;
      case 'End': next = [g, k - 1]; break;
      case 'Enter':
      case ' ':
        if (Number(cellAt(g, p)?.dataset.count)) onCell(g, p);
        event.preventDefault();
        return;
      default: return;
    }
    event.preventDefault();
    const from = cellAt(g, p);
    const to = cellAt(next[0], next[1]);
    if (!to) return;
    if (from) from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
    at = next;
  });
  // A click (or Tab back in) moves the tab stop to that cell.
  table.addEventListener('focusin', (event) => {
    const cell = (event.target as HTMLElement).closest<HTMLElement>('td[data-gold]');
    if (!cell) return;
    const g = Number(cell.dataset.gold), p = Number(cell.dataset.pred);
    if (g === at[0] && p === at[1]) return;
    const old = cellAt(at[0], at[1]);
    if (old) old.tabIndex = -1;
    cell.tabIndex = 0;
    at = [g, p];
  });
}

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
      cell.tabIndex = -1;
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
  table.appendChild(body);
  rovingCells(table, k, onCell);
  return el('div', { className: 'confusion-wrap', attrs: { role: 'region', 'aria-label': 'Confusion matrix (scrolls)' } }, [table]);
}
