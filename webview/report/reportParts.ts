// The report's smaller parts, built from data and callbacks (no page state): the status views, the
// binning switch, the reliability bins table, the problems list and the placeholders.
import type { ReliabilityBin, Report } from '../../src/core/types';
import { baseName } from '../../src/common/paths';
import { el } from '../common/dom';
import { formatBinRange, formatCount, formatMetric, kindAxes } from '../common/format';
import { post } from '../common/vscodeApi';

export type Binning = 'equalWidth' | 'equalCount';

/** The spinner while the host scores. */
export function loadingView(path: string): HTMLElement {
  return el('div', { className: 'status loading', attrs: { id: 'loading', role: 'status' } }, [
    el('div', { className: 'spinner', attrs: { 'aria-hidden': 'true' } }),
    el('span', { text: `Scoring ${path}…` }),
  ]);
}

/** Why nothing could be scored. */
export function errorView(message: string, path: string): HTMLElement {
  return el('div', { className: 'status error', attrs: { id: 'error', role: 'alert' } }, [
    el('h2', { text: 'Could not score' }),
    el('p', { text: message }),
    path ? el('p', { className: 'muted path', text: path }) : null,
  ]);
}

/**
 * A report that could not be scored: why (for a table, the column roles' sentence: no gold label,
 * several candidates, not predictions), and for a table "Map columns…" to name its columns.
 */
export function fatalView(report: Report): HTMLElement {
  const table = report.format === 'generic';
  return el('div', { className: 'status error', attrs: { role: 'alert', id: 'fatal' } }, [
    el('p', { text: report.fatal ?? '' }),
    table ? el('p', {}, [
      el('button', {
        text: 'Map columns…',
        title: 'Pick the column holding the gold label, the score and the prediction; remembered in the setting evalLens.columnMappings',
        attrs: { type: 'button', id: 'map-columns' },
        onClick: () => post({ type: 'mapColumns' }),
      }),
    ]) : null,
  ]);
}

/** Equal width / equal count, as pressed buttons. */
export function binningToggle(current: Binning, onSet: (value: Binning) => void): HTMLElement {
  const make = (value: Binning, text: string) => {
    const button = el('button', {
      className: `segment${current === value ? ' on' : ''}`,
      text,
      attrs: { type: 'button', 'aria-pressed': String(current === value), id: `binning-${value}` },
      onClick: () => onSet(value),
    });
    return button;
  };
  return el('div', { className: 'segmented', attrs: { role: 'group', 'aria-label': 'Binning' } }, [
    make('equalWidth', 'Equal width'),
    make('equalCount', 'Equal count'),
  ]);
}

/** The bins as a small table: counts readable by people and by tests (data-count). */
export function reliabilityBinTable(bins: ReliabilityBin[], equalWidth: boolean, report: Report, selected: number | null, onSelect: (bin: number) => void): HTMLElement {
  const axes = kindAxes(report.kind);
  const table = el('table', { className: 'bins', attrs: { id: 'bin-table' }, data: { binning: equalWidth ? 'equalWidth' : 'equalCount' } });
  // The error bars' numbers (issue 19): each bin's Wilson 95% interval of its target.
  const intervals = bins.some((b) => b.targetInterval);
  const headers = ['bin', 'range', 'n', axes.valueShort, axes.targetShort === 'label' ? 'positive' : axes.targetShort, ...(intervals ? ['95% CI'] : []), 'gap'];
  table.appendChild(el('thead', {}, [el('tr', {}, headers.map((h) => el('th', { text: h, attrs: { scope: 'col' }, ...(h === '95% CI' ? { title: 'Wilson 95% interval of the bin\'s target (the error bar)' } : {}) })))]));
  const body = el('tbody');
  bins.forEach((b, k) => {
    const row = el('tr', {
      className: `${b.count ? 'clickable' : 'empty'}${selected === k ? ' selected' : ''}`,
      data: { bin: k, count: b.count },
      title: b.count ? 'Filter the instance table to this bin' : 'Empty bin',
      onClick: b.count ? () => onSelect(k) : undefined,
    }, [
      // The bin's number is a button (the row's click, by keyboard): Enter filters, again clears.
      el('td', {}, [b.count
        ? el('button', { className: 'link-button', text: String(k + 1), attrs: { type: 'button', 'aria-pressed': String(selected === k), 'aria-label': `Bin ${k + 1}: filter the instance table` }, data: { focusKey: `bin-${k}` } })
        : el('span', { text: String(k + 1) })]),
      el('td', { text: formatBinRange(b.lo, b.hi, equalWidth && k === bins.length - 1) }),
      el('td', { className: 'numeric bin-count', text: formatCount(b.count) }),
      el('td', { className: 'numeric', text: formatMetric(b.meanValue) }),
      el('td', { className: 'numeric', text: formatMetric(b.meanTarget) }),
      ...(intervals ? [el('td', { className: 'numeric bin-ci', text: b.targetInterval ? `${formatMetric(b.targetInterval[0])}–${formatMetric(b.targetInterval[1])}` : '—' })] : []),
      el('td', { className: 'numeric', text: formatMetric(b.gap) }),
    ]);
    body.appendChild(row);
  });
  table.appendChild(body);
  return table;
}

