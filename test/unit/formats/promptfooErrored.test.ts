// promptfoo results whose provider errored (failureReason 2: an API error, no output). They stay in
// the pass rate as not passed, as promptfoo's own pass rate successes / (successes + failures +
// errors) counts them (its eval command and stats), but a warning says how many errored, that an
// error is not a wrong answer, and the pass rate over the results that have an output; a file where
// every result errored no longer reads as a plain "accuracy 0.0000". The files are hand-made in the
// shape of `promptfoo eval -o results.json` (version 3; the real one this came from has no licence).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';

const API_ERROR = 'Error: No candidates returned in API response.\n\nGot response: {"error":{"code":404,"message":"models/toy-model is not found for API version v1beta","status":"NOT_FOUND"}}';

type Outcome = 'pass' | 'fail' | 'error';

/** One prompt on one provider; each test's outcome as promptfoo writes it. */
function resultsFile(outcomes: Outcome[]): string {
  const provider = 'google:toy-model';
  const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
  const results = outcomes.map((o, testIdx) => ({
    cost: 0,
    ...(o === 'error' ? { error: API_ERROR, gradingResult: null, response: { error: API_ERROR } } : {}),
    // An assertion failure's reason is written to `error` too: that alone is no sign of an errored result.
    ...(o === 'fail' ? { error: 'Expected output to contain "olumsuz"', gradingResult: { pass: false, score: 0, reason: 'Expected output to contain "olumsuz"' }, response: { output: 'pozitif' } } : {}),
    ...(o === 'pass' ? { gradingResult: { pass: true, score: 1, reason: 'All assertions passed' }, response: { output: 'olumsuz' } } : {}),
    id: `result-${testIdx}`, latencyMs: 10, namedScores: {},
    prompt: { raw: `Review ${testIdx}`, label: 'prompts/zero-shot.txt: Review {{review}}' },
    promptIdx: 0, provider: { id: provider, label: '' },
    score: o === 'pass' ? 1 : 0, success: o === 'pass', testIdx, vars: { review: `review ${testIdx}` },
    failureReason: o === 'pass' ? 0 : o === 'fail' ? 1 : 2,
  }));
  const doc = {
    evalId: 'eval-toy-2026-01-01T00:00:00',
    results: {
      version: 3, timestamp: '2026-01-01T00:00:00.000Z',
      prompts: [{ raw: 'Review {{review}}', label: 'prompts/zero-shot.txt: Review {{review}}', provider, metrics: { score: count('pass'), testPassCount: count('pass'), testFailCount: count('fail'), testErrorCount: count('error'), namedScores: {}, namedScoresCount: {} } }],
      results,
      stats: { successes: count('pass'), failures: count('fail'), errors: count('error') },
    },
    config: { description: 'Toy sentiment eval' },
  };
  const dir = mkdtempSync(join(tmpdir(), 'promptfoo-errored-'));
  const path = join(dir, 'results.json');
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return path;
}

const warnings = (path: string) => scoreFile(path, { bootstrap: 0 }).problems.filter((p) => p.severity === 'warning');

describe('promptfoo results that errored', () => {
  it('every result an API error: accuracy 0 as promptfoo reports it, and a warning that no result has an output', () => {
    const path = resultsFile(['error', 'error', 'error']);
    const r = scoreFile(path, { bootstrap: 0 });
    // promptfoo's pass rate: successes / (successes + failures + errors) = 0 / 3.
    expect(r.metrics.accuracy).toBe(0);
    expect(r.reported.accuracy).toBe(0);
    const w = warnings(path);
    expect(w).toHaveLength(1);
    expect(w[0].message).toMatch(/^3 of 3 results errored, with no output \(the first: "Error: No candidates returned in API response\. Got response:/);
    expect(w[0].message).toMatch(/an error is no wrong answer/);
    expect(w[0].message).toMatch(/No result has an output: the accuracy says nothing of the model/);
    expect(w[0].message).toMatch(/its stats: 3 errors/);
    // The wrong answers are grouped by the error text as written, not lower-cased.
    expect(r.errorGroups).toEqual([{ gold: null, predicted: API_ERROR.replace(/\s+/g, ' '), count: 3 }]);
  });

  it('some errored: counted as not passed (promptfoo\'s pass rate), the pass rate over answered results in the warning', () => {
    const path = resultsFile(['pass', 'fail', 'error', 'error']);
    const r = scoreFile(path, { bootstrap: 0 });
    // promptfoo: 1 success / (1 + 1 failure + 2 errors) = 0.25; over the 2 results with an output, 1 / 2 = 0.5.
    expect(r.metrics.accuracy).toBeCloseTo(0.25, 12);
    expect(r.reported.accuracy).toBeCloseTo(0.25, 12);
    const w = warnings(path);
    expect(w).toHaveLength(1);
    expect(w[0].message).toMatch(/^2 of 4 results errored/);
    expect(w[0].message).toMatch(/Over the 2 results with an output the pass rate is 0\.5000 \(1 passed\)/);
  });

  it('an assertion failure (its reason in `error` too) is a wrong answer, not an error: no warning', () => {
    expect(warnings(resultsFile(['pass', 'fail', 'fail']))).toEqual([]);
  });
});
