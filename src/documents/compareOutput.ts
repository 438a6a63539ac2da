// `eval-lens compare --markdown | --csv`, and what the regression gate reads of a comparison (the
// core's Comparison: per metric, arrays over the runs with the baseline first).
import { METRIC_NAMES, type MetricName } from '../core/types';
import type { Comparison, MetricComparison } from '../core/compare';
import { improvement } from '../common/metricDirection';
import { formatNumber } from './table';
import { csvTable, markdownCode, markdownTable, type Cell, type Table } from '../common/tabular';
import type { ComparedMetric, RegressionResult } from './gateResults';
import { powerText } from '../common/errorBarText';

function runName(c: Comparison, k: number): string {
  return c.runs[k].name;
}

/** The p-value a decision uses: Holm-adjusted when there are several candidates. */
function decisionP(m: MetricComparison, k: number): number | null {
  return m.p_values_holm?.[k] ?? m.p_values[k] ?? null;
}

/** Every candidate's delta and p per metric of the top-level comparison, for the regression gate. */
export function comparedMetrics(c: Comparison): ComparedMetric[] {
  const out: ComparedMetric[] = [];
  for (const metric of METRIC_NAMES) {
    const m = c.metrics[metric];
    if (!m) continue;
    for (let k = 1; k < c.runs.length; k++) out.push({ metric, run: runName(c, k), delta: m.deltas[k], p_value: decisionP(m, k), interval: m.intervals[k] ?? null });
  }
  return out;
}

/** "better" / "worse" (significant at alpha) or "no significant difference", in words. */
export function verdict(metric: MetricName, delta: number | null, p: number | null, alpha: number): string {
  if (delta === null || p === null || !Number.isFinite(delta) || !Number.isFinite(p)) return 'not tested';
  if (p >= alpha || delta === 0) return 'no significant difference';
  return improvement(metric, delta) < 0 ? '▼ worse' : '▲ better';
}

function signed(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  return `${v > 0 ? '+' : ''}${formatNumber(v)}`;
}

function pText(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return '—';
  return p < 1e-4 ? '< 0.0001' : p.toFixed(4);
}

/** One row per metric and candidate: baseline, candidate, delta with its interval, p, test, verdict. */
export function comparisonTable(c: Comparison, alpha: number): Table {
  const level = Math.round(c.bootstrap.level * 100);
  const several = c.runs.length > 2;
  const withPower = Object.values(c.metrics).some((m) => m?.mde?.some((v) => v !== null));
  const columns = ['metric', ...(several ? ['candidate'] : []), 'baseline', 'candidate value', 'Δ', `${level}% interval of Δ`, several ? 'p (Holm)' : 'p', 'test', 'verdict', ...(withPower ? ['power (80%, α 0.05)'] : [])];
  const rows: Cell[][] = [];
  for (const metric of METRIC_NAMES) {
    const m = c.metrics[metric];
    if (!m) continue;
    for (let k = 1; k < c.runs.length; k++) {
      const ci = m.intervals[k];
      const p = decisionP(m, k);
      rows.push([
        `\`${metric}\``,
        ...(several ? [markdownCode(runName(c, k), true)] : []),
        formatNumber(m.values[0]), formatNumber(m.values[k]), signed(m.deltas[k]),
        ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '—', pText(p), m.test, verdict(metric, m.deltas[k], p, alpha),
        ...(withPower ? [powerText(m.mde?.[k], m.n_needed?.[k], m.deltas[k], formatNumber) ?? ''] : []),
      ]);
    }
  }
  return { columns, rows, align: columns.map((col) => (['baseline', 'candidate value', 'Δ', 'p', 'p (Holm)'].includes(col) ? 'right' : 'left')) };
}

function comparisonSection(c: Comparison, alpha: number, heading: string): string {
  const who = c.runs.map((r, k) => `${k === 0 ? 'baseline' : 'candidate'} ${markdownCode(r.name ?? r.path)}`).join(' · ');
  const table = comparisonTable(c, alpha);
  const clusters = c.clusters ? ` · clustered by ${markdownCode(c.clusters.column)} (${c.clusters.count} clusters, resampled whole)` : '';
  return [heading, '', `${who} · ${c.aligned} instances in every run · paired bootstrap, ${c.bootstrap.resamples} resamples${clusters} · significant at p < ${alpha}`, '',
    markdownTable(table, table.columns.map((_, i) => i))].join('\n');
}

