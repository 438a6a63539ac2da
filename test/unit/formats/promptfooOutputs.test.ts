// promptfoo's other outputs: `-o results.jsonl` and `-o results.csv`. Real CSVs of the older layout
// (promptfoo's own examples, MIT: test/fixtures/real/promptfoo/csv), and the JSONL and the current
// CSV layout made from the real results.json files by test/fixtures/promptfoo/make_fixtures.py,
// written after promptfoo's writers. Every figure against Python's csv/json reading of the same file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';

const ROOT = resolve(__dirname, '..', '..', '..');
const MADE = join(ROOT, 'test', 'fixtures', 'promptfoo');
const REAL = join(ROOT, 'test', 'fixtures', 'real', 'promptfoo');
const PY = '/usr/bin/python3';

const head = (p: string) => readFileSync(p, 'utf8').slice(0, 16 * 1024);

/** Python's reading: per prompt column, the cells' verdicts and scores (the two layouts). */
function pyCsv(path: string): { columns: { passed: number; n: number; scores: number[] }[] } {
  const code = `
import csv, json, re, sys
rows = list(csv.reader(open(sys.argv[1], encoding='utf-8', newline='')))
h, body = rows[0], rows[1:]
block = ['Status', 'Score', 'Named Scores', 'Grader Reason', 'Comment']
starts = [i for i in range(len(h)) if h[i + 1:i + 6] == block]
out = []
if starts:
    for s in starts:
        cells = [r for r in body if r[s + 1] != '']
        out.append({'passed': sum(r[s + 1] == 'PASS' for r in cells), 'n': len(cells), 'scores': [float(r[s + 2]) for r in cells if r[s + 2] != '']})
else:
    for c in range(len(h)):
        cells = [r[c] for r in body if r[c] != '']
        if cells and all(re.match(r'\\[(PASS|FAIL|ERROR)\\]', x) for x in cells):
            scores = [float(m.group(1)) for m in (re.match(r'\\[\\w+\\] \\((-?[0-9.]+)', x) for x in cells) if m]
            out.append({'passed': sum(x.startswith('[PASS]') for x in cells), 'n': len(cells), 'scores': scores})
print(json.dumps({'columns': out}))
`;
  return JSON.parse(execFileSync(PY, ['-c', code, path], { encoding: 'utf8' }));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('promptfoo -o results.jsonl', () => {
  it('is promptfoo (before: a generic table, with a hint to map label=cost), and scores as the results.json it came from', () => {
    const jsonl = join(MADE, 'sample-export.jsonl');
    expect(detectFormat(jsonl, head(jsonl))).toBe('promptfoo');
    const fromLines = scoreFile(jsonl);
    const fromJson = scoreFile(join(REAL, 'sample-export.json'));
    expect(fromLines.format).toBe('promptfoo');
    expect(fromLines.models).toEqual(fromJson.models);
    for (const model of fromJson.models!) {
      const a = scoreFile(jsonl, { model });
      const b = scoreFile(join(REAL, 'sample-export.json'), { model });
      expect(a.n).toBe(b.n);
      expect(a.metrics.accuracy).toBe(b.metrics.accuracy);
      expect(a.taskMetrics!.map((t) => [t.name, t.n, t.mean])).toEqual(b.taskMetrics!.map((t) => [t.name, t.n, t.mean]));
    }
    // No stats in a JSONL: nothing reported, and the report says why.
    expect(fromLines.reported ?? {}).toEqual({});
    expect(fromLines.problems.some((p) => p.message.includes('results.jsonl holds the results only'))).toBe(true);
  });

  it('named scores are means over the results that carry them, as in results.json', () => {
    const r = scoreFile(join(MADE, 'french-greeting-output.jsonl'));
    const doc = JSON.parse(readFileSync(join(REAL, 'french-greeting-output.json'), 'utf8'));
    const named = doc.results.results[0].namedScores as Record<string, number>;
    for (const [k, v] of Object.entries(named)) expect(r.taskMetrics!.find((t) => t.name === k)!.mean).toBeCloseTo(v, 12);
    expect(r.metrics.accuracy).toBe(0);
  });
});

describe('promptfoo results.json of version 2', () => {
  it('results without promptIdx find their column by provider and prompt template, as version 3 by promptIdx', () => {
    const v2 = join(MADE, 'sample-export.v2.json');
    expect(detectFormat(v2, head(v2))).toBe('promptfoo');
    const v3 = join(REAL, 'sample-export.json');
    expect(scoreFile(v2).models).toEqual(scoreFile(v3).models);
    for (const model of scoreFile(v3).models!) {
      const a = scoreFile(v2, { model });
      const b = scoreFile(v3, { model });
      expect([a.n, a.metrics.accuracy, a.taskMetrics!.map((t) => t.mean), a.reported]).toEqual([b.n, b.metrics.accuracy, b.taskMetrics!.map((t) => t.mean), b.reported]);
    }
  });
});

describe('promptfoo -o results.csv', () => {
  it.each([
    ['current layout (Status, Score, Named Scores, ... per prompt)', join(MADE, 'sample-export.blocks.csv')],
    ['older layout, "[PASS] (1.00)\\n\\n<output>\\n\\nPass Reason: ..." (examples/simple-cli/output.csv)', join(REAL, 'csv', 'simple-cli-output.csv')],
    ['oldest layout, "[PASS] <output>" without a score, a JSON prompt header (examples/openai-function-call/output.csv)', join(REAL, 'csv', 'openai-function-call-output.csv')],
  ])('%s: promptfoo, each prompt column a model, pass rate and score as Python reads the cells', (_name, file) => {
    expect(detectFormat(file, head(file))).toBe('promptfoo');
    const ref = pyCsv(file);
    const first = scoreFile(file);
    expect(first.format).toBe('promptfoo');
    const models = first.models ?? [first.sourceModel!];
    expect(models).toHaveLength(ref.columns.length);
    models.forEach((model, k) => {
      const r = scoreFile(file, { model });
      const want = ref.columns[k];
      expect(r.n).toBe(want.n);
      expect(r.metrics.accuracy).toBeCloseTo(want.passed / want.n, 12);
      const score = r.taskMetrics?.find((t) => t.name === 'score');
      if (want.scores.length) expect(score!.mean).toBeCloseTo(mean(want.scores), 12);
      else expect(score).toBeUndefined();
    });
  });

  it('the current layout: named scores from their JSON column, the grader\'s reason as the explanation, rounding said', () => {
    const file = join(MADE, 'french-greeting-output.blocks.csv');
    const r = scoreFile(file);
    expect(r.taskMetrics!.find((t) => t.name === 'Topicality')!.mean).toBe(0.6);
    expect(r.problems.some((p) => p.message.includes('two decimals'))).toBe(true);
    const doc = JSON.parse(readFileSync(join(REAL, 'french-greeting-output.json'), 'utf8'));
    const texts = r.texts!;
    expect(texts.values[0][texts.fields.indexOf('explanation')]).toBe(doc.results.results[0].gradingResult.reason);
  });
});
