// Issue 28.6: Inspect's accuracy (its own figure over C/I/P values, after the epoch reducer) gets
// its standard error and an interval by the report's method, like every other card; its stderr is
// no card. References: numpy / scipy on the log's raw score values, read apart from the parser.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { scoreFile } from '../../../src/core/index';
import { cardMetrics } from '../../../src/common/metricTable';

const ROOT = join(__dirname, '..', '..', '..');
const LOGS = [
  'test/fixtures/real/inspect-ai/2025-05-12T20-28-13-04-00_popularity.json',
  'test/fixtures/inspect/issue17/model_graded.json',
].map((p) => join(ROOT, p));

/** Per-sample values of the first scorer (C = 1, P = 0.5, I = 0, numbers as they are), mean over epochs. */
function reference(path: string): { mean: number; se: number; t: [number, number]; wilson: [number, number] | null } {
  const py = `
import json, sys, numpy as np
from scipy import stats
d = json.load(open(sys.argv[1]))
by = {}
for s in d['samples']:
    sc = list(s['scores'].values())[0]['value']
    v = {'C': 1.0, 'I': 0.0, 'P': 0.5}.get(sc, sc) if isinstance(sc, str) else float(sc)
    by.setdefault(str(s['id']), []).append(v)
x = np.array([np.mean(v) for v in by.values()])
n = len(x); m = x.mean(); se = x.std(ddof=1) / np.sqrt(n)
t = stats.t.interval(0.95, n - 1, loc=m, scale=se) if se > 0 else (m, m)
w = None
if np.all((x == 0) | (x == 1)):
    z = stats.norm.ppf(0.975); k = x.sum(); p = k / n
    c = (p + z*z/(2*n)) / (1 + z*z/n); h = z * np.sqrt(p*(1-p)/n + z*z/(4*n*n)) / (1 + z*z/n)
    w = [c - h, c + h]
print(json.dumps({'mean': m, 'se': se, 't': list(t), 'wilson': w}))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, path], { encoding: 'utf8' }));
}

describe('Inspect accuracy: standard error and interval (issue 28.6)', () => {
  it.each(LOGS)('%s: SE, t and Wilson intervals equal numpy/scipy; the bootstrap gives one too', (path) => {
    const want = reference(path);
    const boot = scoreFile(path, { bootstrap: 300, seed: 1 });
    expect(boot.metrics.accuracy).toBeCloseTo(want.mean, 9);
    expect(boot.standard_errors?.accuracy).toBeCloseTo(want.se, 9);
    const iv = boot.intervals.accuracy!;
    expect(iv, 'the accuracy card has an interval when the report bootstraps').toBeDefined();
    expect(iv[0]).toBeLessThanOrEqual(want.mean + 1e-12);
    expect(iv[1]).toBeGreaterThanOrEqual(want.mean - 1e-12);
    const t = scoreFile(path, { interval: 't' }).intervals.accuracy!;
    expect(t[0]).toBeCloseTo(want.t[0], 9);
    expect(t[1]).toBeCloseTo(want.t[1], 9);
    if (want.wilson) {
      const w = scoreFile(path, { interval: 'wilson' }).intervals.accuracy!;
      expect(w[0]).toBeCloseTo(want.wilson[0], 9);
      expect(w[1]).toBeCloseTo(want.wilson[1], 9);
    }
  });

  it('shows no stderr card (it is the accuracy card\'s interval and the Error bars table\'s SE)', () => {
    expect(cardMetrics({ format: 'inspect', kind: 'multiclass' })).not.toContain('stderr');
  });
});
