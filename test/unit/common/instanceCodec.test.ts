// The per-instance wire format between the extension host and the report webview (src/common/instanceCodec.ts):
// every report of every fixture format, and synthetic columns that defeat each rule, must come back
// exactly (NaN included) however the pages are cut and in whatever order they arrive.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeCompanionReader, scorePath } from '../../../src/core/index';
import type { InstanceColumns, Report } from '../../../src/core/types';
import { encodeInstances, InstanceAssembler, INSTANCE_COLUMNS, STORED_BYTES, type InstancePayload } from '../../../src/common/instanceCodec';
import { hasInstanceIds, instanceId } from '../../../src/common/instanceIds';

const WORKSPACE = join(__dirname, '..', '..', 'fixtures', 'workspace');

function roundTrip(payload: InstancePayload, shuffle = false) {
  // Through structured clone, as postMessage does.
  const pages = payload.pages.map((p) => structuredClone(p));
  if (shuffle) pages.reverse();
  const asm = new InstanceAssembler(structuredClone(payload.scheme));
  for (const p of pages) {
    expect(asm.complete).toBe(false);
    expect(asm.add(p)).toBe(true);
  }
  expect(asm.complete).toBe(true);
  return asm.decode();
}

function expectSameColumns(got: InstanceColumns, want: InstanceColumns): void {
  for (const name of INSTANCE_COLUMNS) {
    expect(got[name].constructor, name).toBe(want[name].constructor);
    expect(Array.from(got[name]), name).toEqual(Array.from(want[name]));
  }
  // The same IDs, however each side holds them (integer IDs travel and stay as numbers).
  const idsOf = (c: InstanceColumns) => (hasInstanceIds(c) ? Array.from({ length: c.lines.length }, (_, i) => instanceId(c, i)) : undefined);
  expect(idsOf(got)).toEqual(idsOf(want));
}

function reportsOf(rel: string, format?: string): Report[] {
  return scorePath(join(WORKSPACE, rel), { format: format as never, raftData: join(WORKSPACE, 'raft-data') }, nodeCompanionReader).reports;
}

