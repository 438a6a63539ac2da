// Reports made ahead for the newest large files (src/extension/report/preparedReports.ts, issue 28
// point 11): which files, when a pass stands for the file (same options, same mtime and size, no
// unsaved edits), used once, a pass being made waited for only when a worker runs it, its intervals
// made after it and handed out with it, and everything stopped when it is no longer wanted.
import { describe, expect, it, vi } from 'vitest';
import { choosePrepared, PreparedReports, type IntervalsRun, type PrepareRun } from '../../src/extension/report/preparedReports';
import { KEEP_MAX_BYTES } from '../../src/extension/report/keptReport';
import type { PanelScoreResult } from '../../src/extension/report/panelModel';
import type { Report } from '../../src/core/types';

const stamp = { mtime: 1_700_000_000_123.5, size: 18_300_000 };
const PATH = '/w/big.test_predictions.csv';
const KEY = '{"bins":10,"bootstrap":0}';
const IKEY = '{"bins":10,"bootstrap":200}';

function result(extra: Partial<PanelScoreResult> = {}, rows = 10): PanelScoreResult {
  return {
    reports: [{ path: PATH, n: rows, metrics: { accuracy: 0.8 } } as unknown as Report],
    summary: {},
    panel: [{ charts: {} as never, instances: { pages: [{ index: 0, offset: 0, count: rows, data: { value: new Float64Array(rows) } }] } as never }],
    stamp,
    ...extra,
  };
}

