// MT-Bench single judgments given twice: dreaming-panda/MTBench's gpt-4_single-origin.jsonl has
// questions 81-90 (turn 1) of one model judged on lines 1-10 and again on lines 11-20 (a re-run
// appended after four ratings could not be parsed). Each judgment counts once, the later one, and
// every earlier line is reported with its key. The figures are recomputed in Python from the file.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scoreInput } from '../../src/core';
import { textInput } from '../../src/core/formats/context';
import { REAL } from './realData';

const ORIGIN = join(REAL, 'mt-bench', 'dreaming-panda', 'gpt-4_single-origin.jsonl');

/** Per model, keeping the last judgment of each (model, question, turn, judge) and dropping -1: n and mean. */
function pythonFigures(path: string): Record<string, { n: number; mean: number }> {
  const script = `
import json, sys
last = {}
for i, line in enumerate(open(sys.argv[1], encoding='utf-8'), 1):
    r = json.loads(line)
    last[(r['model'], r['question_id'], r['turn'], '/'.join(r['judge']))] = r['score']
out = {}
for (m, q, t, j), s in last.items():
    if s == -1: continue
    out.setdefault(m, []).append(s)
print(json.dumps({m: {'n': len(v), 'mean': sum(v) / len(v)} for m, v in out.items()}))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
}

describe('MT-Bench: a judgment given twice', () => {
  it('is counted once (the later line), and each earlier line is a warning naming the key and the line kept', () => {
    const r = scoreFile(ORIGIN);
    expect(r.fatal).toBeUndefined();
    const want = pythonFigures(ORIGIN);
    // By hand: Normal keeps lines 11-20 (98) and 21-24 (21): 14 grades, 119 / 14 = 8.5; Griffin 39 / 8.
    expect(want['Meta-Llama-3-8B-Instruct-Normal']).toEqual({ n: 14, mean: 8.5 });
    expect(want['Meta-Llama-3-8B-Instruct-Griffin']).toEqual({ n: 8, mean: 4.875 });
    const models = Object.fromEntries(r.judge!.judged!.models.map((m) => [m.model, { n: m.n, mean: m.mean }]));
    expect(models).toEqual(want);
    expect(r.n).toBe(22);
    expect(r.skipped).toBe(10);
    // Lines 1-4 held -1 but were judged again: no invalid verdict is left.
    expect(r.judge!.invalid).toBe(0);
    const dups = r.problems.filter((p) => p.code === 'duplicate-id');
    expect(dups.map((p) => p.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(dups.every((p) => p.severity === 'warning')).toBe(true);
    expect(dups[0].message).toBe('Line 1: Meta-Llama-3-8B-Instruct-Normal on question 81, turn 1 is judged again on line 11; the later judgment is kept (gen_judgment.py appends a re-run to the file), so this one is left out.');
    expect(dups[9].message).toContain('question 90, turn 1 is judged again on line 20');
  });

  it('the same question judged for another turn, another model or by another judge is no duplicate', () => {
    const rec = (model: string, q: number, turn: number, judge: string, score: number) =>
      JSON.stringify({ question_id: q, model, judge: ['gpt-4', judge], user_prompt: 'p', judgment: `Rating: [[${score}]]`, score, turn, tstamp: 1 });
    const text = [rec('a', 81, 1, 'single-v1', 5), rec('a', 81, 2, 'single-v1-multi-turn', 6), rec('b', 81, 1, 'single-v1', 7), rec('a', 81, 1, 'other-prompt', 8)].join('\n');
    const r = scoreInput(textInput('/virtual/gpt-4_single.jsonl', text));
    expect(r.n).toBe(4);
    expect(r.problems.filter((p) => p.code === 'duplicate-id')).toEqual([]);
  });
});
