// `eval-lens score --markdown` and `--csv`: the same figures as the terminal table (4 decimals in
// Markdown, full precision in CSV), as a pull-request comment / step summary or a data file.
import type { Report } from '../core/types';
import { reportMetricNames } from './metricOrder';
import { agrees, disagreeingReported } from '../core/report';
import type { GroupSlice } from '../core/types';
import { GROUP_COLUMNS, worstGroupIndex } from '../common/groupRanking';
import { baseName } from '../common/paths';
import { formatNumber } from './table';
import { csvTable, markdownCode, markdownTable, markdownText, type Cell, type Table } from '../common/tabular';
import { RUN_PATH, gateNumber, type GateResult } from './gateResults';
import { epochsText } from './table';
import { nonFiniteText } from '../core/formats/pythonJson';
import { taskMetricDisagrees } from '../common/taskMetrics';
import { reportedOnMore, reportedOnText } from '../common/reportedOn';
import { errorBarCells, errorBarMarkdown, repeatCsvRows } from './errorBars';
import { judgeCsvRows, judgeMarkdown } from './judgeTable';
import { summaryCsvRows, summaryMarkdown } from './summaryLines';

type Summary = { raft_score?: number | null };

const metricNames = reportMetricNames;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One file's metric table: metric, value, and the interval / reported columns when the file has them. */
export function reportMetricTable(r: Report): Table {
  const names = metricNames(r);
  const withIntervals = names.some((m) => r.intervals[m]);
  const withReported = names.some((m) => m in r.reported);
  const withSe = names.some((m) => r.standard_errors?.[m] !== undefined);
  const disagree = new Set(disagreeingReported(r));
  const columns = ['metric', 'value'];
  if (withIntervals) columns.push('95% interval');
  if (withSe) columns.push(r.clusters ? 'SE (clustered)' : 'SE');
  if (withReported) columns.push('reported');
  const rows = names.map((m) => {
    const row: Cell[] = [`\`${m}\``, formatNumber(r.metrics[m])];
    const ci = r.intervals[m];
    if (withIntervals) row.push(ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '');
    if (withSe) {
      const se = r.standard_errors?.[m];
      const c = r.clusters?.standard_errors[m as keyof NonNullable<Report['clusters']>['standard_errors']];
      row.push(se === undefined ? '' : `${formatNumber(se)}${c !== undefined ? ` (${formatNumber(c)})` : ''}`);
    }
    if (withReported) row.push(m in r.reported ? `${formatNumber(r.reported[m])}${reportedOnText(r)}${disagree.has(m) ? ' ✗ disagrees' : ''}` : '');
    return row;
  });
  return { columns, rows, align: columns.map((c) => (c === 'metric' || c === '95% interval' ? 'left' : 'right')) };
}

/**
 * The task's own per-sample metrics (lm-eval's mae, eqbench, …): mean over the samples that logged
 * it, its interval, and the task's reported figure (marked when it disagrees); null without any.
 */
export function taskMetricTable(r: Report): Table | null {
  const tms = r.taskMetrics ?? [];
  if (!tms.length) return null;
  const withIntervals = tms.some((t) => t.interval);
  const withReported = tms.some((t) => t.reported !== undefined);
  const columns = ['task metric', 'n', 'mean'];
  if (withIntervals) columns.push('95% interval');
  if (withReported) columns.push('reported');
  const rows = tms.map((t) => {
    const row: Cell[] = [`\`${t.name.replace(/`/g, "'")}\``, String(t.n), formatNumber(t.mean)];
    if (withIntervals) row.push(t.interval ? `[${formatNumber(t.interval[0])}, ${formatNumber(t.interval[1])}]` : '');
    // Figures over more samples than the file holds stand with their count, not compared (reportedOn.ts).
    if (withReported) row.push(t.reported !== undefined ? `${formatNumber(t.reported)}${reportedOnText(r)}${!reportedOnMore(r) && taskMetricDisagrees(t) ? ' ✗ disagrees' : ''}` : '');
    return row;
  });
  return { columns, rows, align: columns.map((c) => (c === 'task metric' || c === '95% interval' ? 'left' : 'right')) };
}

