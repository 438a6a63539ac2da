// A summary file's page (Report.summary: lm-eval or lighteval results, HELM stats.json, a leaderboard,
// a table of metrics): what the file is, and a table of its figures as the file gives them, with the
// task, model or split each is for and the samples it is over. Nothing was recomputed, so there are
// no cards or charts. Text from the file goes in as textContent (el()).
import type { Report, SummaryFigure } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount } from '../common/format';

/** Rows drawn at most; the JSON export holds every figure. */
export const SUMMARY_ROWS_SHOWN = 5000;

/** A figure as the file gives it: whole numbers whole, others to 4 decimals, NaN and infinities spelled. */
function valueText(report: Report, f: SummaryFigure): string {
  const spelled = report.reportedNonFinite?.[f.name];
  if (spelled) return spelled;
  if (f.value === null) return 'not reported';
  return Number.isInteger(f.value) ? String(f.value) : f.value.toFixed(4);
}

export function summaryFiguresSection(report: Report): HTMLElement {
  const s = report.summary!;
  const figures = s.figures;
  // A column for what the figures are named by, only when some figure has it.
  const cols = (['task', 'model', 'split'] as const).filter((k) => figures.some((f) => f[k] !== undefined));
  const withN = figures.some((f) => f.n !== undefined);
  const shown = figures.slice(0, SUMMARY_ROWS_SHOWN);
  const head = el('tr', {}, [
    ...cols.map((k) => el('th', { text: k, attrs: { scope: 'col' } })),
    el('th', { text: 'metric', attrs: { scope: 'col' } }),
    el('th', { text: 'value', attrs: { scope: 'col' } }),
    withN ? el('th', { text: 'samples', attrs: { scope: 'col' } }) : null,
  ]);
  const rows = shown.map((f) => el('tr', { data: { figure: f.name } }, [
    ...cols.map((k) => el('td', { text: f[k] ?? '' })),
    el('td', { text: f.metric }),
    el('td', { className: 'num', text: valueText(report, f), data: { value: f.value === null ? 'null' : String(f.value) } }),
    withN ? el('td', { className: 'num', text: f.n === undefined ? '' : formatCount(f.n) }) : null,
  ]));
  const table = el('table', { className: 'breakdown summary-figures', attrs: { id: 'summary-figures', 'aria-label': `Figures of ${s.source}` } }, [
    el('thead', {}, [head]), el('tbody', {}, rows),
  ]);
  const facts = [`${s.source[0].toUpperCase()}${s.source.slice(1)}`, `${formatCount(figures.length)} figure${figures.length === 1 ? '' : 's'}`];
  if (report.sourceModel) facts.push(`model ${report.sourceModel}`);
  return el('section', { className: 'section', attrs: { id: 'section-summary', 'aria-labelledby': 'summary-heading' } }, [
    el('h2', { text: 'Figures this file reports', attrs: { id: 'summary-heading' } }),
    // data-na: what the per-sample features (cards, groups, search, the stepper, row exports) say on a summary (issue 28).
    el('p', { className: 'muted', data: { na: 'samples' }, text: `${facts.join(' · ')}. A summary of results: its figures are shown as the file gives them, not recomputed (there are no predictions in it to score), so intervals, groups, search, the stepper and row exports, which work on samples, do not apply; open the predictions it summarises for them.` }),
    // A box that scrolls is a focusable region with a name (CONTRIBUTING.md, Accessibility).
    el('div', { className: 'summary-figures-wrap', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Figures (scrolls)' } }, [table]),
    figures.length > shown.length
      ? el('p', { className: 'muted', text: `The first ${formatCount(shown.length)} of ${formatCount(figures.length)} figures; Export… as JSON holds them all.` })
      : null,
  ]);
}
