// Large reports kept on disk across reloads (src/extension/report/storedReports.ts, issue 28.11): a
// report written reads back whole (its typed instance columns byte for byte), and only for the
// same path, scoring options, file stamp and extension build, with no unsaved edits; small or
// incomplete reports are not written; the newest STORED_MAX stay; a file that is not a stored
// report (cut short, another build's) is ignored. On a real report: a folktexts-shaped set scored
// by the core with its instances encoded as the panel's pages (the worker's 'panel' detail).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoredReports, STORED_MAX } from '../../src/extension/report/storedReports';
import { keepable, type KeptReport } from '../../src/extension/report/keptReport';
import type { PanelScoreResult } from '../../src/extension/report/panelModel';
import type { Report } from '../../src/core/types';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
function freshDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'eval-lens-stored-'));
  dirs.push(d);
  return join(d, 'reports');
}

const stamp = { mtime: 1_764_000_000_123.25, size: 19_220_718 };
const KEY = '{"bins":10,"bootstrap":200}';

/** A complete panel result of `rows` rows: a report with intervals, chart data and one page of typed columns. */
function result(path: string, rows: number): PanelScoreResult {
  const value = new Float64Array(rows);
  const label = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    value[i] = ((i * 7919) % 10_007) / 10_007;
    label[i] = i % 3 === 0 ? 1 : 0;
  }
  const report = { path, n: rows, kind: 'binary', skipped: 0, metrics: { accuracy: 0.71, ece: 0.0423 }, intervals: { ece: [0.04, 0.045] }, options: { bootstrap: 200 } } as unknown as Report;
  return {
    reports: [report],
    summary: {},
    stamp,
    panel: [{ charts: { histogram: { edges: [0, 0.5, 1], counts: [rows - 5, 5] } } as never, instances: { scheme: { columns: ['value', 'label'] }, pages: [{ index: 0, offset: 0, count: rows, data: { value, label } }] } as never }],
  };
}

function kept(path: string, rows = 300_000): KeptReport {
  const k = keepable(path, KEY, result(path, rows), true, 1_764_000_100_000);
  if ('not' in k) throw new Error(k.not);
  return k;
}

