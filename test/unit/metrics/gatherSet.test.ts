// A subset of a set's rows (compare's aligned instances, a slice's group) takes every per-row column
// with it. lm-eval's acc_norm choices were left whole, so `--decision acc_norm` on a subset, and the
// acc_norm of a group or of a run with rows the others lack, read other rows' choices.
import { describe, expect, it } from 'vitest';
import { buildReport, gatherSet, resolveOptions } from '../../../src/core/report';
import type { MulticlassSet, ParseResult } from '../../../src/core/types';

/** Six lm-eval-like rows over three choices, whose acc and acc_norm choices differ. */
function lmEvalSet(): MulticlassSet {
  const gold = Int32Array.from([0, 1, 2, 0, 1, 2]);
  const pred = Int32Array.from([0, 0, 2, 1, 1, 0]);
  const predNorm = Int32Array.from([1, 1, 2, 0, 0, 2]);
  const probs = new Float64Array(18);
  for (let i = 0; i < 6; i++) for (let c = 0; c < 3; c++) probs[i * 3 + c] = c === pred[i] ? 0.6 : 0.2;
  return {
    kind: 'multiclass', n: 6, lines: Uint32Array.from([2, 3, 4, 5, 6, 7]), classes: ['a', 'b', 'c'], classesKnown: true,
    gold, pred, probs, confidence: Float64Array.from(pred, () => 0.6), predNorm,
    continuationLoglik: Float64Array.from([-1, -2, -3, -4, -5, -6]), dataLines: Uint32Array.from([10, 11, 12, 13, 14, 15]),
  };
}

describe('gatherSet', () => {
  const idx = Uint32Array.from([4, 1, 5]);

  it('takes every per-row column with its rows', () => {
    const set = lmEvalSet();
    const sub = gatherSet(set, idx) as MulticlassSet;
    expect(sub.n).toBe(3);
    for (const [key, value] of Object.entries(sub)) {
      if (!ArrayBuffer.isView(value)) continue;
      const perRow = key === 'probs' ? 3 * sub.n : sub.n;
      expect((value as Uint8Array).length, key).toBe(perRow);
    }
    expect(Array.from(sub.predNorm!)).toEqual([0, 1, 2]);
    expect(Array.from(sub.continuationLoglik!)).toEqual([-5, -2, -6]);
    expect(Array.from(sub.dataLines!)).toEqual([14, 11, 15]);
  });

  it('scores a subset under acc_norm with the subset\'s own acc_norm choices', () => {
    const set = lmEvalSet();
    const sub = gatherSet(set, idx);
    const parsed: ParseResult = { format: 'lm-eval', set: sub, problems: [], skipped: 0, unlabeled: 0 };
    const report = buildReport('x.jsonl', parsed, resolveOptions({ decision: 'acc_norm', bootstrap: 0 }));
    // By hand: rows 4, 1, 5 have gold 1, 1, 2 and acc_norm choices 0, 1, 2 (two right), each with
    // probability 0.2 (their argmax choices 1, 0, 0 hold the 0.6).
    expect(report.decision).toBe('acc_norm');
    expect(report.metrics.acc_norm).toBeCloseTo(2 / 3, 15);
    // The calibration views follow the acc_norm choice: confidence 0.2 in one bin, 2/3 right.
    expect(report.metrics.ece).toBeCloseTo(2 / 3 - 0.2, 15);
    // Accuracy stays lm-eval's acc: argmax choices 1, 0, 0 against gold 1, 1, 2.
    expect(report.metrics.accuracy).toBeCloseTo(1 / 3, 15);
  });
});
