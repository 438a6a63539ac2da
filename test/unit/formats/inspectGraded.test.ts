// An Inspect scorer of graded values (defect D4, second half): every_eval_ever's cyse2 log
// (NOTICE.md) scores a vulnerability-exploit challenge 0.65, the share of its constraints met, and
// its results report the scorer's accuracy, mean and std. Before, the mean of such values was
// labelled "accuracy"; it is Inspect's mean metric, shown under that name beside the log's own
// mean. A scorer of right or wrong (intercode's "I") keeps its accuracy.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scoreFile } from '../../../src/core/score';

const EEE = resolve(__dirname, '../../fixtures/real/inspect-ai/every-eval-ever');
const CYSE2 = join(EEE, 'data_cyse2_vuln_exploit_challenges.json');
const CTF = join(EEE, 'data_intercode_ctf_local_path.json');

describe('an Inspect scorer of graded values', () => {
  // The log read by Python: the sample's value and the scorer's reported metrics.
  const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `import json, sys
d = json.load(open(sys.argv[1]))
s = d['results']['scores'][0]
vals = [x['scores'][s['name']]['value'] for x in d['samples']]
print(json.dumps({'scorer': s['name'], 'values': vals, 'mean': sum(vals) / len(vals),
  'metrics': {k: m['value'] for k, m in s['metrics'].items()}}))`, CYSE2], { encoding: 'utf8' }));

  it('is shown as the mean of the values, under Inspect\'s name for it, beside the log\'s mean', () => {
    expect(ref.values).toEqual([0.65]);
    expect(Object.keys(ref.metrics)).toEqual(['accuracy', 'mean', 'std']);
    const r = scoreFile(CYSE2, { bootstrap: 0 });
    expect(r.metrics.accuracy).toBeUndefined();
    expect(r.taskMetrics).toHaveLength(1);
    const mean = r.taskMetrics![0];
    expect(mean.name).toBe('mean');
    expect(mean.mean).toBeCloseTo(ref.mean, 12);
    expect(mean.reported).toBe(ref.metrics.mean);
    // The log's accuracy stays among the reported figures, not set against a recomputed accuracy.
    expect(r.reported.accuracy).toBe(ref.metrics.accuracy);
    const row = r.breakdown!.find((b) => b.label === `${ref.scorer} · reduced (mean)`)!;
    expect(Object.keys(row.metrics)).toEqual(['mean', 'stderr']);
    expect(row.metrics.mean).toBeCloseTo(ref.mean, 12);
    expect(r.problems.some((p) => p.code === 'undefined-metric' && /graded values \(0\.65\)/.test(p.message))).toBe(true);
    // A scorer of right or wrong (intercode's "I") keeps its accuracy.
    const ctf = scoreFile(CTF, { bootstrap: 0 });
    expect(ctf.metrics.accuracy).toBe(0);
    expect(ctf.taskMetrics).toBeUndefined();
  });

  it('the CLI prints "mean 0.6500 reported 0.3811 on 2,340 samples" and no accuracy line', async () => {
    const out = (await runCli(['score', CYSE2])).stdout;
    expect(out).toMatch(/^\s+mean\s+0\.6500\s+reported 0\.3811 on 2,340 samples$/m);
    expect(out).not.toMatch(/^\s+accuracy\s+0\.6500/m);
    expect(out).toMatch(/also reported: accuracy 0\.3811, std 0\.3116/);
  });
});
