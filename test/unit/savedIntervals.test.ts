// Intervals kept across window reloads (src/extension/report/savedIntervals.ts, issue 28.11): used
// only for the file at the same mtime and size, the same options, the same joined data file and the
// same scoring code, beside a first pass of the same figures to the last bit; the newest few kept,
// an older stamp of the same file replaced, an entry too large for the store never written. Real
// reports and intervals (a folktexts-shaped set scored by the core with 50 resamples), through a
// store that serialises its values as VS Code's Memento does (JSON).
import { describe, expect, it } from 'vitest';
import { scoreInput } from '../../src/core/score';
import { textInput } from '../../src/core/formats/context';
import { reportIntervals } from '../../src/extension/report/panelModel';
import {
  SAVED_ENTRY_MAX_CHARS, SAVED_INTERVALS_KEY, SAVED_INTERVALS_MAX, SavedIntervals, type IntervalsOrigin, type KeyValueStore,
} from '../../src/extension/report/savedIntervals';
import type { Report } from '../../src/core/types';

/** A Memento's behaviour: values go through JSON on the way in. */
class JsonStore implements KeyValueStore {
  readonly values = new Map<string, string>();
  writes = 0;
  get<T>(key: string): T | undefined {
    const v = this.values.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

function folktexts(rows: number, seed: number): string {
  let a = seed;
  const rand = () => ((a = (a * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const lines = [',risk_score,label'];
  for (let i = 0; i < rows; i++) {
    const s = rand();
    lines.push(`${1000 + i},${s.toFixed(6)},${rand() < s ? 1 : 0}`);
  }
  return lines.join('\n');
}

function scored(text: string, bootstrap: number): Report {
  return scoreInput(textInput('/w/a.test_predictions.csv', text), { bootstrap, instances: false });
}

const text = folktexts(400, 7);
const first = scored(text, 0);
const full = scored(text, 50);
const intervals = reportIntervals([full]);
const origin: IntervalsOrigin = { path: '/w/a.test_predictions.csv', stamp: { mtime: 1_764_000_000_123.25, size: 9_876 }, options: '{"bins":10,"bootstrap":50}' };

describe('intervals kept across reloads', () => {
  it('hands back the intervals made for the same file, options and figures, exactly as they were made', () => {
    expect(Object.keys(full.intervals).length).toBeGreaterThan(10);
    const store = new JsonStore();
    expect(new SavedIntervals(store, 'code-1').save(origin, [first], intervals)).toBe(true);
    // A new window: a new object over the same store.
    const saved = new SavedIntervals(store, 'code-1');
    const kept = saved.get({ ...origin, stamp: { ...origin.stamp } }, [scored(text, 0)]);
    expect(kept).toEqual(intervals);
    expect(kept![0].intervals.auc).toEqual(full.intervals.auc);
    expect(kept![0].smoothBand?.lower).toEqual(full.smoothReliability?.lower);
    expect(saved.counts.used).toBe(1);
  });

  it('is not used for another stamp, other options, another build of the scoring code or a changed data file', () => {
    const store = new JsonStore();
    const withData: IntervalsOrigin = { ...origin, data: { path: '/w/data.csv', stamp: { mtime: 5, size: 10 } } };
    const saved = new SavedIntervals(store, 'code-1');
    saved.save(origin, [first], intervals);
    saved.save({ ...withData, path: '/w/b.csv' }, [first], intervals);
    expect(saved.get({ ...origin, stamp: { ...origin.stamp, mtime: origin.stamp.mtime + 1 } }, [first])).toBeUndefined();
    expect(saved.get({ ...origin, stamp: { ...origin.stamp, size: origin.stamp.size + 1 } }, [first])).toBeUndefined();
    expect(saved.get({ ...origin, options: '{"bins":10,"bootstrap":200}' }, [first])).toBeUndefined();
    expect(new SavedIntervals(store, 'code-2').get(origin, [first])).toBeUndefined();
    expect(saved.get({ ...withData, path: '/w/b.csv', data: { path: '/w/data.csv', stamp: { mtime: 6, size: 10 } } }, [first])).toBeUndefined();
    expect(saved.get({ ...withData, path: '/w/b.csv', data: { path: '/w/data.csv', stamp: undefined } }, [first])).toBeUndefined();
    // The same ones are.
    expect(saved.get({ ...withData, path: '/w/b.csv' }, [first])).toEqual(intervals);
    expect(saved.get(origin, [first])).toEqual(intervals);
  });

  it('is not used beside a first pass of other figures: another file within the same mtime and size, to the last bit', () => {
    const store = new JsonStore();
    const saved = new SavedIntervals(store, 'code-1');
    saved.save(origin, [first], intervals);
    const other = scored(folktexts(400, 8), 0);
    expect(other.n).toBe(first.n);
    expect(saved.get(origin, [other])).toBeUndefined();
    const nudged = { ...first, metrics: { ...first.metrics, brier: first.metrics.brier! + 2 ** -52 * first.metrics.brier! } };
    expect(nudged.metrics.brier).not.toBe(first.metrics.brier);
    expect(saved.get(origin, [nudged as Report])).toBeUndefined();
    expect(saved.get(origin, [first, first])).toBeUndefined();
    expect(saved.counts.used).toBe(0);
  });

  it('keeps the most recently used entries, one per file, options and code', () => {
    const store = new JsonStore();
    const saved = new SavedIntervals(store, 'code-1');
    const at = (k: number): IntervalsOrigin => ({ ...origin, path: `/w/f${k}.csv` });
    for (let k = 0; k < SAVED_INTERVALS_MAX; k++) saved.save(at(k), [first], intervals);
    // Used now: it outlives the ones saved after it but not used since.
    expect(saved.get(at(0), [first])).toBeDefined();
    saved.save(at(SAVED_INTERVALS_MAX), [first], intervals);
    expect(saved.get(at(0), [first])).toBeDefined();
    expect(saved.get(at(1), [first])).toBeUndefined();
    expect(store.get<unknown[]>(SAVED_INTERVALS_KEY)).toHaveLength(SAVED_INTERVALS_MAX);
    // The file rewritten: its new intervals replace the old ones, which can no longer be used.
    const newer = { ...at(0), stamp: { mtime: origin.stamp.mtime + 60_000, size: origin.stamp.size } };
    saved.save(newer, [first], intervals);
    expect(store.get<unknown[]>(SAVED_INTERVALS_KEY)).toHaveLength(SAVED_INTERVALS_MAX);
    expect(saved.get(at(0), [first])).toBeUndefined();
    expect(saved.get(newer, [first])).toEqual(intervals);
  });

  it('writes no entry too large for a store loaded whole at start-up, and reads past junk in it', () => {
    const store = new JsonStore();
    const saved = new SavedIntervals(store, 'code-1');
    const many = [{ ...intervals[0], groupIntervals: Array.from({ length: 4000 }, () => full.intervals) }];
    expect(JSON.stringify(many).length).toBeGreaterThan(SAVED_ENTRY_MAX_CHARS);
    expect(saved.save(origin, [first], many)).toBe(false);
    expect(store.writes).toBe(0);
    expect(saved.get(origin, [first])).toBeUndefined();
    expect(saved.save(origin, [first], [])).toBe(false);
    store.values.set(SAVED_INTERVALS_KEY, JSON.stringify({ not: 'a list' }));
    expect(saved.get(origin, [first])).toBeUndefined();
    store.values.set(SAVED_INTERVALS_KEY, JSON.stringify([null, 3, { key: 1 }]));
    expect(saved.save(origin, [first], intervals)).toBe(true);
    expect(store.get<unknown[]>(SAVED_INTERVALS_KEY)).toHaveLength(1);
    expect(saved.get(origin, [first])).toEqual(intervals);
  });
});
