import { describe, expect, it } from 'vitest';
import {
  cellText, filterRows, NO_FILTER, scrollTopForRow, sortIndicesByKey, sortIndicesByString, sortKeys, tableColumns, virtualWindow,
} from '../../../webview/report/tableModel';
import { binaryReport, columns, multiclassReport, report } from './fixtures';

/** The reference: a stable comparator sort with NaN last. */
function referenceOrder(keys: Float64Array, descending: boolean): number[] {
  const idx = Array.from(keys, (_, i) => i);
  return idx.sort((a, b) => {
    const x = keys[a];
    const y = keys[b];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? a - b : Number.isNaN(x) ? 1 : -1;
    const d = descending ? y - x : x - y;
    return d || a - b;
  });
}

describe('radix sort of row indices', () => {
  it('matches a stable comparator sort on awkward keys (negatives, -0, ties, NaN, infinities, subnormals)', () => {
    const keys = new Float64Array([3, -1, 0, -0, NaN, 2.5, -Infinity, Infinity, 2.5, 5e-324, -5e-324, 1e300, -1e-300, NaN, 0, 3]);
    for (const descending of [false, true]) {
      expect(Array.from(sortIndicesByKey(keys, descending))).toEqual(referenceOrder(keys, descending));
    }
  });

  it('matches the reference on 50,000 random keys with many ties', () => {
    const n = 50_000;
    const keys = new Float64Array(n);
    let a = 7;
    for (let i = 0; i < n; i++) {
      a = (a * 48271) % 2147483647;
      keys[i] = a % 13 === 0 ? NaN : Math.round((a / 2147483647) * 1000) / 1000 - 0.3;
    }
    for (const descending of [false, true]) {
      expect(Array.from(sortIndicesByKey(keys, descending))).toEqual(referenceOrder(keys, descending));
    }
  });

  it('sorts 1,000,000 keys in well under a second', () => {
    const n = 1_000_000;
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = ((i * 2654435761) % 10007) / 10007;
    const t = performance.now();
    const order = sortIndicesByKey(keys, false);
    const ms = performance.now() - t;
    for (let j = 1; j < n; j++) if (keys[order[j - 1]] > keys[order[j]]) throw new Error(`out of order at ${j}`);
    expect(ms).toBeLessThan(2000);
  });

  it('sorts string ids stably in code-unit order', () => {
    expect(Array.from(sortIndicesByString(['b', 'a', 'b', 'A'], false))).toEqual([3, 1, 0, 2]);
    expect(Array.from(sortIndicesByString(['b', 'a', 'b', 'A'], true))).toEqual([0, 2, 1, 3]);
  });

  it('sorts numeric ids as numbers and class columns by class name', () => {
    const r = multiclassReport(6);
    r.instances!.ids = ['10', '9', '100', '1', '2', '3'];
    expect(Array.from(sortKeys(r, 'id', 'equalWidth')!)).toEqual([10, 9, 100, 1, 2, 3]);
    r.instances!.ids = ['a', '9'];
    expect(sortKeys(r, 'id', 'equalWidth')).toBeNull();
    const named = { ...r, classes: ['zeta', 'alpha', 'mu'] };
    // gold 0,1,2,0,1,2 -> ranks of zeta, alpha, mu = 2, 0, 1
    expect(Array.from(sortKeys(named, 'gold', 'equalWidth')!)).toEqual([2, 0, 1, 2, 0, 1]);
  });
});

