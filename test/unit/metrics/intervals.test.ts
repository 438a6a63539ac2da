// The report's bootstrap intervals (buildReport with bootstrap > 0: sorted once, O(n) weighted
// resamples) against the naive path for every kind of set: draw the same indices, gather the
// resample's rows in file order, build a report of them without bootstrap, take its metrics.
import { describe, expect, it } from 'vitest';
import { buildReport, resolveOptions } from '../../../src/core/report';
import { bootstrapIntervals, mulberry32 } from '../../../src/core/metrics/bootstrap';
import { gather } from '../../../src/core/metrics/sort';
import type { ParseResult, PredictionSet, Report } from '../../../src/core/types';

function report(set: PredictionSet, bootstrap: number, seed = 5): Report {
  const parsed: ParseResult = { format: 'generic', set, problems: [], skipped: 0, unlabeled: 0 };
  return buildReport('test', parsed, resolveOptions({ bootstrap, seed, bins: 7, threshold: 0.4, hmrBeta: 2, instances: false }));
}

function gatherSet(set: PredictionSet, idx: Uint32Array): PredictionSet {
  const base = { n: idx.length, lines: gather(set.lines, idx) };
  switch (set.kind) {
    case 'binary': return { ...set, ...base, score: gather(set.score, idx), label: gather(set.label, idx) };
    case 'confidence': return { ...set, ...base, confidence: gather(set.confidence, idx), correct: gather(set.correct, idx) };
    case 'probability': return { ...set, ...base, predProb: gather(set.predProb, idx), goldProb: gather(set.goldProb, idx) };
    case 'scores': return { ...set, ...base };
    case 'multiclass': {
      const k = set.classes.length;
      const probs = set.probs && Float64Array.from({ length: idx.length * k }, (_, j) => set.probs![idx[Math.floor(j / k)] * k + (j % k)]);
      return { ...set, ...base, gold: gather(set.gold, idx), pred: gather(set.pred, idx), probs, confidence: set.confidence && gather(set.confidence, idx) };
    }
  }
}

function checkAgainstNaive(set: PredictionSet, resamples = 40) {
  const seed = 5;
  const full = report(set, resamples, seed);
  const point = report(set, 0).metrics;
  const naive = bootstrapIntervals(set.n, resamples, seed, (idx) => {
    const rows = idx.slice().sort(); // the resample in file order: ties keep file order
    return report(gatherSet(set, rows), 0).metrics as Record<string, number | null>;
  });
  // Every metric the report shows gets an interval, and nothing else.
  // ece_scaled alone has no interval: its min-max scaling moves with each resample's extremes.
  const shown = Object.keys(point).filter((k) => point[k as keyof typeof point] !== null && k !== 'ece_scaled').sort();
  expect(Object.keys(full.intervals).sort()).toEqual(shown);
  for (const [key, [lo, hi]] of Object.entries(full.intervals)) {
    const [nlo, nhi] = naive[key];
    expect(Math.abs(lo - nlo), `${key} low ${lo} vs ${nlo}`).toBeLessThan(1e-12);
    expect(Math.abs(hi - nhi), `${key} high ${hi} vs ${nhi}`).toBeLessThan(1e-12);
    expect(lo).toBeLessThanOrEqual(hi);
  }
}

const rand = mulberry32(31);
const n = 900;
const lines = Uint32Array.from({ length: n }, (_, i) => i + 2);

describe('report intervals = the naive path, every kind', () => {
  it('binary', () => {
    const score = Float64Array.from({ length: n }, () => Math.round(rand() * 40) / 40);
    const label = Uint8Array.from(score, (s) => (rand() < s ? 1 : 0));
    checkAgainstNaive({ kind: 'binary', n, lines, score, label });
  });

  it('confidence', () => {
    const confidence = Float64Array.from({ length: n }, () => Math.round(rand() * 20) / 20);
    const correct = Uint8Array.from(confidence, (c) => (rand() < c ? 1 : 0));
    checkAgainstNaive({ kind: 'confidence', n, lines, confidence, correct });
  });

  it('multiclass with probabilities, and with its own confidence only, and with neither', () => {
    const k = 3;
    const gold = Int32Array.from({ length: n }, () => Math.floor(rand() * k));
    const pred = Int32Array.from(gold, (g) => (rand() < 0.7 ? g : Math.floor(rand() * k)));
    const probs = new Float64Array(n * k);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let c = 0; c < k; c++) sum += probs[i * k + c] = Math.round(rand() * 4) / 4 + (c === pred[i] ? 1 : 0);
      for (let c = 0; c < k; c++) probs[i * k + c] /= sum;
    }
    const classes = ['a', 'b', 'c'];
    checkAgainstNaive({ kind: 'multiclass', n, lines, classes, classesKnown: true, gold, pred, probs });
    const confidence = Float64Array.from({ length: n }, () => Math.round(rand() * 10) / 10);
    checkAgainstNaive({ kind: 'multiclass', n, lines, classes, classesKnown: false, gold, pred, confidence });
    checkAgainstNaive({ kind: 'multiclass', n, lines, classes, classesKnown: true, gold, pred });
  });

  it('probability', () => {
    const predProb = Float64Array.from({ length: n }, () => Math.round(rand() * 10) / 10);
    const goldProb = Float64Array.from(predProb, (p) => Math.min(1, Math.max(0, p + Math.round((rand() - 0.5) * 4) / 10)));
    checkAgainstNaive({ kind: 'probability', n, lines, predProb, goldProb });
  });

  it('NaN values (which parsers never produce) take the naive path', () => {
    const confidence = Float64Array.from({ length: 200 }, (_, i) => (i % 13 === 0 ? NaN : Math.round(rand() * 10) / 10));
    const correct = Uint8Array.from(confidence, () => (rand() < 0.6 ? 1 : 0));
    const set: PredictionSet = { kind: 'confidence', n: 200, lines: lines.subarray(0, 200), confidence, correct };
    const full = report(set, 30);
    const ece = full.intervals.ece;
    expect(ece).toBeDefined();
    expect(ece![0]).toBeLessThanOrEqual(ece![1]);
  });

  it('a cancelled scoring stops between resamples', () => {
    const score = Float64Array.from({ length: n }, () => rand());
    const label = Uint8Array.from(score, (s) => (rand() < s ? 1 : 0));
    const parsed: ParseResult = { format: 'generic', set: { kind: 'binary', n, lines, score, label }, problems: [], skipped: 0, unlabeled: 0 };
    let calls = 0;
    const options = resolveOptions({ bootstrap: 1000, instances: false, shouldCancel: () => ++calls > 10 });
    expect(() => buildReport('test', parsed, options)).toThrow(/cancel/i);
    expect(calls).toBe(11);
  });
});
