// An Inspect log holding part of its run (defect D4): every_eval_ever's test logs keep one sample of
// runs whose results are over 2,340 (cyse2) and 79 (intercode CTF) samples (NOTICE.md). The results'
// figures are of the whole run, so they are shown with that count and not compared with the figures
// recomputed on the one sample: before, "reported 0.3811 ✗ disagrees" and a reported-mismatch warning.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scoreFile } from '../../../src/core/score';

const EEE = resolve(__dirname, '../../fixtures/real/inspect-ai/every-eval-ever');
const CYSE2 = join(EEE, 'data_cyse2_vuln_exploit_challenges.json');
const CTF = join(EEE, 'data_intercode_ctf_local_path.json');

/** What the log says, read by Python: its samples, the run's counts and the first scorer's figures. */
function facts(path: string): { held: number; total: number; completed: number; metrics: Record<string, number> } {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', `import json, sys
d = json.load(open(sys.argv[1]))
r = d['results']
print(json.dumps({'held': len(d['samples']), 'total': r['total_samples'], 'completed': r['completed_samples'],
  'metrics': {k: m['value'] for k, m in r['scores'][0]['metrics'].items()}}))`, path], { encoding: 'utf8' }));
}

describe('an Inspect log holding fewer samples than its run scored', () => {
  for (const [path, task] of [[CYSE2, 'cyse2'], [CTF, 'intercode']] as const) {
    it(`${task}: keeps the run's figures with their count, says subset, flags no mismatch`, () => {
      const f = facts(path);
      expect(f.held).toBe(1);
      expect(f.held).toBeLessThan(f.completed);
      const r = scoreFile(path, { bootstrap: 0 });
      expect(r.n).toBe(1);
      expect(r.reportedOn).toBe(f.completed);
      expect(r.reported.accuracy).toBe(f.metrics.accuracy);
      expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
      const note = r.problems.find((p) => p.code === 'reported-subset')!;
      expect(note.severity).toBe('info');
      expect(note.message).toContain(`holds 1 of the ${f.completed.toLocaleString('en-US')} samples`);
      // A log holding every sample of its run is still compared.
      const whole = join(resolve(__dirname, '../../fixtures/real/inspect-ai'), '2025-05-12T20-28-13-04-00_popularity.json');
      expect(facts(whole).held).toBe(facts(whole).total);
      expect(scoreFile(whole, { bootstrap: 0 }).reportedOn).toBeUndefined();
    });
  }

  it('the CLI shows "reported … on 2,340 samples", never "✗ disagrees"', async () => {
    const out = (await runCli(['score', CYSE2])).stdout;
    expect(out).toMatch(/reported 0\.3811 on 2,340 samples/);
    expect(out).not.toMatch(/disagrees/);
    expect(out).not.toMatch(/reported-mismatch/);
    const ctf = (await runCli(['score', CTF])).stdout;
    expect(ctf).toMatch(/reported 0\.3544 on 79 samples/);
    expect(ctf).not.toMatch(/disagrees/);
  });
});
