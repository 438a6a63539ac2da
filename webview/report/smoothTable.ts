// The smoothed reliability diagram's numbers at a readable resolution (issue 19): t every 1/32, the
// smoothed curve, its 95% band, the density, as a table beside the chart (screen readers and anyone
// reading values off the curve). Rebuilt when the band arrives with the intervals.
import type { SmoothReliability } from '../../src/core/types';
import { smoothTableRows } from '../../src/charts/smoothReliability';
import { clear, el } from '../common/dom';

function num(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(3);
}

/** The aside: a caption and the table, refilled by `fill`. */
export function smoothReliabilityAside(): { element: HTMLElement; fill: (s: SmoothReliability, target: string) => void } {
  const body = el('div', { className: 'chart-data-body smooth-table', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Smoothed reliability: numbers (scrolls)' } });
  const note = el('p', { className: 'caption muted' });
  const element = el('div', { className: 'bin-aside', attrs: { id: 'smooth-reliability-numbers' } }, [el('h3', { text: 'Numbers (t every 1/32)' }), body, note]);
  return {
    element,
    fill(s, target) {
      clear(body);
      const band = !!(s.lower && s.upper);
      const rows = smoothTableRows(s);
      body.append(el('table', { className: 'chart-data-table' }, [
        el('caption', { className: 'sr-only', text: 'Smoothed reliability curve, band and density' }),
        el('thead', {}, [el('tr', {}, ['t', `Smoothed ${target}`, ...(band ? ['95% band low', '95% band high'] : []), 'Density']
          .map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]),
        el('tbody', {}, rows.map((r) => el('tr', {}, [
          el('th', { className: 'numeric', text: r.t.toFixed(4).replace(/0+$/, '').replace(/\.$/, ''), attrs: { scope: 'row' } }),
          el('td', { className: 'numeric', text: num(r.curve) }),
          ...(band ? [el('td', { className: 'numeric', text: num(r.lower) }), el('td', { className: 'numeric', text: num(r.upper) })] : []),
          el('td', { className: 'numeric', text: num(r.density) }),
        ]))),
      ]));
      note.textContent = `σ* = smECE = ${num(s.smece)}. — : fewer than one row's weight near t.${band ? ` Band: ${s.resamples} bootstrap resamples at σ*.` : ' The 95% band comes with the bootstrap intervals.'}`;
    },
  };
}
