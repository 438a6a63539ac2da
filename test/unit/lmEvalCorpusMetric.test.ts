// lm-eval tasks whose metric is corpus-level (test/fixtures/real/lm-eval/google__gemma-2b/:
// masakhaner_luo_prompt_2 on gemma-2b, 0-shot and 5-shot, the first 20 samples of 185 each,
// DERIVED; NOTICE rows in the commit). Each sample logs its f1 as the pair [gold, prediction], and
// lm-eval computes f1 once over all the pairs with the task's span_f1_agg. The answers are free text
// and there is no per-sample verdict: Eval Lens used to show an exact-match "accuracy" of the pairs
// as the headline (0.0541 on the whole 0-shot run: 10 of 185 matches, every one an empty gold
// against an empty answer), which compare then tested by McNemar. Now no accuracy or macro-F1 is
// shown, the note names the corpus-level metric, its aggregation and lm-eval's figure.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaths } from '../../src/core/compareFiles';
import { scoreFile } from '../../src/core/score';

const DIR = resolve(__dirname, '../fixtures/real/lm-eval/google__gemma-2b');
const ZERO = join(DIR, 'samples_masakhaner_luo_prompt_2_2026-01-16T16-37-38.713565.jsonl');
const FIVE = join(DIR, 'samples_masakhaner_luo_prompt_2_2026-01-16T20-02-07.371221.jsonl');

/** Python's reading of the file: rows, whether every f1 is a [gold, pred] pair, the figure of the results file. */
const PY = String.raw`
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
res = json.load(open(sys.argv[2]))
print(json.dumps({
    'n': len(rows),
    'pairs': all(isinstance(r['f1'], list) and len(r['f1']) == 2 for r in rows),
    'verdicts': [k for k in ('exact_match', 'acc', 'em', 'exact', 'correct', 'accuracy') if any(k in r for r in rows)],
    'f1': res['results']['masakhaner_luo_prompt_2']['f1,flexible-extract'],
    'agg': res['configs']['masakhaner_luo_prompt_2']['metric_list'][0]['aggregation'].split('(')[0][4:],
}))
`;
const py = (samples: string, results: string) => JSON.parse(execFileSync('python3', ['-c', PY, samples, results], { encoding: 'utf8' }));

describe('an lm-eval task whose per-sample metric is a (gold, pred) pair (corpus-level f1)', () => {
  const ref = py(ZERO, join(DIR, 'results_2026-01-16T16-37-38.713565.json'));
  const report = scoreFile(ZERO, { bootstrap: 0 });

  it('is the shape this is about: every f1 a pair, no per-sample verdict', () => {
    expect(ref.pairs).toBe(true);
    expect(ref.verdicts).toEqual([]);
    expect(report.n).toBe(ref.n);
  });

  it('shows no exact-match accuracy and no macro-F1 as a headline', () => {
    expect(report.fatal).toBeUndefined();
    expect(report.metrics.accuracy).toBeUndefined();
    expect(report.metrics.macro_f1).toBeUndefined();
    expect(report.classStats).toBeNull();
  });

  it('names the corpus-level metric, its aggregation and lm-eval\'s figure, which is shown beside', () => {
    expect(report.reported.f1).toBe(ref.f1);
    const note = report.problems.find((p) => p.code === 'undefined-metric');
    expect(note?.message).toContain('lm-eval\'s f1 is a corpus-level metric');
    expect(note?.message).toContain(`(${ref.agg})`);
    expect(ref.agg).toBe('span_f1_agg');
    expect(note?.message).toContain(`lm-eval's f1 for this run is ${ref.f1} (results_2026-01-16T16-37-38.713565.json`);
    expect(note?.message).toContain('not recomputed here');
  });

  it('says when no results file gives the figure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmeval-corpus-'));
    const alone = join(dir, 'samples_masakhaner_luo_prompt_2_2026-01-16T16-37-38.713565.jsonl');
    copyFileSync(ZERO, alone);
    const r = scoreFile(alone, { bootstrap: 0 });
    expect(r.metrics.accuracy).toBeUndefined();
    expect(r.reported).toEqual({});
    expect(r.problems.find((p) => p.code === 'undefined-metric')?.message).toContain('no results file beside this one gives lm-eval\'s figure');
  });

  it('compare pairs no figure, no agreement table, and says why for each run', () => {
    const five = py(FIVE, join(DIR, 'results_2026-01-16T20-02-07.371221.json'));
    const c = comparePaths([ZERO, FIVE], { bootstrap: 100 });
    expect(c.aligned).toBe(ref.n);
    expect(c.metrics).toEqual({});
    expect(c.agreement).toEqual([null, null]);
    const notes = c.problems.filter((p) => p.code === 'undefined-metric');
    expect(notes.map((p) => p.path)).toEqual([ZERO, FIVE]);
    expect(notes[0].message).toMatch(/^No figure of this run is compared: lm-eval's f1 is a corpus-level metric/);
    expect(notes[1].message).toContain(`lm-eval's f1 for this run is ${five.f1}`);
  });
});
