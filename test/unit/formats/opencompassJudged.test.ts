// OpenCompass subjective results: results/<model>_judged-by--<judge>/<dataset>.json as the dataset's
// dict_postprocessor writes it (open-compass/opencompass, opencompass/datasets/subjective/mtbench.py:
// mtbench_postprocess returns get_capability_results' mean rating per capability and 'total', each
// round(·, 2), plus results['details'] = the judge's output {"0": {origin_prompt, prediction, gold}}).
// No such file is public with a licence that allows a copy: this one is made in that shape, and its
// figures are the postprocessor's own rule applied by Python to the details. Before, it was a generic
// refusal ("No prediction fields: total, writing, ...").
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';

const RATINGS: [string, number][] = [['writing', 8], ['writing', 9], ['roleplay', 6], ['reasoning', 4], ['math', 7], ['math', 2]];

function makeRun(): string {
  const root = mkdtempSync(join(tmpdir(), 'oc-judged-'));
  const dir = join(root, 'results', 'qwen-7b_judged-by--gpt-4o');
  mkdirSync(dir, { recursive: true });
  const details = Object.fromEntries(RATINGS.map(([capability, r], i) => [String(i), {
    origin_prompt: [{ role: 'HUMAN', prompt: `[Instruction] Please act as an impartial judge ... question ${i}` }],
    prediction: `The response is reasonable. Rating: [[${r}]]`,
    gold: { capability, turn: 1, question_id: 81 + i },
  }]));
  // get_capability_results, by Python over the details (post_process_mtbench reads "Rating: [[x]]").
  const figures = JSON.parse(execFileSync('/usr/bin/python3', ['-c', String.raw`
import json, re, sys
from collections import defaultdict
details = json.loads(sys.argv[1])
tot, cnt = defaultdict(float), defaultdict(int)
for v in details.values():
    s = float(re.search(r'Rating: \[\[([\d.]+)\]\]', v['prediction']).group(1))
    for k in ('total', v['gold']['capability']):
        tot[k] += s; cnt[k] += 1
print(json.dumps({k: round(tot[k] / cnt[k], 2) for k in tot}))`, JSON.stringify(details)], { encoding: 'utf8' }));
  writeFileSync(join(dir, 'mtbench_0.json'), JSON.stringify({ ...figures, details }, null, 4));
  return join(dir, 'mtbench_0.json');
}

describe('OpenCompass subjective results (a judge\'s figures, its verdict texts as details)', () => {
  it('is a summary of the postprocessor\'s figures, named by dataset, the model from its folder, alone and in its folder', () => {
    const path = makeRun();
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.format).toBe('summary');
    expect(r.fatal).toBeUndefined();
    expect(r.summary?.harness).toBe('OpenCompass');
    expect(r.sourceModel).toBe('qwen-7b');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    const expected = Object.fromEntries(Object.entries(file).filter(([k]) => k !== 'details').map(([k, v]) => [`mtbench_0/${k}`, v]));
    expect(r.reported).toEqual(expected);
    expect(r.reported!['mtbench_0/total']).toBeCloseTo(Math.round((RATINGS.reduce((a, [, x]) => a + x, 0) / RATINGS.length) * 100) / 100, 12);
    expect(r.problems.some((p) => /gpt-4o/.test(p.message) && /6 details are the judge's verdict texts/.test(p.message))).toBe(true);
    const folder = scorePath(join(path, '..', '..', '..'), { bootstrap: 0 }).reports.find((x) => x.path.endsWith('mtbench_0.json'))!;
    expect(folder.reported).toEqual(r.reported);
  });
});
