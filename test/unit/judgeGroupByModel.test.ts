// --group-by on a judge file grading several models: a judge's figure is per model (no judge_score
// over several models), so each group of the column is split by model ("model · value") and every
// group has its judge_score. Before, the groups of turn held both models' rows and showed no figure
// at all. The means are recomputed in Python from the file (the later of a judgment given twice).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../src/core';
import { runCli } from '../../src/cli/main';
import { REAL } from './realData';
import { PY_LAST_JUDGMENTS } from './pythonReferences';

const ORIGIN = join(REAL, 'mt-bench', 'dreaming-panda', 'gpt-4_single-origin.jsonl');
const MEDUSA = join(REAL, 'mt-bench', 'medusa', 'model_judgment', 'gpt-4_single.jsonl');

/** Python: "model · turn" -> n and mean, over the last judgment of each key, -1 dropped. */
function pythonByModelTurn(path: string): Record<string, { n: number; mean: number }> {
  const script = `${PY_LAST_JUDGMENTS}
out = {}
for m, q, t, s in valid:
    out.setdefault(f'{m} \\u00b7 {t}', []).append(s)
print(json.dumps({k: {'n': len(v), 'mean': sum(v) / len(v)} for k, v in out.items()}))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
}

describe('--group-by on a judge file of several models', () => {
  for (const [what, path, groups] of [['dreaming-panda, two models', ORIGIN, 4], ['Medusa, three models', MEDUSA, 6]] as const) {
    it(`${what}: one group per model and turn, each with its judge_score`, () => {
      const r = scoreFile(path, { groupBy: { column: 'turn' } });
      const want = pythonByModelTurn(path);
      expect(Object.keys(want)).toHaveLength(groups);
      expect(r.groups!.column).toBe('turn');
      const got = Object.fromEntries(r.groups!.groups.map((g) => [g.value, { n: g.n, mean: g.metrics.judge_score }]));
      expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
      for (const [k, v] of Object.entries(want)) {
        expect(got[k].n, k).toBe(v.n);
        expect(got[k].mean, k).toBeCloseTo(v.mean, 12);
      }
      // The split is said, and each row is in the group of its model.
      expect(r.problems.some((p) => p.code === 'group-column' && p.message.includes(`judges ${groups / 2} models`))).toBe(true);
    });
  }

  it('grouping by the model column itself is not split again; a one-model file keeps plain values', () => {
    const r = scoreFile(ORIGIN, { groupBy: { column: 'model' } });
    expect(r.groups!.groups.map((g) => g.value).sort()).toEqual(['Meta-Llama-3-8B-Instruct-Griffin', 'Meta-Llama-3-8B-Instruct-Normal']);
    expect(r.groups!.groups.every((g) => typeof g.metrics.judge_score === 'number')).toBe(true);
    const one = scoreFile(join(REAL, 'mt-bench', 'instructlab-granite', 'gpt-4_single.jsonl'), { groupBy: { column: 'turn' } });
    expect(one.groups!.groups.map((g) => g.value)).toEqual(['1', '2']);
  });

  it('score --group-by turn prints each group whole (the model names share their first 24 characters) with its figure', async () => {
    const out = await runCli(['score', ORIGIN, '--group-by', 'turn']);
    expect(out.code).toBe(0);
    // By hand: Normal turn 1 keeps lines 11-20 (98 / 10), turn 2 lines 21-24 (21 / 4); Griffin 21 / 4 and 18 / 4.
    expect(out.stdout).toMatch(/Meta-Llama-3-8B-Instruct-Normal · 1 +10 {2}9\.8000/);
    expect(out.stdout).toMatch(/Meta-Llama-3-8B-Instruct-Normal · 2 +4 {2}5\.2500/);
    expect(out.stdout).toMatch(/Meta-Llama-3-8B-Instruct-Griffin · 1 +4 {2}5\.2500/);
    expect(out.stdout).toMatch(/Meta-Llama-3-8B-Instruct-Griffin · 2 +4 {2}4\.5000/);
  });
});
