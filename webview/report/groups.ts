// The report's slices: the "Group by" control (the file's own columns and those of a joined data
// file), "Join data file…", the per-group table with each group's interval as a bar (a forest plot)
// and the worst group named in words and colour, folktexts' fairness figures, and the instance
// columns of one group (the instance table and the stepper follow a group filter).
import type { GroupSlice, InstanceColumns, Report } from '../../src/core/types';
import { GROUP_COLUMNS, lowerIsBetter, worstGroupIndex } from '../../src/common/groupRanking';
import { baseName } from '../../src/common/paths';
import { onChoice } from '../common/choice';
import { el } from '../common/dom';
import { disagrees, formatCount, formatMetric } from '../common/format';
import { post } from '../common/vscodeApi';

export interface GroupsView {
  /** The group the instance table shows (null: all rows). */
  selected: number | null;
  onSelect: (group: number | null) => void;
}

/** "Group by" and "Join data file…", shown whenever the report can be grouped. */
export function groupControls(report: Report): HTMLElement | null {
  const cols = report.groupColumns;
  if (!cols || report.fatal) return null;
  const select = el('select', { attrs: { id: 'group-by', 'aria-label': 'Group by' } });
  // A judge file's figures are per model whatever is chosen (src/core/judges): its "none" is that.
  select.appendChild(el('option', { text: report.judge ? 'Model (the judge\'s figures per model)' : 'No grouping', attrs: { value: '' } }));
  const own = el('optgroup', { attrs: { label: 'This file' } });
  for (const c of cols.predictions) own.appendChild(el('option', { text: c, attrs: { value: `p:${c}` } }));
  if (cols.predictions.length) select.appendChild(own);
  if (cols.data?.length) {
    const data = el('optgroup', { attrs: { label: `Joined: ${baseName(cols.dataPath ?? '')}` } });
    for (const c of cols.data) data.appendChild(el('option', { text: c, attrs: { value: `d:${c}` } }));
    select.appendChild(data);
  }
  const g = report.groups;
  select.value = g ? `${g.source === 'data' ? 'd' : 'p'}:${g.column}` : '';
  if (select.selectedIndex < 0) select.value = ''; // the judge's own groups by model
  // Re-grouping re-scores the file: on an explicit choice (Enter, a click), not on each arrow key.
  onChoice(select, (v) => {
    post(v ? { type: 'groupBy', column: v.slice(2), fromData: v.startsWith('d:') } : { type: 'groupBy', column: null });
  });
  return el('div', { className: 'group-controls', attrs: { id: 'group-controls' } }, [
    el('label', { className: 'control' }, [el('span', { text: 'Group by' }), select]),
    cols.unjoinable ? el('span', {
      className: 'muted', attrs: { id: 'join-data-none', 'data-na': 'group-joined' },
      text: 'No data file can be joined: this file has no ID column to join its rows on.',
    }) : el('button', {
      className: 'link-button', text: cols.dataPath ? `Joined on ID: ${baseName(cols.dataPath)} (change…)` : 'Join data file…',
      attrs: { type: 'button', id: 'join-data' }, onClick: () => post({ type: 'pickDataFile' }),
    }),
    // Why "This file" offers nothing: its columns are the ones it is scored from, or free text.
    ...(cols.predictions.length ? [] : [el('span', {
      className: 'muted', attrs: { id: 'group-own-none', 'data-na': 'group-own' },
      text: `No column of this file to group by: its columns are the ones it is scored from (ID, score, label, prediction) or free text.${cols.data?.length || cols.unjoinable ? '' : ' Join a data file to group by its columns.'}`,
    })]),
  ]);
}