describe('filtering', () => {
  const r = binaryReport(2000);
  const inst = r.instances!;
  const naive = (pred: (i: number) => boolean, order?: ArrayLike<number>) => (order ? Array.from(order) : Array.from({ length: inst.lines.length }, (_, i) => i)).filter(pred);

  it('returns every row without a filter', () => {
    expect(filterRows(r, null, NO_FILTER, 'equalWidth').length).toBe(2000);
  });

  it('keeps correct / incorrect rows', () => {
    expect(Array.from(filterRows(r, null, { ...NO_FILTER, correctness: 'incorrect' }, 'equalWidth'))).toEqual(naive((i) => inst.correct[i] === 0));
    expect(Array.from(filterRows(r, null, { ...NO_FILTER, correctness: 'correct' }, 'equalWidth'))).toEqual(naive((i) => inst.correct[i] === 1));
  });

  it('combines bin, gold and pred filters, in the sorted order', () => {
    const order = sortIndicesByKey(inst.value, true);
    const f = { correctness: 'all' as const, bin: 7, gold: 1, pred: 1 };
    expect(Array.from(filterRows(r, order, f, 'equalWidth'))).toEqual(naive((i) => inst.bin[i] === 7 && inst.gold[i] === 1 && inst.pred[i] === 1, order));
  });

  it('uses the equal-count bin column for the equal-count binning', () => {
    expect(filterRows(r, null, { ...NO_FILTER, bin: 0 }, 'equalCount').length).toBe(2000); // every binQuantile is 0
    expect(filterRows(r, null, { ...NO_FILTER, bin: 1 }, 'equalCount').length).toBe(0);
  });

  it('ignores correctness for probability reports (every row counts as correct there)', () => {
    const p = report('probability', columns(4, () => ({ correct: 1 })));
    expect(filterRows(p, null, { ...NO_FILTER, correctness: 'incorrect' }, 'equalWidth').length).toBe(4);
  });
});

describe('virtual scrolling', () => {
  it('maps scrollTop to rows one to one below the height cap', () => {
    const w = virtualWindow(220, 396, 1000, 22);
    expect(w.first).toBe(10);
    expect(w.top).toBe(220);
    expect(w.count).toBe(Math.ceil(396 / 22) + 1);
    expect(w.scrollHeight).toBe(22_000);
  });

  it('compresses a million rows into the cap and still reaches the first and the last row', () => {
    const rows = 1_000_000;
    const cap = 8_000_000;
    const top = virtualWindow(0, 396, rows, 22, cap);
    expect(top.scrollHeight).toBe(cap);
    expect(top.first).toBe(0);
    const bottom = virtualWindow(cap - 396, 396, rows, 22, cap);
    expect(bottom.first + bottom.count).toBeGreaterThanOrEqual(rows);
    expect(bottom.first + bottom.count).toBeLessThanOrEqual(rows + 1);
    expect(bottom.top + 396).toBeLessThanOrEqual(cap + 22);
    const middle = virtualWindow((cap - 396) / 2, 396, rows, 22, cap);
    expect(Math.abs(middle.first - rows / 2)).toBeLessThan(20);
  });

  it('scrollTopForRow inverts virtualWindow', () => {
    for (const rows of [500, 1_000_000]) {
      for (const row of [0, 123, Math.floor(rows / 3), rows - 20]) {
        const w = virtualWindow(scrollTopForRow(row, 396, rows, 22), 396, rows, 22);
        expect(Math.abs(w.first - row)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('handles an empty table', () => {
    expect(virtualWindow(0, 396, 0, 22).count).toBe(0);
  });
});

describe('columns and cells', () => {
  it('picks columns by kind and drops empty ones', () => {
    expect(tableColumns(binaryReport(3)).map((c) => c.key)).toEqual(['row', 'line', 'value', 'target', 'pred', 'confidence', 'correct', 'bin', 'brier']);
    const m = multiclassReport(3);
    m.instances!.ids = ['a', 'b', 'c'];
    expect(tableColumns(m).map((c) => c.key)).toEqual(['row', 'line', 'id', 'gold', 'pred', 'confidence', 'correct', 'bin']);
    const noConfidence = report('multiclass', columns(2, () => ({ gold: 0, pred: 0, correct: 1 })), { classes: ['x'] });
    expect(tableColumns(noConfidence).map((c) => c.key)).toEqual(['row', 'line', 'gold', 'pred', 'correct']);
    expect(tableColumns(report('binary', null))).toEqual([]);
  });

  it('writes class names, marks and 1-based bins', () => {
    const m = multiclassReport(3);
    expect(cellText(m, 'gold', 1, 'equalWidth')).toBe('beta');
    expect(cellText(m, 'pred', 1, 'equalWidth')).toBe('gamma');
    expect(cellText(m, 'correct', 0, 'equalWidth')).toBe('✓');
    expect(cellText(m, 'correct', 1, 'equalWidth')).toBe('✗');
    expect(cellText(m, 'bin', 0, 'equalWidth')).toBe('6');
    expect(cellText(m, 'bin', 0, 'equalCount')).toBe('—');
    expect(cellText(m, 'row', 2, 'equalWidth')).toBe('3');
  });
});
