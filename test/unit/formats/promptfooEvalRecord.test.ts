// promptfoo's Node package: `JSON.stringify(await promptfoo.evaluate(...))` writes the Eval record
// itself (promptfoo's src/models/eval.ts: {_resultsLoaded, createdAt, id, config, results, prompts,
// persisted, vars}), as promptfoo's own examples/config-node-package/output.json did. Before, it was
// a generic table: "No column is named as the gold label", nothing shown.
//  - persisted (results: []): the real file, its prompts trimmed to four whole entries (NOTICE.md),
//    is a summary of its columns' own metrics, alone and in its folder;
//  - in memory (results: [EvalResult]): made in the shape of src/models/evalResult.ts, scored as
//    results.results are, against Python reading the same file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const DIR = resolve(__dirname, '../../fixtures/real/promptfoo/node-package');
const PERSISTED = join(DIR, 'eval-record-persisted.json');
const IN_MEMORY = join(DIR, 'eval-record-in-memory.json');

/** Each column's pass rate and mean score from its metrics; each provider's figures from the results. */
const PY = String.raw`
import json, sys
import numpy as np
doc = json.load(open(sys.argv[1]))
cols = []
for p in doc['prompts']:
    m = p['metrics']
    total = m['testPassCount'] + m['testFailCount'] + m['testErrorCount']
    cols.append({'provider': p['provider'], 'n': total, 'accuracy': m['testPassCount'] / total, 'score': m['score'] / total,
                 'named': {k: v / m['namedScoresCount'][k] for k, v in m['namedScores'].items()}})
models = {}
for r in doc['results']:
    models.setdefault(r['provider']['id'], []).append(r)
out = {}
for name, rows in models.items():
    named = {}
    for r in rows:
        for k, v in r['namedScores'].items():
            named.setdefault(k, []).append(v)
    out[name] = {'n': len(rows), 'accuracy': float(np.mean([r['success'] for r in rows])),
                 'score': float(np.mean([r['score'] for r in rows])), 'named': {k: [len(v), float(np.mean(v))] for k, v in named.items()}}
print(json.dumps({'columns': cols, 'models': out}))
`;

function python(path: string): any {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, path], { encoding: 'utf8' }));
}

describe('promptfoo Eval record (the Node package\'s evaluate() result)', () => {
  it('is promptfoo\'s by content', () => {
    for (const path of [PERSISTED, IN_MEMORY]) expect(detectFormat(path, readFileSync(path, 'utf8').slice(0, 16384))).toBe('promptfoo');
  });

  it('without its results it is a summary: each column\'s pass rate and mean score as promptfoo counted them', () => {
    const ref = python(PERSISTED);
    const r = scoreFile(PERSISTED, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(0);
    expect(r.summary?.harness).toBe('promptfoo');
    const names = ['openai:gpt-4.1-mini #0', 'openai:gpt-4.1-mini #1', 'My custom function #2', 'My custom function #3'];
    expect(ref.columns.map((c: any) => c.provider)).toEqual(['openai:gpt-4.1-mini', 'openai:gpt-4.1-mini', 'My custom function', 'My custom function']);
    names.forEach((name, i) => {
      expect(r.reported![`${name}/accuracy`]).toBeCloseTo(ref.columns[i].accuracy, 12);
      expect(r.reported![`${name}/score`]).toBeCloseTo(ref.columns[i].score, 12);
      expect(r.summary!.figures.find((f) => f.name === `${name}/accuracy`)!.n).toBe(ref.columns[i].n);
    });
    expect(r.problems.some((p) => /stayed in promptfoo's database/.test(p.message))).toBe(true);
  });

  it('reads the same alone and in its folder', () => {
    const alone = scoreFile(PERSISTED, { bootstrap: 0 });
    const folder = scorePath(DIR, { bootstrap: 0 }).reports.find((x) => resolve(x.path) === PERSISTED)!;
    expect(folder.format).toBe(alone.format);
    expect(folder.fatal).toBe(alone.fatal);
    expect(folder.reported).toEqual(alone.reported);
  });

  it('with its results in memory, each EvalResult is a sample, one provider at a time, promptfoo\'s column metrics beside', () => {
    const ref = python(IN_MEMORY);
    for (const model of ['openai:gpt-4.1-mini', 'anthropic:claude-3-5-haiku']) {
      const m = ref.models[model];
      const r = scoreFile(IN_MEMORY, { bootstrap: 0, model });
      expect(r.format).toBe('promptfoo');
      expect(r.task).toBe('Haiku writers');
      expect(r.n).toBe(m.n);
      expect(r.metrics.accuracy).toBeCloseTo(m.accuracy, 12);
      const col = ref.columns.find((c: any) => c.provider === model);
      expect(r.reported!.accuracy).toBeCloseTo(col.accuracy, 12);
      const byName = Object.fromEntries(r.taskMetrics!.map((t) => [t.name, t]));
      expect(byName.score.mean).toBeCloseTo(m.score, 12);
      expect(byName.score.reported).toBeCloseTo(col.score, 12);
      // A result without the named score (the errored one) is left out of its mean, not counted as 0.
      expect(byName.haiku.n).toBe(m.named.haiku[0]);
      expect(byName.haiku.mean).toBeCloseTo(m.named.haiku[1], 12);
      expect(byName.haiku.reported).toBeCloseTo(col.named.haiku, 12);
    }
    expect(ref.models['anthropic:claude-3-5-haiku'].named.haiku[0]).toBe(2);
  });
});