/** The file's problems, each a link to its line. */
export function problemsSection(report: Report): HTMLElement | null {
  if (!report.problems.length) return null;
  const shown = report.problems.slice(0, 200);
  const list = el('ul', { className: 'problems', attrs: { tabindex: '0', 'aria-label': 'Problems (scrolls)' } });
  for (const p of shown) {
    const where = `${p.path ? `${baseName(p.path)}:` : ''}${p.line}${p.column ? `:${p.column}` : ''}`;
    list.appendChild(el('li', { className: `problem ${p.severity}` }, [
      el('button', { className: 'link-button', text: where, attrs: { type: 'button' }, onClick: () => post({ type: 'reveal', path: p.path ?? report.path, line: p.line }) }),
      el('span', { className: 'problem-code', text: p.code }),
      el('span', { text: p.message }),
    ]));
  }
  const more = report.problems.length - shown.length;
  return el('details', { className: 'section problems-section', attrs: { id: 'problems' } }, [
    el('summary', { text: `${formatCount(report.problems.length)} problem${report.problems.length === 1 ? '' : 's'} in the file${more > 0 ? ` (first ${shown.length} listed; all are in the Problems panel)` : ''}` }),
    list,
  ]);
}

/** A placeholder while the per-instance columns travel. */
export function pendingSection(id: string, title: string, rows: number): HTMLElement {
  return el('section', { className: 'section pending', attrs: { id, 'aria-busy': 'true' } }, [
    el('h2', { text: title }),
    el('p', { className: 'muted', text: `Loading ${formatCount(rows)} instance${rows === 1 ? '' : 's'}…` }),
  ]);
}

/** The line under the reliability diagram: which bin filters the table, or how to filter by one. */
export function fillReliabilityNote(note: HTMLElement, bin: number | null, showAll: () => void): void {
  note.textContent = '';
  if (bin === null) {
    note.append(el('span', { text: 'Click a bin to filter the instance table to its instances.' }));
    return;
  }
  note.append(
    el('span', { text: `The instance table shows bin ${bin + 1} only. ` }),
    el('button', { className: 'link-button', text: 'Go to table', attrs: { type: 'button' }, onClick: () => document.getElementById('instances')?.scrollIntoView({ behavior: 'smooth' }) }),
    el('button', { className: 'link-button', text: 'Show all bins', attrs: { type: 'button' }, onClick: showAll }),
  );
}

/**
 * A feature that does not apply to this report says why, where the feature would be (issue 28:
 * "never silently absent"). `feature` names it for the journey suite (data-na).
 */
export function notApplicable(feature: string, text: string): HTMLElement {
  return el('p', { className: 'muted na-note', text, data: { na: feature } });
}

/** Why a report of this kind has no stepper of misclassified examples (null: it has one). */
export function noStepperReason(report: Report): string | null {
  switch (report.kind) {
    case 'binary': case 'multiclass': return null;
    case 'probability': return 'No stepper of misclassified examples: predicted probabilities are compared with true probabilities, so no answer is right or wrong. The instance table sorts them by error.';
    case 'confidence': return 'No stepper of misclassified examples: this file gives each answer\'s confidence and whether it was right, not the answers themselves. Filter the instance table to the wrong ones instead.';
    case 'scores': return 'No stepper of misclassified examples: per-sample scores have no gold answer to be wrong against. Sort the instance table by a score to see the lowest.';
  }
}
