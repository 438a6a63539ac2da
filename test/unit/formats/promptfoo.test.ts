// promptfoo results (`promptfoo eval -o results.json`): two real files from promptfoo's own
// repository (test/fixtures/real/promptfoo/, see NOTICE.md: an export comparing two providers, and
// an example with named scores), and one in promptfoo's shape with passes, an assertion failure
// and an error (test/fixtures/harness-shape/make_fixtures.py). Figures are checked against Python
// reading the same files, and against promptfoo's own stats and per-column metrics.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const REAL = resolve(__dirname, '../../fixtures/real/promptfoo');
const SHAPE = resolve(__dirname, '../../fixtures/harness-shape/promptfoo');
const EXPORT = join(REAL, 'sample-export.json');
const FRENCH = join(REAL, 'french-greeting-output.json');
const MIXED = join(SHAPE, 'mixed-results.json');

/** Per provider: n, pass rate, mean score, each named score's mean over the results carrying it; promptfoo's own figures. */
const PY = String.raw`
import json, sys
import numpy as np
doc = json.load(open(sys.argv[1]))
res = doc['results']
out = {}
for r in res['results']:
    out.setdefault(r['provider']['id'], []).append(r)
models = {}
for name, rows in out.items():
    named = {}
    for r in rows:
        for k, v in (r.get('namedScores') or {}).items():
            named.setdefault(k, []).append(v)
    models[name] = {
        'n': len(rows),
        'accuracy': float(np.mean([r['success'] for r in rows])),
        'score': float(np.mean([r['score'] for r in rows])),
        'named': {k: float(np.mean(v)) for k, v in named.items()},
    }
cols = {}
for p in res['prompts']:
    m = p['metrics']
    total = m['testPassCount'] + m['testFailCount'] + m['testErrorCount']
    cols[p['provider']] = {'accuracy': m['testPassCount'] / total, 'score': m['score'] / total,
                           'named': {k: v / m['namedScoresCount'][k] for k, v in m['namedScores'].items()}}
s = res['stats']
print(json.dumps({'models': models, 'order': list(out), 'columns': cols,
                  'stats': s['successes'] / (s['successes'] + s['failures'] + s['errors'])}))
`;

function python(path: string): any {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, path], { encoding: 'utf8' }));
}

describe('promptfoo: detection by content', () => {
  it('claims `promptfoo eval -o` output whatever its name, and not promptfoo\'s other JSON', () => {
    for (const path of [EXPORT, FRENCH, MIXED]) expect(detectFormat(path, readFileSync(path, 'utf8').slice(0, 16384))).toBe('promptfoo');
    // The Eval record a script may dump (promptfoo's examples/config-node-package/output.json) is
    // promptfoo's too: promptfooEvalRecord.test.ts reads it.
    expect(detectFormat('/x/output.json', '{\n  "_resultsLoaded": false,\n  "createdAt": 1758065695513,\n  "id": "eval-IF3",\n  "config": {}, "results": []\n}')).toBe('promptfoo');
  });
});

