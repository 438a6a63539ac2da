// score --slices (issue 20.5): each slice's accuracy against the rest of the file, Fisher's exact
// test and Holm over all slices, checked against pandas and scipy on a table made from UCI Adult's
// real test rows; auto picks the columns with few values and cuts numeric ones, never the file's
// own score, label or ID columns.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import type { SliceContrast } from '../../../src/core/types';
import { REAL } from '../realData';

const PY = '/usr/bin/python3';
const hasScipy = spawnSync(PY, ['-c', 'import scipy, pandas'], { stdio: 'ignore' }).status === 0;

describe('score --slices', () => {
  let file: string;
  beforeAll(() => {
    const rows = readFileSync(join(REAL, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => /^\d/.test(l)).slice(0, 5000);
    const out = ['id,score,label,sex,race,workclass,age'];
    rows.forEach((line, k) => {
      const f = line.split(',').map((x) => x.trim());
      const age = Number(f[0]), edu = Number(f[4]), hours = Number(f[12]);
      const z = -8 + 0.04 * age + 0.35 * edu + 0.03 * hours + (f[9] === 'Female' ? 2 : 0);
      out.push(`r${k},${(1 / (1 + Math.exp(-z))).toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0},${f[9]},${f[8]},${f[1]},${age}`);
    });
    file = join(mkdtempSync(join(tmpdir(), 'eval-lens-score-slices-')), 'adult_scores.csv');
    writeFileSync(file, out.join('\n') + '\n');
  });

  it.skipIf(!hasScipy)('each slice against the rest: accuracies, Fisher p and Holm as scipy gives them', async () => {
    const out = await runCli(['score', '--json', file, '--slices', 'sex,race']);
    expect(out.code, out.stderr).toBe(0);
    const slices = (JSON.parse(out.stdout) as { results: { slices: SliceContrast[] }[] }).results[0].slices;
    const py = spawnSync(PY, ['-c', `
import pandas as pd, json, sys
from scipy.stats import fisher_exact
d = pd.read_csv(sys.argv[1], dtype={'id': str})
d['right'] = ((d.score >= 0.5).astype(int) == d.label).astype(int)
out = []
for col in ['sex', 'race']:
    for v in sorted(d[col].unique()):
        s, r = d[d[col] == v], d[d[col] != v]
        if len(s) < 2 or len(r) < 2: continue
        a, c = int(s.right.sum()), int(r.right.sum())
        p = fisher_exact([[a, len(s) - a], [c, len(r) - c]])[1]
        out.append({'column': col, 'value': v, 'n': len(s), 'slice': s.right.mean(), 'rest': r.right.mean(), 'p': p})
ps = [o['p'] for o in out]; order = sorted(range(len(ps)), key=lambda i: ps[i]); m = len(ps); run = 0
for rank, i in enumerate(order):
    run = max(run, min(1, (m - rank) * ps[i])); out[i]['p_holm'] = run
print(json.dumps(out))`, file], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const want = JSON.parse(py.stdout) as { column: string; value: string; n: number; slice: number; rest: number; p: number; p_holm: number }[];
    expect(slices.length).toBe(want.length);
    for (const w of want) {
      const got = slices.find((s) => s.column === w.column && s.value === w.value)!;
      expect(got, `${w.column}=${w.value}`).toBeDefined();
      expect(got).toMatchObject({ n: w.n, metric: 'accuracy', test: 'fisher' });
      expect(got.slice).toBeCloseTo(w.slice, 12);
      expect(got.rest).toBeCloseTo(w.rest, 12);
      expect(got.delta).toBeCloseTo(w.slice - w.rest, 12);
      expect(got.p_value).toBeCloseTo(w.p, 10);
      expect(got.p_holm).toBeCloseTo(w.p_holm, 10);
    }
    // Over-scoring women costs accuracy there: that slice comes first and survives Holm.
    expect(slices[0]).toMatchObject({ column: 'sex', value: 'Female' });
    expect(slices[0].delta!).toBeLessThan(0);
    expect(slices[0].p_holm!).toBeLessThan(0.001);
  });

  it('auto slices by the columns with few values and cuts age, leaving score, label and id alone; the text says which are significant', async () => {
    const json = await runCli(['score', '--json', file, '--slices', 'auto']);
    const slices = (JSON.parse(json.stdout) as { results: { slices: SliceContrast[] }[] }).results[0].slices;
    expect([...new Set(slices.map((s) => s.column))].sort()).toEqual(['age', 'race', 'sex', 'workclass']);
    expect(slices.filter((s) => s.column === 'age').map((s) => s.value).sort()).toHaveLength(4); // quartiles
    const text = await runCli(['score', file, '--slices', 'sex']);
    expect(text.stdout).toMatch(/slices by accuracy against the rest of the file \(Fisher's exact test; Holm over 2 slices\):/);
    expect(text.stdout).toMatch(/sex=Female\s+n=\d+\s+0\.\d{4} vs 0\.\d{4}\s+Δ -0\.\d{4}\s+p=[<\d.]+\s+p_holm=[<\d.]+\s+✱ significant \(lower\)/);
  });

  it('a column the file lacks is a problem that names the file\'s columns', async () => {
    const out = await runCli(['score', '--json', file, '--slices', 'RAC1P']);
    const r = (JSON.parse(out.stdout) as { results: { slices: SliceContrast[]; problems: { code: string; message: string }[] }[] }).results[0];
    expect(r.slices).toEqual([]);
    expect(r.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/^--slices: The file has no column "RAC1P"; its columns are "id", "score"/));
  });

  it('auto never slices by numeric IDs (a folktexts index, a numeric id column)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-numeric-ids-'));
    const path = join(dir, 'numeric_ids.csv');
    const rows = ['id,score,label,grp'];
    for (let i = 0; i < 300; i++) rows.push(`${1000 + i * 7},${((i * 37) % 100) / 100},${i % 3 === 0 ? 1 : 0},${'abc'[i % 3]}`);
    writeFileSync(path, rows.join('\n') + '\n');
    const out = await runCli(['score', '--json', path, '--slices', 'auto']);
    const slices = (JSON.parse(out.stdout) as { results: { slices: SliceContrast[] }[] }).results[0].slices;
    expect([...new Set(slices.map((x) => x.column))]).toEqual(['grp']);
  });
});

