import { describe, expect, it } from 'vitest';
import {
  disagrees, formatBinRange, formatCell, formatCount, formatMetric, formatWithInterval, leaningSentence, METRIC_INFO,
} from '../../../webview/common/format';
import { METRIC_NAMES } from '../../../src/core/types';

describe('formatting', () => {
  it('prints metrics with three decimals and a dash for missing values', () => {
    expect(formatMetric(0.04321)).toBe('0.043');
    expect(formatMetric(1)).toBe('1.000');
    expect(formatMetric(null)).toBe('—');
    expect(formatMetric(undefined)).toBe('—');
    expect(formatMetric(NaN)).toBe('—');
    expect(formatMetric(-0.0001)).toBe('-1.0e-4');
    expect(formatMetric(-0.00000)).toBe('0.000');
  });

  it('prints a bootstrap interval after the value', () => {
    expect(formatWithInterval(0.0432, [0.0311, 0.0559])).toBe('0.043 [0.031, 0.056]');
    expect(formatWithInterval(0.5)).toBe('0.500');
  });

  it('groups thousands and prints table cells', () => {
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(formatCell(1)).toBe('1');
    expect(formatCell(0.123456)).toBe('0.1235');
    expect(formatCell(NaN)).toBe('—');
  });

  it('closes only the last equal-width bin', () => {
    expect(formatBinRange(0.1, 0.2, false)).toBe('[0.10, 0.20)');
    expect(formatBinRange(0.9, 1, true)).toBe('[0.90, 1.00]');
  });

  it('has a label for every metric name', () => {
    for (const m of METRIC_NAMES) expect(METRIC_INFO[m].label).toBeTruthy();
  });
});

describe('reported figures', () => {
  it('uses the core tolerance: max(5e-4, 1e-3 |recomputed|)', () => {
    expect(disagrees(0.1, 0.1004)).toBe(false);
    expect(disagrees(0.1, 0.1006)).toBe(true);
    expect(disagrees(10, 10.009)).toBe(false);
    expect(disagrees(10, 10.011)).toBe(true);
    expect(disagrees(0.1, null)).toBe(false);
    expect(disagrees(null, 0.1)).toBe(false);
  });
});

describe('the over/underconfidence sentence', () => {
  it('calls the HMR paper system X overconfident (R_O 0.500 < R_U 0.629)', () => {
    const text = leaningSentence(0.5, 0.629);
    expect(text).toMatch(/leans overconfident/);
    expect(text).toContain('0.500 confidence on average'); // 1 - R_O: mean confidence of the wrong answers
  });
  it('calls a low R_U underconfident', () => {
    expect(leaningSentence(0.8, 0.4)).toMatch(/leans underconfident/);
  });
  it('says neither when the two are within 0.02', () => {
    expect(leaningSentence(0.6, 0.61)).toMatch(/neither/);
  });
  it('does not read a leaning into a reward that is 1 by definition', () => {
    expect(leaningSentence(1, 0.8, { right: 5, wrong: 0 })).toMatch(/Every answer is right, so R_O is 1 by definition.*leans underconfident/);
    expect(leaningSentence(0.7, 1, { right: 0, wrong: 3 })).toMatch(/Every answer is wrong.*leans overconfident/);
    expect(leaningSentence(0.5, 0.629, { right: 6, wrong: 3 })).toMatch(/leans overconfident/);
  });
  it('says when R_O and R_U are missing', () => {
    expect(leaningSentence(null, 0.5)).toMatch(/not available/);
  });
});

describe('a point estimate outside its own interval (issue 21, point 10)', () => {
  it('is said on the card, with which side and why', async () => {
    const { outsideIntervalNote } = await import('../../../webview/report/cards');
    expect(outsideIntervalNote(0.002, [0.0021, 0.0073])?.text).toBe('estimate below its interval (bootstrap bias)');
    expect(outsideIntervalNote(0.002, [0.0021, 0.0073])?.title).toMatch(/docs\/metrics\.md#intervals/);
    expect(outsideIntervalNote(0.9, [0.1, 0.2])?.text).toMatch(/above/);
    expect(outsideIntervalNote(0.0021, [0.0021, 0.0073])).toBeNull();
    expect(outsideIntervalNote(0.5, undefined)).toBeNull();
    expect(outsideIntervalNote(null, [0, 1])).toBeNull();
  });
});
