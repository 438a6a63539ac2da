// Pairwise verdicts whose winner is the winning model's own name, and "inconsistent" where the
// judge's two orders disagreed: kook222/mt_bench_repro's Korean MT-Bench pairs (NOTICE.md: 12 of 80
// records, whole), {question_id, model_a, model_b, judge_id, winner, winner_ab, winner_ba, ...}.
// Before, every verdict was left out ("a winner other than model_a, model_b, tie") and the file refused.
// The repository's own rule (src/mtbench_repro/aggregate.py) counts "inconsistent" as half a win each,
// as FastChat's two-order rule counts a disagreement; the counts here are Python's over the same file.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core';

const FILE = resolve(__dirname, '../../fixtures/real/mt-bench/kook222-ko/EXAONE-3.5-7.8B-Instruct_vs_gemma-2-9b-it.jsonl');

const PY = String.raw`
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
out = {}
for m in ('EXAONE-3.5-7.8B-Instruct', 'gemma-2-9b-it'):
    win = sum(r['winner'] == m for r in rows)
    tie = sum(r['winner'] in ('tie', 'inconsistent') for r in rows)
    loss = len(rows) - win - tie
    out[m] = {'win': win, 'loss': loss, 'tie': tie, 'adjusted': (win + tie / 2) / len(rows)}
out['inconsistent'] = sum(r['winner'] == 'inconsistent' for r in rows)
out['judges'] = sorted({r['judge_id'] for r in rows})
print(json.dumps(out))
`;

describe('arena verdicts naming the winning model', () => {
  it('a winner that names a model is its win; "inconsistent" is a tie, said once', () => {
    const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, FILE], { encoding: 'utf8' }));
    expect(ref.inconsistent).toBeGreaterThan(0);
    const r = scoreFile(FILE, { bootstrap: 0 });
    expect(r.format).toBe('arena');
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(12);
    expect(r.judge!.judges).toEqual(ref.judges);
    for (const row of r.judge!.win_table!) {
      const m = ref[row.model];
      expect([row.win, row.loss, row.tie]).toEqual([m.win, m.loss, m.tie]);
      expect(row.win_rate_adjusted).toBeCloseTo(m.adjusted, 12);
    }
    const said = r.problems.filter((p) => /say "inconsistent"/.test(p.message));
    expect(said).toHaveLength(1);
    expect(said[0].message).toMatch(new RegExp(`^${ref.inconsistent} verdicts`));
  });
});
