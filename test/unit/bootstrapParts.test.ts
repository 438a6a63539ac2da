// A bootstrap split between threads (src/core/bootstrapParts.ts, issue 28 point 11): shares of the
// resamples, scored apart and merged, give exactly the intervals (and the smoothed curve's band) of
// the single pass: the same draws, the same values, the same percentiles.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootstrapPartRange, mergeBootstrapParts } from '../../src/core/bootstrapParts';
import { scorePathAsync } from '../../src/core/scoreAsync';
import { bootstrapCountIntervals, bootstrapCountSamples, CountDraws, percentileIntervals } from '../../src/core/metrics/bootstrap';
import type { Report, ScoreOptions } from '../../src/core/types';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-bootstrap-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folktexts file whose scores tie often (ties straddle bins) and whose labels follow them. */
function folktexts(rows: number): string {
  const path = join(dir, `m${rows}.test_predictions.csv`);
  const lines = Array.from({ length: rows }, (_, i) => {
    const s = ((i * 7919) % 1000) / 999;
    return `${i},${s.toFixed(3)},${((i * 104729) % 1000) / 1000 < s ? 1 : 0}`;
  });
  writeFileSync(path, `,risk_score,label\n${lines.join('\n')}\n`);
  return path;
}

const MMLU = join(__dirname, '..', 'fixtures', 'generic-tables', 'mmlu_pro_eval_all.csv');

async function whole(path: string, o: Partial<ScoreOptions>): Promise<Report> {
  return (await scorePathAsync(path, o)).reports[0];
}

async function split(path: string, o: Partial<ScoreOptions>, count: number): Promise<Report> {
  const parts: Report[] = [];
  for (let index = 0; index < count; index++) parts.push((await scorePathAsync(path, { ...o, bootstrapPart: { index, count } })).reports[0]);
  return mergeBootstrapParts(parts);
}

