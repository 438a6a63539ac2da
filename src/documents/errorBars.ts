// Error bars (issue 18) as the score documents print them: each metric's standard error beside it,
// how the intervals were made and whether they are rough, the clusters' design effects, and the
// repeats' pass@k table. Text, Markdown and CSV read the same figures from here.
import type { MetricName, Report } from '../core/types';
import { markdownCode, markdownTable, type Cell, type Table } from '../common/tabular';
import { formatNumber } from './table';
import { roughIntervalsText } from '../common/errorBarText';

/** "SE 0.0317" or, clustered, "SE 0.0317, clustered 0.0417"; '' when the metric has none. */
export function standardErrorText(r: Report, m: string): string {
  const se = r.standard_errors?.[m];
  if (se === undefined || se === null) return '';
  const c = r.clusters?.standard_errors[m as MetricName];
  return `SE ${formatNumber(se)}${c !== undefined ? `, clustered ${formatNumber(c)}` : ''}`;
}

/** How the intervals were made, in words: "t (mean ± t·SE, 39 df)", "Wilson score", "percentile bootstrap (1000 resamples)". */
export function intervalMethodText(r: Report): string {
  const clustered = r.clusters ? `, clustered by ${r.clusters.column} (${r.clusters.count} clusters)` : '';
  switch (r.interval_method) {
    case 't': return `t: mean ± t·SE, ${r.clusters ? r.clusters.count - 1 : r.n - 1} df${clustered}`;
    case 'wilson': return `Wilson score for proportions${r.options.bootstrap > 0 ? `, the bootstrap${r.clusters ? ' of whole clusters' : ''} for the rest` : ''}${clustered}`;
    default: return `percentile bootstrap (${r.options.bootstrap} resamples${r.clusters ? ' of whole clusters' : ''})${clustered}`;
  }
}

/** The metrics with a design effect, in the report's order, each with how much wider its interval is (×√deff). */
export function designEffects(r: Report): { metric: string; deff: number; widening: number; se: number | null; clustered: number | null }[] {
  const c = r.clusters;
  if (!c) return [];
  return Object.entries(c.design_effect)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
    .map(([metric, deff]) => ({ metric, deff, widening: Math.sqrt(deff), se: r.standard_errors?.[metric] ?? null, clustered: c.standard_errors[metric as MetricName] ?? null }));
}

/** "22 with 5 attempts, 2 with 3". */
export function attemptsText(attempts: Record<string, number>): string {
  return Object.entries(attempts)
    .sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([k, items], i) => `${items} with ${k}${i === 0 ? ` attempt${k === '1' ? '' : 's'}` : ''}`)
    .join(', ');
}

/** The pass@k table: k, pass@k, pass^k. */
export function passAtKTable(rep: NonNullable<Report['repeats']>): Table {
  const ks = Object.keys(rep.pass_at_k).map(Number).sort((a, b) => a - b);
  return {
    columns: ['k', 'pass@k', 'pass^k'],
    rows: ks.map((k) => [String(k), formatNumber(rep.pass_at_k[k]), formatNumber(rep.pass_hat_k[k])]),
    align: ['right', 'right', 'right'],
  };
}

