// The breakdown table of a report (Inspect logs): one row per scorer and epoch, and per scorer the
// epoch-reduced figures that the headline cards show for the first scorer.
import type { BreakdownRow } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';

export function breakdownTable(rows: BreakdownRow[]): HTMLElement {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  const head = el('tr', {}, [el('th', { text: 'Scores' }), el('th', { text: 'n' }), ...names.map((m) => el('th', { text: m }))]);
  const body = rows.map((r) => el('tr', { data: { breakdown: r.label } }, [
    el('td', { text: r.label }),
    el('td', { text: formatCount(r.n) }),
    ...names.map((m) => el('td', { text: formatMetric(r.metrics[m] ?? null), data: { metric: m } })),
  ]));
  return el('table', { className: 'breakdown', attrs: { id: 'breakdown', 'aria-label': 'Scores by scorer, epoch and reduction' } }, [
    el('thead', {}, [head]), el('tbody', {}, body),
  ]);
}
