// The text header of `compare`: the rows left out (not in every run) are counted per run, each
// count named by its run. Before: "left out (not in every run): 0, 2", read as instance IDs beside
// the warning naming the IDs "4" and "5" (two Inspect logs of arc).
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { folktextsFile, makeFolktextsCandidate, tempDir } from './tempRuns';

describe('compare header: the rows left out, per run', () => {
  // The folktexts example has 2000 rows; a candidate drops 5 of them (1995), another none (2000).
  const dropped = makeFolktextsCandidate(tempDir(), 5);
  const whole = makeFolktextsCandidate(tempDir(), 0, 4);

  it('two runs: each count names its run', async () => {
    const out = await runCli(['compare', folktextsFile, dropped, '--bootstrap', '0']);
    expect(out.code).toBe(0);
    // 1995 in both; the baseline's 5 others are left out, none of the candidate's.
    expect(out.stdout).toContain('aligned: 1995 instances by ID; rows left out (not in every run): 5 of the baseline, 0 of the candidate\n');
  });

  it('several candidates: numbered as in the tables below', async () => {
    const out = await runCli(['compare', folktextsFile, dropped, whole, '--bootstrap', '0']);
    expect(out.code).toBe(0);
    // 1995 in all three: 5 left out of the baseline, none of candidate 1, 5 of candidate 2.
    expect(out.stdout).toContain('aligned: 1995 instances by ID; rows left out (not in every run): 5 of the baseline, 0 of candidate 1, 5 of candidate 2\n');
    expect(out.stdout).toContain(`candidate 1: ${dropped}\n`);
  });
});
