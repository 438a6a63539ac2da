// Issue 28.5: clustered intervals over few clusters. With 2 clusters a percentile bootstrap of
// whole clusters has 3 distinct resamples; its intervals said nothing true. Below 30 clusters the
// means get t intervals with clusters − 1 df on the clustered SE (checked against scipy), below 5
// the other metrics get none, a warning says so, and rows without a value are counted apart.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreFile } from '../../../src/core/score';

function table(clusters: number, rows: number, missingEvery = 0): string {
  // A fixed, seedless pattern: the score and label of row i follow from i alone.
  const lines = ['id,site,score,label'];
  for (let i = 0; i < rows; i++) {
    const s = ((i * 7919) % 1000) / 1000;
    const y = ((i * 104729) % 997) / 997 < s ? 1 : 0;
    const site = missingEvery && i % missingEvery === 0 ? '' : `s${i % clusters}`;
    lines.push(`${i},${site},${s.toFixed(3)},${y}`);
  }
  return lines.join('\n') + '\n';
}

function write(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'few-clusters-'));
  const path = join(dir, 'runs.csv');
  writeFileSync(path, text);
  return path;
}

/** Accuracy's clustered SE (Inspect's stderr(cluster=)) and its t interval with G − 1 df, in numpy/scipy. */
function reference(path: string): { mean: number; se: number; lo: number; hi: number; g: number } {
  const py = `
import sys, json, numpy as np, pandas as pd
from scipy import stats
d = pd.read_csv(sys.argv[1], dtype={'site': str})
x = (((d.score >= 0.5).astype(int)) == d.label).astype(float).to_numpy()
site = d.site.fillna('').to_numpy()
keys = [s if s else f'__row{i}' for i, s in enumerate(site)]
n = len(x); m = x.mean()
sums = pd.Series(x - m).groupby(pd.Series(keys)).sum()
G = len(sums)
se = np.sqrt((sums ** 2).sum() * G / (G - 1)) / n
lo, hi = stats.t.interval(0.95, G - 1, loc=m, scale=se)
print(json.dumps({'mean': m, 'se': se, 'lo': lo, 'hi': hi, 'g': G}))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, path], { encoding: 'utf8' }));
}

describe('clustered intervals over few clusters (28.5)', () => {
  it('2 clusters: the means get t intervals with 1 df, the other metrics none, and a warning says why', () => {
    const path = write(table(2, 600));
    const want = reference(path);
    const r = scoreFile(path, { bootstrap: 200, cluster: { column: 'site' } });
    expect(r.clusters?.count).toBe(2);
    expect(r.clusters?.few).toEqual({ means: 't', others: 'none' });
    expect(r.clusters?.standard_errors.accuracy).toBeCloseTo(want.se, 10);
    expect(r.intervals.accuracy![0]).toBeCloseTo(want.lo, 9);
    expect(r.intervals.accuracy![1]).toBeCloseTo(want.hi, 9);
    expect(r.intervals.auc).toBeUndefined();
    expect(r.intervals.ece).toBeUndefined();
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(/Only 2 clusters of "site": clustered intervals need about 30\. The means get t intervals with 1 degree of freedom/);
  });

  it('12 clusters: t intervals for the means, the cluster bootstrap (rough) for the rest', () => {
    const path = write(table(12, 600));
    const want = reference(path);
    const r = scoreFile(path, { bootstrap: 200, cluster: { column: 'site' } });
    expect(r.clusters?.few).toEqual({ means: 't', others: 'bootstrap' });
    expect(r.intervals.accuracy![0]).toBeCloseTo(want.lo, 9);
    expect(r.intervals.auc).toBeDefined();
    expect(r.rough_intervals).toBe(true);
  });

  it('40 clusters: the cluster bootstrap as before, no warning', () => {
    const r = scoreFile(write(table(40, 600)), { bootstrap: 200, cluster: { column: 'site' } });
    expect(r.clusters?.few).toBeUndefined();
    expect(r.problems.some((p) => /clusters need about 30/.test(p.message))).toBe(false);
  });

  it('rows without a value are counted apart from the column\'s values', () => {
    const path = write(table(5, 400, 10));
    const want = reference(path);
    const r = scoreFile(path, { cluster: { column: 'site' } });
    expect(r.clusters?.count).toBe(want.g);
    expect(r.clusters?.singletons).toBe(40);
    expect(r.clusters?.count).toBe(5 + 40);
  });
});
