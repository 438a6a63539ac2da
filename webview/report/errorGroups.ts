// Error groups (issue 20.3): the report's most frequent mistakes, gold → predicted with their count
// and share of all mistakes, as a list of buttons; one filters the instance table (and so the
// stepper and the CSV export) to that pair. Free-text answers are grouped by the answer itself.
import type { ErrorGroup, Report } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount } from '../common/format';

/** Groups listed before "… N more pairs". */
const SHOWN = 12;

export interface ErrorGroupPick {
  /** Class indices of the pair (null for a free-text answer group). */
  gold: number | null;
  pred: number | null;
  /** The answer of a free-text group. */
  answer?: string;
}

/** The section, or null when the report has no mistakes to group. */
export function errorGroupsSection(report: Report, onPick: (pick: ErrorGroupPick) => void): HTMLElement | null {
  const groups = report.errorGroups;
  if (!groups?.length) return null;
  const classes = report.classes ?? (report.kind === 'binary' ? ['0', '1'] : []);
  const total = groups.reduce((s, g) => s + g.count, 0);
  const list = el('ol', { className: 'error-groups', attrs: { id: 'error-groups' } });
  for (const g of groups.slice(0, SHOWN)) {
    const pick = pickOf(g, classes);
    const share = `${((100 * g.count) / total).toFixed(1)}%`;
    const label = g.gold === null ? `answered “${g.predicted}”` : `${g.gold} → ${g.predicted}`;
    list.appendChild(el('li', {}, [
      el('button', {
        className: 'link-button error-group',
        attrs: { type: 'button', 'aria-label': `${label}: ${formatCount(g.count)} mistakes, ${share} of all; show them in the instance table` },
        data: { gold: g.gold ?? '', predicted: g.predicted, count: g.count },
        onClick: () => onPick(pick),
      }, [el('span', { className: 'error-group-pair', text: label }), el('span', { className: 'error-group-count', text: ` ${formatCount(g.count)} (${share})` })]),
    ]));
  }
  const more = groups.length - SHOWN;
  const freeText = groups[0].gold === null;
  return el('section', { className: 'section error-groups-section', attrs: { id: 'section-error-groups' } }, [
    el('h2', { text: freeText ? 'Most frequent wrong answers' : 'Most frequent mistakes' }),
    el('p', {
      className: 'caption muted',
      text: `${formatCount(total)} mistakes in ${formatCount(groups.length)} ${freeText ? 'distinct answers (trimmed, case-folded)' : 'gold → predicted pairs'}. Click one to show its rows in the instance table${more > 0 ? `; ${formatCount(more)} more pairs are in the JSON export` : ''}.`,
    }),
    list,
  ]);
}

/** A search for the rows whose (wrong) answer is `answer`, as the groups normalise answers. */
export function answerQuery(answer: string): string {
  const body = answer.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\s+');
  return `pred ~ /^\\s*${body}\\s*$/i AND correct = 0`;
}

function pickOf(g: ErrorGroup, classes: readonly string[]): ErrorGroupPick {
  if (g.gold === null) return { gold: null, pred: null, answer: g.predicted };
  const gold = classes.indexOf(g.gold);
  const pred = classes.indexOf(g.predicted);
  return { gold: gold >= 0 ? gold : null, pred: pred >= 0 ? pred : null };
}
