// Number and label formatting that the report webview and the charts (in the panel and in the CLI's
// figures) share. Pure functions; no DOM, no Node.
import type { Kind } from '../core/types';

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A metric value with 3 decimals ("0.043"); "—" for null/undefined/NaN. */
export function formatMetric(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value !== 0 && Math.abs(value) < 10 ** -digits) return value.toExponential(1);
  const text = value.toFixed(digits);
  // -0.000 reads as a sign error; show 0.000.
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

/** 1000000 -> "1,000,000". */
export function formatCount(value: number): string {
  return intFormat.format(value);
}

/**
 * The fewest decimals (from `min`, at most `max`) that write every one of `values` exactly, so that
 * a set of bin edges is written by one rule: 0.625 and 0.725 as "0.625" and "0.725", not "0.63"
 * and "0.72" (toFixed(2) of the nearest doubles rounds one up and one down).
 */
export function exactDecimals(values: readonly number[], min = 2, max = 4): number {
  for (let d = min; d < max; d++) {
    const scale = 10 ** d;
    if (values.every((v) => !Number.isFinite(v) || Math.abs(Math.round(v * scale) / scale - v) < 1e-9)) return d;
  }
  return max;
}

/** A bin's range, "[0.10, 0.20)"; the last equal-width bin is closed. */
export function formatBinRange(lo: number, hi: number, closed: boolean): string {
  return `[${lo.toFixed(2)}, ${hi.toFixed(2)}${closed ? ']' : ')'}`;
}

/** Axis titles of the reliability diagram and the table's value/target columns, per kind. */
export function kindAxes(kind: Kind): { value: string; target: string; valueShort: string; targetShort: string } {
  switch (kind) {
    case 'binary':
      return { value: 'Mean risk score', target: 'Fraction positive', valueShort: 'score', targetShort: 'label' };
    case 'probability':
      return { value: 'Mean predicted P(Yes)', target: 'Mean true P(Yes)', valueShort: 'pred p', targetShort: 'true p' };
    default:
      return { value: 'Mean confidence', target: 'Accuracy', valueShort: 'confidence', targetShort: 'correct' };
  }
}
