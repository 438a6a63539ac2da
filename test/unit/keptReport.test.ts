// The report of a closed tab, kept for its file opened again (src/extension/report/keptReport.ts,
// issue 28 point 11): kept only when complete, handed back only while the same file, the same
// options and no unsaved edits hold, and never past KEEP_MS.
import { describe, expect, it } from 'vitest';
import { KEEP_MAX_BYTES, KEEP_MS, keepable, keptFor, panelBytes, type KeptReport } from '../../src/extension/report/keptReport';
import type { PanelScoreResult } from '../../src/extension/report/panelModel';
import type { Report } from '../../src/core/types';

const stamp = { mtime: 1_700_000_000_123.5, size: 18_300_000 };

/** A result as the worker's 'panel' pass gives it, with `rows` rows of two float64 columns in pages of 1,000. */
function result(rows: number, extra: Partial<PanelScoreResult> = {}): PanelScoreResult {
  const pages = [];
  for (let offset = 0; offset < rows; offset += 1000) {
    const count = Math.min(1000, rows - offset);
    pages.push({ index: pages.length, offset, count, data: { value: new Float64Array(count), gold: new Float64Array(count) } });
  }
  return {
    reports: [{ path: '/w/a.test_predictions.csv', n: rows, metrics: { accuracy: 0.8 } } as unknown as Report],
    summary: {},
    panel: [{ charts: {} as never, instances: { pages } as never }],
    stamp,
    ...extra,
  };
}

const T0 = 1_000_000;

describe('keepable: what a closed tab leaves behind', () => {
  it('keeps a complete result with its pages, counted in bytes, and drops the pending-intervals mark once they arrived', () => {
    const r = result(2500, { intervalsPending: 200 });
    expect(panelBytes(r)).toBe(2500 * 8 * 2);
    const kept = keepable('/w/a.test_predictions.csv', 'k', r, true, T0) as KeptReport;
    expect(kept).toMatchObject({ path: '/w/a.test_predictions.csv', key: 'k', bytes: 40_000, at: T0 });
    expect(kept.result.intervalsPending).toBeUndefined();
    expect(kept.result.panel).toBe(r.panel);
    expect(kept.result.reports).toBe(r.reports);
  });

  it('keeps nothing incomplete or unsure, and says why', () => {
    expect(keepable('/w/a.csv', 'k', result(10, { intervalsPending: 200 }), false, T0)).toEqual({ not: 'its intervals had not arrived' });
    expect(keepable('/w/a.csv', undefined, result(10), true, T0)).toEqual({ not: 'no scoring options to compare' });
    expect(keepable('/w/a.csv', 'k', result(10, { stamp: undefined }), true, T0)).toEqual({ not: 'the file changed while it was scored' });
    expect(keepable('/w/a.csv', 'k', result(10, { panel: undefined }), true, T0)).toEqual({ not: 'no chart data' });
    expect(keepable('/w/a.csv', 'k', undefined, true, T0)).toEqual({ not: 'nothing shown' });
    expect(keepable('', 'k', result(10), true, T0)).toEqual({ not: 'nothing shown' });
  });

  it('keeps nothing whose instance pages are above KEEP_MAX_BYTES', () => {
    const rows = Math.ceil(KEEP_MAX_BYTES / 16) + 1000;
    const made = keepable('/w/a.csv', 'k', result(rows), true, T0);
    expect(made).toHaveProperty('not');
    expect((made as { not: string }).not).toMatch(/instance pages are \d+ MB/);
  });
});

describe('keptFor: the kept report only while it stands', () => {
  const kept = keepable('/w/a.csv', 'k', result(10), true, T0) as KeptReport;

  it('is handed back for the same path, options and file, within KEEP_MS', () => {
    expect(keptFor(kept, '/w/a.csv', 'k', { ...stamp }, false, T0 + KEEP_MS)).toBe(kept.result);
  });

  it('is not for another path, other options, unsaved edits, or after KEEP_MS', () => {
    expect(keptFor(kept, '/w/b.csv', 'k', stamp, false, T0)).toBeUndefined();
    expect(keptFor(kept, '/w/a.csv', 'other', stamp, false, T0)).toBeUndefined();
    expect(keptFor(kept, '/w/a.csv', undefined, stamp, false, T0)).toBeUndefined();
    expect(keptFor(kept, '/w/a.csv', 'k', stamp, true, T0)).toBeUndefined();
    expect(keptFor(kept, '/w/a.csv', 'k', stamp, false, T0 + KEEP_MS + 1)).toBeUndefined();
    expect(keptFor(undefined, '/w/a.csv', 'k', stamp, false, T0)).toBeUndefined();
  });

  it('is not once the file changed (mtime or size) or cannot be read', () => {
    expect(keptFor(kept, '/w/a.csv', 'k', { ...stamp, mtime: stamp.mtime + 1 }, false, T0)).toBeUndefined();
    expect(keptFor(kept, '/w/a.csv', 'k', { ...stamp, size: stamp.size - 1 }, false, T0)).toBeUndefined();
    expect(keptFor(kept, '/w/a.csv', 'k', undefined, false, T0)).toBeUndefined();
  });
});