/** The text table's lines after the metrics: the interval method, rough intervals, clusters, repeats. */
export function errorBarLines(r: Report): string[] {
  const out: string[] = [];
  const withIntervals = Object.keys(r.intervals).length > 0;
  if (withIntervals && (r.interval_method !== undefined && (r.interval_method !== 'bootstrap' || r.clusters))) out.push(`  intervals: ${intervalMethodText(r)}`);
  if (r.rough_intervals) out.push(`  ${roughIntervalsText(r)}`);
  const effects = designEffects(r);
  if (r.clusters) {
    const s = r.clusters.singletons ?? 0;
    out.push(`  clusters: ${r.clusters.column}, ${r.clusters.count} clusters${s ? ` (${s} of them rows without a value, each a cluster of its own)` : ''}; design effect (SE_clustered / SE)²:`);
    for (const e of effects) out.push(`    ${e.metric.padEnd(13)} ${e.deff.toFixed(2).padStart(8)}   SE ×${e.widening.toFixed(2)} (${formatNumber(e.se)} → ${formatNumber(e.clustered)}); ${r.n} rows are worth about ${Math.max(1, Math.round(r.n / e.deff))} independent ones`);
    if (r.clusters.few) out.push(`  only ${r.clusters.count} clusters (about 30 are needed): the means' intervals are t intervals with ${r.clusters.count - 1} degrees of freedom${r.clusters.few.others === 'none' ? '; the other metrics have none' : ''}`);
  }
  const rep = r.repeats;
  if (rep) {
    out.push(`  repeats: ${rep.items} items (${attemptsText(rep.attempts)}); ${rep.flaky_items} flaky (some but not all attempts right)`);
    out.push(`    ${'k'.padStart(3)}  ${'pass@k'.padStart(8)}  ${'pass^k'.padStart(8)}`);
    for (const [k, at, hat] of passAtKTable(rep).rows) out.push(`    ${String(k).padStart(3)}  ${String(at).padStart(8)}  ${String(hat).padStart(8)}`);
    out.push(`    within-item variance ${formatNumber(rep.within_item_variance)}, between-item variance ${formatNumber(rep.between_item_variance)}`);
  }
  return out;
}

/** The Markdown after the metric table: the same facts as errorBarLines. */
export function errorBarMarkdown(r: Report): string[] {
  const out: string[] = [];
  const notes: string[] = [];
  if (Object.keys(r.intervals).length && r.interval_method !== undefined && (r.interval_method !== 'bootstrap' || r.clusters)) notes.push(`Intervals: ${intervalMethodText(r)}.`);
  if (r.rough_intervals) notes.push(`⚠ ${roughIntervalsText(r).replace(/^i/, 'I')}.`);
  if (notes.length) out.push('', notes.join(' '), '');
  const effects = designEffects(r);
  if (r.clusters) {
    out.push('', `**Clusters by ${markdownCode(r.clusters.column)}**: ${r.clusters.count} clusters; the design effect is (SE clustered / SE)², the intervals widen by its square root.`, '');
    out.push(markdownTable({
      columns: ['metric', 'SE', 'SE clustered', 'design effect', 'intervals wider'],
      rows: effects.map((e) => [`\`${e.metric}\``, formatNumber(e.se), formatNumber(e.clustered), e.deff.toFixed(2), `×${e.widening.toFixed(2)}`]),
      align: ['left', 'right', 'right', 'right', 'right'],
    }, [0, 1, 2, 3, 4]));
  }
  const rep = r.repeats;
  if (rep) {
    out.push('', `**Repeats**: ${rep.items} items (${attemptsText(rep.attempts)}); ${rep.flaky_items} flaky (some but not all attempts right); within-item variance ${formatNumber(rep.within_item_variance)}, between-item variance ${formatNumber(rep.between_item_variance)}.`, '');
    out.push(markdownTable(passAtKTable(rep), [0, 1, 2]));
  }
  return out;
}

/** CSV cells of one metric row: its standard error, clustered standard error, design effect and interval method. */
export function errorBarCells(r: Report, m: string): Cell[] {
  const se = r.standard_errors?.[m];
  const c = r.clusters;
  return [se ?? null, c?.standard_errors[m as MetricName] ?? null, c?.design_effect[m as MetricName] ?? null, r.intervals[m as MetricName] ? r.interval_method ?? null : null];
}

/** CSV rows of the repeats: metric `pass_at_k:<k>`, `pass_hat_k:<k>`, `within_item_variance`, `between_item_variance`, `flaky_items`. */
export function repeatCsvRows(r: Report): [string, number | null][] {
  const rep = r.repeats;
  if (!rep) return [];
  const ks = Object.keys(rep.pass_at_k).map(Number).sort((a, b) => a - b);
  return [
    ...ks.map((k): [string, number] => [`pass_at_k:${k}`, rep.pass_at_k[k]]),
    ...ks.map((k): [string, number] => [`pass_hat_k:${k}`, rep.pass_hat_k[k]]),
    ['within_item_variance', rep.within_item_variance],
    ['between_item_variance', rep.between_item_variance],
    ['flaky_items', rep.flaky_items],
    ['items', rep.items],
  ];
}
