// Every figure of a folktexts results.bench-*.json is recomputed (whole-set rates in metrics, the
// fairness keys under --group-by) and a disagreement is a reported-mismatch warning.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { scoreFile } from '../../../src/core/score';
import { FOLKTEXTS_METRIC_KEYS } from '../../../src/core/formats/folktexts';
import { writeAdultFiles } from './adultFixture';

const REFERENCE = join(__dirname, '..', '..', 'reference', 'fairness_reference.py');
const REAL_RESULTS = join(__dirname, '..', '..', 'fixtures', 'real', 'folktexts', 'results.minimal-example.Mistral-7B-Instruct-v0.2.ACSIncome.json');
/** Keys of a results file that are bookkeeping, not figures of the predictions. */
const BOOKKEEPING = new Set(['benchmark_hash', 'n_samples', 'n_positives', 'n_negatives', 'threshold', 'threshold_fitted_on']);

describe('folktexts results.bench-*.json beside grouped predictions', () => {
  const files = writeAdultFiles(mkdtempSync(join(tmpdir(), 'slices-reported-')));
  const ref = JSON.parse(execFileSync('/usr/bin/python3', [REFERENCE, files.predictions, files.data, 'sex', '0.5'], { encoding: 'utf8' }));
  const results = join(dirname(files.predictions), 'results.bench-1.json');
  const figures = { ...ref.whole, ...ref.fairness, n_samples: files.rows, threshold: 0.5 };
  const mismatches = () => scoreFile(files.predictions, { groupBy: { column: 'sex', dataPath: files.data } }).problems.filter((p) => p.code === 'reported-mismatch');

  it('agrees with figures computed the folktexts way', () => {
    writeFileSync(results, JSON.stringify(figures));
    const r = scoreFile(files.predictions, { groupBy: { column: 'sex', dataPath: files.data } });
    expect(Object.keys(r.reported).length).toBe(Object.keys(figures).length - 2);
    expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
  });

  it('flags each figure that disagrees', () => {
    writeFileSync(results, JSON.stringify({ ...figures, fpr: figures.fpr + 0.05, tpr_ratio: figures.tpr_ratio - 0.05 }));
    const found = mismatches();
    expect(found.map((p) => p.message.split(':')[0]).sort()).toEqual(['fpr', 'tpr_ratio']);
    expect(found.every((p) => p.severity === 'warning')).toBe(true);
  });

  it('recomputes every figure key of the real folktexts results file', () => {
    copyFileSync(REAL_RESULTS, results);
    const real = JSON.parse(readFileSync(REAL_RESULTS, 'utf8').replace(/\bNaN\b/g, 'null')) as Record<string, unknown>;
    const r = scoreFile(files.predictions, { groupBy: { column: 'race', dataPath: files.data } });
    const recomputed = { ...r.metrics, ...r.groups!.fairness } as Record<string, number | null | undefined>;
    const keys = Object.keys(real).filter((k) => (typeof real[k] === 'number' || real[k] === null) && !BOOKKEEPING.has(k));
    expect(keys.length).toBe(31); // 6 headline figures, 7 rates, 18 fairness keys
    for (const k of keys) {
      const name = FOLKTEXTS_METRIC_KEYS[k];
      expect(name, k).toBeDefined();
      expect(recomputed[name], k).toBeTypeOf('number');
    }
  });
});
