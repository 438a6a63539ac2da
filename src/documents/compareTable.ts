// The readable output of `eval-lens compare`: per candidate, a table of the baseline's and the
// candidate's values, the delta with its paired 95% interval, and the test's p-value in words.
import { sliceDeltaLines } from './sliceTable';
import type { MetricName } from '../core/types';
import type { Comparison, MetricComparison } from '../core/compare/compare';
import type { AgreementCounts, CloserCounts } from '../core/compare/agreement';
import { improvement } from '../common/metricDirection';
import { formatNumber } from './table';
import { powerText } from '../common/errorBarText';

/** The significance level the words refer to. */
export const ALPHA = 0.05;

export function formatComparison(c: Comparison): string {
  const out: string[] = [];
  out.push(`baseline:  ${c.runs[0].name}  (${c.runs[0].format}, ${c.kind}, n=${c.runs[0].n})`);
  c.runs.slice(1).forEach((r, i) => out.push(`candidate${c.runs.length > 2 ? ` ${i + 1}` : ''}: ${r.name}  (${r.format}, ${c.kind}, n=${r.n})`));
  // Each count named by its run: bare counts ("0, 2") read like the instance IDs the warnings name.
  const unmatched = c.unmatched.some((u) => u > 0) ? `; rows left out (not in every run): ${c.unmatched.map((u, k) => `${u} of ${k === 0 ? 'the baseline' : c.runs.length > 2 ? `candidate ${k}` : 'the candidate'}`).join(', ')}` : '';
  out.push(`aligned: ${c.aligned} instances by ${c.aligned_by === 'id' ? 'ID' : 'row order'}${unmatched}`);
  out.push(`intervals: paired percentile bootstrap, ${c.bootstrap.resamples} resamples, seed ${c.bootstrap.seed}; tests: DeLong (auc), exact McNemar (accuracy), paired bootstrap (others)`);
  if (c.clusters) out.push(`clusters: ${c.clusters.column}, ${c.clusters.count} clusters among the aligned instances: the paired bootstrap resamples whole clusters, and the power uses the clustered SE`);
  for (let k = 1; k < c.runs.length; k++) {
    out.push('');
    if (c.runs.length > 2) out.push(`candidate ${k}: ${c.runs[k].name}`);
    out.push(...metricRows(c.metrics, k, c.bootstrap.resamples));
    out.push(...powerLines(c.metrics, k));
    const a = c.agreement[k];
    if (a) out.push(agreementLine(a));
  }
  if (c.tasks) {
    for (const [task, tc] of Object.entries(c.tasks)) {
      out.push('', `task ${task}: ${tc.aligned} aligned instances`);
      for (let k = 1; k < tc.runs.length; k++) {
        if (tc.runs.length > 2) out.push(`  candidate ${k}`);
        out.push(...metricRows(tc.metrics, k, c.bootstrap.resamples).map((l) => `  ${l}`));
      }
    }
  }
  if (c.slices) out.push('', ...sliceDeltaLines(c.slices).map((l) => l.slice(2)));
  if (c.problems.length) {
    out.push('', `problems: ${c.problems.length}`);
    for (const p of c.problems.slice(0, 20)) out.push(`  ${p.path ?? ''}:${p.line}  ${p.severity}  ${p.message}`);
    if (c.problems.length > 20) out.push(`  … ${c.problems.length - 20} more (use --json for all)`);
  }
  return out.join('\n') + '\n';
}

function metricRows(metrics: Comparison['metrics'], k: number, resamples: number): string[] {
  const rows = [['metric', 'baseline', 'candidate', 'delta', '95% interval of delta', 'test', 'p-value and verdict']];
  for (const [name, m] of Object.entries(metrics) as [MetricName, MetricComparison][]) {
    const ci = m.intervals[k];
    rows.push([
      name,
      formatNumber(m.values[0]),
      formatNumber(m.values[k]),
      signed(m.deltas[k]),
      ci ? `[${signed(ci[0])}, ${signed(ci[1])}]` : '—',
      m.test === 'delong' && m.statistics[k] !== null ? `DeLong z=${m.statistics[k]!.toFixed(2)}` : m.test === 'delong' ? 'DeLong' : m.test === 'mcnemar' ? 'McNemar' : 'bootstrap',
      verdict(name, m, k, resamples),
    ]);
  }
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows.map((r) => r.map((cell, j) => (j === 0 || j >= 4 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  ').trimEnd());
}

/** Per mean metric, what this comparison could detect and the items the observed Δ would need (80% power, α 0.05). */
export function powerLines(metrics: Comparison['metrics'], k: number): string[] {
  const rows = (Object.entries(metrics) as [MetricName, MetricComparison][])
    .map(([name, m]) => [name, powerText(m.mde?.[k], m.n_needed?.[k], m.deltas[k], (v) => v.toFixed(4))] as const)
    .filter((r): r is readonly [MetricName, string] => r[1] !== null);
  if (!rows.length) return [];
  const width = Math.max(...rows.map((r) => r[0].length));
  return ['power (80%, two-sided α 0.05, paired):', ...rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`)];
}

/**
 * "p=0.003, significant at 0.05: candidate better" — the meaning in words, not only symbols. A
 * bootstrap p of 0 (no resampled delta on the other side of 0) is shown as below its resolution.
 */
export function verdict(name: MetricName, m: MetricComparison, k: number, resamples: number): string {
  const p = m.p_values_holm?.[k] ?? m.p_values[k];
  if (p === null || p === undefined) return `no test (${m.no_test?.[k] ?? 'undefined on these instances'})`;
  const label = m.p_values_holm ? 'Holm p' : 'p';
  const shown = p === 0 && m.test === 'bootstrap' ? `<${formatP(2 / resamples)}` : `=${formatP(p)}`;
  const delta = m.deltas[k];
  if (p >= ALPHA) return `${label}${shown}, not significant at ${ALPHA}`;
  const dir = delta === null ? 0 : improvement(name, delta);
  return `${label}${shown}, significant at ${ALPHA}: candidate ${dir > 0 ? 'better' : dir < 0 ? 'worse' : 'different'}`;
}

export function formatP(p: number): string {
  if (p === 0) return '0 (below 1e-308)';
  if (p >= 0.001) return p.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
  return p.toExponential(1);
}

function signed(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(4);
}

function agreementLine(a: AgreementCounts | CloserCounts): string {
  if ('both_right' in a) {
    return `agreement: both right ${a.both_right}, baseline only ${a.baseline_only}, candidate only ${a.candidate_only}, both wrong ${a.both_wrong}`;
  }
  return `closer to the truth: baseline ${a.baseline_closer}, candidate ${a.candidate_closer}, equally close ${a.equal}`;
}