function reportMarkdown(r: Report): string {
  // A summary: what it is and its figures (there are no recomputed metrics, no kind, no n).
  if (r.summary) return [`### ${markdownCode(r.path)}`, '', markdownText([r.format, r.summary.harness, r.task].filter(Boolean).join(' · ')), '', ...summaryMarkdown(r)].join('\n');
  const epochs = epochsText(r);
  const facts = [r.format, r.kind, r.task, `n=${r.n}${epochs ? ` (${epochs})` : ''}`, r.skipped ? `skipped=${r.skipped}` : '', r.unlabeled ? `unlabeled=${r.unlabeled}` : ''];
  const out = [`### ${markdownCode(r.path)}`, '', markdownText(facts.filter(Boolean).join(' · ')), ''];
  if (r.fatal) out.push(`**Not scored:** ${markdownText(r.fatal)}`, '');
  // Every cell is our own text (code-span names, numbers): nothing to escape.
  if (metricNames(r).length) out.push(markdownTable(reportMetricTable(r), [0, 1, 2, 3, 4]));
  out.push(...errorBarMarkdown(r));
  const tasks = taskMetricTable(r);
  // The names are the task's (code spans, backticks replaced); the rest is our own text.
  if (tasks) out.push('', '**Task metrics** (logged per sample by the task; the mean over the samples that logged each):', '', markdownTable(tasks, tasks.columns.map((_, i) => i)));
  if (r.groups) out.push(...groupsMarkdown(r));
  out.push(...judgeMarkdown(r));
  const listed = r.problems.filter((p) => p.code !== 'more-problems');
  if (r.problems.length) {
    const more = r.problems.reduce((s, p) => s + (p.code === 'more-problems' ? p.omitted ?? 0 : 0), 0);
    out.push(`${problemsLine(listed, more)}; run \`eval-lens score --json\` for every one.`, '');
  }
  return out.join('\n');
}

/**
 * "3 problems: 1 error, 2 notes", by severity; with a capped list, "1,204 problems, 100 listed: …".
 * (Not "(0 errors among those listed)": a count of none next to a count of some read as a contradiction.)
 */
export function problemsLine(listed: readonly Report['problems'][number][], more = 0): string {
  const bySeverity = (['error', 'warning', 'info'] as const)
    .map((sev) => [listed.filter((p) => p.severity === sev).length, sev === 'info' ? 'note' : sev] as const)
    .filter(([n]) => n > 0)
    .map(([n, word]) => plural(n, word));
  const total = listed.length + more;
  const head = more ? `${plural(total, 'problem')}, ${listed.length} listed` : plural(total, 'problem');
  return `${head}: ${bySeverity.join(', ')}`;
}