/** The per-group table with its forest plot. */
export function groupsSection(report: Report, view: GroupsView): HTMLElement | null {
  const g = report.groups;
  if (!g) return null;
  const cols = GROUP_COLUMNS[report.kind].filter((c) => g.groups.some((s) => s.metrics[c] !== undefined));
  const key = cols[0];
  const worst = worstGroupIndex(report.kind, g.groups);
  const overall = report.metrics[key];
  const domain = forestDomain(g.groups, key, typeof overall === 'number' ? overall : null);

  // No figure of the kind for any group (a judge file grouped by a column other than its model:
  // its figures are per model): the groups' sizes only, and the page says why (data-na).
  const noFigure = key === undefined;
  const table = el('table', { className: 'groups', attrs: { id: 'group-table' } });
  table.appendChild(el('thead', {}, [el('tr', {}, [
    'group', 'n', ...(noFigure ? [] : [`${key} (95% interval)`, '', ...cols.slice(1)]),
  ].map((h) => el('th', { text: h, attrs: { scope: 'col' } })))]));
  const body = el('tbody');
  g.groups.forEach((s, k) => {
    const isWorst = k === worst;
    const ci = s.intervals[key];
    const notes = [isWorst ? `worst ${key}` : '', s.small ? 'small (< 30 rows)' : '', s.excludedFromFairness ? 'not in fairness (< 4%)' : ''].filter(Boolean);
    const row = el('tr', {
      className: `clickable${isWorst ? ' worst' : ''}${view.selected === k ? ' selected' : ''}`,
      data: { group: k, value: s.value, n: s.n },
      title: view.selected === k ? 'Show every row again' : 'Show this group\'s rows in the instance table',
      onClick: () => view.onSelect(view.selected === k ? null : k),
    }, [
      // The group's name is a button (the row's click, by keyboard): Enter filters, again clears.
      el('td', {}, [el('button', {
        className: 'link-button group-filter', text: s.value === '' ? '(empty)' : s.value,
        attrs: { type: 'button', 'aria-pressed': String(view.selected === k) }, data: { focusKey: `group-${k}` },
      }), ...notes.map((n) => el('span', { className: `group-note${n.startsWith('worst') ? ' worst-note' : ''}`, text: n }))]),
      el('td', { className: 'numeric', text: formatCount(s.n) }),
      ...(noFigure ? [] : [
        el('td', { className: 'numeric', text: `${formatMetric(s.metrics[key])}${ci ? ` [${formatMetric(ci[0])}, ${formatMetric(ci[1])}]` : ''}` }),
        el('td', { className: 'forest-cell' }, [forestBar(s.metrics[key], ci, domain, typeof overall === 'number' ? overall : null)]),
        ...cols.slice(1).map((c) => el('td', { className: 'numeric', text: formatMetric(s.metrics[c]) })),
      ]),
    ]);
    body.appendChild(row);
  });
  table.appendChild(body);

  const from = g.source === 'data' && g.dataPath ? `, joined on ID from ${baseName(g.dataPath)}` : '';
  const left = [g.unmatched ? `${formatCount(g.unmatched)} rows without a data row left out` : '', g.ambiguous ? `${formatCount(g.ambiguous)} with a duplicated ID left out` : ''].filter(Boolean).join('; ');
  // worstGroupIndex ranks by the kind's first column (then also `key`: without it, worst is -1).
  const rank = GROUP_COLUMNS[report.kind][0];
  const worstText = worst === -1 ? '' : ` Worst group by ${rank} (${lowerIsBetter(rank) ? 'highest' : 'lowest'}): ${g.groups[worst].value}.`;
  const caption = `${g.groups.length} groups by ${g.column}${from}${report.kind === 'binary' ? `, threshold ${formatMetric(report.options.threshold, 4)}` : ''}.${left ? ` ${left}.` : ''}${worstText}${noFigure ? '' : ' Bars: 95% bootstrap intervals; the line marks the whole file.'} Click a group to filter the instance table.`;
  return el('section', { className: 'section', attrs: { id: 'section-groups' } }, [
    el('h2', { text: `Groups by ${g.column}` }),
    el('p', { className: 'caption muted', text: caption }),
    noFigure ? el('p', {
      className: 'muted na-note', data: { na: 'group-figures' },
      text: report.judge
        ? `No judge figure per group: a judge file's figures are computed per model (choose Model in Group by for them; the judge panels below give each model's means per turn and per category), so the groups by ${g.column} give their sizes only.`
        : `No figure per group: this kind's figures are not computed per group, so the groups by ${g.column} give their sizes only.`,
    }) : null,
    // A narrow editor column: the table scrolls sideways inside its card (the group names stay).
    el('div', { className: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': `Groups by ${g.column} (scrolls sideways)` } }, [table]),
  ]);
}

function forestDomain(groups: readonly GroupSlice[], key: keyof GroupSlice['metrics'], overall: number | null): [number, number] {
  let lo = overall ?? Infinity, hi = overall ?? -Infinity;
  for (const s of groups) {
    const v = s.metrics[key];
    const ci = s.intervals[key];
    for (const x of [v, ci?.[0], ci?.[1]]) if (typeof x === 'number' && Number.isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
  }
  if (!(hi > lo)) return [Math.max(0, lo - 0.05), lo + 0.05];
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

function forestBar(value: number | null | undefined, ci: [number, number] | undefined, [lo, hi]: [number, number], overall: number | null): HTMLElement {
  const at = (x: number) => `${(100 * (x - lo)) / (hi - lo)}%`;
  const track = el('div', { className: 'forest', attrs: { 'aria-hidden': 'true' } });
  if (overall !== null) {
    const line = el('div', { className: 'forest-overall' });
    line.style.left = at(overall);
    track.appendChild(line);
  }
  if (ci) {
    const bar = el('div', { className: 'forest-ci' });
    bar.style.left = at(ci[0]);
    bar.style.width = `${(100 * (ci[1] - ci[0])) / (hi - lo)}%`;
    track.appendChild(bar);
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    const dot = el('div', { className: 'forest-point' });
    dot.style.left = at(value);
    track.appendChild(dot);
  }
  return track;
}

/** folktexts' fairness keys, each beside the figure its results file reported (when it did). */
export function fairnessCard(report: Report): HTMLElement | null {
  const f = report.groups?.fairness;
  if (!f || !Object.keys(f).length) return null;
  const list = el('dl', { className: 'fairness', attrs: { id: 'fairness' } });
  for (const [k, v] of Object.entries(f)) {
    const theirs = report.reported[k];
    const off = typeof theirs === 'number' && disagrees(v, theirs);
    list.append(
      el('dt', { text: k }),
      el('dd', { data: { key: k, value: v } }, [
        el('span', { text: formatMetric(v) }),
        typeof theirs === 'number' ? el('span', { className: `muted${off ? ' mismatch' : ''}`, text: ` reported ${formatMetric(theirs)}${off ? ' ✗ disagrees' : ''}` }) : null,
      ]),
    );
  }
  return el('div', { className: 'fairness-card' }, [
    el('h3', { text: 'Fairness (folktexts\' definitions)' }),
    el('p', { className: 'caption muted', text: '<m>_ratio = min/max over groups, <m>_diff = max − min; groups under 4% of the rows are left out, as folktexts does. ece_diff: the largest ECE gap between groups.' }),
    list,
  ]);
}

/** The report restricted to one group's rows: its instance table and stepper show only them. */
export function groupSlice(report: Report, group: number): Report {
  const rows = report.groups?.rowGroup;
  const inst = report.instances;
  if (!rows || !inst) return report;
  const idx: number[] = [];
  for (let i = 0; i < rows.length; i++) if (rows[i] === group) idx.push(i);
  const pick = <T extends { length: number; [i: number]: number }>(a: T, make: (n: number) => T): T => {
    const out = make(idx.length);
    for (let j = 0; j < idx.length; j++) out[j] = a[idx[j]];
    return out;
  };
  const instances: InstanceColumns = {
    lines: pick(inst.lines, (n) => new Uint32Array(n)),
    value: pick(inst.value, (n) => new Float64Array(n)),
    target: pick(inst.target, (n) => new Float64Array(n)),
    confidence: pick(inst.confidence, (n) => new Float64Array(n)),
    correct: pick(inst.correct, (n) => new Uint8Array(n)),
    bin: pick(inst.bin, (n) => new Int16Array(n)),
    binQuantile: pick(inst.binQuantile, (n) => new Int16Array(n)),
    brier: pick(inst.brier, (n) => new Float64Array(n)),
    gold: pick(inst.gold, (n) => new Int32Array(n)),
    pred: pick(inst.pred, (n) => new Int32Array(n)),
    ...(inst.ids ? { ids: idx.map((i) => inst.ids![i]) } : {}),
    ...(inst.idNumbers ? { idNumbers: pick(inst.idNumbers, (n) => new Float64Array(n)) } : {}),
  };
  return {
    ...report,
    n: idx.length,
    instances,
    texts: report.texts && { fields: report.texts.fields, values: idx.map((i) => report.texts!.values[i]) },
    dataLines: report.dataLines && pick(report.dataLines, (n) => new Uint32Array(n)),
  };
}