describe('large reports kept on disk across reloads', () => {
  it('reads back the report written, typed columns and all, for the same path, options, stamp and build', async () => {
    const dir = freshDir();
    const store = new StoredReports(dir, 'build-1', 1);
    const written = kept('/w/big.test_predictions.csv');
    expect(await store.save(written)).toBe(true);
    // A new window: another object over the same folder.
    const again = await new StoredReports(dir, 'build-1', 1).load('/w/big.test_predictions.csv', KEY, { ...stamp }, false);
    expect(again).toBeDefined();
    expect(again!.result.reports).toEqual(written.result.reports);
    const page = (again!.result.panel![0].instances as unknown as { pages: { data: { value: Float64Array; label: Uint8Array } }[] }).pages[0];
    const source = (written.result.panel![0].instances as unknown as { pages: { data: { value: Float64Array; label: Uint8Array } }[] }).pages[0];
    expect(page.data.value).toBeInstanceOf(Float64Array);
    expect(Buffer.from(page.data.value.buffer, page.data.value.byteOffset, page.data.value.byteLength).equals(Buffer.from(source.data.value.buffer))).toBe(true);
    expect(Array.from(page.data.label.slice(0, 7))).toEqual([1, 0, 0, 1, 0, 0, 1]);
    expect(again!.bytes).toBe(written.bytes);
    // Each column in a buffer of its own: a view into the whole file's buffer would travel to the
    // webview with all of it (postMessage), once per column and page.
    for (const a of [page.data.value, page.data.label]) expect(a.buffer.byteLength).toBe(a.byteLength);
  });

  it('is not used for another stamp, other options, unsaved edits, another build or another path', async () => {
    const dir = freshDir();
    const store = new StoredReports(dir, 'build-1', 1);
    await store.save(kept('/w/a.csv'));
    const path = '/w/a.csv';
    expect(await store.load(path, KEY, { ...stamp, mtime: stamp.mtime + 1 }, false)).toBeUndefined();
    expect(await store.load(path, KEY, { ...stamp, size: stamp.size - 1 }, false)).toBeUndefined();
    expect(await store.load(path, KEY, undefined, false)).toBeUndefined();
    expect(await store.load(path, '{"bins":15,"bootstrap":200}', stamp, false)).toBeUndefined();
    expect(await store.load(path, undefined, stamp, false)).toBeUndefined();
    expect(await store.load(path, KEY, stamp, true)).toBeUndefined();
    expect(await new StoredReports(dir, 'build-2', 1).load(path, KEY, stamp, false)).toBeUndefined();
    expect(await store.load('/w/b.csv', KEY, stamp, false)).toBeUndefined();
    expect(await store.load(path, KEY, stamp, false)).toBeDefined();
    await store.forget(path);
    expect(await store.load(path, KEY, stamp, false)).toBeUndefined();
  });

  it('writes no report smaller than its threshold nor one still waiting for its intervals', async () => {
    const dir = freshDir();
    const store = new StoredReports(dir, 'build-1', 4 * 2 ** 20);
    const small = kept('/w/small.csv', 1000);
    expect(await store.save(small)).toBe(false);
    const pending = kept('/w/pending.csv');
    expect(await store.save({ ...pending, result: { ...pending.result, intervalsPending: 200 } })).toBe(false);
    expect(await store.load('/w/small.csv', KEY, stamp, false)).toBeUndefined();
    expect(await store.save(kept('/w/large.csv', 600_000))).toBe(true);
    // The report, and the small head saying what it stands for.
    expect(readdirSync(dir).sort().map((n) => n.replace(/^[0-9a-f]+/, ''))).toEqual(['.head.json', '.report']);
  });

  it('keeps the newest reports only, one per file', async () => {
    const dir = freshDir();
    const store = new StoredReports(dir, 'build-1', 1);
    for (let k = 0; k <= STORED_MAX; k++) {
      await store.save(kept(`/w/f${k}.csv`, 1000));
      await new Promise((r) => setTimeout(r, 20)); // distinct mtimes for the order
    }
    // The same report again: not written a second time.
    const writes = store.counts.saved;
    expect(await store.save(kept(`/w/f${STORED_MAX}.csv`, 1000))).toBe(false);
    expect(store.counts.saved).toBe(writes);
    await store.save({ ...kept('/w/f1.csv', 1000), key: '{"bins":15}' }); // other options: written, now the newest
    await store.save(kept('/w/f1.csv', 1000)); // written again: now the newest
    expect(readdirSync(dir).filter((n) => n.endsWith('.report'))).toHaveLength(STORED_MAX);
    expect(readdirSync(dir).filter((n) => n.endsWith('.head.json'))).toHaveLength(STORED_MAX);
    expect(await store.load('/w/f0.csv', KEY, stamp, false)).toBeUndefined();
    expect(await store.load('/w/f1.csv', KEY, stamp, false)).toBeDefined();
    expect(await store.load(`/w/f${STORED_MAX}.csv`, KEY, stamp, false)).toBeDefined();
  });

  it('ignores a stored file cut short or not of this format', async () => {
    const dir = freshDir();
    const store = new StoredReports(dir, 'build-1', 1);
    await store.save(kept('/w/a.csv', 1000));
    const name = readdirSync(dir).find((n) => n.endsWith('.report'))!;
    writeFileSync(join(dir, name), Buffer.from([0xff, 0x0f, 0x6f, 0x22]));
    expect(await store.load('/w/a.csv', KEY, stamp, false)).toBeUndefined();
    writeFileSync(join(dir, name), JSON.stringify({ format: 1 }));
    expect(await store.load('/w/a.csv', KEY, stamp, false)).toBeUndefined();
    expect(store.counts.loaded).toBe(0);
    // A report whose head was never written (the write stopped between the two) is not used.
    await store.save(kept('/w/b.csv', 1000));
    expect(await store.load('/w/b.csv', KEY, stamp, false)).toBeDefined();
    rmSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.head.json') && !n.startsWith(name.slice(0, 32)))!));
    expect(await store.load('/w/b.csv', KEY, stamp, false)).toBeUndefined();
  });
});
