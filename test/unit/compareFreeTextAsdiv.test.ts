// `compare` shows only what `score` shows, on lm-eval's single-continuation files
// (test/fixtures/real/lm-eval/asdiv-llama3-8b-instruct/: asdiv and asdiv_cot on Llama 3 8B
// Instruct, the first 40 samples of each, DERIVED; NOTICE rows in the commit). Each sample has one
// continuation ([[loglikelihood, is_greedy]], no choices): score shows accuracy (lm-eval's acc, the
// share decoded greedily) and perplexity, and no macro-F1, which over {greedy, not greedy} means
// nothing. compare used to pair that macro-F1 (0.4792 on the whole runs) because its rule only
// looked at MulticlassSet.freeText, not at the drop score takes from lmEvalMetrics.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaths } from '../../src/core/compareFiles';
import { scoreFile } from '../../src/core/score';
import { mcnemarExact } from '../../src/core/compare/mcnemar';
import { PY_AGREEMENT } from './pythonReferences';

const DIR = resolve(__dirname, '../fixtures/real/lm-eval/asdiv-llama3-8b-instruct');
const COT = join(DIR, 'asdiv_cot/samples_asdiv_2024-08-21T03-40-10.802679.jsonl');
const PLAIN = join(DIR, 'asdiv/samples_asdiv_2024-08-21T03-44-09.494230.jsonl');

/** Python's reading: lm-eval's per-sample acc of each run by doc_id, and the 2x2 table. */
const PY = String.raw`
import json, sys
def acc(path):
    return {str(r['doc_id']): r['acc'] for r in map(json.loads, open(path))}
a, b = acc(sys.argv[1]), acc(sys.argv[2])
` + PY_AGREEMENT;

describe('compare on lm-eval asdiv (one continuation per sample)', () => {
  const ref = JSON.parse(execFileSync('python3', ['-c', PY, COT, PLAIN], { encoding: 'utf8' }));

  it('score shows accuracy and perplexity and no macro-F1', () => {
    const shown = scoreFile(COT, { bootstrap: 0 });
    expect(shown.metrics.macro_f1).toBeUndefined();
    expect(shown.metrics.accuracy).toBeCloseTo(ref.acc[0], 12);
    expect(ref.acc[0]).toBe(0.9); // 36 of 40: the fixture holds wrong samples too
  });

  it('compare leaves out exactly what score leaves out, and still pairs accuracy by McNemar', () => {
    const c = comparePaths([COT, PLAIN], { bootstrap: 200 });
    expect(c.aligned).toBe(ref.n);
    expect(c.metrics.macro_f1).toBeUndefined();
    // Every metric compared is one score shows for each run.
    for (const path of [COT, PLAIN]) {
      const shown = Object.keys(scoreFile(path, { bootstrap: 0 }).metrics);
      for (const name of Object.keys(c.metrics)) expect(shown).toContain(name);
    }
    expect(c.metrics.accuracy!.values[0]).toBeCloseTo(ref.acc[0], 12);
    expect(c.metrics.accuracy!.values[1]).toBeCloseTo(ref.acc[1], 12);
    expect(c.metrics.accuracy!.test).toBe('mcnemar');
    expect(c.agreement[1]).toEqual(ref.table);
    expect(c.metrics.accuracy!.p_values[1]).toBe(mcnemarExact(ref.table.baseline_only, ref.table.candidate_only));
  });
});
