// The instance table's model: which columns a report has, the order rows are sorted in, the rows a
// filter keeps, and which rows a scroll position shows. Pure functions over typed arrays (unit-tested),
// fast enough for 1,000,000 rows: sorting is an LSD radix sort on the keys' IEEE-754 bits (about 10x
// faster than Array.prototype.sort with a comparator) and filtering is one pass.
import type { Report } from '../../src/core/types';
import type { TableColumn, TableFilter } from '../../src/protocol';
import { hasFinite } from '../../src/common/chartData';
import { hasInstanceIds, instanceId } from '../../src/common/instanceIds';
import { formatCell, kindAxes } from '../common/format';
import { AGENT_NUMBER_FIELDS } from '../../src/common/sampleView';
import { isNumericField, judgeColumnFields } from '../judge/judgeColumns';

/** A column of a numeric text field (an agent run's turns, tool calls, tokens: issue 29). */
type FieldColumn = `field:${string}`;

function isFieldColumn(key: TableColumn): key is FieldColumn {
  return key.startsWith('field:');
}

/** Row i's value in text field column `key` ('' when the row has none). */
function fieldText(report: Report, key: FieldColumn, i: number): string {
  const f = report.texts?.fields.indexOf(key.slice(6)) ?? -1;
  const v = f >= 0 ? report.texts?.values[i]?.[f] : undefined;
  return typeof v === 'string' ? v : '';
}

function fieldNumber(report: Report, key: FieldColumn, i: number): number {
  const t = fieldText(report, key, i).trim();
  return t === '' ? NaN : Number(t);
}

export interface ColumnSpec {
  key: TableColumn;
  title: string;
  /** Width in the CSS grid. */
  width: string;
  numeric: boolean;
}

export const NO_FILTER: TableFilter = { correctness: 'all', bin: null, gold: null, pred: null, query: undefined };

/** The columns shown for a report; they depend on its kind and on which columns hold data. */
export function tableColumns(report: Report): ColumnSpec[] {
  const inst = report.instances;
  if (!inst) return [];
  const axes = kindAxes(report.kind);
  const cols: ColumnSpec[] = [
    { key: 'row', title: '#', width: 'minmax(4.5em, 1fr)', numeric: true },
    { key: 'line', title: 'line', width: 'minmax(4.5em, 1fr)', numeric: true },
  ];
  if (hasInstanceIds(inst)) cols.push({ key: 'id', title: 'id', width: 'minmax(6em, 2fr)', numeric: false });
  switch (report.kind) {
    case 'binary':
      cols.push(
        { key: 'value', title: axes.valueShort, width: 'minmax(7em, 1fr)', numeric: true },
        { key: 'target', title: axes.targetShort, width: 'minmax(5em, 1fr)', numeric: true },
        { key: 'pred', title: 'pred', width: 'minmax(5em, 1fr)', numeric: true },
        { key: 'confidence', title: 'confidence', width: 'minmax(8em, 1fr)', numeric: true },
        { key: 'correct', title: 'correct', width: 'minmax(6em, 1fr)', numeric: true },
      );
      break;
    case 'multiclass':
      cols.push(
        { key: 'gold', title: 'gold', width: 'minmax(8em, 3fr)', numeric: false },
        { key: 'pred', title: 'predicted', width: 'minmax(8em, 3fr)', numeric: false },
        { key: 'confidence', title: 'confidence', width: 'minmax(8em, 1fr)', numeric: true },
        { key: 'correct', title: 'correct', width: 'minmax(6em, 1fr)', numeric: true },
      );
      break;
    case 'confidence':
      cols.push(
        { key: 'value', title: axes.valueShort, width: 'minmax(7em, 1fr)', numeric: true },
        { key: 'correct', title: 'correct', width: 'minmax(6em, 1fr)', numeric: true },
      );
      break;
    case 'probability':
      cols.push(
        { key: 'value', title: axes.valueShort, width: 'minmax(7em, 1fr)', numeric: true },
        { key: 'target', title: axes.targetShort, width: 'minmax(7em, 1fr)', numeric: true },
      );
      break;
  }
  if (!hasFinite(inst.confidence)) {
    const at = cols.findIndex((c) => c.key === 'confidence');
    if (at >= 0) cols.splice(at, 1);
  }
  // An agent run's numbers (issue 29), sortable like any column.
  for (const field of AGENT_NUMBER_FIELDS) {
    if (report.texts?.fields.includes(field)) cols.push({ key: `field:${field}`, title: field.replace('_', ' '), width: 'minmax(6em, 1fr)', numeric: true });
  }
  // A judge file's own columns (issue 27): model(s), question, turn, verdict; sorted as numbers when they are.
  for (const field of judgeColumnFields(report)) {
    if (cols.some((c) => c.key === `field:${field}`)) continue;
    const numeric = isNumericField(report, field);
    cols.push({ key: `field:${field}`, title: field, width: numeric ? 'minmax(5em, 1fr)' : 'minmax(8em, 2fr)', numeric });
  }
  if (inst.bin.some((b) => b >= 0)) cols.push({ key: 'bin', title: 'bin', width: 'minmax(4em, 1fr)', numeric: true });
  if (hasFinite(inst.brier)) cols.push({ key: 'brier', title: 'brier', width: 'minmax(7em, 1fr)', numeric: true });
  return cols;
}

