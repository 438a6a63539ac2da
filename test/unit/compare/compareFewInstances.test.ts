// compare on one aligned instance declared "macro_f1 +1.0000 [+1.0000, +1.0000] bootstrap p<0.002,
// significant" (sweep 12, defect 7): a bootstrap of one instance has one resample, repeated. Now,
// below 5 aligned instances (the clusters score needs for a cluster bootstrap, errorBars.ts), there
// is no interval and no bootstrap or DeLong test, with a warning saying why; McNemar's exact test
// stands. A bootstrap whose resamples all give the same nonzero delta gives no p-value. The header names
// the candidate's kind too (defect 16).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { comparePaths } from '../../../src/core/compareFiles';
import { summarise } from '../../../src/core/compare/pairedBootstrap';

/** A three-class table of `rows` (id, gold, pred), hand-made. */
function run(dir: string, name: string, rows: [number, string, string][]): string {
  const path = join(dir, name);
  writeFileSync(path, ['id,gold,pred', ...rows.map((r) => r.join(','))].join('\n') + '\n');
  return path;
}

describe('compare with fewer than 5 aligned instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-few-'));
  const base = run(dir, 'base.csv', [[1, 'A', 'B'], [2, 'B', 'B'], [3, 'C', 'C']]);
  const cand = run(dir, 'cand.csv', [[1, 'A', 'A'], [7, 'B', 'B'], [8, 'C', 'C']]);

  it('gives no interval and no bootstrap test on one instance, and says why', () => {
    const c = comparePaths([base, cand], { bootstrap: 500 });
    expect(c.aligned).toBe(1);
    const f1 = c.metrics.macro_f1!;
    expect(f1.deltas[1]).toBe(1);
    expect(f1.intervals[1]).toBeNull();
    expect(f1.p_values[1]).toBeNull();
    expect(f1.no_test).toEqual([null, '1 aligned instance, fewer than 5']);
    // McNemar with b = 0, c = 1 discordant: p = min(1, 2 * P(X <= 0 | Binomial(1, 1/2))) = 1
    // (scipy.stats.binomtest(1, 1, 0.5).pvalue == 1.0).
    expect(c.metrics.accuracy!.test).toBe('mcnemar');
    expect(c.metrics.accuracy!.p_values[1]).toBe(1);
    const warning = c.problems.find((p) => /^Only 1 aligned instance/.test(p.message))!;
    expect(warning.severity).toBe('warning');
    expect(warning.message).toContain('need at least 5');
  });

  it('the text says "no test (…)", never "significant", and names both runs\' kind', async () => {
    const out = await runCli(['compare', base, cand, '--bootstrap', '500']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/macro_f1 .* — +bootstrap +no test \(1 aligned instance, fewer than 5\)/);
    expect(out.stdout).not.toMatch(/significant at 0\.05:/);
    expect(out.stdout).toContain(`baseline:  ${base}  (generic, multiclass, n=3)\n`);
    expect(out.stdout).toContain(`candidate: ${cand}  (generic, multiclass, n=3)\n`);
  });

  it('from 5 aligned instances on, the bootstrap gives its interval and test', () => {
    const rows = (right: number): [number, string, string][] => Array.from({ length: 6 }, (_, i) => [i, 'ABC'[i % 3], i < right ? 'ABC'[i % 3] : 'ABC'[(i + 1) % 3]]);
    const b = run(dir, 'b6.csv', rows(2));
    const k = run(dir, 'c6.csv', rows(5));
    const c = comparePaths([b, k], { bootstrap: 500 });
    expect(c.aligned).toBe(6);
    expect(c.metrics.macro_f1!.intervals[1]).not.toBeNull();
    expect(c.metrics.macro_f1!.p_values[1]).not.toBeNull();
    expect(c.metrics.macro_f1!.no_test).toBeUndefined();
    expect(c.problems.some((p) => /aligned instance/.test(p.message))).toBe(false);
  });
});

describe('a paired bootstrap whose resamples are all equal', () => {
  it('gives its interval but no p-value (unless the delta is 0)', () => {
    const d = summarise(Float64Array.from([0.25, 0.25, 0.25, 0.25]));
    expect(d).toEqual({ interval: [0.25, 0.25], p: null, resamples: 4, constant: true });
    // All 0 (a run against itself) keeps p = 1, as McNemar does when no instance is discordant.
    expect(summarise(Float64Array.from([0, 0, 0])).p).toBe(1);
    // Resamples that differ keep their p: 2 * min(1/4, 4/4) = 0.5.
    expect(summarise(Float64Array.from([-0.1, 0.2, 0.3, 0.4])).p).toBe(0.5);
  });
});