describe('bootstrap shares', () => {
  it('ranges are side by side and cover every resample', () => {
    for (const [r, c] of [[200, 2], [201, 2], [7, 3], [1, 4], [1000, 7]]) {
      const ranges = Array.from({ length: c }, (_, index) => bootstrapPartRange(r, { index, count: c }));
      expect(ranges[0][0]).toBe(0);
      expect(ranges.at(-1)![1]).toBe(r);
      for (let k = 1; k < c; k++) expect(ranges[k][0]).toBe(ranges[k - 1][1]);
    }
    expect(() => bootstrapPartRange(10, { index: 2, count: 2 })).toThrow(RangeError);
  });

  it('a span of parts is their resamples together', () => {
    for (const [r, c] of [[200, 4], [201, 8], [7, 3]]) {
      for (let index = 0; index < c; index++) {
        for (let span = 1; index + span <= c; span++) {
          expect(bootstrapPartRange(r, { index, count: c, span })).toEqual([bootstrapPartRange(r, { index, count: c })[0], bootstrapPartRange(r, { index: index + span - 1, count: c })[1]]);
        }
      }
    }
    expect(() => bootstrapPartRange(10, { index: 2, count: 4, span: 3 })).toThrow(RangeError);
    expect(() => bootstrapPartRange(10, { index: 0, count: 4, span: 0 })).toThrow(RangeError);
  });

  it('CountDraws started at a resample draws what the single sequence draws there', () => {
    const n = 1234;
    const single = new CountDraws(n, 42);
    const seen: number[][] = [];
    for (let r = 0; r < 5; r++) seen.push(Array.from(single.next()));
    const late = new CountDraws(n, 42, 3);
    expect(Array.from(late.next())).toEqual(seen[3]);
    expect(Array.from(late.next())).toEqual(seen[4]);
  });

  it('the shares\' values joined in order are the single pass\'s', () => {
    const compute = (w: ArrayLike<number>) => ({ first: w[0], odd: w[1] % 2 ? w[1] : null });
    const all = bootstrapCountSamples(300, 0, 40, 7, compute);
    const joined = [bootstrapCountSamples(300, 0, 13, 7, compute), bootstrapCountSamples(300, 13, 40, 7, compute)];
    expect({ first: [...joined[0].first, ...joined[1].first], odd: [...joined[0].odd, ...joined[1].odd] }).toEqual(all);
    expect(percentileIntervals(all)).toEqual(bootstrapCountIntervals(300, 40, 7, compute));
  });

  it('a binary file: the merged intervals and smoothed band equal the single pass\'s, in 2 and 3 shares', async () => {
    const path = folktexts(3000);
    const o = { bootstrap: 60, seed: 3 };
    const single = await whole(path, o);
    expect(Object.keys(single.intervals).length).toBeGreaterThan(10);
    expect(single.smoothReliability?.lower?.length).toBeGreaterThan(10);
    for (const count of [2, 3]) {
      const merged = await split(path, o, count);
      expect(merged.intervals).toEqual(single.intervals);
      expect(merged.smoothReliability).toEqual(single.smoothReliability);
      expect(merged.metrics).toEqual(single.metrics);
      expect(merged.bootstrapPart).toBeUndefined();
    }
  });

  it('shares of several parts each (parts made ahead, the rest at a click) merge to the single pass (issue 28.11)', async () => {
    const path = folktexts(3000);
    const o = { bootstrap: 60, seed: 3 };
    const single = await whole(path, o);
    const share = async (index: number, span: number) => (await scorePathAsync(path, { ...o, bootstrapPart: { index, count: 8, span } })).reports[0];
    // Parts 0 and 1 one by one (made ahead), then 2-4 and 5-7 (the click's two workers).
    const merged = mergeBootstrapParts([await share(0, 1), await share(1, 1), await share(2, 3), await share(5, 3)]);
    expect(merged.intervals).toEqual(single.intervals);
    expect(merged.smoothReliability).toEqual(single.smoothReliability);
    expect(merged.metrics).toEqual(single.metrics);
    // A part missing, or two shares over the same parts: refused, not merged into wrong intervals.
    const first = await share(0, 2);
    const gap = await share(5, 3);
    const overlap = await share(1, 7);
    expect(() => mergeBootstrapParts([first, gap])).toThrow(RangeError);
    expect(() => mergeBootstrapParts([first, overlap])).toThrow(RangeError);
    const rest = await share(2, 6);
    expect(mergeBootstrapParts([first, rest]).intervals).toEqual(single.intervals);
  });

  it('a multiclass table with a stated confidence: equal too', async () => {
    const o = { bootstrap: 40, seed: 11 };
    const single = await whole(MMLU, o);
    expect(single.kind).toBe('multiclass');
    const merged = await split(MMLU, o, 2);
    expect(merged.intervals).toEqual(single.intervals);
    expect(merged.smoothReliability).toEqual(single.smoothReliability);
  });

  it('intervals another method gives (--interval t) are kept as they are, the bootstrap\'s are merged', async () => {
    const path = folktexts(2000);
    const o: Partial<ScoreOptions> = { bootstrap: 40, interval: 't' };
    const single = await whole(path, o);
    const merged = await split(path, o, 2);
    expect(merged.intervals).toEqual(single.intervals);
    expect(merged.interval_method).toBe(single.interval_method);
  });

  it('a later share computes its resamples only, not the report the first share gives the merge (issue 28.11)', async () => {
    const path = folktexts(3000);
    const later = (await scorePathAsync(path, { bootstrap: 60, seed: 3, bootstrapPart: { index: 1, count: 2 } })).reports[0];
    expect(later.bootstrapPart?.lists.auc).toHaveLength(30);
    expect(later.bootstrapPart?.curves).toHaveLength(30);
    expect(later.metrics).toEqual({});
    expect(later.bins).toBeNull();
    expect(later.roc).toBeNull();
    expect(later.instances).toBeNull();
  });

  it('a share alone is not the whole: its intervals differ from the merged ones', async () => {
    const path = folktexts(3000);
    const share = (await scorePathAsync(path, { bootstrap: 60, seed: 3, bootstrapPart: { index: 0, count: 2 } })).reports[0];
    expect(share.bootstrapPart?.lists.auc).toHaveLength(30);
    expect(share.intervals.auc).not.toEqual((await whole(path, { bootstrap: 60, seed: 3 })).intervals.auc);
  });
});