/** --group-by: the group table (the kind's figures, the first with its interval, the worst group named) and folktexts' fairness figures. */
function groupsMarkdown(r: Report): string[] {
  const g = r.groups!;
  if (g.groups.some((s) => s.taskMetrics?.length) && r.kind === 'scores') return scoreGroupsMarkdown(r);
  const cols = GROUP_COLUMNS[r.kind].filter((c) => g.groups.some((s) => s.metrics[c as keyof GroupSlice['metrics']] !== undefined));
  const first = cols[0];
  if (first === undefined) return [`**Groups by ${markdownCode(g.column)}**: ${plural(g.groups.length, 'group')}, with no figure of their own.`, ''];
  const worst = worstGroupIndex(r.kind, g.groups);
  const from = g.source === 'data' && g.dataPath ? `, joined on ID from ${markdownCode(baseName(g.dataPath))}` : '';
  const left = [g.unmatched ? `${g.unmatched} rows without a data row left out` : '', g.ambiguous ? `${g.ambiguous} with a duplicated ID left out` : ''].filter(Boolean).join('; ');
  const out = [
    `**Groups by ${markdownCode(g.column)}**${from}: ${plural(g.groups.length, 'group')}${r.kind === 'binary' ? `, threshold ${formatNumber(r.options.threshold)}` : ''}${left ? `; ${left}` : ''}.`,
    '',
  ];
  const withCi = g.groups.some((s) => s.intervals[first as keyof GroupSlice['intervals']]);
  const table: Table = {
    columns: ['group', 'n', first, ...(withCi ? ['95% interval'] : []), ...cols.slice(1), 'note'],
    rows: g.groups.map((s, k) => {
      const ci = s.intervals[first as keyof GroupSlice['intervals']];
      const notes = [k === worst ? `worst \`${first}\`` : '', s.small ? 'small (< 30 rows)' : '', s.excludedFromFairness ? 'not in fairness (< 4%)' : ''].filter(Boolean);
      return [
        markdownText(s.value === '' ? '(empty)' : s.value), String(s.n), formatNumber(s.metrics[first as keyof GroupSlice['metrics']]),
        ...(withCi ? [ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : ''] : []),
        ...cols.slice(1).map((c) => formatNumber(s.metrics[c as keyof GroupSlice['metrics']])),
        notes.join('; '),
      ];
    }),
  };
  table.align = table.columns.map((c, i) => (i === 0 || c === '95% interval' || c === 'note' ? 'left' : 'right'));
  // Group names are escaped above (file text); the rest is our own text.
  out.push(markdownTable(table, table.columns.map((_, i) => i)));
  const keys = Object.keys(g.fairness);
  if (keys.length) {
    const disagree = (k: string) => typeof r.reported[k] === 'number' && !agrees(r.reported[k] as number, g.fairness[k]);
    const withReported = keys.some((k) => typeof r.reported[k] === 'number');
    out.push('**Fairness** (folktexts\' definitions: `<m>_ratio` = min/max over groups, `<m>_diff` = max − min; groups under 4% of the rows left out)', '', markdownTable({
      columns: ['figure', 'value', ...(withReported ? ['reported'] : [])],
      rows: keys.map((k) => [`\`${k}\``, formatNumber(g.fairness[k]), ...(withReported ? [typeof r.reported[k] === 'number' ? `${formatNumber(r.reported[k] as number)}${disagree(k) ? ' ✗ disagrees' : ''}` : ''] : [])]),
      align: ['left', 'right', 'right'],
    }, [0, 1, 2]));
  }
  return out;
}

/** --group-by on a table of per-sample scores: each metric's mean over the group's rows that have one. */
function scoreGroupsMarkdown(r: Report): string[] {
  const g = r.groups!;
  const names = [...new Set(g.groups.flatMap((s) => (s.taskMetrics ?? []).map((t) => t.name)))];
  const withCi = g.groups.some((s) => s.taskMetrics?.some((t) => t.interval));
  const table: Table = {
    columns: ['group', 'n', ...names, 'note'],
    rows: g.groups.map((s) => [
      markdownText(s.value === '' ? '(empty)' : s.value), String(s.n),
      ...names.map((n) => {
        const t = s.taskMetrics?.find((x) => x.name === n);
        return `${formatNumber(t?.mean ?? null)}${withCi && t?.interval ? ` [${formatNumber(t.interval[0])}, ${formatNumber(t.interval[1])}]` : ''}`;
      }),
      s.small ? 'small (< 30 rows)' : '',
    ]),
  };
  table.align = table.columns.map((c, i) => (i === 0 || c === 'note' ? 'left' : 'right'));
  return [
    `**Groups by ${markdownCode(g.column)}**: ${plural(g.groups.length, 'group')}; each per-sample metric's mean over the group's rows that have one${withCi ? ' [95% interval]' : ''}.`,
    '', markdownTable(table, table.columns.map((_, i) => i)),
  ];
}

function gatesMarkdown(gates: GateResult[]): string {
  const table: Table = {
    columns: ['gate', 'file', 'value', 'result'],
    rows: gates.map((g) => [
      `\`${g.gate}\``,
      g.path ? markdownCode(g.path, true) : '',
      g.value === null ? markdownText(g.reason ?? '—') : gateNumber(g.value),
      g.failed ? '❌ failed' : '✅ passed',
    ]),
    align: ['left', 'left', 'right', 'left'],
  };
  const failed = gates.filter((g) => g.failed).length;
  return [`### Gates: ${failed ? `${failed} of ${gates.length} failed` : `all ${gates.length} passed`}`, '', markdownTable(table, [0, 1, 2])].join('\n');
}