describe('promptfoo: one sample per result, promptfoo\'s verdict, per-sample scores by name', () => {
  it('a file of one provider: n = its results, pass rate = share of success, mean score, named scores not zero-filled', () => {
    const ref = python(MIXED);
    const m = ref.models['openai:gpt-4o-mini'];
    const r = scoreFile(MIXED, { bootstrap: 0 });
    expect(r.format).toBe('promptfoo');
    expect(r.n).toBe(m.n);
    expect(r.n).toBe(6);
    expect(r.metrics.accuracy).toBeCloseTo(m.accuracy, 12);
    const byName = Object.fromEntries(r.taskMetrics!.map((t) => [t.name, t]));
    expect(byName.score.mean).toBeCloseTo(m.score, 12);
    expect(byName.score.n).toBe(6);
    for (const [k, v] of Object.entries(m.named as Record<string, number>)) expect(byName[k].mean).toBeCloseTo(v, 12);
    // exactness is carried by 3 results: its mean is over those 3, not 6 with zeros.
    expect(byName.exactness.n).toBe(3);
    expect(byName.exactness.mean).toBeCloseTo(2 / 3, 12);
    // The failed result and the errored one are failures, not errors of the file; the errored one is said (it has no output).
    expect(r.problems.filter((p) => p.severity !== 'info').map((p) => p.message)).toEqual([expect.stringMatching(/^1 of 6 results errored, with no output/)]);
    expect(r.skipped).toBe(0);
  });

  it("shows promptfoo's own figures beside them: stats for the pass rate, the column's metrics for score and named scores", () => {
    const ref = python(MIXED);
    const r = scoreFile(MIXED, { bootstrap: 0 });
    expect(r.reported.accuracy).toBeCloseTo(ref.stats, 12);
    expect(r.reported.accuracy).toBeCloseTo(ref.columns['openai:gpt-4o-mini'].accuracy, 12);
    const byName = Object.fromEntries(r.taskMetrics!.map((t) => [t.name, t]));
    expect(byName.score.reported).toBeCloseTo(ref.columns['openai:gpt-4o-mini'].score, 12);
    for (const [k, v] of Object.entries(ref.columns['openai:gpt-4o-mini'].named as Record<string, number>)) expect(byName[k].reported).toBeCloseTo(v, 12);
    expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
  });

  it("keeps the prompt, the output and the grader's reason (or the error) as texts", () => {
    const r = scoreFile(MIXED, { bootstrap: 0 });
    expect(r.texts!.fields).toEqual(['input', 'output', 'explanation', 'failure']);
    const v = r.texts!.values;
    expect(v[0]).toEqual(['Answer in one word: What is the capital of France?', 'Paris', 'All assertions passed', '']);
    expect(v[4]).toEqual(['Answer in one word: Name the largest ocean.', 'The Pacific Ocean is the largest.', 'Expected output to be one word', 'assertion failed']);
    expect(v[5][2]).toBe('API error: 429 Too Many Requests');
    expect(v[5][3]).toBe('error');
    expect(Array.from(r.instances!.correct)).toEqual([1, 1, 1, 1, 0, 0]);
    expect(r.instances!.ids).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('named scores of a real example (french greeting): each mean and its reported sum / count', () => {
    const ref = python(FRENCH);
    const r = scoreFile(FRENCH, { bootstrap: 0 });
    const m = ref.models['openai:gpt-4o-mini'];
    expect(r.n).toBe(1);
    expect(r.metrics.accuracy).toBe(m.accuracy);
    const byName = Object.fromEntries(r.taskMetrics!.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(['score', 'Correctness', 'Tone', 'Topicality', 'Performance']);
    for (const [k, v] of Object.entries(m.named as Record<string, number>)) {
      expect(byName[k].mean).toBeCloseTo(v, 12);
      expect(byName[k].reported).toBeCloseTo(ref.columns['openai:gpt-4o-mini'].named[k], 12);
    }
    expect(r.texts!.values[0][2]).toBe('Aggregate score 0.82 < 0.9 threshold');
  });
});

describe('promptfoo: several providers are several models', () => {
  const ref = python(EXPORT);

  it('scores the first provider by default, each with its own n, pass rate and score; lists the models', () => {
    const r = scoreFile(EXPORT, { bootstrap: 0 });
    expect(r.models).toEqual(['openai:gpt-5', 'openai:gpt-5-mini']);
    expect(r.model).toBe('openai:gpt-5');
    expect(r.sourceModel).toBe('openai:gpt-5');
    const m = ref.models['openai:gpt-5'];
    expect(r.n).toBe(m.n);
    expect(r.metrics.accuracy).toBeCloseTo(m.accuracy, 12);
    expect(r.taskMetrics!.find((t) => t.name === 'score')!.mean).toBeCloseTo(m.score, 12);
    expect(r.reported.accuracy).toBeCloseTo(ref.columns['openai:gpt-5'].accuracy, 12);
    expect(r.taskMetrics!.find((t) => t.name === 'score')!.reported).toBeCloseTo(ref.columns['openai:gpt-5'].score, 12);
    expect(r.problems.some((p) => /2 models.*openai:gpt-5 is scored/.test(p.message))).toBe(true);
  });

  it('--model picks the other, and the breakdown shows both', () => {
    const r = scoreFile(EXPORT, { bootstrap: 0, model: 'openai:gpt-5-mini' });
    const m = ref.models['openai:gpt-5-mini'];
    expect(r.model).toBe('openai:gpt-5-mini');
    expect(r.n).toBe(m.n);
    expect(r.taskMetrics!.find((t) => t.name === 'score')!.mean).toBeCloseTo(m.score, 12);
    for (const name of ref.order) {
      const row = r.breakdown!.find((b) => b.label === `model ${name}`)!;
      expect(row.n).toBe(ref.models[name].n);
      expect(row.metrics.accuracy).toBeCloseTo(ref.models[name].accuracy, 12);
      expect(row.metrics.score).toBeCloseTo(ref.models[name].score, 12);
    }
    const missing = scoreFile(EXPORT, { bootstrap: 0, model: 'nope' });
    expect(missing.model).toBe('openai:gpt-5');
    expect(missing.problems.some((p) => p.severity === 'warning' && /no model "nope"/.test(p.message))).toBe(true);
  });
});

describe('promptfoo: bad results', () => {
  it('reports a result without a verdict and one that is not JSON on their lines, and scores the rest', () => {
    const doc = JSON.parse(readFileSync(MIXED, 'utf8'));
    delete doc.results.results[2].success;
    let text = JSON.stringify(doc, null, 2);
    // Break the JSON of the fourth result: the document no longer parses, each result is read alone.
    const lines = text.split('\n');
    const fourth = lines.findIndex((l) => l.includes('"id": "result-3"'));
    lines[fourth] = lines[fourth].replace('"id": "result-3"', '"id": result-3');
    text = lines.join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'promptfoo-bad-'));
    const path = join(dir, 'results.json');
    writeFileSync(path, text);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    // Where each result opens: the "{" (six spaces in, as JSON.stringify(…, 2) nests it) above its id.
    const all = text.split('\n');
    const openingOf = (idLine: string) => {
      let k = all.findIndex((l) => l.includes(idLine));
      while (all[k] !== '      {') k--;
      return k + 1;
    };
    const noVerdict = r.problems.find((p) => /no success/.test(p.message))!;
    expect(noVerdict.line).toBe(openingOf('"id": "result-2"'));
    const broken = r.problems.find((p) => p.code === 'json-parse' && p.line > 1)!;
    expect(broken.line).toBe(openingOf('"id": result-3'));
    expect(r.n).toBe(4);
    // The four left are results 0 and 1 (pass), 4 and 5 (fail).
    expect(r.metrics.accuracy).toBeCloseTo(2 / 4, 12);
    expect(r.skipped).toBe(2);
  });
});

describe('promptfoo: a folder', () => {
  it('scores each file as alone, each result with its own path', () => {
    const { reports } = scorePath(REAL, { bootstrap: 0 });
    for (const path of [EXPORT, FRENCH]) {
      const inFolder = reports.find((x) => x.path === path)!;
      const alone = scoreFile(path, { bootstrap: 0 });
      expect(inFolder.format).toBe('promptfoo');
      expect(inFolder.n).toBe(alone.n);
      expect(inFolder.metrics).toEqual(alone.metrics);
      expect(inFolder.taskMetrics).toEqual(alone.taskMetrics);
    }
  });
});
