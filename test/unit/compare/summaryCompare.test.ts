// Compare of summaries (results files, leaderboards): they hold figures and no samples, so there is
// nothing to pair. Compare says so as "does not apply" (exit 2, the page's n/a), naming which file is
// the summary, instead of "nothing could be scored" as if the file were broken (found by the journey).
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { compareRunsDetailed } from '../../../src/core/compare/compare';
import { CompareError } from '../../../src/core/compare/align';
import { parseFile } from '../../../src/core/score';

const SUMMARIES = resolve(__dirname, '../../fixtures/real/summaries/lighteval');
const A = join(SUMMARIES, 'SmolLM2-1.7B-Instruct/results_2026-01-21T03-44-18.458309.json');
const B = join(SUMMARIES, 'eee-smoke/results_2026-08-10T17-22-11.385681.json');
const PREDICTIONS = resolve(__dirname, '../../fixtures/workspace/folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv');

describe('compare of summaries', () => {
  it('is not applicable, with the reason and where the figures are', () => {
    let caught: unknown;
    try {
      compareRunsDetailed([{ path: A, parsed: parseFile(A) }, { path: B, parsed: parseFile(B) }]);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CompareError);
    expect((caught as CompareError).notApplicable).toBe(true);
    expect((caught as Error).message).toContain(`${A} is a summary (`);
    expect((caught as Error).message).toContain(`${B} is a summary (`);
    expect((caught as Error).message).not.toMatch(/nothing could be scored/);
  });

  it('in the CLI: exit 2 and the words', async () => {
    const out = await runCli(['compare', A, B]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/is a summary \(lighteval's results summary\): they hold figures computed elsewhere, not per-sample predictions/i);
    expect(out.stderr).toContain(`eval-lens score ${A} ${B}`);
  });

  it('a summary against a predictions file names the summary only', async () => {
    const out = await runCli(['compare', PREDICTIONS, A]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${A} is a summary (`);
    expect(out.stderr).not.toContain(`${PREDICTIONS} is a summary`);
    expect(out.stderr).toContain('(lighteval\'s results summary): it holds figures');
  });
});
