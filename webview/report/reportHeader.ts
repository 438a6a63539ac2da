// The report's header: title, path, "Compare with…", the facts as chips, the report picker (a
// folder's tasks, with the RAFT score) and the Export menu with "Copy as Markdown".
import type { Report } from '../../src/core/types';
import { cardMetrics } from '../../src/common/metricTable';
import { baseName } from '../../src/common/paths';
import { onChoice } from '../common/choice';
import { el } from '../common/dom';
import { formatCount, formatMetric, METRIC_INFO } from '../common/format';
import { post } from '../common/vscodeApi';
import { copyMarkdownButton, exportMenu } from './exportControls';

export interface HeaderContext {
  reports: Report[];
  summary: { raft_score?: number | null };
  selected: number;
  /** The user picked another report of the file or folder. */
  onSelect: (k: number) => void;
  /** What the Export menu reads when it opens (the table's rows, the charts, the background). */
  exports: Omit<Parameters<typeof exportMenu>[0], 'report' | 'selected'>;
}

export function reportHeader(report: Report, ctx: HeaderContext): HTMLElement {
  const reports = ctx.reports;
  const chips: [string, string][] = [['format', report.format]];
  // A summary has figures, not a kind or a count of rows scored.
  if (report.summary) {
    if (report.summary.harness) chips.push(['harness', report.summary.harness]);
    if (report.task) chips.push(['task', report.task]);
    chips.push(['figures', formatCount(report.summary.figures.length)]);
  } else {
    chips.push(['kind', report.kind]);
    if (report.task) chips.push(['task', report.task]);
    chips.push(['n', formatCount(report.n)], ['skipped', formatCount(report.skipped)]);
    if (report.unlabeled) chips.push(['unlabeled', formatCount(report.unlabeled)]);
  }
  chips.push(['problems', formatCount(report.problems.length)]);

  const children: (HTMLElement | null)[] = [
    el('h1', { text: report.task ? `${report.task}` : baseName(report.path), attrs: { id: 'report-title' } }),
    el('div', { className: 'report-path-row' }, [
      el('div', { className: 'path', text: report.path, title: report.path, attrs: { id: 'report-path' } }),
      el('button', { className: 'link-button', text: 'Compare with…', title: 'Compare this run with another one', attrs: { type: 'button', id: 'compare-with' }, onClick: () => post({ type: 'compareWith', path: report.path }) }),
    ]),
    el('div', { className: 'chips' }, chips.map(([k, v]) => el('span', { className: 'chip', data: { chip: k } }, [el('span', { className: 'chip-key', text: k }), el('span', { className: 'chip-value', text: v })]))),
  ];
  if (reports.length > 1) {
    const select = el('select', { attrs: { id: 'report-select', 'aria-label': 'Report' } });
    reports.forEach((r, k) => {
      const headline = cardMetrics(r).find((m) => r.metrics[m] !== undefined);
      const label = `${r.task ?? baseName(r.path)}${headline ? ` — ${METRIC_INFO[headline].label} ${formatMetric(r.metrics[headline])}` : ''}${r.fatal ? ' (not scored)' : ''}`;
      select.appendChild(el('option', { text: label, attrs: { value: String(k) } }));
    });
    select.value = String(ctx.selected);
    onChoice(select, (value) => ctx.onSelect(Number(value))); // Enter or a click, not each arrow key
    const raft = ctx.summary.raft_score;
    children.push(el('div', { className: 'report-picker' }, [
      el('label', { className: 'control' }, [el('span', { text: `Report (${reports.length})` }), select]),
      raft !== undefined
        ? el('span', { className: 'raft-score', attrs: { id: 'raft-score' }, data: { value: String(raft) } }, [
          el('span', { className: 'chip-key', text: `RAFT score over ${reports.filter((r) => r.format === 'raft' && !r.fatal).length} tasks` }),
          el('strong', { text: formatMetric(raft) }),
        ])
        : null,
    ]));
  }
  children.push(el('div', { className: 'export-actions' }, [
    exportMenu({ report, selected: ctx.selected, ...ctx.exports }),
    copyMarkdownButton(ctx.selected),
  ]));
  return el('header', { className: 'report-header' }, children);
}
