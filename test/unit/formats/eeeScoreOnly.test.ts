// Every Eval Ever instance records whose evaluation.is_correct is null: the schema's text-to-image
// proposal (every_eval_ever's t2i branch, NOTICE.md) allows it "when correctness is not well-defined"
// (a continuous score). Before, each such record was left out ("no boolean evaluation.is_correct")
// and the file refused; now a result of such records is its scores, and beside verdicts they are
// left out, said once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';

const DIR = resolve(__dirname, '../../fixtures/real/eee/t2i-proposal');
const SAMPLES = join(DIR, 'geneval_sdxl_example_samples.jsonl');

const PY = String.raw`
import json, sys
import numpy as np
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
only = [r for r in rows if r['evaluation']['is_correct'] is None]
print(json.dumps({'n': len(only), 'mean': float(np.mean([r['evaluation']['score'] for r in only])) if only else None,
                  'judged': len(rows) - len(only), 'acc': float(np.mean([r['evaluation']['is_correct'] for r in rows if r['evaluation']['is_correct'] is not None])) if len(rows) > len(only) else None}))
`;
const python = (path: string) => JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, path], { encoding: 'utf8' }));

describe('EEE instance records with a null is_correct', () => {
  it('a result of score-only records is a set of scores, its mean the score\'s, alone and in its folder', () => {
    const ref = python(SAMPLES);
    expect(ref.judged).toBe(0);
    const r = scoreFile(SAMPLES, { bootstrap: 0 });
    expect(r.format).toBe('eee');
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('scores');
    expect(r.n).toBe(ref.n);
    const score = r.taskMetrics!.find((t) => t.name === 'score')!;
    expect(score.mean).toBeCloseTo(ref.mean, 12);
    const folder = scorePath(DIR, { bootstrap: 0 }).reports.find((x) => resolve(x.path) === SAMPLES)!;
    expect(folder.kind).toBe(r.kind);
    expect(folder.taskMetrics).toEqual(r.taskMetrics);
  });

  it('beside records with a verdict, the null ones are left out with one warning, and accuracy is the verdicts\' share', () => {
    const line = JSON.parse(readFileSync(SAMPLES, 'utf8').trim());
    const rows = [
      { ...line, sample_id: 'a', evaluation: { score: 1, is_correct: true } },
      { ...line, sample_id: 'b', evaluation: { score: 0.4, is_correct: null } },
      { ...line, sample_id: 'c', evaluation: { score: 0, is_correct: false } },
      { ...line, sample_id: 'd', evaluation: { score: 1, is_correct: true } },
    ];
    const path = join(mkdtempSync(join(tmpdir(), 'eee-null-')), 'x_samples.jsonl');
    writeFileSync(path, rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const ref = python(path);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.n).toBe(ref.judged);
    expect(r.metrics.accuracy).toBeCloseTo(ref.acc, 12);
    expect(r.skipped).toBe(1);
    const warned = r.problems.filter((p) => /null evaluation\.is_correct/.test(p.message));
    expect(warned).toHaveLength(1);
    expect(warned[0].line).toBe(2);
  });
});
