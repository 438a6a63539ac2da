// Rows into groups by a column's values. A numeric column with more than 20 distinct values is cut
// at its quantiles into K groups (numpy's default, linear interpolation, over the rows; duplicate
// edges dropped, as pandas' qcut(duplicates="drop")), named by range: "[25, 37)", the last closed
// "[60, 90]". Any other column gives one group per distinct value, written exactly as in the file.
import type { RowValues } from './columnValues';

/** More distinct numeric values than this make quantile groups. */
export const MAX_DISTINCT_FOR_VALUES = 20;

export interface RowGroup {
  value: string;
  rows: Uint32Array;
}

export interface Grouping {
  groups: RowGroup[];
  /** Quantile edges, when the column was cut. */
  edges?: number[];
  /** Rows without a value (left out). */
  missing: number;
}

function numberOf(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** numpy.quantile(sorted, q) with the default 'linear' method. */
export function quantileLinear(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const frac = pos - lo;
  return frac === 0 ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

/** An edge as a short number: up to 6 significant digits, no trailing zeros. */
export function edgeText(x: number): string {
  return String(Number(x.toPrecision(6)));
}

export function groupRows(values: RowValues, bins: number): Grouping {
  const codes = new Int32Array(values.length).fill(-1);
  const distinct: string[] = [];
  const codeOf = new Map<string, number>();
  let missing = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) { missing++; continue; }
    let c = codeOf.get(v);
    if (c === undefined) { c = distinct.length; distinct.push(v); codeOf.set(v, c); }
    codes[i] = c;
  }
  const numeric = distinct.map(numberOf);
  const numericCount = numeric.filter((x) => x !== undefined).length;
  if (numericCount > MAX_DISTINCT_FOR_VALUES) return quantileGroups(codes, distinct, numeric, bins, missing);

  // One group per distinct value: numbers in numeric order, then the rest as text (code point order).
  const order = distinct.map((_, c) => c).sort((a, b) => {
    const x = numeric[a], y = numeric[b];
    if (x !== undefined && y !== undefined) return x - y || cmp(distinct[a], distinct[b]);
    if (x !== undefined) return -1;
    if (y !== undefined) return 1;
    return cmp(distinct[a], distinct[b]);
  });
  const members = collect(codes, distinct.length);
  return { groups: order.map((c) => ({ value: distinct[c], rows: members[c] })), missing };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Row indices per code, in row order. */
function collect(codes: Int32Array, k: number): Uint32Array[] {
  const counts = new Uint32Array(k);
  for (let i = 0; i < codes.length; i++) if (codes[i] >= 0) counts[codes[i]]++;
  const out = Array.from(counts, (c) => new Uint32Array(c));
  const fill = new Uint32Array(k);
  for (let i = 0; i < codes.length; i++) { const c = codes[i]; if (c >= 0) out[c][fill[c]++] = i; }
  return out;
}

function quantileGroups(codes: Int32Array, distinct: string[], numeric: (number | undefined)[], bins: number, missing: number): Grouping {
  const n = codes.length;
  let m = 0;
  for (let i = 0; i < n; i++) if (codes[i] >= 0 && numeric[codes[i]] !== undefined) m++;
  const sorted = new Float64Array(m);
  for (let i = 0, j = 0; i < n; i++) if (codes[i] >= 0 && numeric[codes[i]] !== undefined) sorted[j++] = numeric[codes[i]]!;
  sorted.sort();
  const edges: number[] = [];
  for (let k = 0; k <= bins; k++) {
    const e = quantileLinear(sorted, k / bins);
    if (!edges.length || e !== edges[edges.length - 1]) edges.push(e);
  }
  const last = edges.length - 2;
  // Group index per row: quantile groups first, then text values as their own groups after them.
  const textCodes = new Map<number, number>();
  const textValues: string[] = [];
  const groupOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    if (c < 0) continue;
    const x = numeric[c];
    if (x === undefined) {
      let t = textCodes.get(c);
      if (t === undefined) { t = textValues.length; textValues.push(distinct[c]); textCodes.set(c, t); }
      groupOf[i] = last + 1 + t;
      continue;
    }
    // The last edge index with edges[j] <= x, capped at the last group (which is closed).
    let lo = 0, hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (edges[mid] <= x) lo = mid; else hi = mid - 1;
    }
    groupOf[i] = lo;
  }
  const names = edges.slice(0, -1).map((e, j) => `[${edgeText(e)}, ${edgeText(edges[j + 1])}${j === last ? ']' : ')'}`);
  const members = collect(groupOf, names.length + textValues.length);
  const groups = [...names, ...textValues].map((value, g) => ({ value, rows: members[g] }));
  return { groups, edges, missing };
}
