// compare of two lm-eval generation runs (truthfulqa_gen of gpt-neo-125M, real, trimmed) printed an
// empty table and exited 0 (sweep 12, defect 8): their only figures are the task's per-sample
// metrics (bleu_acc, rouge1_max, …), which compare does not pair, as it does not pair a scores
// table's. It now refuses them the same way: exit 2 and a message naming the metrics and the
// `score` command that shows them side by side.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { comparePaths } from '../../../src/core/compareFiles';
import { CompareError } from '../../../src/core/compare/compare';
import { REAL } from '../realData';

const DIR = join(REAL, 'lm-eval', 'gpt-neo-125M-truthfulqa_gen');
const A = join(DIR, 'samples_truthfulqa_gen_2025-05-31T13-51-32.759677.jsonl');
const B = join(DIR, 'samples_truthfulqa_gen_2025-05-31T14-30-51.983293.jsonl');

describe('compare of runs whose only figures are task metrics', () => {
  it('throws a not-applicable CompareError naming the metrics', () => {
    let err: unknown;
    try { comparePaths([A, B], { bootstrap: 100 }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(CompareError);
    expect((err as CompareError).notApplicable).toBe(true);
    expect((err as CompareError).message).toMatch(/free-text answers and no figure compare pairs .*\(bleu_max, bleu_acc, bleu_diff, rouge1_max, rouge1_acc, rouge1_diff, …\)/);
  });

  it('the CLI exits 2 with the message on stderr and prints no table', async () => {
    const out = await runCli(['compare', A, B, '--bootstrap', '100']);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^eval-lens: cannot compare: .*Score the files side by side instead: eval-lens score /);
  });
});
