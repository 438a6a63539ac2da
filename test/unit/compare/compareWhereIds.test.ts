// compare --where on MT-Bench judgments (dreaming-panda/MTBench, NOTICE.md): gpt-4_single.jsonl
// judges one model (Griffin; IDs question/turn), gpt-4_single-origin.jsonl two (IDs
// model/question/turn). With --where model=Griffin both runs are Griffin's and pair by question and
// turn. Before: the filter dropped the IDs, and compare warned "No file has instance IDs" and paired
// the rows by order (wrong as soon as the files list the questions in different orders).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaths } from '../../../src/core/compareFiles';

const DIR = resolve(__dirname, '../../fixtures/real/mt-bench/dreaming-panda');
const ONE = join(DIR, 'gpt-4_single.jsonl');
const TWO = join(DIR, 'gpt-4_single-origin.jsonl');
const MODEL = 'Meta-Llama-3-8B-Instruct-Griffin';

/** Python: the model's valid scores (not -1) by (question, turn) in each file, first of repeats; the common keys; each file's mean over them. */
const PY = String.raw`
import json, sys
model = sys.argv[3]
def scores(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        if r['model'] == model and r['score'] != -1:
            out.setdefault((r['question_id'], r['turn']), r['score'])
    return out
a, b = scores(sys.argv[1]), scores(sys.argv[2])
keys = sorted(set(a) & set(b))
print(json.dumps({'n': len(keys), 'mean': [sum(a[k] for k in keys) / len(keys), sum(b[k] for k in keys) / len(keys)],
                  'models2': sorted({json.loads(l)['model'] for l in open(sys.argv[2])})}))
`;

describe('compare --where model=X on judge files with question/turn IDs', () => {
  it('pairs by ID after the filter, in whatever order the files list the questions', () => {
    // The candidate with its lines reversed: pairing by row order would set different questions side by side.
    const reversed = join(mkdtempSync(join(tmpdir(), 'compare-where-')), 'gpt-4_single-origin.jsonl');
    writeFileSync(reversed, readFileSync(TWO, 'utf8').trimEnd().split('\n').reverse().join('\n') + '\n');
    const ref = JSON.parse(execFileSync('python3', ['-c', PY, ONE, reversed, MODEL], { encoding: 'utf8' }));
    expect(ref.models2.length).toBe(2);
    expect(ref.n).toBe(8);
    const c = comparePaths([ONE, reversed], { bootstrap: 200, where: { terms: [`model=${MODEL}`] } });
    expect(c.aligned_by).toBe('id');
    expect(c.aligned).toBe(ref.n);
    expect(c.problems.filter((p) => /row order|instance IDs/.test(p.message))).toEqual([]);
    const m = c.metrics.judge_score!;
    expect(m.values[0]).toBeCloseTo(ref.mean[0], 12);
    expect(m.values[1]).toBeCloseTo(ref.mean[1], 12);
    // The same judgments in both files: every paired difference is 0, so is every resample's.
    expect(m.deltas[1]).toBe(0);
    expect(m.intervals[1]).toEqual([0, 0]);
  });
});
