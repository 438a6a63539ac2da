// Fisher's exact test against scipy.stats.fisher_exact (two-sided), small and large tables.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fisherExact, logFactorial } from '../../../src/core/metrics/fisher';

const PY = '/usr/bin/python3';
const hasScipy = spawnSync(PY, ['-c', 'import scipy'], { stdio: 'ignore' }).status === 0;

describe('fisherExact', () => {
  const tables: [number, number, number, number][] = [
    [8, 2, 1, 5], [0, 5, 5, 0], [3, 3, 3, 3], [1, 0, 0, 1], [0, 0, 4, 7], [12, 5, 29, 2],
    [412, 88, 13031, 2750], [9500, 500, 9400, 600], [3, 120, 6, 118], [250, 251, 249, 252],
  ];
  it.skipIf(!hasScipy)('equals scipy to 1e-10 on small, tied and large tables', () => {
    const r = spawnSync(PY, ['-c', `
import json, sys
from scipy.stats import fisher_exact
print(json.dumps([fisher_exact([[a, b], [c, d]])[1] for a, b, c, d in json.loads(sys.argv[1])]))`, JSON.stringify(tables)], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const want = JSON.parse(r.stdout) as number[];
    tables.forEach((t, k) => expect(fisherExact(...t), t.join(',')).toBeCloseTo(want[k], 10));
  });

  it('ln n! by Stirling agrees with the exact sum where both are computed', () => {
    let exact = 0;
    for (let k = 2; k <= 5000; k++) {
      exact += Math.log(k);
      if (k >= 256 && k % 97 === 0) expect(Math.abs(logFactorial(k) - exact) / exact).toBeLessThan(1e-13);
    }
  });
});
