// A results summary of another harness: {"results": {task: {metric: number}}} beside its model and
// judge settings, as every_eval_ever's sayf_eval converter fixture (NOTICE.md). Before, it was
// refused: "named like a results summary ... but no results were found in its first kilobytes".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const FILE = resolve(__dirname, '../../fixtures/real/summaries/sayf-eval/results_fixture.json');

describe('a results summary of task -> metrics', () => {
  it('is a summary: every number of every task, named task/metric, with the task\'s total as n', () => {
    expect(detectFormat(FILE, readFileSync(FILE, 'utf8'))).toBe('summary');
    const ref: Record<string, [number, number]> = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps({f"{t}/{k}": [v, m['total']] for t, m in d['results'].items() for k, v in m.items() if isinstance(v, (int, float))}))`, FILE], { encoding: 'utf8' }));
    const r = scoreFile(FILE, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(0);
    expect(Object.keys(r.reported!).sort()).toEqual(Object.keys(ref).sort());
    for (const [name, [value, total]] of Object.entries(ref)) {
      expect(r.reported![name]).toBeCloseTo(value, 12);
      const figure = r.summary!.figures.find((f) => f.name === name)!;
      if (!name.endsWith('/total')) expect(figure.n).toBe(total);
    }
  });

  it('an object whose results are not metrics is not one', () => {
    expect(detectFormat('/x/results_a.json', '{"results": {"a": {"path": "x.txt"}}}')).not.toBe('summary');
  });
});
