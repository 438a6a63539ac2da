// The per-group block of `eval-lens score --group-by`: one row per group with the kind's headline
// metrics (the first with its interval), the worst group marked in words, then folktexts' fairness
// figures beside the ones its results file reported.
import type { GroupSlice, Report } from '../core/types';
import { GROUP_COLUMNS, worstGroupIndex } from '../common/groupRanking';
import { agrees } from '../core/report';
import { baseName } from '../common/paths';

function num(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(4);
}

/**
 * The group column's width: the longest name, at most 24 characters, unless names cut there would
 * read alike (models sharing a long prefix, a judge file's "model · turn" groups): then whole.
 */
function nameWidth(groups: GroupSlice[]): number {
  const longest = Math.max(5, ...groups.map((s) => s.value.length));
  const cut = new Set(groups.map((s) => (s.value.length > 24 ? s.value.slice(0, 23) : s.value)));
  return cut.size < groups.length ? longest : Math.min(24, longest);
}

export function formatGroups(r: Report): string[] {
  const g = r.groups;
  if (!g) return [];
  if (r.kind === 'scores' && g.groups.some((s) => s.taskMetrics?.length)) return formatScoreGroups(r);
  const cols = GROUP_COLUMNS[r.kind].filter((c) => g.groups.some((s) => s.metrics[c as keyof GroupSlice['metrics']] !== undefined));
  const from = g.source === 'data' && g.dataPath ? ` (joined from ${baseName(g.dataPath)})` : '';
  const out = [`  groups by ${g.column}${from}: ${g.groups.length} group${g.groups.length === 1 ? '' : 's'}${r.kind === 'binary' ? `, threshold ${r.options.threshold}` : ''}, unmatched ${g.unmatched}${g.ambiguous ? `, ambiguous ${g.ambiguous}` : ''}`];
  const width = nameWidth(g.groups);
  const first = cols[0];
  // "[95% CI]" only when some group has an interval (with --bootstrap 0 none has).
  const withCi = g.groups.some((s) => s.intervals[first as keyof GroupSlice['intervals']]);
  const firstWidth = withCi ? 30 : 9;
  out.push(`    ${'group'.padEnd(width)} ${'n'.padStart(8)}  ${cols.map((c, i) => (i === 0 ? (withCi ? `${c} [95% CI]`.padEnd(firstWidth) : c.padStart(firstWidth)) : c.padStart(9))).join(' ')}`);
  const worstIndex = worstGroupIndex(r.kind, g.groups);
  const worst = worstIndex === -1 ? null : g.groups[worstIndex];
  for (const s of g.groups) {
    const name = s.value.length > width ? `${s.value.slice(0, width - 1)}…` : s.value;
    const cells = cols.map((c, i) => {
      const v = num(s.metrics[c as keyof GroupSlice['metrics']]);
      if (i > 0 || !withCi) return v.padStart(9);
      const ci = s.intervals[c as keyof GroupSlice['intervals']];
      return `${v}${ci ? ` [${num(ci[0])}, ${num(ci[1])}]` : ''}`.padEnd(firstWidth);
    });
    const notes = [s === worst ? `worst ${first}` : '', s.small ? 'small group (< 30 rows)' : '', s.excludedFromFairness ? 'left out of fairness (< 4% of rows)' : ''].filter(Boolean);
    out.push(`    ${name.padEnd(width)} ${String(s.n).padStart(8)}  ${cells.join(' ')}${notes.length ? `  ← ${notes.join('; ')}` : ''}`);
  }
  const keys = Object.keys(g.fairness);
  if (keys.length) {
    out.push('  fairness (folktexts):');
    for (const k of keys) {
      const mine = g.fairness[k];
      const theirs = r.reported[k];
      const beside = typeof theirs === 'number' ? `   reported ${num(theirs)}${agrees(theirs, mine) ? '' : '  ✗ disagrees'}` : '';
      out.push(`    ${k.padEnd(26)} ${num(mine).padStart(8)}${beside}`);
    }
  }
  return out;
}

/**
 * A scores table's groups: one row per group with the mean of each per-sample metric over the
 * group's rows that have one (its interval with a bootstrap).
 */
function formatScoreGroups(r: Report): string[] {
  const g = r.groups!;
  const names = [...new Set(g.groups.flatMap((s) => (s.taskMetrics ?? []).map((t) => t.name)))];
  const from = g.source === 'data' && g.dataPath ? ` (joined from ${baseName(g.dataPath)})` : '';
  const out = [`  groups by ${g.column}${from}: ${g.groups.length} group${g.groups.length === 1 ? '' : 's'}, unmatched ${g.unmatched}${g.ambiguous ? `, ambiguous ${g.ambiguous}` : ''}; the mean of each per-sample metric`];
  const width = nameWidth(g.groups);
  const withCi = g.groups.some((s) => s.taskMetrics?.some((t) => t.interval));
  const cell = (t: NonNullable<GroupSlice['taskMetrics']>[number] | undefined) => `${num(t?.mean)}${withCi ? (t?.interval ? ` [${num(t.interval[0])}, ${num(t.interval[1])}]` : '') : ''}`;
  const widths = names.map((n) => Math.max(n.length, withCi ? 25 : 9));
  out.push(`    ${'group'.padEnd(width)} ${'n'.padStart(8)}  ${names.map((n, i) => n.padStart(widths[i])).join(' ')}`);
  for (const s of g.groups) {
    const name = s.value.length > width ? `${s.value.slice(0, width - 1)}…` : s.value;
    const cells = names.map((n, i) => cell(s.taskMetrics?.find((t) => t.name === n)).padStart(widths[i]));
    out.push(`    ${name.padEnd(width)} ${String(s.n).padStart(8)}  ${cells.join(' ')}${s.small ? '  ← small group (< 30 rows)' : ''}`);
  }
  return out;
}