/** The whole run as Markdown: one section per file, the RAFT score, then the gates. */
export function scoreMarkdown(reports: Report[], summary: Summary, gates: GateResult[] = []): string {
  const out = ['## Eval Lens', ''];
  for (const r of reports) if (!r.notScored) out.push(reportMarkdown(r));
  const skipped = reports.filter((r) => r.notScored);
  if (skipped.length) out.push(`Not taken as predictions: ${skipped.map((r) => markdownCode(r.path)).join(', ')}.`, '');
  if (summary.raft_score !== undefined) {
    const tasks = reports.filter((r) => r.format === 'raft').length;
    out.push(`**\`raft_score\`** (mean \`macro_f1\` over ${plural(tasks, 'task')}): ${formatNumber(summary.raft_score)}`, '');
  }
  if (gates.length) out.push(gatesMarkdown(gates));
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

export const SCORE_CSV_COLUMNS = ['path', 'format', 'kind', 'task', 'n', 'skipped', 'unlabeled', 'metric', 'value', 'ci_low', 'ci_high', 'reported', 'fatal', 'standard_error', 'standard_error_clustered', 'design_effect', 'interval_method'];

/** A number for the CSV: NaN and infinities as Python spells them (pandas and float() read them back). */
function csvNumber(v: number | null | undefined): Cell {
  return typeof v === 'number' && !Number.isFinite(v) ? nonFiniteText(v) : v;
}

/**
 * Long form: one row per file and metric (a file not scored has one row saying why); a task's own
 * per-sample metric is a row named `task:<name>` whose n is the samples that logged it.
 */
export function scoreCsvTable(reports: Report[], summary: Summary): Table {
  const rows: Cell[][] = [];
  for (const r of reports) {
    if (r.summary) {
      rows.push(...summaryCsvRows(r));
      continue;
    }
    const file: Cell[] = [r.path, r.format, r.kind, r.task ?? '', r.n, r.skipped, r.unlabeled];
    const names = metricNames(r);
    const tms = r.taskMetrics ?? [];
    if (!names.length && !tms.length) rows.push([...file, '', null, null, null, null, r.fatal ?? '']);
    for (const m of names) {
      const ci = r.intervals[m];
      rows.push([...file, m, csvNumber(r.metrics[m]), ci?.[0], ci?.[1], m in r.reported ? csvNumber(r.reported[m]) : null, r.fatal ?? '', ...errorBarCells(r, m)]);
    }
    // Repeats (several attempts at one item): pass_at_k:<k>, pass_hat_k:<k>, the variances, flaky_items.
    for (const [name, v] of repeatCsvRows(r)) rows.push([...file, name, v, null, null, null, r.fatal ?? '']);
    for (const t of tms) {
      rows.push([r.path, r.format, r.kind, r.task ?? '', t.n, r.skipped, r.unlabeled, `task:${t.name}`, csvNumber(t.mean), csvNumber(t.interval?.[0]), csvNumber(t.interval?.[1]), csvNumber(t.reported), r.fatal ?? '']);
    }
    // A judge file: each model's figures, model:<name>:<metric> (src/documents/judgeTable.ts).
    rows.push(...judgeCsvRows(r));
  }
  if (summary.raft_score !== undefined) {
    const raft = reports.filter((r) => r.format === 'raft');
    rows.push([RUN_PATH, 'raft', 'multiclass', '', raft.reduce((s, r) => s + r.n, 0), null, null, 'raft_score', summary.raft_score, null, null, null, '']);
  }
  return { columns: SCORE_CSV_COLUMNS, rows };
}

export function scoreCsv(reports: Report[], summary: Summary): string {
  return csvTable(scoreCsvTable(reports, summary));
}