/**
 * The narrowest the table's columns go: the sum of their minmax() minimums, as a CSS length (the
 * grid then scrolls sideways inside its card in a narrow editor column instead of widening the page).
 */
export function tableMinWidth(columns: readonly ColumnSpec[]): string {
  const mins = columns.map((c) => /^minmax\(([^,]+),/.exec(c.width)?.[1]?.trim() ?? '0px');
  return `calc(${mins.join(' + ')})`;
}

/**
 * A column's name in the exported CSV: an identifier pandas reads as is (the table's own titles
 * hold '#' and spaces). The per-instance names of the report's columns: row, line, id, score,
 * label, gold, pred, confidence, correct, bin, brier, pred_p, true_p.
 */
export function csvColumnName(report: Report, column: ColumnSpec): string {
  if (isFieldColumn(column.key)) return column.key.slice(6);
  switch (column.key) {
    case 'row': return 'row';
    case 'pred': return 'pred';
    case 'value': return report.kind === 'probability' ? 'pred_p' : column.title;
    case 'target': return report.kind === 'probability' ? 'true_p' : column.title;
    default: return column.title.replace(/\s+/g, '_');
  }
}

/**
 * The value of one cell as data (the CSV): numbers at full precision (String(number), the shortest
 * form that reads back to the same double), correct as 1 / 0, an unknown value empty.
 */
export function cellData(report: Report, key: TableColumn, i: number, binning: 'equalWidth' | 'equalCount'): string | number | null {
  const inst = report.instances!;
  const num = (v: number) => (Number.isFinite(v) ? v : null);
  if (isFieldColumn(key)) return isNumericField(report, key.slice(6)) ? num(fieldNumber(report, key, i)) : fieldText(report, key, i);
  switch (key) {
    case 'row': return i + 1;
    case 'line': return inst.lines[i];
    case 'id': return instanceId(inst, i) ?? '';
    case 'value': return num(inst.value[i]);
    case 'target': return num(inst.target[i]);
    case 'confidence': return num(inst.confidence[i]);
    case 'correct': return report.kind === 'probability' ? null : inst.correct[i] ? 1 : 0;
    case 'gold':
    case 'pred': {
      const index = (key === 'gold' ? inst.gold : inst.pred)[i];
      if (index < 0) return null;
      return report.kind === 'multiclass' ? report.classes?.[index] ?? String(index) : index;
    }
    case 'bin': {
      const b = (binning === 'equalWidth' ? inst.bin : inst.binQuantile)[i];
      return b < 0 ? null : b + 1;
    }
    case 'brier': return num(inst.brier[i]);
  }
}

/** The text of one cell. */
export function cellText(report: Report, key: TableColumn, i: number, binning: 'equalWidth' | 'equalCount'): string {
  const inst = report.instances!;
  if (isFieldColumn(key)) return fieldText(report, key, i) || '—';
  switch (key) {
    case 'row': return String(i + 1);
    case 'line': return String(inst.lines[i]);
    case 'id': return instanceId(inst, i) ?? '';
    case 'value': return formatCell(inst.value[i]);
    case 'target': return formatCell(inst.target[i]);
    case 'confidence': return formatCell(inst.confidence[i]);
    case 'correct': return report.kind === 'probability' ? '' : inst.correct[i] ? '✓' : '✗';
    case 'gold': return className(report, inst.gold[i]);
    case 'pred': return className(report, inst.pred[i]);
    case 'bin': {
      const b = (binning === 'equalWidth' ? inst.bin : inst.binQuantile)[i];
      return b < 0 ? '—' : String(b + 1);
    }
    case 'brier': return formatCell(inst.brier[i]);
  }
}

export function className(report: Report, index: number): string {
  if (index < 0) return '—';
  if (report.kind === 'multiclass') return report.classes?.[index] ?? String(index);
  return String(index);
}

/** The numeric sort key of column `key` for every row (strings: ids parsed as numbers when all are numeric). */
export function sortKeys(report: Report, key: TableColumn, binning: 'equalWidth' | 'equalCount'): Float64Array | null {
  const inst = report.instances!;
  const n = inst.lines.length;
  const keys = new Float64Array(n);
  if (isFieldColumn(key)) {
    if (!isNumericField(report, key.slice(6))) return null; // text: sortStrings
    for (let i = 0; i < n; i++) keys[i] = fieldNumber(report, key, i);
    return keys;
  }
  switch (key) {
    case 'row': for (let i = 0; i < n; i++) keys[i] = i; return keys;
    case 'line': keys.set(inst.lines); return keys;
    case 'value': return inst.value;
    case 'target': return inst.target;
    case 'confidence': return inst.confidence;
    case 'brier': return inst.brier;
    case 'correct': keys.set(inst.correct); return keys;
    case 'bin': {
      const bins = binning === 'equalWidth' ? inst.bin : inst.binQuantile;
      for (let i = 0; i < n; i++) keys[i] = bins[i] < 0 ? NaN : bins[i];
      return keys;
    }
    case 'gold':
    case 'pred': {
      const column = key === 'gold' ? inst.gold : inst.pred;
      if (report.kind !== 'multiclass' || !report.classes) {
        for (let i = 0; i < n; i++) keys[i] = column[i] < 0 ? NaN : column[i];
        return keys;
      }
      // Sort by class name: rank the names once, then sort rows by rank.
      const names = report.classes;
      const byName = names.map((_, k) => k).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : a - b));
      const rank = new Float64Array(names.length);
      byName.forEach((k, r) => { rank[k] = r; });
      for (let i = 0; i < n; i++) keys[i] = column[i] < 0 || column[i] >= names.length ? NaN : rank[column[i]];
      return keys;
    }
    case 'id': {
      const ids = inst.ids;
      if (!ids) return inst.idNumbers ?? null;
      for (let i = 0; i < n; i++) {
        const text = ids[i];
        const v = text === '' ? NaN : Number(text);
        if (!Number.isFinite(v)) return null; // not all numeric: compare as strings
        keys[i] = v;
      }
      return keys;
    }
  }
}

