// Few-sample letter answers are labels (issue 26.4, docs/formats.md "Inspect"): on fewer than 10
// samples, answers count as free text only when they read as prose. The answers are what the scorer
// compared (its `answer`, A/D/A), not the completions around them, which are prose as soon as the
// model gives a reason ("… so the answer is A."): those made a 3-sample log free text, without macro-F1.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';

const TARGETS = ['A', 'B', 'D'];
const ANSWERS = ['A', 'D', 'A'];

/** An Inspect log (the shape of test/fixtures/inspect/issue17/board/arc.json) of three multiple-choice samples. */
function letterLog(): string {
  const samples = TARGETS.map((target, i) => ({
    id: i + 1, epoch: 1, input: `Question ${i + 1}: which option is right?`, target,
    choices: ['first option', 'second option', 'third option', 'fourth option'],
    output: { completion: `Reading the question carefully, the best supported option is ${ANSWERS[i]}.\nANSWER: ${ANSWERS[i]}` },
    scores: { choice: { value: ANSWERS[i] === target ? 'C' : 'I', answer: ANSWERS[i] } },
  }));
  const log = {
    version: 2, status: 'success',
    eval: { task: 'letters', model: 'demo/model', dataset: { samples: 3 } },
    results: { total_samples: 3, completed_samples: 3, scores: [{ name: 'choice', scorer: 'choice', params: {}, metrics: { accuracy: { name: 'accuracy', value: 1 / 3, params: {} } } }] },
    samples,
  };
  const path = join(mkdtempSync(join(tmpdir(), 'eval-lens-letters-')), 'letters.json');
  writeFileSync(path, JSON.stringify(log));
  return path;
}

describe('an Inspect log of three letter answers', () => {
  const r = scoreFile(letterLog(), { bootstrap: 0 });

  it('is labels: macro-F1 and the per-class table are there, and no free-text note', () => {
    const want = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `from sklearn.metrics import f1_score, accuracy_score
import json
g, p = ${JSON.stringify(TARGETS)}, ${JSON.stringify(ANSWERS)}
print(json.dumps({'macro_f1': f1_score(g, p, average='macro'), 'accuracy': accuracy_score(g, p)}))`], { encoding: 'utf8' }));
    expect(r.n).toBe(3);
    expect(r.metrics.accuracy).toBeCloseTo(want.accuracy, 6);
    expect(r.metrics.macro_f1).toBeCloseTo(want.macro_f1, 6);
    expect(r.classStats?.classes.slice().sort()).toEqual(['A', 'B', 'D']);
    expect(r.problems.some((p) => /free text/.test(p.message))).toBe(false);
  });

  it('answers that read as prose are still free text on a handful of samples', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'eval-lens-prose-')), 'prose.json');
    const log = JSON.parse(readFileSync(letterLog(), 'utf8'));
    for (const s of log.samples) {
      s.target = `the ${s.target} option is the one the passage supports`;
      s.scores.choice.answer = `I think the answer is ${s.scores.choice.answer} because of the passage`;
    }
    writeFileSync(path, JSON.stringify(log));
    const free = scoreFile(path, { bootstrap: 0 });
    expect(free.metrics.macro_f1).toBeUndefined();
    expect(free.problems.some((p) => /free text/.test(p.message))).toBe(true);
  });
});
