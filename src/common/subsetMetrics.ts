// The figures of the rows a filter keeps, beside the whole file's (issue 20.1): "accuracy 0.62
// [0.57, 0.66] on 412 of 16,281; 0.85 overall". Mean metrics only (each row's own contribution
// averaged), so a filter's figure is exact and cheap on a million rows: accuracy with its Wilson
// interval, Brier (or squared error for probabilities) with mean ± z·SE. Pure: the page runs it.
import type { InstanceColumns, Kind } from '../core/types';

const Z = 1.959963984540054;

export interface SubsetFigure {
  metric: 'accuracy' | 'brier' | 'mse';
  value: number | null;
  interval: [number, number] | null;
  n: number;
}

/** Wilson score 95% interval of k successes in n. */
export function wilson(k: number, n: number): [number, number] | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Mean ± z·SE (sample sd, ddof 1) of the finite values. */
function meanInterval(values: Float64Array, rows: (i: number) => boolean): { value: number | null; interval: [number, number] | null; n: number } {
  let n = 0, mean = 0, m2 = 0;
  for (let i = 0; i < values.length; i++) {
    if (!rows(i)) continue;
    const v = values[i];
    if (v !== v) continue;
    n++;
    const d = v - mean;
    mean += d / n;
    m2 += d * (v - mean);
  }
  if (!n) return { value: null, interval: null, n: 0 };
  const se = n > 1 ? Math.sqrt(m2 / (n - 1) / n) : 0;
  return { value: mean, interval: n > 1 ? [mean - Z * se, mean + Z * se] : null, n };
}

/** The kind's mean figures over the rows `keep` selects (all rows when null). */
export function subsetFigures(kind: Kind, inst: InstanceColumns, keep: ((i: number) => boolean) | null): SubsetFigure[] {
  const rows = keep ?? (() => true);
  const out: SubsetFigure[] = [];
  if (kind !== 'probability') {
    let n = 0, k = 0;
    for (let i = 0; i < inst.correct.length; i++) if (rows(i)) { n++; k += inst.correct[i]; }
    out.push({ metric: 'accuracy', value: n ? k / n : null, interval: wilson(k, n), n });
  }
  if (kind !== 'probability' || inst.brier.length) {
    const m = meanInterval(inst.brier, rows);
    if (m.n) out.push({ metric: kind === 'probability' ? 'mse' : 'brier', ...m });
  }
  return out;
}