/** A run settled by hand: what the worker pool gives ReportScoring.prepare. */
function manualRun(startNow = true) {
  let resolve!: (r: PanelScoreResult) => void;
  let reject!: (e: unknown) => void;
  let signal!: AbortSignal;
  let start!: () => void;
  const run: PrepareRun = (s, onStart) => {
    signal = s;
    start = onStart;
    if (startNow) onStart();
    return new Promise<PanelScoreResult>((res, rej) => { resolve = res; reject = rej; });
  };
  return { run, resolve: (r: PanelScoreResult) => resolve(r), reject: (e: unknown) => reject(e), signal: () => signal, start: () => start() };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('choosePrepared: the newest files', () => {
  it('takes the newest by mtime, ties by path, at most the count', () => {
    const files = [
      { path: '/w/a.csv', mtime: 10, size: 1 },
      { path: '/w/d.csv', mtime: 30, size: 1 },
      { path: '/w/c.csv', mtime: 20, size: 1 },
      { path: '/w/b.csv', mtime: 30, size: 1 },
    ];
    expect(choosePrepared(files, 2)).toEqual(['/w/b.csv', '/w/d.csv']);
    expect(choosePrepared(files, 3)).toEqual(['/w/b.csv', '/w/d.csv', '/w/c.csv']);
    expect(choosePrepared([], 2)).toEqual([]);
    // The input is not reordered.
    expect(files.map((f) => f.path)).toEqual(['/w/a.csv', '/w/d.csv', '/w/c.csv', '/w/b.csv']);
  });
});

describe('PreparedReports', () => {
  it('a pass made is handed out once, for the same options and the same file', async () => {
    const store = new PreparedReports();
    const m = manualRun();
    const made = result();
    const done = store.start(PATH, KEY, m.run);
    expect(store.has(PATH, KEY, stamp)).toBe(true);
    m.resolve(made);
    expect(await done).toBe(made);
    await flush();
    expect(store.has(PATH, KEY, stamp)).toBe(true);
    expect(store.has(PATH, KEY, { ...stamp, size: stamp.size + 1 })).toBe(false);
    expect(store.has(PATH, 'other', stamp)).toBe(false);
    expect(await store.take(PATH, KEY, IKEY, () => stamp, false)).toEqual({ result: made, withIntervals: false });
    // Used: the panel holds it now.
    expect(await store.take(PATH, KEY, IKEY, () => stamp, false)).toBeUndefined();
    expect(store.paths()).toEqual([]);
  });

  it('other options, a changed file, an unreadable file or unsaved edits: not handed out (and dropped)', async () => {
    const cases: [string, () => typeof stamp | undefined, boolean][] = [
      ['other', () => stamp, false],
      [KEY, () => ({ ...stamp, mtime: stamp.mtime + 1 }), false],
      [KEY, () => ({ ...stamp, size: stamp.size - 1 }), false],
      [KEY, () => undefined, false],
      [KEY, () => stamp, true],
    ];
    for (const [key, now, dirty] of cases) {
      const store = new PreparedReports();
      const m = manualRun();
      const done = store.start(PATH, KEY, m.run);
      m.resolve(result());
      await done;
      await flush();
      expect(await store.take(PATH, key, IKEY, now, dirty)).toBeUndefined();
      expect(store.paths()).toEqual([]);
    }
  });

  it('a pass a worker is making is waited for; one still queued is stopped and not waited for', async () => {
    const store = new PreparedReports();
    const started = manualRun(true);
    void store.start(PATH, KEY, started.run);
    const taking = store.take(PATH, KEY, IKEY, () => stamp, false);
    const made = result();
    started.resolve(made);
    expect((await taking)?.result).toBe(made);
    expect(started.signal().aborted).toBe(false);

    const queued = manualRun(false);
    void store.start(PATH, KEY, queued.run);
    expect(await store.take(PATH, KEY, IKEY, () => stamp, false)).toBeUndefined();
    expect(queued.signal().aborted).toBe(true);
    // Its late result is not kept.
    queued.resolve(result());
    await flush();
    expect(store.paths()).toEqual([]);
  });

  it('a pass being made with other options is stopped by the take', async () => {
    const store = new PreparedReports();
    const m = manualRun(true);
    void store.start(PATH, 'old options', m.run);
    expect(await store.take(PATH, KEY, IKEY, () => stamp, false)).toBeUndefined();
    expect(m.signal().aborted).toBe(true);
  });

  it('keeps only what can be kept: a stamp, chart data, pages within KEEP_MAX_BYTES; a failed run keeps nothing', async () => {
    const bad = [result({ stamp: undefined }), result({ panel: undefined }), result({}, KEEP_MAX_BYTES / 8 + 1)];
    for (const r of bad) {
      const store = new PreparedReports();
      const m = manualRun();
      const done = store.start(PATH, KEY, m.run);
      m.resolve(r);
      expect(await done).toBeUndefined();
      await flush();
      expect(store.has(PATH, KEY, stamp)).toBe(false);
    }
    const store = new PreparedReports();
    const m = manualRun();
    const done = store.start(PATH, KEY, m.run);
    m.reject(new Error('the worker failed'));
    expect(await done).toBeUndefined();
    await flush();
    expect(store.paths()).toEqual([]);
  });

  it('forget drops a pass made and stops one being made (a data file joined since)', async () => {
    const store = new PreparedReports();
    const made = manualRun();
    const done = store.start(PATH, KEY, made.run);
    made.resolve(result());
    await done;
    await flush();
    const other = '/w/other.parquet';
    const running = manualRun();
    void store.start(other, KEY, running.run);
    store.forget(PATH);
    store.forget(other);
    expect(running.signal().aborted).toBe(true);
    expect(store.paths()).toEqual([]);
  });

  it('a new start for the same path stops the one running; retain drops and stops the others', async () => {
    const store = new PreparedReports();
    const first = manualRun();
    void store.start(PATH, 'old', first.run);
    const second = manualRun();
    const done = store.start(PATH, KEY, second.run);
    expect(first.signal().aborted).toBe(true);
    first.resolve(result());
    second.resolve(result());
    await done;
    await flush();
    expect(store.has(PATH, KEY, stamp)).toBe(true);
    expect(store.has(PATH, 'old', stamp)).toBe(false);

    const other = '/w/other.parquet';
    const running = manualRun();
    void store.start(other, KEY, running.run);
    expect(store.paths().sort()).toEqual([PATH, other].sort());
    store.retain(new Set([other]));
    expect(store.paths()).toEqual([other]);
    expect(running.signal().aborted).toBe(false);
    store.clear();
    expect(running.signal().aborted).toBe(true);
    expect(store.paths()).toEqual([]);
  });
});

describe('PreparedReports: the intervals made after the first pass', () => {
  /** A store holding a made first pass of PATH. */
  async function withFirstPass(first = result()) {
    const store = new PreparedReports();
    const m = manualRun();
    const done = store.start(PATH, KEY, m.run);
    m.resolve(first);
    await done;
    await flush();
    return store;
  }
  /** An intervals run settled by hand. */
  function intervalsRun() {
    let resolve!: (r: PanelScoreResult | undefined) => void;
    let signal!: AbortSignal;
    let onPart!: Parameters<IntervalsRun>[1];
    const run: IntervalsRun = (s, part) => { signal = s; onPart = part; return new Promise<PanelScoreResult | undefined>((r) => { resolve = r; }); };
    return { run, resolve: (r: PanelScoreResult | undefined) => resolve(r), signal: () => signal, part: (index: number, count: number, made: PanelScoreResult) => onPart(index, count, made) };
  }
  const withBootstrap = () => result({ reports: [{ path: PATH, n: 10, metrics: { accuracy: 0.8 }, intervals: { accuracy: [0.7, 0.9] }, options: { bootstrap: 200 } } as unknown as Report] });

  it('once made, the pass is handed out with its intervals', async () => {
    const store = await withFirstPass();
    const r = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY, r.run);
    expect(store.intervalsRunning(PATH)).toBe(true);
    // Asked again while running: nothing more starts.
    const again = vi.fn(() => Promise.resolve(undefined));
    store.addIntervals(PATH, KEY, IKEY, again);
    expect(again).not.toHaveBeenCalled();
    const full = withBootstrap();
    r.resolve(full);
    await flush();
    expect(store.intervalsRunning(PATH)).toBe(false);
    expect(store.has(PATH, KEY, stamp)).toBe(true);
    expect(await store.take(PATH, KEY, IKEY, () => stamp, false)).toEqual({ result: full, withIntervals: true });
  });

  it('a click while they are made: the first pass alone, and they are stopped', async () => {
    const store = await withFirstPass();
    const r = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY, r.run);
    const taken = await store.take(PATH, KEY, IKEY, () => stamp, false);
    expect(taken?.withIntervals).toBe(false);
    expect(r.signal().aborted).toBe(true);
    r.resolve(withBootstrap());
    await flush();
    expect(store.paths()).toEqual([]);
  });

  it('a click while they are made in parts: the parts made go with the first pass (copied), the rest is stopped (issue 28.11)', async () => {
    const store = await withFirstPass();
    const r = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY, r.run);
    expect(store.partsMade(PATH)).toBe(0);
    const part0 = withBootstrap();
    const part1 = withBootstrap();
    r.part(0, 4, part0);
    r.part(1, 4, part1);
    expect(store.partsMade(PATH)).toBe(2);
    const taken = await store.take(PATH, KEY, IKEY, () => stamp, false);
    expect(taken?.withIntervals).toBe(false);
    expect(taken?.parts?.count).toBe(4);
    expect(taken?.parts?.done[0]).toBe(part0);
    expect(taken?.parts?.done[1]).toBe(part1);
    expect(taken?.parts?.done.filter(Boolean)).toHaveLength(2);
    expect(r.signal().aborted).toBe(true);
    // A part that comes after the take (the worker had it nearly done) changes nothing handed out.
    r.part(2, 4, withBootstrap());
    expect(taken?.parts?.done.filter(Boolean)).toHaveLength(2);
  });

  it('parts are handed out only for the options asked for now, and none before the first is made', async () => {
    const store = await withFirstPass();
    const r = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY, r.run);
    expect((await store.take(PATH, KEY, IKEY, () => stamp, false))?.parts).toBeUndefined();
    const other = await withFirstPass();
    const o = intervalsRun();
    other.addIntervals(PATH, KEY, IKEY, o.run);
    o.part(0, 4, withBootstrap());
    const taken = await other.take(PATH, KEY, '{"bins":10,"bootstrap":1000}', () => stamp, false);
    expect(taken?.withIntervals).toBe(false);
    expect(taken?.parts).toBeUndefined();
    // Intervals made anew (other options): the parts of the old ones are not theirs.
    const third = await withFirstPass();
    const first = intervalsRun();
    third.addIntervals(PATH, KEY, IKEY, first.run);
    first.part(0, 4, withBootstrap());
    const second = intervalsRun();
    third.addIntervals(PATH, KEY, '{"bins":10,"bootstrap":1000}', second.run);
    first.part(1, 4, withBootstrap()); // the stopped run's late part
    expect(third.partsMade(PATH)).toBe(0);
  });

  it('intervals that do not fit (undefined: the file changed) leave the first pass; none for another key or no pass', async () => {
    const store = await withFirstPass();
    const r = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY, r.run);
    r.resolve(undefined);
    await flush();
    expect(await store.take(PATH, KEY, IKEY, () => stamp, false)).toMatchObject({ withIntervals: false });
    const other = await withFirstPass();
    const never = vi.fn(() => Promise.resolve(withBootstrap()));
    other.addIntervals(PATH, 'other options', IKEY, never);
    other.addIntervals('/w/none.csv', KEY, IKEY, never);
    expect(never).not.toHaveBeenCalled();
  });

  it('intervals made with other options (evalLens.bootstrap changed): the first pass alone; new ones take their place', async () => {
    const store = await withFirstPass();
    const r = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY, r.run);
    r.resolve(withBootstrap());
    await flush();
    const IKEY_1000 = '{"bins":10,"bootstrap":1000}';
    // Asked for with 1000 resamples: not the 200 made ahead.
    const peek = await withFirstPass();
    const p = intervalsRun();
    peek.addIntervals(PATH, KEY, IKEY, p.run);
    p.resolve(withBootstrap());
    await flush();
    expect(await peek.take(PATH, KEY, IKEY_1000, () => stamp, false)).toMatchObject({ withIntervals: false });
    // Made anew with the new options: the old ones give way.
    const again = intervalsRun();
    store.addIntervals(PATH, KEY, IKEY_1000, again.run);
    expect(store.withIntervals(PATH)).toBe(false);
    const full = withBootstrap();
    again.resolve(full);
    await flush();
    expect(await store.take(PATH, KEY, IKEY_1000, () => stamp, false)).toEqual({ result: full, withIntervals: true });
  });

  it('retain, clear and a new start for the path stop the intervals being made', async () => {
    for (const stop of [(s: PreparedReports) => s.retain(new Set()), (s: PreparedReports) => s.clear(), (s: PreparedReports) => void s.start(PATH, KEY, manualRun().run)]) {
      const store = await withFirstPass();
      const r = intervalsRun();
      store.addIntervals(PATH, KEY, IKEY, r.run);
      stop(store);
      expect(r.signal().aborted).toBe(true);
    }
  });
});