/** The strings a column sorts by when sortKeys gives no numbers: a text field's values, else the IDs. */
export function sortStrings(report: Report, key: TableColumn): string[] {
  const n = report.instances?.lines.length ?? 0;
  if (isFieldColumn(key)) return Array.from({ length: n }, (_, i) => fieldText(report, key, i));
  return report.instances?.ids ?? [];
}

/**
 * Row indices ordered by `keys`, ascending or descending, NaN last either way, ties in file order
 * (stable). LSD radix sort over the 64 bits of each key, 16 bits a pass, passes skipped when all
 * keys share that digit.
 */
export function sortIndicesByKey(keys: Float64Array, descending: boolean): Uint32Array {
  const n = keys.length;
  const high = new Uint32Array(n);
  const low = new Uint32Array(n);
  const f64 = new Float64Array(1);
  const u32 = new Uint32Array(f64.buffer);
  const hiWord = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: high word second
  const loWord = 1 - hiWord;
  for (let i = 0; i < n; i++) {
    let v = keys[i];
    if (v !== v) { high[i] = 0xffffffff; low[i] = 0xffffffff; continue; } // NaN last
    if (descending) v = -v;
    if (v === 0) v = 0; // -0 and 0 tie
    f64[0] = v;
    let h = u32[hiWord];
    let l = u32[loWord];
    // Map IEEE-754 bits to an unsigned order: flip all bits of negatives, the sign bit of positives.
    if (h & 0x80000000) { h = ~h >>> 0; l = ~l >>> 0; } else { h = (h | 0x80000000) >>> 0; }
    // Keep NaN's slot strictly last: no finite key maps to all ones.
    high[i] = h;
    low[i] = l;
  }
  // Each pass moves the keys along with the indices, so every read is sequential.
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  let hi = high;
  let lo = low;
  let hiNext = new Uint32Array(n);
  let loNext = new Uint32Array(n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const useHigh = pass >= 2;
    const shift = pass % 2 === 0 ? 0 : 16;
    const word = useHigh ? hi : lo;
    counts.fill(0);
    for (let j = 0; j < n; j++) counts[(word[j] >>> shift) & 0xffff]++;
    if (n === 0 || counts[(word[0] >>> shift) & 0xffff] === n) continue; // one digit: nothing to do
    let sum = 0;
    for (let d = 0; d < 65536; d++) { const c = counts[d]; counts[d] = sum; sum += c; }
    for (let j = 0; j < n; j++) {
      const to = counts[(word[j] >>> shift) & 0xffff]++;
      next[to] = order[j];
      hiNext[to] = hi[j];
      if (!useHigh) loNext[to] = lo[j]; // the low word is done after pass 1
    }
    let swap = order; order = next; next = swap;
    swap = hi; hi = hiNext; hiNext = swap;
    swap = lo; lo = loNext; loNext = swap;
  }
  return order;
}

