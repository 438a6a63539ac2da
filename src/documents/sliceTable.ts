// The text of `score --slices` and `compare --slices`: each slice's figure against its reference
// (the rest of the file, or the baseline), the difference, its interval and both p-values, the
// significant ones marked in words as well as a sign.
import type { SliceContrast } from '../core/types';
import type { SliceDelta } from '../core/compare/sliceFinder';
import { formatNumber } from './table';

/** Slices listed in text before "… N more". */
const SHOWN = 15;

function pText(p: number | null): string {
  if (p === null) return '—';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

const TESTS: Record<string, string> = { fisher: "Fisher's exact test", mcnemar: 'exact McNemar', delong: 'DeLong', bootstrap: 'paired bootstrap' };

function rows(slices: readonly (SliceContrast | (SliceDelta & { run?: string }))[], against: string): string[] {
  if (!slices.length) return [];
  const first = slices[0];
  const test = first.test === 'bootstrap' && 'rest' in first ? 'bootstrap (slice and rest resampled apart)' : TESTS[first.test];
  const out = [`  slices by ${first.metric} against ${against} (${test}; Holm over ${slices.length} slice${slices.length === 1 ? '' : 's'}):`];
  const significant = slices.filter((s) => s.p_holm !== null && s.p_holm < 0.05).length;
  if (!significant) out.push('    no slice differs beyond chance (every Holm-adjusted p ≥ 0.05)');
  for (const s of slices.slice(0, SHOWN)) {
    const [mine, other] = 'rest' in s ? [s.slice, s.rest] : [s.candidate, s.baseline];
    const ci = s.interval ? `  [${formatNumber(s.interval[0])}, ${formatNumber(s.interval[1])}]` : '';
    const mark = s.p_holm !== null && s.p_holm < 0.05 ? `  ✱ significant (${(s.delta ?? 0) < 0 ? 'lower' : 'higher'})` : '';
    const name = `${s.column}=${s.value}${'run' in s && s.run ? ` · ${s.run}` : ''}`;
    out.push(`    ${name.padEnd(28)} n=${String(s.n).padEnd(7)} ${formatNumber(mine)} vs ${formatNumber(other)}  Δ ${formatNumber(s.delta)}${ci}  p=${pText(s.p_value)}  p_holm=${pText(s.p_holm)}${mark}`);
  }
  if (slices.length > SHOWN) out.push(`    … ${slices.length - SHOWN} more (use --json for all)`);
  return out;
}

export function sliceContrastLines(slices: readonly SliceContrast[]): string[] {
  if (!slices.length) return ['  slices: no column to slice by (none with 2-20 values or numeric, besides the file\'s own scores, labels and IDs)'];
  return rows(slices, 'the rest of the file');
}

export function sliceDeltaLines(slices: readonly (SliceDelta & { run?: string })[]): string[] {
  if (!slices.length) return ['  slices: no column to slice by (none with 2-20 values or numeric, besides the file\'s own scores, labels and IDs)'];
  return rows(slices, 'the baseline, on the same instances');
}
