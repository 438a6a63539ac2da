// A samples file that is a subset of what its results file scored says so (issue 26.4): the real
// bias_classification samples file holds the first 100 of the 609 samples its results file reports on
// (n-samples). The reported figures stay, with the count they were computed on ("reported on 609
// samples"), and are not compared with the figures recomputed on the 100: no reported-mismatch, no
// "✗ disagrees".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scoreFile } from '../../../src/core/score';

const REAL = resolve(__dirname, '../../fixtures/real/lm-eval/meta-llama__Meta-Llama-3-8B');
const SAMPLES = join(REAL, 'samples_bias_classification_2024-06-17T16-06-39.458097.json');
const RESULTS = JSON.parse(readFileSync(join(REAL, 'results_2024-06-17T16-06-39.458097.json'), 'utf8'));

describe('an lm-eval samples file holding 100 of the 609 samples its results file reports', () => {
  const r = scoreFile(SAMPLES, { bootstrap: 0 });
  // The file's own per-sample verdicts, read by Python: the accuracy over the samples it holds.
  const own = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(json.dumps({'n': len(rows), 'acc': sum(r['acc'] for r in rows) / len(rows)}))`, SAMPLES], { encoding: 'utf8' }));

  it('keeps the reported figures with the count they are over, beside the recomputed ones', () => {
    expect(r.n).toBe(own.n);
    expect(r.metrics.accuracy).toBeCloseTo(own.acc, 6);
    expect(r.reported.accuracy).toBe(RESULTS.results.bias_classification['acc,none']);
    expect(r.reportedOn).toBe(RESULTS['n-samples'].bias_classification.effective);
    expect(r.reportedOn).toBe(609);
  });

  it('says it is a subset, and flags no disagreement', () => {
    expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
    const note = r.problems.find((p) => p.code === 'reported-subset')!;
    expect(note.severity).toBe('info');
    expect(note.message).toMatch(/holds 100 of the 609 samples lm-eval scored for bias_classification/);
  });

  it('the CLI shows "reported … on 609 samples", never "✗ disagrees"; --json carries reportedOn', async () => {
    const table = await runCli(['score', SAMPLES]);
    expect(table.stdout).toMatch(/accuracy +0\.\d{4} .*reported 0\.5107 on 609 samples/);
    expect(table.stdout).not.toMatch(/disagrees/);
    const json = JSON.parse((await runCli(['score', SAMPLES, '--json'])).stdout).results[0];
    expect(json.reportedOn).toBe(609);
    expect(json.problems.some((p: { code: string }) => p.code === 'reported-mismatch')).toBe(false);
  });

  it('a file holding every sample the results file scored is compared as before', async () => {
    const full = scoreFile(join(resolve(__dirname, '../../fixtures/real/lm-eval/Qwen__Qwen3-8B'), 'samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl'), { bootstrap: 0 });
    expect(full.reportedOn).toBeUndefined();
    expect(full.problems.some((p) => p.code === 'reported-subset')).toBe(false);
  });
});
