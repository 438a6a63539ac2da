// Judge grades named score_turn1, score_turn2, avg_score (1-10, pnu-clink/korean-mt-bench's
// single_grade files, Apache-2.0) are per-sample scores, not probabilities: the table is the scores
// kind, each grade column's mean a figure. Before, it was refused with "No column holds the gold
// label ... --map label=COLUMN", a mapping that could not score it. On the whole 80-row file the means
// are 7.8875 / 8.1375 / 8.0125 (python3 json, checked by hand); the fixture keeps its first 20 rows,
// whose means Python computes here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';
import { REAL } from '../realData';

const FILE = join(REAL, 'mt-bench', 'korean-mt-bench', 'single_grade_gemma-2-9b-it.jsonl');
const PY = String.raw`
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(json.dumps({k: sum(r[k] for r in rows) / len(rows) for k in ['score_turn1', 'score_turn2', 'avg_score']}))
`;

describe('judge grade columns (score_*, avg_score) without a gold label', () => {
  it('are the scores kind, one mean per grade column, and no timestamp mean', () => {
    const ref: Record<string, number> = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, FILE], { encoding: 'utf8' }));
    // The CLI and a folder scan detect it first: a table of per-sample scores is the generic reader's.
    expect(detectFormat(FILE, readFileSync(FILE, 'utf8').slice(0, 8192))).toBe('generic');
    const r = scoreFile(FILE, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('scores');
    expect(r.n).toBe(20);
    expect(r.taskMetrics!.map((t) => t.name)).toEqual(['score_turn1', 'score_turn2', 'avg_score']);
    for (const t of r.taskMetrics!) expect(t.mean).toBeCloseTo(ref[t.name], 12);
  });

  it('a score_<class> column of probabilities beside a label is still a class probability', () => {
    // Content decides: values in [0, 1] under score_* are not grades.
    const dir = mkdtempSync(join(tmpdir(), 'grades-'));
    const file = join(dir, 'p.csv');
    writeFileSync(file, 'label,score_cat,score_dog,score_eel\ncat,0.7,0.2,0.1\ndog,0.3,0.6,0.1\neel,0.2,0.1,0.7\ncat,0.5,0.4,0.1\n');
    const r = scoreFile(file, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('multiclass');
    expect(r.metrics.accuracy).toBeCloseTo(1, 12);
  });
});