/** The comparison as Markdown: the overall table, one per task for run folders, then the regression gate. */
export function compareMarkdown(c: Comparison, alpha: number, regressions: RegressionResult[] = []): string {
  const out = [comparisonSection(c, alpha, '## Eval Lens: compare')];
  for (const [task, t] of Object.entries(c.tasks ?? {})) out.push(comparisonSection(t, alpha, `### Task ${markdownCode(task)}`));
  if (c.slices?.length) {
    const shown = c.slices.slice(0, 20);
    const table: Table = {
      columns: ['slice', ...(c.runs.length > 2 ? ['candidate'] : []), 'n', 'baseline', 'candidate', 'Δ', '95% interval', 'p', 'p (Holm)', ''],
      rows: shown.map((s) => [markdownCode(`${s.column}=${s.value}`, true), ...(c.runs.length > 2 ? [markdownCode(s.run ?? '', true)] : []), String(s.n), formatNumber(s.baseline), formatNumber(s.candidate), signed(s.delta),
        s.interval ? `[${formatNumber(s.interval[0])}, ${formatNumber(s.interval[1])}]` : '', pText(s.p_value), pText(s.p_holm), s.p_holm !== null && s.p_holm < alpha ? `✱ ${(s.delta ?? 0) < 0 ? 'lower' : 'higher'}` : '']),
      align: ['left', ...(c.runs.length > 2 ? ['left' as const] : []), 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
    };
    const significant = c.slices.filter((s) => s.p_holm !== null && s.p_holm < alpha).length;
    out.push(`### Where it differs (${c.slices[0].metric}, ${c.slices[0].test === 'mcnemar' ? 'exact McNemar' : c.slices[0].test === 'delong' ? 'DeLong' : 'paired bootstrap'} per slice, Holm over ${c.slices.length})\n\n${significant ? `${significant} slice${significant === 1 ? '' : 's'} differ${significant === 1 ? 's' : ''} beyond chance.` : 'No slice differs beyond chance.'}${c.slices.length > shown.length ? ` The ${shown.length} most significant of ${c.slices.length}:` : ''}\n\n${markdownTable(table, table.columns.map((_, k) => k))}`);
  }
  if (regressions.length) {
    const failed = regressions.filter((r) => r.failed).length;
    const table: Table = {
      columns: ['metric', 'candidate', 'Δ', 'p', 'result'],
      rows: regressions.map((r) => [`\`${r.metric}\``, r.run ? markdownCode(r.run, true) : '', signed(r.delta), pText(r.p_value), r.failed ? `❌ ${r.reason ?? 'significantly worse'}` : '✅ passed']),
      align: ['left', 'left', 'right', 'right', 'left'],
    };
    out.push(`### Regression gate: ${failed ? `${failed} of ${regressions.length} failed` : `all ${regressions.length} passed`}\n\n${markdownTable(table, [0, 1, 2, 3, 4])}`);
  }
  return out.join('\n') + '\n';
}

export const COMPARE_CSV_COLUMNS = ['task', 'metric', 'run', 'path', 'value', 'delta', 'ci_low', 'ci_high', 'p_value', 'p_value_holm', 'test', 'mde', 'n_needed'];

/** Long form: one row per (task,) metric and run, the baseline's with empty delta and test columns. */
export function compareCsvTable(c: Comparison): Table {
  const rows: Cell[][] = [];
  const add = (cmp: Comparison, task: string) => {
    for (const metric of METRIC_NAMES) {
      const m = cmp.metrics[metric];
      if (!m) continue;
      cmp.runs.forEach((r, k) => {
        rows.push([task, metric, r.name ?? r.path, r.path, m.values[k], m.deltas[k], m.intervals[k]?.[0], m.intervals[k]?.[1], m.p_values[k], m.p_values_holm?.[k], k === 0 ? '' : m.test, m.mde?.[k] ?? null, m.n_needed?.[k] ?? null]);
      });
    }
  };
  add(c, '');
  for (const [task, t] of Object.entries(c.tasks ?? {})) add(t, task);
  return { columns: COMPARE_CSV_COLUMNS, rows };
}

export function compareCsv(c: Comparison): string {
  return csvTable(compareCsvTable(c));
}
