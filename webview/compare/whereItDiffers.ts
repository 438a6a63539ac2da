// "Where it differs" (issue 20.4): the slices of the baseline's columns where the candidate differs
// beyond chance (Holm-adjusted over every slice tested), regressions first, then improvements,
// each with its Δ, interval and test in words; a button shows a slice's aligned instances. When no
// slice survives Holm the page says so, and lists the rest in a collapsed table, not as findings.
import type { ComparisonSlice } from '../../src/common/compareProtocol';
import type { MetricName } from '../../src/core/types';
import { improvement } from '../../src/common/metricDirection';
import { el } from '../common/dom';
import { formatCount, formatMetric, METRIC_INFO } from '../common/format';

const ALPHA = 0.05;
const TESTS: Record<ComparisonSlice['test'], string> = { mcnemar: 'exact McNemar', delong: "DeLong's test", bootstrap: 'paired bootstrap' };

/** 1 when delta is an improvement for the metric, -1 a regression, 0 neither. */
function direction(metric: string, delta: number | null): number {
  return delta === null ? 0 : improvement(metric as MetricName, delta);
}

function pText(p: number | null): string {
  return p === null ? '—' : p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}

function signed(v: number | null): string {
  if (v === null) return '—';
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${formatMetric(Math.abs(v))}`;
}

/** null when the comparison has no slices (run folders, probabilities, no column to slice by). */
export function whereItDiffers(slices: readonly ComparisonSlice[] | undefined, onShow: (slice: ComparisonSlice) => void): HTMLElement | null {
  if (!slices?.length) return null;
  const metric = slices[0].metric;
  const name = METRIC_INFO[metric as MetricName]?.label ?? metric;
  const significant = slices.filter((s) => s.p_holm !== null && s.p_holm < ALPHA);
  const worse = significant.filter((s) => direction(metric, s.delta) < 0);
  const better = significant.filter((s) => direction(metric, s.delta) > 0);
  const row = (s: ComparisonSlice, k: number) => el('tr', { data: { column: s.column, value: s.value } }, [
    el('th', { attrs: { scope: 'row' } }, [el('button', {
      className: 'link-button slice-show', text: `${s.column} = ${s.value}${s.run ? ` · ${s.run}` : ''}`,
      title: 'Show these aligned instances below', attrs: { type: 'button', id: `slice-${k}` }, onClick: () => onShow(s),
    })]),
    el('td', { className: 'numeric', text: formatCount(s.n) }),
    el('td', { className: 'numeric', text: formatMetric(s.baseline) }),
    el('td', { className: 'numeric', text: formatMetric(s.candidate) }),
    el('td', { className: 'numeric', text: signed(s.delta) }),
    el('td', { className: 'numeric', text: s.interval ? `[${signed(s.interval[0])}, ${signed(s.interval[1])}]` : '—' }),
    el('td', { className: 'numeric', text: pText(s.p_value) }),
    el('td', { className: 'numeric', text: pText(s.p_holm) }),
    el('td', { text: s.p_holm !== null && s.p_holm < ALPHA ? `✱ ${direction(metric, s.delta) < 0 ? 'candidate worse' : 'candidate better'}` : 'within chance' }),
  ]);
  const table = (list: readonly ComparisonSlice[], id: string, offset: number) => el('div', { className: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Slices (scrolls)' } }, [el('table', { className: 'slice-table', attrs: { id } }, [
    el('thead', {}, [el('tr', {}, ['slice', 'n', 'baseline', 'candidate', 'Δ', '95% interval of Δ', 'p', 'p (Holm)', 'verdict'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]),
    el('tbody', {}, list.map((s, k) => row(s, offset + k))),
  ])]);
  const rest = slices.filter((s) => !significant.includes(s));
  const sentence = significant.length
    ? `${name}: ${worse.length} slice${worse.length === 1 ? '' : 's'} where the candidate is worse and ${better.length} where it is better beyond chance (${TESTS[slices[0].test]} per slice, Holm over ${formatCount(slices.length)} slices, α ${ALPHA}).`
    : `No slice differs beyond chance: ${name} was tested in ${formatCount(slices.length)} slices (${TESTS[slices[0].test]}, Holm, α ${ALPHA}), and none survives the adjustment.`;
  return el('section', { className: 'section where-it-differs', attrs: { id: 'where-it-differs' } }, [
    el('h2', { text: 'Where it differs' }),
    el('p', { attrs: { id: 'where-it-differs-summary' }, text: sentence }),
    significant.length ? table([...worse, ...better], 'slices-significant', 0) : null,
    rest.length ? el('details', {}, [
      el('summary', { text: `${formatCount(rest.length)} slice${rest.length === 1 ? '' : 's'} within chance` }),
      table(rest, 'slices-rest', significant.length),
    ]) : null,
    el('p', { className: 'caption muted', text: 'Slices: each value of a column of the baseline file with 2 to 20 values, or the quartiles of a numeric column. A slice\'s instances below are those sent (at most 2,000 per agreement cell).' }),
  ]);
}
