// Small hand-built reports for the webview's pure-logic tests.
import type { InstanceColumns, Kind, Report } from '../../../src/core/types';

export function columns(n: number, fill: (i: number) => Partial<Record<keyof InstanceColumns, number>>): InstanceColumns {
  const c: InstanceColumns = {
    lines: new Uint32Array(n), value: new Float64Array(n), target: new Float64Array(n), confidence: new Float64Array(n),
    correct: new Uint8Array(n), bin: new Int16Array(n), binQuantile: new Int16Array(n), brier: new Float64Array(n),
    gold: new Int32Array(n), pred: new Int32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const v = fill(i);
    c.lines[i] = v.lines ?? i + 2;
    c.value[i] = v.value ?? NaN;
    c.target[i] = v.target ?? NaN;
    c.confidence[i] = v.confidence ?? NaN;
    c.correct[i] = v.correct ?? 0;
    c.bin[i] = v.bin ?? -1;
    c.binQuantile[i] = v.binQuantile ?? -1;
    c.brier[i] = v.brier ?? NaN;
    c.gold[i] = v.gold ?? -1;
    c.pred[i] = v.pred ?? -1;
  }
  return c;
}

export function report(kind: Kind, instances: InstanceColumns | null, extra: Partial<Report> = {}): Report {
  return {
    path: '/tmp/predictions.csv', format: kind === 'multiclass' ? 'raft' : 'generic', kind, n: instances?.lines.length ?? 0,
    skipped: 0, unlabeled: 0, metrics: {}, intervals: {}, reported: {}, problems: [], bins: null, roc: null, classStats: null,
    options: { bins: 10, threshold: 0.5, hmrBeta: 1, bootstrap: 0, seed: 0 }, instances, ...extra,
  };
}

/** A deterministic binary report of n rows. */
export function binaryReport(n: number, seed = 1): Report {
  let a = seed;
  const random = () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
  const inst = columns(n, () => {
    const score = Math.round(random() * 100) / 100;
    const label = random() < score ? 1 : 0;
    const pred = score >= 0.5 ? 1 : 0;
    return {
      value: score, target: label, confidence: Math.max(score, 1 - score), correct: pred === label ? 1 : 0,
      bin: Math.min(9, Math.floor(score * 10)), binQuantile: 0, brier: (score - label) ** 2, gold: label, pred,
    };
  });
  return report('binary', inst);
}

/** A multiclass report: gold i % 3, predicted (i * 2) % 3, classes a/b/c. */
export function multiclassReport(n: number): Report {
  const inst = columns(n, (i) => {
    const gold = i % 3;
    const pred = (i * 2) % 3;
    return { gold, pred, correct: gold === pred ? 1 : 0, confidence: 0.5 + (i % 5) / 10, value: 0.5 + (i % 5) / 10, bin: 5 + (i % 5) };
  });
  return report('multiclass', inst, {
    classes: ['alpha', 'beta', 'gamma'],
    texts: { fields: ['Text'], values: Array.from({ length: n }, (_, i) => [`text of ${i}`]) },
  });
}
