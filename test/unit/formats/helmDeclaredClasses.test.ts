// HELM scenario_state.json of a multiple-choice run: the run declares its classes (each request's
// output_mapping, A/B/C for BBQ), so macro-F1 averages over those letters only, as docs/metrics.md
// says ("all of the task's classes when the task declares them"). A completion that is no letter
// (Qwen2-72B wrote "The" twice) counts against its gold class's recall but is not a class itself.
// Fixture: the first 45 request states of a real HELM v4 BBQ run (see the fixture's NOTICE row).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { REAL } from '../realData';

const RUN = join(REAL, 'helm', 'helm-v4-bbq', 'bbq-subject=all,method=multiple_choice_joint,model=qwen_qwen2-72b-instruct');

describe('HELM scenario_state.json: macro-F1 over the declared letters', () => {
  it('averages F1 over A, B and C, not over the non-letter answer "The"', () => {
    const r = scoreFile(join(RUN, 'scenario_state.json'), { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    // Python on the same file: 42 of 45 first completions equal the gold letter; per-letter F1
    // (2tp / (2tp + fp + fn)) A 0.896552, B 0.969697, C 1.0, their mean 0.9554162312783002
    // (= sklearn f1_score(gold, pred, labels=['A','B','C'], average='macro')).
    expect(r.metrics.accuracy).toBeCloseTo(42 / 45, 12);
    expect(r.metrics.macro_f1).toBeCloseTo(0.9554162312783002, 12);
    // The non-letter answer stays visible as a predicted class, with no support of its own.
    expect(r.classStats?.classes.slice(0, 3)).toEqual(['A', 'B', 'C']);
    expect(r.classStats?.classes).toContain('The');
  });
});
