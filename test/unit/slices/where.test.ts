// --where (issue 20.2): the subset's metrics against scikit-learn on the same rows filtered by
// pandas, on a table made from UCI Adult's real test rows; JSON filter {where, n, of}; the terms
// AND-ed; a missing column and a bad term said in a sentence, never a silent "every row".
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { REAL } from '../realData';

const PY = '/usr/bin/python3';
const hasSklearn = spawnSync(PY, ['-c', 'import sklearn, pandas'], { stdio: 'ignore' }).status === 0;

type Result = { n: number; metrics: Record<string, number | null>; filter?: { where: string[]; n: number; of: number }; fatal?: string; problems: { code: string; message: string }[] };
async function score(...args: string[]): Promise<{ code: number; results: Result[]; stderr: string }> {
  const out = await runCli(['score', '--json', ...args]);
  return { code: out.code, results: out.stdout ? (JSON.parse(out.stdout) as { results: Result[] }).results : [], stderr: out.stderr };
}

describe('score --where', () => {
  let file: string;
  beforeAll(() => {
    // Adult's test rows with a risk score from a fixed logistic formula of age, hours and education.
    const rows = readFileSync(join(REAL, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => /^\d/.test(l)).slice(0, 4000);
    const out = ['id,score,label,age,sex,education,hours'];
    rows.forEach((line, k) => {
      const f = line.split(',').map((x) => x.trim());
      const age = Number(f[0]), edu = Number(f[4]), hours = Number(f[12]);
      const z = -8 + 0.04 * age + 0.35 * edu + 0.03 * hours + (f[9] === 'Male' ? 0.6 : 0);
      out.push(`r${k},${(1 / (1 + Math.exp(-z))).toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0},${age},${f[9]},${f[3]},${hours}`);
    });
    file = join(mkdtempSync(join(tmpdir(), 'eval-lens-where-')), 'adult_scores.csv');
    writeFileSync(file, out.join('\n') + '\n');
  });

  it.skipIf(!hasSklearn)('scores the rows pandas keeps, with the metrics scikit-learn gives them', async () => {
    const { code, results } = await score(file, '--where', 'sex=Female', '--where', 'age >= 30 AND /Bachelors|Masters/');
    expect(code).toBe(0);
    const py = spawnSync(PY, ['-c', `
import pandas as pd, json, sys
from sklearn.metrics import roc_auc_score, brier_score_loss, accuracy_score
d = pd.read_csv(sys.argv[1], dtype={'id': str})
s = d[(d.sex == 'Female') & (d.age >= 30) & d.education.str.contains('Bachelors|Masters')]
print(json.dumps({'n': len(s), 'of': len(d), 'auc': roc_auc_score(s.label, s.score), 'brier': brier_score_loss(s.label, s.score), 'accuracy': accuracy_score(s.label, s.score >= 0.5)}))`, file], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    const want = JSON.parse(py.stdout) as { n: number; of: number; auc: number; brier: number; accuracy: number };
    expect(want.n).toBeGreaterThan(50);
    expect(want.n).toBeLessThan(want.of / 4);
    const r = results[0];
    expect(r.filter).toEqual({ where: ['sex=Female', 'age >= 30 AND /Bachelors|Masters/'], n: want.n, of: want.of });
    expect(r.n).toBe(want.n);
    expect(r.metrics.auc).toBeCloseTo(want.auc, 12);
    expect(r.metrics.brier).toBeCloseTo(want.brier, 12);
    expect(r.metrics.accuracy).toBeCloseTo(want.accuracy, 12);
  });

  it('a column the file lacks, or a term that cannot be read, is said, not ignored', async () => {
    const missing = await score(file, '--where', 'RAC1P=2');
    expect(missing.results[0].fatal).toMatch(/The file has no column "RAC1P"; its columns are "id", "score", "label", "age", "sex", "education", "hours"/);
    expect(missing.code).toBe(2);
    const bad = await runCli(['score', file, '--where', 'age > old']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--where: "age > old": > compares numbers, and "old" is not one/);
    const none = await score(file, '--where', 'age > 200');
    expect(none.results[0].fatal).toMatch(/No row satisfies --where "age > 200" \(of 4000 rows\)/);
  });
});
