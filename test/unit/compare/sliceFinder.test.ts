// The slice finder (issue 20.4): per slice, the paired accuracy difference, exact McNemar p and
// Holm over all slices, checked against pandas and scipy on two runs scored on UCI Adult's real
// test rows, where the candidate is worse for one group only.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRunsDetailed } from '../../../src/core/compare/compare';
import { findSlices } from '../../../src/core/compare/sliceFinder';
import { parseFile } from '../../../src/core/score';
import { resolveOptions } from '../../../src/core/report';
import { fileInput } from '../../../src/core/formats/context';
import { ownColumnValues } from '../../../src/core/slices/columnValues';
import { REAL } from '../realData';

const PY = '/usr/bin/python3';
const hasScipy = spawnSync(PY, ['-c', 'import scipy, pandas'], { stdio: 'ignore' }).status === 0;

describe('slice finder', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-slices-'));
    const rows = readFileSync(join(REAL, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => /^\d/.test(l)).slice(0, 3000);
    const write = (name: string, femalePenalty: number) => {
      const out = ['id,score,label,sex,race,age'];
      rows.forEach((line, k) => {
        const f = line.split(',').map((x) => x.trim());
        const age = Number(f[0]), edu = Number(f[4]), hours = Number(f[12]);
        const z = -8 + 0.04 * age + 0.35 * edu + 0.03 * hours + (f[9] === 'Female' ? -femalePenalty : 0);
        out.push(`r${k},${(1 / (1 + Math.exp(-z))).toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0},${f[9]},${f[8]},${age}`);
      });
      writeFileSync(join(dir, name), out.join('\n') + '\n');
    };
    write('baseline.csv', 0);
    write('candidate.csv', -3); // the candidate over-scores women: more false positives there
  });

  it.skipIf(!hasScipy)('per-slice deltas, exact McNemar and Holm as pandas and scipy compute them', () => {
    const o = resolveOptions({ bootstrap: 0 });
    const runs = ['baseline.csv', 'candidate.csv'].map((f) => ({ path: join(dir, f), parsed: parseFile(join(dir, f), o) }));
    const detail = compareRunsDetailed(runs, { bootstrap: 0 });
    const input = fileInput(runs[0].path, readFileSync(runs[0].path));
    const columns = ['sex', 'race', 'age'].map((column) => {
      const own = ownColumnValues(input, runs[0].parsed.set!, column);
      if (!('values' in own)) throw new Error(column);
      const rows = detail.alignment.rows[0];
      return { column, values: Array.from(rows, (r) => own.values[r]) };
    });
    const slices = findSlices(detail.subsets[0], detail.subsets[1], columns, 'accuracy', o);
    const py = spawnSync(PY, ['-c', `
import pandas as pd, json, sys
from scipy.stats import binomtest
b = pd.read_csv(sys.argv[1], dtype={'id': str}); c = pd.read_csv(sys.argv[2], dtype={'id': str})
d = b.merge(c[['id', 'score']], on='id', suffixes=('_b', '_c'))
d['rb'] = ((d.score_b >= 0.5).astype(int) == d.label).astype(int)
d['rc'] = ((d.score_c >= 0.5).astype(int) == d.label).astype(int)
# age: quartiles as --group-by cuts a numeric column (numpy linear quantiles, last edge closed)
import numpy as np
q = np.quantile(d.age, [0, .25, .5, .75, 1])
out = []
def slices(col, keys):
    for value, mask in keys:
        s = d[mask]
        bo = int(((s.rb == 1) & (s.rc == 0)).sum()); co = int(((s.rb == 0) & (s.rc == 1)).sum())
        p = 1.0 if bo + co == 0 else min(1.0, binomtest(min(bo, co), bo + co, 0.5).pvalue)
        out.append({'column': col, 'value': value, 'n': len(s), 'delta': s.rc.mean() - s.rb.mean(), 'p': p})
slices('sex', [(v, d.sex == v) for v in sorted(d.sex.unique())])
slices('race', [(v, d.race == v) for v in sorted(d.race.unique())])
edges = list(q)
for i in range(4):
    lo, hi = edges[i], edges[i + 1]
    mask = (d.age >= lo) & ((d.age <= hi) if i == 3 else (d.age < hi))
    if mask.sum() == 0: continue
    slices('age', [(None, mask)])
# Holm by hand over every slice
ps = [s['p'] for s in out]; order = sorted(range(len(ps)), key=lambda i: ps[i]); m = len(ps); run = 0; adj = [0] * m
for rank, i in enumerate(order):
    run = max(run, min(1, (m - rank) * ps[i])); adj[i] = run
for s, a in zip(out, adj): s['p_holm'] = a
print(json.dumps(out))`, runs[0].path, runs[1].path], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const want = JSON.parse(py.stdout) as { column: string; value: string | null; n: number; delta: number; p: number; p_holm: number }[];
    expect(slices.length).toBe(want.length);
    for (const w of want) {
      const got = w.value === null
        ? slices.filter((s) => s.column === w.column).find((s) => s.n === w.n && Math.abs(s.delta! - w.delta) < 1e-12)
        : slices.find((s) => s.column === w.column && s.value === w.value);
      expect(got, `${w.column}=${w.value}`).toBeDefined();
      expect(got!.n).toBe(w.n);
      expect(got!.delta).toBeCloseTo(w.delta, 12);
      expect(got!.p_value).toBeCloseTo(w.p, 10);
      expect(got!.p_holm).toBeCloseTo(w.p_holm, 10);
      expect(got!.test).toBe('mcnemar');
    }
    // The regression is where it was put: women, significant after Holm; men untouched.
    const women = slices.find((s) => s.value === 'Female')!;
    expect(women.delta!).toBeLessThan(0);
    expect(women.p_holm!).toBeLessThan(0.05);
    expect(slices.find((s) => s.value === 'Male')!.delta).toBe(0);
    expect(slices[0].delta!).toBeLessThan(0);
    expect(slices[0].p_holm!).toBeLessThan(0.05);
    // Sorted by Holm-adjusted p.
    for (let k = 1; k < slices.length; k++) expect((slices[k].p_holm ?? 2) >= (slices[k - 1].p_holm ?? 2)).toBe(true);
  });
});

