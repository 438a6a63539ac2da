// FastChat MT-Bench pair judgments (the real phi-3 against phi-3-dpo file, both orders, two pairs
// with an "error" verdict): the two-order rule per model as show_result.py prints it, the position
// bias and its Wilson interval, the length bias; and hand-made records for every verdict combination.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';
import { runCli } from '../../../src/cli/main';
import { answerLengths } from '../../../src/core/judges/mtBench';
import { HAVE_PYTHON, REAL_MT_BENCH, close, reference } from './reference';

const PAIR = join(REAL_MT_BENCH, 'phi-3-pair', 'gpt-4_pair.jsonl');

function pairFile(records: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mtpair-'));
  const path = join(dir, 'gpt-4_pair.jsonl');
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

describe('MT-Bench pair judgments', () => {
  it('are detected', () => {
    expect(detectFormat(PAIR, readFileSync(PAIR, 'utf8').slice(0, 16 * 1024))).toBe('mt-bench');
  });

  it.skipIf(!HAVE_PYTHON)('phi-3: show_result.py\'s table, the position bias and the length bias, as Python computes them', () => {
    const ref = reference('pair', PAIR);
    const r = scoreFile(PAIR);
    expect(r.n).toBe(ref.n);
    expect(r.n).toBe(73);
    expect(r.judge!.invalid).toBe(ref.invalid);
    expect(r.judge!.invalid).toBe(2);
    expect(r.judge!.kind).toBe('pairwise');
    for (const row of r.judge!.win_table!) {
      const want = ref.table[row.model];
      expect([row.win, row.loss, row.tie]).toEqual([want.win, want.loss, want.tie]);
      close(row.win_rate, want.win_rate, 1e-12, `${row.model} win_rate`);
      close(row.loss_rate, want.loss_rate, 1e-12, `${row.model} loss_rate`);
      close(row.win_rate_adjusted, want.win_rate_adjusted, 1e-12, `${row.model} win_rate_adjusted`);
      const g = r.groups!.groups.find((x) => x.value === row.model)!;
      close(g.metrics.win_rate_adjusted, want.win_rate_adjusted, 1e-12, 'group win_rate_adjusted');
      expect(g.n).toBe(73);
    }
    const pb = r.judge!.position_bias!;
    expect(pb.differ).toBe(ref.differ);
    expect(pb.pairs).toBe(73);
    expect(pb.first_shown).toBe(ref.first_shown);
    expect(pb.second_shown).toBe(ref.second_shown);
    close(r.metrics.position_bias, ref.position_bias, 1e-12, 'position_bias');
    close(r.intervals.position_bias![0], ref.position_interval[0], 1e-9, 'position_bias low');
    close(r.intervals.position_bias![1], ref.position_interval[1], 1e-9, 'position_bias high');
    close(r.metrics.length_bias, ref.length_bias, 1e-9, 'length_bias');
    close(r.judge!.length_bias!.interval![0], ref.length_interval[0], 1e-9, 'length_bias low');
    expect(r.problems.find((p) => p.code === 'invalid-verdict')!.message).toMatch(/2 of 75 verdicts are an "error" verdict/);
  });

  it('the two-order rule on every combination of verdicts', () => {
    const base = { question_id: 81, model_1: 'a', model_2: 'b', judge: ['gpt-4', 'pair-v2'], turn: 1 };
    const verdicts = ['model_1', 'model_2', 'tie', 'error'];
    const records = verdicts.flatMap((g1) => verdicts.map((g2) => ({ ...base, g1_winner: g1, g2_winner: g2 })));
    const r = scoreFile(pairFile(records));
    // 7 pairs hold an error; of the 9 valid, a wins one (both model_1), b one (both model_2), 7 are ties.
    expect(r.n).toBe(9);
    expect(r.judge!.invalid).toBe(7);
    const a = r.judge!.win_table!.find((t) => t.model === 'a')!;
    expect([a.win, a.loss, a.tie]).toEqual([1, 1, 7]);
    expect(a.win_rate).toBeCloseTo(1 / 9, 15);
    expect(a.win_rate_adjusted).toBeCloseTo((1 + 3.5) / 9, 15);
    // Differ: (m1, m2), (m1, tie), (m2, m1), (m2, tie), (tie, m1), (tie, m2) = 6 of 9.
    expect(r.judge!.position_bias).toMatchObject({ differ: 6, pairs: 9, first_shown: 1, second_shown: 1, tie_in_one: 4 });
    expect(r.metrics.position_bias).toBeCloseTo(6 / 9, 15);
  });

  it('an unknown verdict is a problem on its line; the rest is scored', () => {
    const base = { question_id: 81, model_1: 'a', model_2: 'b', judge: ['gpt-4', 'pair-v2'], turn: 1 };
    const r = scoreFile(pairFile([
      { ...base, g1_winner: 'model_1', g2_winner: 'model_1' },
      { ...base, g1_winner: 'A', g2_winner: 'model_1' },
      { ...base, model_2: undefined, g1_winner: 'tie', g2_winner: 'tie' },
    ]));
    expect(r.n).toBe(1);
    expect(r.skipped).toBe(2);
    expect(r.problems.find((p) => p.line === 2)!.message).toMatch(/"g1_winner" holds "A"; FastChat writes "model_1", "model_2", "tie" or "error"/);
    expect(r.problems.find((p) => p.line === 3)!.message).toMatch(/"model_2" is missing/);
  });

  it('reads the answers\' lengths out of single- and multi-turn pair prompts', () => {
    const single = "[User Question]\nq\n\n[The Start of Assistant A's Answer]\nabcé\n[The End of Assistant A's Answer]\n\n[The Start of Assistant B's Answer]\n😀x\n[The End of Assistant B's Answer]";
    expect(answerLengths(single)).toEqual([4, 2]);
    const multi = "<|The Start of Assistant A's Conversation with User|>\n\n### User:\nq1\n\n### Assistant A:\nfirst\n\n### User:\nq2\n\n### Assistant A:\nsecond!\n\n<|The End of Assistant A's Conversation with User|>\n\n\n<|The Start of Assistant B's Conversation with User|>\n\n### User:\nq1\n\n### Assistant B:\nx\n\n### User:\nq2\n\n### Assistant B:\nyz\n\n<|The End of Assistant B's Conversation with User|>";
    expect(answerLengths(multi)).toEqual([7, 2]);
    expect(answerLengths('no markers')).toBeUndefined();
  });

  it.skipIf(!HAVE_PYTHON)('a pair file among three models gets arena ratings from its two-order outcomes', () => {
    // The real records, with a third model: every other pair is phi-3-dpo against "phi-3-mini".
    const recs = readFileSync(PAIR, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const three = recs.map((x, i) => (i % 3 === 0 ? { ...x, model_1: 'phi-3-mini' } : i % 3 === 1 ? x : { ...x, model_1: 'phi-3-dpo', model_2: 'phi-3-mini' }));
    const path = pairFile(three);
    const r = scoreFile(path, { bootstrap: 30 });
    expect(r.judge!.kind).toBe('arena');
    expect(r.judge!.headline).toBe('rating');
    // The same verdicts as battles (the two-order rule's winner, else a tie), fitted in Python.
    const battles = three.filter((x) => x.g1_winner !== 'error' && x.g2_winner !== 'error').map((x) => ({
      model_a: x.model_1, model_b: x.model_2,
      winner: x.g1_winner === x.g2_winner && x.g1_winner !== 'tie' ? (x.g1_winner === 'model_1' ? 'model_a' : 'model_b') : 'tie',
    }));
    const dir = mkdtempSync(join(tmpdir(), 'mtpair-'));
    writeFileSync(join(dir, 'battles.json'), JSON.stringify(battles));
    const ref = reference('arena', join(dir, 'battles.json'));
    for (const x of r.judge!.ratings!) close(x.rating, ref.ratings[x.model], 0.05, `${x.model} rating`);
    expect(r.groups!.groups.map((g) => g.value)).toEqual(r.judge!.ratings!.map((x) => x.model));
  });

  it('position bias is among the figures of score --json', async () => {
    const res = JSON.parse((await runCli(['score', '--json', PAIR])).stdout).results[0];
    expect(res.metrics.position_bias).toBeCloseTo(27 / 73, 12);
    expect(res.intervals.position_bias).toHaveLength(2);
    expect(res.judge.position_bias.differ).toBe(27);
    expect(res.judge.win_table).toHaveLength(2);
  });
});
