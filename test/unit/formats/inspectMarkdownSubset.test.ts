// The Markdown report of a log holding part of its run (defect D4, --markdown): every_eval_ever's
// one-sample cyse2 log (NOTICE.md), whose results are over 2,340 samples. Its mean's reported
// figure is shown with that count and not marked as disagreeing, as the terminal table does;
// before, the task-metric table said "0.3811 ✗ disagrees".
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';

const CYSE2 = resolve(__dirname, '../../fixtures/real/inspect-ai/every-eval-ever/data_cyse2_vuln_exploit_challenges.json');

describe('--markdown on an Inspect log holding 1 of its run\'s 2,340 samples', () => {
  it('shows the reported mean with its count, not as disagreeing', async () => {
    const md = (await runCli(['score', CYSE2, '--markdown'])).stdout;
    expect(md).toMatch(/\| `mean` \| 1 \| 0\.6500 \| 0\.3811 on 2,340 samples \|/);
    expect(md).not.toMatch(/disagrees/);
  });
});

describe('--markdown on the intercode log holding 1 of its run\'s 79 samples', () => {
  it('shows the reported accuracy with its count', async () => {
    const md = (await runCli(['score', resolve(__dirname, '../../fixtures/real/inspect-ai/every-eval-ever/data_intercode_ctf_local_path.json'), '--markdown'])).stdout;
    expect(md).toMatch(/\| `accuracy` \| 0\.0000 \|.*\| 0\.3544 on 79 samples \|/);
    expect(md).not.toMatch(/disagrees/);
  });
});
