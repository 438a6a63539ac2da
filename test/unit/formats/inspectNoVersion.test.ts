// An Inspect log written without its "version" key, as another tool dumps a log's header (status,
// eval, plan, results, stats; no samples): every_eval_ever's tests/data/inspect/data_with_llm_scoring.json
// (NOTICE.md), a model-graded SimpleQA run. Before, detection wanted "version" first and the file
// went to the generic reader: "No prediction fields were recognised in its first record".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const LOG = resolve(__dirname, '../../fixtures/real/inspect-ai/every-eval-ever/data_with_llm_scoring.json');

describe('Inspect log without its version key', () => {
  it('is an Inspect log, read as one written without samples, its scorer\'s figures reported', () => {
    const head = readFileSync(LOG, 'utf8').slice(0, 16384);
    expect(head.trimStart().startsWith('{\n    "status"')).toBe(true);
    expect(detectFormat(LOG, head)).toBe('inspect');
    const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys
d = json.load(open(sys.argv[1]))
m = d['results']['scores'][0]['metrics']
print(json.dumps({'keys': list(d), 'accuracy': m['accuracy']['value'], 'stderr': m['stderr']['value']}))`, LOG], { encoding: 'utf8' }));
    expect(ref.keys).not.toContain('version');
    expect(ref.keys).not.toContain('samples');
    const r = scoreFile(LOG, { bootstrap: 0 });
    expect(r.format).toBe('inspect');
    expect(r.fatal).toMatch(/holds no samples/);
    expect(r.reported!.accuracy).toBeCloseTo(ref.accuracy, 12);
    expect(r.reported!.stderr).toBeCloseTo(ref.stderr, 12);
  });

  it('a JSON object that merely starts with a status is not claimed', () => {
    expect(detectFormat('/x/job.json', '{"status": "success", "eval": {"name": "x"}}')).not.toBe('inspect');
  });
});
