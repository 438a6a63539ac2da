// Error groups (issue 20): the mistakes by (gold, predicted) pair, most frequent first, ties by gold
// then predicted name, checked against pandas on RAFT's real banking_77 train set with predictions
// made for it; free-text answers grouped by the normalised answer; binary sets by FN and FP.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { binaryErrorGroups, multiclassErrorGroups } from '../../../src/core/metrics/errorGroups';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import { REAL } from '../realData';

const PY = '/usr/bin/python3';
const hasPandas = spawnSync(PY, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0;

describe('error groups', () => {
  it.skipIf(!hasPandas)('RAFT banking_77: every misclassified pair and its count, as pandas counts them', async () => {
    const data = join(REAL, 'raft');
    const task = JSON.parse(readFileSync(join(data, 'banking_77', 'task.json'), 'utf8')) as { label_columns: Record<string, string[]> };
    const classes = Object.values(task.label_columns)[0];
    const py = spawnSync(PY, ['-c', `
import pandas as pd, sys
t = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)
print('\\n'.join(t['ID'] + '\\t' + t['Label']))`, join(data, 'banking_77', 'train.csv')], { encoding: 'utf8' });
    const gold = py.stdout.trim().split('\n').map((l) => l.split('\t'));
    // A model that errs on 40% of rows, often towards a few favourite classes (so counts tie and differ).
    const random = mulberry32(77);
    const favourites = [classes[3], classes[10], classes[11]];
    const rows = gold.map(([id, label]) => {
      const r = random();
      const pred = r < 0.25 ? favourites[Math.floor(random() * 3)] : r < 0.4 ? classes[Math.floor(random() * classes.length)] : label;
      return `${id},${pred}`;
    });
    const run = mkdtempSync(join(tmpdir(), 'eval-lens-errors-'));
    mkdirSync(join(run, 'banking_77'));
    writeFileSync(join(run, 'banking_77', 'predictions.csv'), 'ID,Label\n' + rows.join('\n') + '\n');
    const out = await runCli(['score', '--json', join(run, 'banking_77', 'predictions.csv'), '--raft-data', data]);
    const groups = (JSON.parse(out.stdout) as { results: { error_groups: { gold: string; predicted: string; count: number }[] }[] }).results[0].error_groups;
    const expected = spawnSync(PY, ['-c', `
import pandas as pd, sys, json
g = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)
p = pd.read_csv(sys.argv[2], dtype=str, keep_default_na=False)
m = g.merge(p, on='ID', suffixes=('_gold', '_pred'))
w = m[m['Label_gold'] != m['Label_pred']]
c = w.groupby(['Label_gold', 'Label_pred']).size().reset_index(name='count')
c = c.sort_values(['count', 'Label_gold', 'Label_pred'], ascending=[False, True, True])
print(json.dumps([{'gold': a, 'predicted': b, 'count': int(n)} for a, b, n in c.itertuples(index=False)]))`, join(data, 'banking_77', 'train.csv'), join(run, 'banking_77', 'predictions.csv')], { encoding: 'utf8' });
    expect(expected.status, expected.stderr).toBe(0);
    const want = JSON.parse(expected.stdout) as typeof groups;
    expect(want.length).toBeGreaterThan(5);
    expect(want.some((g, k) => k > 0 && g.count === want[k - 1].count)).toBe(true); // ties are exercised
    expect(groups).toEqual(want);
  });

  it('free-text answers are grouped by the trimmed, case-folded answer, gold left out, shown as first written', () => {
    const classes = ['Paris', ' paris ', 'PARIS', 'Lyon', 'Berlin'];
    const gold = Int32Array.from([3, 3, 4, 4, 4, 3]);
    const pred = Int32Array.from([0, 1, 2, 3, 4, 3]); // three spellings of paris, one lyon for berlin, two right
    expect(multiclassErrorGroups({ classes, gold, pred, freeText: { reason: 'model-graded', keepAccuracy: true } })).toEqual([
      { gold: null, predicted: 'Paris', count: 3 },
      { gold: null, predicted: 'Lyon', count: 1 },
    ]);
  });

  it('binary sets: false negatives and false positives at the threshold', () => {
    const score = Float64Array.from([0.9, 0.2, 0.6, 0.4, 0.5, 0.1]);
    const label = Uint8Array.from([1, 1, 0, 0, 0, 1]);
    // At 0.5: row 1 (1 -> 0), row 5 (1 -> 0) are FN; rows 2 and 4 (0 -> 1, 0.5 >= 0.5) are FP.
    expect(binaryErrorGroups({ score, label }, 0.5)).toEqual([{ gold: '0', predicted: '1', count: 2 }, { gold: '1', predicted: '0', count: 2 }]);
    expect(binaryErrorGroups({ score, label }, 0.55)).toEqual([{ gold: '1', predicted: '0', count: 2 }, { gold: '0', predicted: '1', count: 1 }]);
  });
});