/** Row indices sorted by string keys (ids that are not all numeric): code-unit order, stable. */
export function sortIndicesByString(values: string[], descending: boolean): Uint32Array {
  const order = Array.from({ length: values.length }, (_, i) => i);
  const sign = descending ? -1 : 1;
  order.sort((a, b) => {
    const x = values[a];
    const y = values[b];
    return x < y ? -sign : x > y ? sign : a - b;
  });
  return Uint32Array.from(order);
}

/** Whether row i passes the filter. */
export function keeps(report: Report, filter: TableFilter, binning: 'equalWidth' | 'equalCount', i: number): boolean {
  const inst = report.instances!;
  if (filter.correctness !== 'all' && report.kind !== 'probability') {
    if ((inst.correct[i] === 1) !== (filter.correctness === 'correct')) return false;
  }
  if (filter.bin !== null && (binning === 'equalWidth' ? inst.bin : inst.binQuantile)[i] !== filter.bin) return false;
  if (filter.gold !== null && inst.gold[i] !== filter.gold) return false;
  if (filter.pred !== null && inst.pred[i] !== filter.pred) return false;
  return true;
}

export function isFiltering(filter: TableFilter): boolean {
  return filter.correctness !== 'all' || filter.bin !== null || filter.gold !== null || filter.pred !== null || !!filter.query;
}

/**
 * The rows of `order` (all rows in file order when null) that pass `filter`, in that order; with
 * `match` (the search's rows, 1 to keep), only those too.
 */
