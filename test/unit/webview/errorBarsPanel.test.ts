// Error bars on the pages (issue 18): what the report's intervals pass carries to the page (the
// rough-intervals flag and the method, which the quick pass without a bootstrap cannot know), and
// the words the cards, the compare table and the CLI share (src/common/errorBarText.ts), on the
// figures of test/reference/error_bars_reference.py.
import { describe, expect, it } from 'vitest';
import expected from '../../reference/error_bars_expected.json';
import { reportIntervals, withIntervals } from '../../../src/extension/report/panelModel';
import { scoreFile } from '../../../src/core/score';
import { clusterWidening, groupedInteger, powerText, roughIntervalsText } from '../../../src/common/errorBarText';

const FIX = 'test/fixtures/error-bars/';

describe('the intervals message', () => {
  it('brings rough_intervals and interval_method with the bootstrap intervals', () => {
    // The panel's quick pass has no bootstrap: no intervals, so nothing is rough yet.
    const quick = scoreFile(FIX + 'attempts.csv', { bootstrap: 0 });
    expect(quick.rough_intervals).toBeUndefined();
    const full = scoreFile(FIX + 'attempts.csv', { bootstrap: 50 });
    expect(full.rough_intervals).toBe(true);
    const [message] = reportIntervals([full]);
    expect(message.rough_intervals).toBe(true);
    expect(message.interval_method).toBe('bootstrap');
    const shown = withIntervals(quick, message);
    expect(shown.rough_intervals).toBe(true);
    expect(shown.intervals.accuracy).toEqual(full.intervals.accuracy);
    // A structured clone (postMessage) keeps them.
    expect(structuredClone(message)).toEqual(message);
  });

  it('a later pass without rough intervals clears the flag', () => {
    const rough = scoreFile(FIX + 'attempts.csv', { bootstrap: 50 });
    const plenty = scoreFile(FIX + 'passages.csv', { bootstrap: 50 });
    expect(plenty.rough_intervals).toBeUndefined();
    expect(withIntervals(rough, reportIntervals([plenty])[0]).rough_intervals).toBeUndefined();
  });
});

describe('error bars in words', () => {
  it('how much clustering widens an interval: the square root of the design effect', () => {
    const r = scoreFile(FIX + 'passages.csv', { interval: 't', cluster: { column: 'passage' } });
    for (const [m, d] of Object.entries(expected.passages.design_effect)) {
      expect(clusterWidening(r.clusters, m)).toBeCloseTo(Math.sqrt(d), 12);
    }
    expect(clusterWidening(r.clusters, 'auc')).toBeNull();
    expect(clusterWidening(undefined, 'accuracy')).toBeNull();
  });

  it('rough intervals name what is too few', () => {
    expect(roughIntervalsText({})).toBe('intervals are rough (n < 30)');
    expect(roughIntervalsText({ clusters: { count: 24 } })).toBe('intervals are rough (24 clusters < 30)');
  });

  it("power: 'could detect ±mde; n items would make this Δ significant'", () => {
    const w = expected.power.accuracy;
    expect(powerText(w.mde, w.n_needed, w.delta, (v) => v.toFixed(3))).toBe('could detect ±0.060; 291 items would make this Δ significant');
    expect(powerText(0.003, 128561, 0.001, (v) => v.toFixed(3))).toBe('could detect ±0.003; 128,561 items would make this Δ significant');
    expect(powerText(0.01, null, 0, (v) => v.toFixed(2))).toBe('could detect ±0.01; Δ is 0: no number of items would make it significant');
    expect(powerText(null, null, 0.1, String)).toBeNull();
    expect(powerText(0.02, 1, 0.5, String)).toBe('could detect ±0.02; 1 item would make this Δ significant');
    expect(groupedInteger(1234567)).toBe('1,234,567');
  });
});