describe('compare --slices and --where', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-cmp-slices-'));
    const rows = readFileSync(join(REAL, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => /^\d/.test(l)).slice(0, 3000);
    for (const [name, shift] of [['baseline.csv', 0], ['candidate.csv', 3]] as const) {
      const out = ['id,score,label,sex,workclass'];
      rows.forEach((line, k) => {
        const f = line.split(',').map((x) => x.trim());
        const z = -8 + 0.04 * Number(f[0]) + 0.35 * Number(f[4]) + 0.03 * Number(f[12]) + (f[9] === 'Female' ? shift : 0);
        out.push(`r${k},${(1 / (1 + Math.exp(-z))).toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0},${f[9]},${f[1]}`);
      });
      writeFileSync(join(dir, name), out.join('\n') + '\n');
    }
  });

  it('the CLI lists the slices in JSON, text and Markdown, and --where compares the rows that satisfy it', async () => {
    const { runCli } = await import('../../../src/cli/main');
    const [a, b] = [join(dir, 'baseline.csv'), join(dir, 'candidate.csv')];
    const json = await runCli(['compare', a, b, '--slices', 'auto', '--bootstrap', '100', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const c = (JSON.parse(json.stdout) as { comparison: { slices: { column: string; value: string; delta: number; p_holm: number; interval: [number, number] | null; test: string }[] } }).comparison;
    expect([...new Set(c.slices.map((s) => s.column))].sort()).toEqual(['sex', 'workclass']);
    const women = c.slices.find((s) => s.value === 'Female')!;
    expect(women.test).toBe('mcnemar');
    expect(women.delta).toBeLessThan(0);
    expect(women.interval![1]).toBeLessThan(0); // the paired interval excludes 0 too
    expect(c.slices.find((s) => s.value === 'Male')!.delta).toBe(0);
    const text = await runCli(['compare', a, b, '--slices', 'sex', '--bootstrap', '0']);
    expect(text.stdout).toMatch(/slices by accuracy against the baseline, on the same instances \(exact McNemar; Holm over 2 slices\):/);
    expect(text.stdout).toMatch(/sex=Female .* ✱ significant \(lower\)/);
    const md = await runCli(['compare', a, b, '--slices', 'sex', '--bootstrap', '0', '--markdown']);
    expect(md.stdout).toMatch(/### Where it differs \(accuracy, exact McNemar per slice, Holm over 2\)\n\n1 slice differs beyond chance\./);
    const men = await runCli(['compare', a, b, '--where', 'sex=Male', '--bootstrap', '0', '--json']);
    const m = (JSON.parse(men.stdout) as { comparison: { aligned: number; metrics: { accuracy: { deltas: (number | null)[] } } } }).comparison;
    const males = readFileSync(a, 'utf8').split('\n').filter((l) => l.includes(',Male,')).length;
    expect(m.aligned).toBe(males);
    expect(m.metrics.accuracy.deltas[1]).toBe(0);
  });
});

describe('board --where', () => {
  it('ranks the runs on the rows that satisfy the terms', async () => {
    const { runCli } = await import('../../../src/cli/main');
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-board-where-'));
    // Two runs: A is right on every row with group=x and wrong on group=y; B the other way round.
    for (const [name, right] of [['A.csv', 'x'], ['B.csv', 'y']] as const) {
      const rows = Array.from({ length: 40 }, (_, k) => {
        const group = k % 2 ? 'x' : 'y';
        const label = k % 4 < 2 ? 1 : 0;
        const score = group === right ? (label ? 0.9 : 0.1) : (label ? 0.1 : 0.9);
        return `r${k},${score},${label},${group}`;
      });
      writeFileSync(join(dir, name), ['id,score,label,group', ...rows].join('\n') + '\n');
    }
    const board = async (...args: string[]) => (JSON.parse((await runCli(['board', '--json', '--bootstrap', '0', ...args])).stdout) as { board: { rows: { run: string; values: Record<string, number | null> }[] } }).board;
    const onX = await board(join(dir, 'A.csv'), join(dir, 'B.csv'), '--metric', 'accuracy', '--where', 'group=x');
    const onY = await board(join(dir, 'A.csv'), join(dir, 'B.csv'), '--metric', 'accuracy', '--where', 'group=y');
    const value = (b: typeof onX, run: RegExp) => Object.values(b.rows.find((r) => run.test(r.run))!.values)[0];
    expect(value(onX, /A/)).toBe(1);
    expect(value(onX, /B/)).toBe(0);
    expect(value(onY, /A/)).toBe(0);
    expect(value(onY, /B/)).toBe(1);
  });
});

describe('slice bootstrap', () => {
  it('the accuracy read off the bits resamples to the same interval as scoring each resample', async () => {
    const { gatherSet } = await import('../../../src/core/report');
    const { pairedBootstrap, oneStratum } = await import('../../../src/core/compare/pairedBootstrap');
    const { resampleMetrics } = await import('../../../src/core/report');
    const n = 400;
    let s = 3;
    const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const label = Uint8Array.from({ length: n }, () => (rand() < 0.4 ? 1 : 0));
    const mk = (noise: number) => Float64Array.from(label, (y) => Math.min(1, Math.max(0, (y ? 0.7 : 0.3) + (rand() - 0.5) * noise)));
    const set = (score: Float64Array) => ({ kind: 'binary' as const, n, lines: Uint32Array.from({ length: n }, (_, i) => i + 2), score, label });
    const base = set(mk(0.9)), cand = set(mk(1.3));
    const values = Array.from({ length: n }, (_, i) => (i % 3 ? 'a' : 'b'));
    const o = resolveOptions({ bootstrap: 300, seed: 5 });
    const [fast] = findSlices(base, cand, [{ column: 'g', values }], 'accuracy', o).filter((x) => x.value === 'b');
    const rows = Uint32Array.from(values.flatMap((v, i) => (v === 'b' ? [i] : [])));
    const slow = pairedBootstrap([rows.length], [oneStratum(resampleMetrics(gatherSet(base, rows), o)), oneStratum(resampleMetrics(gatherSet(cand, rows), o))], { resamples: 300, seed: 5 }).accuracy[0];
    expect(fast.interval).toEqual(slow.interval);
  });
});