export function filterRows(
  report: Report, order: Uint32Array | null, filter: TableFilter, binning: 'equalWidth' | 'equalCount', match: Uint8Array | null = null,
): Uint32Array {
  const inst = report.instances;
  const n = inst ? inst.lines.length : 0;
  if (!inst || (!isFiltering(filter) && !match)) {
    if (order) return order;
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  // One tight pass: the conditions are hoisted into plain locals (a million rows in a few ms).
  const correct = inst.correct;
  const wantCorrect = filter.correctness === 'all' || report.kind === 'probability' ? -1 : filter.correctness === 'correct' ? 1 : 0;
  const bins = binning === 'equalWidth' ? inst.bin : inst.binQuantile;
  const bin = filter.bin ?? -2;
  const gold = inst.gold;
  const wantGold = filter.gold ?? -2;
  const pred = inst.pred;
  const wantPred = filter.pred ?? -2;
  const out = new Uint32Array(n);
  let k = 0;
  const total = order ? order.length : n;
  for (let j = 0; j < total; j++) {
    const i = order ? order[j] : j;
    if (wantCorrect >= 0 && (correct[i] === 1 ? 1 : 0) !== wantCorrect) continue;
    if (bin !== -2 && bins[i] !== bin) continue;
    if (wantGold !== -2 && gold[i] !== wantGold) continue;
    if (wantPred !== -2 && pred[i] !== wantPred) continue;
    if (match && match[i] !== 1) continue;
    out[k++] = i;
  }
  return out.slice(0, k);
}

export interface VirtualWindow {
  /** First visible row (index into the filtered rows). */
  first: number;
  /** Rows to render from `first`. */
  count: number;
  /** Pixel offset of row `first` inside the scroll content. */
  top: number;
  /** Height of the scroll content. */
  scrollHeight: number;
}

/**
 * Which rows a scroll position shows. Browsers cap an element's height (Chromium near 33.5M px), so
 * beyond `maxScrollHeight` the scroll range is compressed: the scrollbar maps linearly onto the rows,
 * and the rows are drawn at the viewport, each still `rowHeight` high.
 */
export function virtualWindow(
  scrollTop: number, viewportHeight: number, rowCount: number, rowHeight: number, maxScrollHeight = 8_000_000,
): VirtualWindow {
  const natural = rowCount * rowHeight;
  const visible = Math.ceil(viewportHeight / rowHeight) + 1;
  if (natural <= maxScrollHeight) {
    const first = Math.max(0, Math.min(rowCount - 1, Math.floor(scrollTop / rowHeight)));
    return { first: rowCount ? first : 0, count: Math.max(0, Math.min(visible, rowCount - first)), top: first * rowHeight, scrollHeight: natural };
  }
  const scrollHeight = maxScrollHeight;
  const maxScroll = Math.max(1, scrollHeight - viewportHeight);
  const fraction = Math.min(1, Math.max(0, scrollTop / maxScroll));
  const exact = fraction * Math.max(0, rowCount - viewportHeight / rowHeight);
  const first = Math.min(rowCount - 1, Math.floor(exact));
  const top = Math.max(0, Math.min(scrollHeight - rowHeight, scrollTop - (exact - first) * rowHeight));
  return { first, count: Math.max(0, Math.min(visible, rowCount - first)), top, scrollHeight };
}

/** The scrollTop that shows row `row` at the top (inverse of virtualWindow). */
export function scrollTopForRow(row: number, viewportHeight: number, rowCount: number, rowHeight: number, maxScrollHeight = 8_000_000): number {
  const natural = rowCount * rowHeight;
  if (natural <= maxScrollHeight) return row * rowHeight;
  const maxScroll = Math.max(1, maxScrollHeight - viewportHeight);
  const span = Math.max(1, rowCount - viewportHeight / rowHeight);
  return Math.min(maxScroll, (row / span) * maxScroll);
}
