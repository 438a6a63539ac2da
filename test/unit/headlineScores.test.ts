// The one-line summary (CodeLens, tree, status bar) of a table of per-sample scores (Ragas): its
// scores' means, as the report's task metrics give them, not "judge score n/a" (found by the
// journey suite, issue 28). A judge file keeps its judge figures.
import { resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../src/core/score';
import { headlineText, summaryLine } from '../../src/extension/editor/headline';

const RAGAS = resolve(__dirname, '../fixtures/real/ragas/ragas_evaluation_results.csv');

describe('the summary line of a table of per-sample scores', () => {
  it('names its first scores with their means (pandas skips the NaNs; a score with no value is n/a), and n', () => {
    const means = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys, pandas as pd
d = pd.read_csv(sys.argv[1])
m = [d[c].mean() for c in ['faithfulness', 'answer_relevancy', 'context_precision']]
print(json.dumps(['n/a' if v != v else '%.3f' % v for v in m]))`, RAGAS], { encoding: 'utf8' })) as string[];
    const r = scoreFile(RAGAS, { bootstrap: 0 });
    expect(summaryLine(r)).toBe(`faithfulness ${means[0]} · answer_relevancy ${means[1]} · context_precision ${means[2]} · n=3`);
    expect(headlineText(r)).toBe(`faithfulness ${means[0]}`);
  });

  it('a judge file of several models gives each model\'s mean, best first, not "n/a" (pandas: valid scores only, FastChat\'s rule)', () => {
    const file = resolve(__dirname, '../fixtures/real/mt-bench/medusa/model_judgment/gpt-4_single.jsonl');
    const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys, pandas as pd
d = pd.read_json(sys.argv[1], lines=True)
d = d[d.score != -1]
m = d.groupby('model').score.mean().sort_values(ascending=False)
print(json.dumps({'rows': [[k, '%.3f' % v] for k, v in m.items()], 'n': len(d)}))`, file], { encoding: 'utf8' })) as { rows: [string, string][]; n: number };
    const r = scoreFile(file, { bootstrap: 0 });
    expect(r.kind).toBe('scores');
    expect(ref.rows.length).toBe(3);
    expect(summaryLine(r)).toBe(`judge score by model: ${ref.rows.map(([m, v]) => `${m} ${v}`).join(', ')} · n=${ref.n}`);
    expect(headlineText(r)).toBe(`3 models, best judge score ${ref.rows[0][1]}`);
  });
});