describe('instance pages', () => {
  const cases: [string, string?][] = [
    ['folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv'],
    ['bad/bad_rows.test_predictions.csv'],
    ['raft-run', 'raft'],
    ['almanacs/advanced_ai_risk.predictions.jsonl'],
    ['lm-eval/toy-model/samples_toy_colours_2025-01-01T00-00-00.000000.jsonl'],
    ['generic/qa_confidence.csv'],
  ];
  for (const [rel, format] of cases) {
    it(`round-trips every report of ${rel}`, () => {
      const reports = reportsOf(rel, format);
      expect(reports.length).toBeGreaterThan(0);
      for (const r of reports) {
        expect(r.instances).toBeTruthy();
        for (const pageBytes of [64, 1 << 20]) {
          const payload = encodeInstances({ instances: r.instances!, texts: r.texts, dataLines: r.dataLines, threshold: r.options.threshold }, pageBytes);
          const out = roundTrip(payload, pageBytes === 64);
          expectSameColumns(out.instances, r.instances!);
          expect(out.texts).toEqual(r.texts?.fields.length ? r.texts : undefined);
          if (r.dataLines) expect(Array.from(out.dataLines!)).toEqual(Array.from(r.dataLines));
        }
      }
    });
  }

  it('sends a binary report in 11 bytes a row (score, label, two bin indices)', () => {
    const r = reportsOf('folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv')[0];
    const { scheme } = encodeInstances({ instances: r.instances!, threshold: r.options.threshold });
    const stored = Object.entries(scheme.columns).filter(([, c]) => c.kind === 'stored') as [string, { kind: 'stored'; type: keyof typeof STORED_BYTES }][];
    expect(stored.map(([k]) => k).sort()).toEqual(['bin', 'binQuantile', 'gold', 'value']);
    expect(stored.reduce((s, [, c]) => s + STORED_BYTES[c.type], 0)).toBe(11);
    expect(scheme.columns.lines.kind).toBe('seq');
    expect(scheme.columns.confidence.kind).toBe('foldHalf');
    expect(scheme.columns.pred).toEqual({ kind: 'threshold', at: 0.5 });
    expect(scheme.columns.correct.kind).toBe('agree');
    expect(scheme.columns.brier.kind).toBe('squaredError');
  });

  it('falls back to stored columns when no rule holds, and keeps NaN, -0, big and negative numbers', () => {
    const n = 1000;
    const f = (g: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => g(i));
    const inst: InstanceColumns = {
      lines: Uint32Array.from({ length: n }, (_, i) => (i * i) % 4_000_000_007),
      value: f((i) => (i % 7 === 0 ? NaN : i % 11 === 0 ? -0 : Math.sin(i))),
      target: f((i) => (i % 5 === 0 ? NaN : i / 3)),
      confidence: f((i) => (i % 3 === 0 ? 0.25 : Math.cos(i))),
      correct: Uint8Array.from({ length: n }, (_, i) => (i * 13) % 2),
      bin: Int16Array.from({ length: n }, (_, i) => (i % 900) - 1),
      binQuantile: Int16Array.from({ length: n }, (_, i) => -(i % 30000)),
      brier: f((i) => i * 1e300),
      gold: Int32Array.from({ length: n }, (_, i) => i * 2_000_000 - 1e9),
      pred: Int32Array.from({ length: n }, (_, i) => (i % 300) - 1),
      ids: Array.from({ length: n }, (_, i) => (i % 2 ? `id-${i}` : `0${i}`)),
    };
    const payload = encodeInstances({ instances: inst, threshold: 0.5 }, 4096);
    expect(payload.pages.length).toBeGreaterThan(3);
    expect(payload.scheme.ids).toEqual({ kind: 'strings' });
    const out = roundTrip(payload, true);
    expectSameColumns(out.instances, inst);
    expect(Object.is(out.instances.value[11], -0)).toBe(true);
  });

  it('sends integer ids as numbers and an empty report as one empty page', () => {
    const n = 3;
    const inst: InstanceColumns = {
      lines: new Uint32Array([2, 3, 5]), value: new Float64Array([0.1, 0.9, 0.5]), target: new Float64Array([0, 1, 1]),
      confidence: new Float64Array([0.9, 0.9, 0.5]), correct: new Uint8Array([1, 1, 1]), bin: new Int16Array([1, 9, 5]),
      binQuantile: new Int16Array([0, 2, 1]), brier: new Float64Array([0.01, 0.01, 0.25]), gold: new Int32Array([0, 1, 1]),
      pred: new Int32Array([0, 1, 1]), ids: ['7', '8', '9'],
    };
    const payload = encodeInstances({ instances: inst, threshold: 0.5 });
    expect(payload.scheme.ids).toEqual({ kind: 'seq', start: 7, step: 1 });
    const back = roundTrip(payload).instances;
    expect(back.ids).toBeUndefined();
    expect(Array.from(back.idNumbers!)).toEqual([7, 8, 9]);
    expect([0, 1, 2].map((i) => instanceId(back, i))).toEqual(['7', '8', '9']);
    const empty = encodeInstances({ instances: { ...inst, lines: new Uint32Array(0), value: new Float64Array(0), target: new Float64Array(0), confidence: new Float64Array(0), correct: new Uint8Array(0), bin: new Int16Array(0), binQuantile: new Int16Array(0), brier: new Float64Array(0), gold: new Int32Array(0), pred: new Int32Array(0), ids: undefined }, threshold: 0.5 });
    expect(empty.pages.length).toBe(1);
    expect(roundTrip(empty).instances.lines.length).toBe(n - 3);
  });

  it('ignores pages that do not fit the scheme', () => {
    const r = reportsOf('folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv')[0];
    const payload = encodeInstances({ instances: r.instances!, threshold: 0.5 }, 256);
    const asm = new InstanceAssembler(payload.scheme);
    const p = payload.pages[0];
    expect(asm.add({ ...p, count: p.count + 1 })).toBe(false);
    expect(asm.add({ ...p, index: 99 })).toBe(false);
    expect(asm.add({ ...p, data: {} })).toBe(false);
    expect(asm.add({ ...p, offset: r.n })).toBe(false);
    expect(asm.add(p)).toBe(true);
    expect(asm.add(p)).toBe(false); // twice
  });
});
