import { describe, expect, it } from 'vitest';
import { binAt, decimateCurve, instanceText, misclassifiedIndices, normalizeReport, toTyped } from '../../../webview/report/data';
import { columns, multiclassReport, report } from './fixtures';

describe('typed columns however they travelled', () => {
  it('keeps typed arrays, converts arrays and index-keyed objects, turns null into NaN', () => {
    const f = new Float64Array([1, 2]);
    expect(toTyped(Float64Array, f)).toBe(f);
    expect(Array.from(toTyped(Float64Array, [0.5, null, 2]))).toEqual([0.5, NaN, 2]);
    expect(Array.from(toTyped(Uint32Array, { 0: 3, 1: 4, 10: 9, 2: 5 }))).toEqual([3, 4, 5, 9]);
    expect(Array.from(toTyped(Int16Array, new Float64Array([1, -1])))).toEqual([1, -1]);
  });

  it('normalizes a report whose columns went through JSON', () => {
    const r = multiclassReport(6);
    const json = JSON.parse(JSON.stringify({ ...r, dataLines: new Uint32Array([5, 6, 7, 8, 9, 10]) }));
    const fixed = normalizeReport(json);
    expect(fixed.instances!.gold).toBeInstanceOf(Int32Array);
    expect(Array.from(fixed.instances!.gold)).toEqual(Array.from(r.instances!.gold));
    expect(Number.isNaN(fixed.instances!.brier[0])).toBe(true);
    expect(fixed.dataLines).toBeInstanceOf(Uint32Array);
  });
});

describe('misclassified examples and texts', () => {
  it('lists wrong predictions with a known gold and prediction, in file order', () => {
    const r = multiclassReport(9); // gold i%3, pred 2i%3: right when i%3 == 0
    expect(Array.from(misclassifiedIndices(r.instances!))).toEqual([1, 2, 4, 5, 7, 8]);
    const unknown = columns(3, (i) => ({ correct: 0, gold: i === 1 ? -1 : 0, pred: 1 }));
    expect(Array.from(misclassifiedIndices(unknown))).toEqual([0, 2]);
  });

  it('reads texts row-major (values[instance][field]) and tolerates holes', () => {
    const texts = { fields: ['a', 'b'], values: [['x', 'y'], ['z']] };
    expect(instanceText(texts, 0, 1)).toBe('y');
    expect(instanceText(texts, 1, 1)).toBe('');
    expect(instanceText(undefined, 0, 0)).toBe('');
  });
});

describe('decimation', () => {
  it('thins a long monotone curve, keeping both ends', () => {
    const n = 100_001;
    const x = Float64Array.from({ length: n }, (_, i) => i / (n - 1));
    const y = Float64Array.from(x, (v) => Math.sqrt(v));
    const d = decimateCurve(x, y, 1500);
    expect(d.x.length).toBeLessThanOrEqual(1600);
    expect(d.x[0]).toBe(0);
    expect(d.x[d.x.length - 1]).toBe(1);
    expect(d.y[d.y.length - 1]).toBe(1);
    // The area under the thinned curve stays within 0.1% (trapezoids).
    let area = 0;
    for (let i = 1; i < d.x.length; i++) area += (d.x[i] - d.x[i - 1]) * (d.y[i] + d.y[i - 1]) / 2;
    expect(area).toBeCloseTo(2 / 3, 3);
  });

  it('leaves short curves alone', () => {
    expect(decimateCurve([0, 1], [0, 1], 10)).toEqual({ x: [0, 1], y: [0, 1] });
  });
});

describe('binAt (a click on the reliability diagram)', () => {
  const bins = [
    { lo: 0, hi: 0.1, count: 3 }, { lo: 0.1, hi: 0.2, count: 0 }, { lo: 0.2, hi: 0.3, count: 5 },
  ];
  it('finds the bin under x, or the nearest non-empty one', () => {
    expect(binAt(bins, 0.05)).toBe(0);
    expect(binAt(bins, 0.25)).toBe(2);
    expect(binAt(bins, 0.16)).toBe(2); // the empty bin is skipped; 0.2 is nearer than 0.1
    expect(binAt(bins, 0.9)).toBe(2);
    expect(binAt([], 0.5)).toBe(-1);
  });
  it('works on a report without instances', () => {
    expect(report('binary', null).instances).toBeNull();
  });
});

describe('the stepper of a binary report (issue 21, point 9) and its order', () => {
  it('steps through the rows on the wrong side of the threshold, most confident mistakes first', async () => {
    const { misclassifiedInOrder } = await import('../../../webview/report/data');
    const { scoreInput } = await import('../../../src/core/score');
    const { textInput } = await import('../../../src/core/formats/context');
    // Wrong at threshold 0.5: line 3 (0.7, label 0), line 5 (0.2, label 1), line 7 (0.97, label 0), line 8 (0.03, label 1).
    const text = ',risk_score,label\n0,0.9,1\n1,0.7,0\n2,0.1,0\n3,0.2,1\n4,0.8,1\n5,0.97,0\n6,0.03,1\n';
    const r = scoreInput(textInput('/tmp/s.test_predictions.csv', text));
    const lines = (order: 'file' | 'confident') => Array.from(misclassifiedInOrder(r, order), (i) => r.instances!.lines[i]);
    expect(lines('file')).toEqual([3, 5, 7, 8]);
    // |score - label|: 0.97 and 0.97 (ties in file order), then 0.8, then 0.7.
    expect(lines('confident')).toEqual([7, 8, 5, 3]);
  });

  it('a multiclass report in order of the confidence in the wrong answer', async () => {
    const { misclassifiedInOrder } = await import('../../../webview/report/data');
    const inst = columns(4, (i) => ({ gold: 0, pred: i === 2 ? 0 : 1, correct: i === 2 ? 1 : 0, confidence: [0.4, 0.9, 0.99, NaN][i] }));
    const r = report('multiclass', inst, { classes: ['a', 'b'] });
    expect(Array.from(misclassifiedInOrder(r, 'file'))).toEqual([0, 1, 3]);
    expect(Array.from(misclassifiedInOrder(r, 'confident'))).toEqual([1, 0, 3]);
  });
});

describe('what the stepper shows as Predicted (issue 21, point 8)', () => {
  it('the extracted answer of a whole output, the output itself only in the tooltip', async () => {
    const { shownAnswer } = await import('../../../webview/report/stepper');
    const cot = 'Let me think. The flour is usually kept with other dry goods, so it would be in a cupboard or a pantry.\n\nANSWER: pantry';
    expect(shownAnswer(cot, cot)).toEqual({ text: 'pantry', full: cot });
    expect(shownAnswer('C', 'Reasoning…\nANSWER: C')).toEqual({ text: 'C' });
    const long = 'x'.repeat(200);
    expect(shownAnswer(long, long).text).toHaveLength(80);
    expect(shownAnswer('line one\nline two', '').text).toBe('line one…');
  });
});
