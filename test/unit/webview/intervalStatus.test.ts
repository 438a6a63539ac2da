// Issue 28.9 and 28.10: while the intervals pass runs the report says "computing" with its progress
// (from the core's per-resample hook, through the worker's weighting), never "no intervals"; a
// comparison whose interval and test disagree says so; two runs that agree everywhere get no
// "could detect ±0.000".
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { intervalTestDisagreement, powerText } from '../../../src/common/errorBarText';
import { reportsView } from '../../../src/extension/report/panelModel';

const FIX = 'test/fixtures/error-bars/attempts.csv';

describe('intervals in progress (28.9)', () => {
  it('the bootstrap reports its share of resamples done, rising, in the score phase', () => {
    const seen: number[] = [];
    scoreFile(FIX, { bootstrap: 200, onProgress: (f, phase) => { if (phase === 'score') seen.push(f); } });
    const inside = seen.filter((f) => f > 0 && f < 1);
    expect(inside.length).toBeGreaterThanOrEqual(50); // about a hundred updates a pass
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen[seen.length - 1]).toBe(1);
  });

  it('the reports message says an intervals pass is pending, and how many resamples it draws', () => {
    const quick = scoreFile(FIX, { bootstrap: 0 });
    const result = { reports: [quick], summary: {}, intervalsPending: 1000 };
    const { view } = reportsView(FIX, result, undefined, 7);
    expect(view.type === 'reports' && view.intervalsPending).toBe(1000);
    const none = reportsView(FIX, { reports: [quick], summary: {} }, undefined, 8).view;
    expect(none.type === 'reports' && none.intervalsPending).toBeFalsy();
  });
});

describe('interval and test in one story (28.10)', () => {
  it('says when a bootstrap interval excludes 0 and the exact test does not reject', () => {
    const text = intervalTestDisagreement([0.02, 0.12], 0.25, 'exact McNemar');
    expect(text).toMatch(/excludes 0 but the exact McNemar test does not reject \(p = 0\.25\)/);
    expect(intervalTestDisagreement([-0.01, 0.12], 0.03, 'exact McNemar')).toMatch(/rejects \(p = 0\.03\) but the 95% interval .* contains 0/);
  });
  it('is silent when they agree or one is missing', () => {
    expect(intervalTestDisagreement([0.02, 0.12], 0.01, 'exact McNemar')).toBeNull();
    expect(intervalTestDisagreement([-0.02, 0.12], 0.4, 'exact McNemar')).toBeNull();
    expect(intervalTestDisagreement(null, 0.01, 'exact McNemar')).toBeNull();
    expect(intervalTestDisagreement([0.02, 0.12], null, 'exact McNemar')).toBeNull();
  });
  it('two runs that agree on every instance: no "could detect ±0.000"', () => {
    const text = powerText(0, null, 0, (v) => v.toFixed(3))!;
    expect(text).not.toMatch(/±0\.000/);
    expect(text).toMatch(/agree on every aligned instance/);
  });
});
