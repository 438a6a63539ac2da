// An lm-eval results file's group header (defect D8c): lm-eval writes a group that has no aggregate
// figures of its own as {" ": " ", "alias": "leaderboard_bbh"} in results (csabakecskemeti/lm_eval_results'
// leaderboard runs; that repository has no licence, so this file is made by hand in the same shape).
// Before, the header became a figure named "leaderboard_bbh/ " (a metric " ", trailing space in
// --json), shown as "not reported". It has no figures: it is left out; its subtasks' figures stay.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scoreFile } from '../../../src/core/score';

const DOC = {
  results: {
    hellaswag: { alias: 'hellaswag', 'acc,none': 0.5559, 'acc_stderr,none': 0.00496, 'acc_norm,none': 0.7436, 'acc_norm_stderr,none': 0.00436 },
    leaderboard_bbh: { ' ': ' ', alias: 'leaderboard_bbh' },
    leaderboard_bbh_boolean_expressions: { alias: ' - leaderboard_bbh_boolean_expressions', 'acc_norm,none': 0.808, 'acc_norm_stderr,none': 0.02496 },
    leaderboard_bbh_causal_judgement: { alias: ' - leaderboard_bbh_causal_judgement', 'acc_norm,none': 0.5508, 'acc_norm_stderr,none': 0.03647 },
  },
  group_subtasks: { leaderboard_bbh: ['leaderboard_bbh_boolean_expressions', 'leaderboard_bbh_causal_judgement'], hellaswag: [] },
  versions: { hellaswag: 1.0, leaderboard_bbh_boolean_expressions: 1.0, leaderboard_bbh_causal_judgement: 1.0 },
  'n-samples': {
    leaderboard_bbh_boolean_expressions: { original: 250, effective: 250 },
    leaderboard_bbh_causal_judgement: { original: 187, effective: 187 },
    hellaswag: { original: 10042, effective: 10042 },
  },
  config: { model: 'hf', model_args: 'pretrained=deepseek-ai/DeepSeek-R1-Distill-Llama-8B' },
  model_name: 'deepseek-ai/DeepSeek-R1-Distill-Llama-8B',
};

describe('an lm-eval results file with a group header entry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lmeval-group-'));
  const path = join(dir, 'results_2025-01-24T19-02-29.392595.json');
  writeFileSync(path, JSON.stringify(DOC, null, 2));
  // The figures by Python: every numeric "<metric>,<filter>" entry, named task/metric.
  const expected: string[] = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps([t + '/' + k.rsplit(',', 1)[0] for t, e in d['results'].items() for k, v in e.items() if isinstance(v, (int, float))]))`, path], { encoding: 'utf8' }));

  it('has no figure for the header, and every figure of its subtasks', () => {
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.summary).toBeDefined();
    const names = r.summary!.figures.map((f) => f.name);
    expect(names).toEqual(expected);
    expect(names.some((n) => n.startsWith('leaderboard_bbh/'))).toBe(false);
    expect(Object.keys(r.reported)).toEqual(expected);
  });

  it('the CLI prints no "leaderboard_bbh/  not reported" line, and --json no key with a blank metric', async () => {
    const text = (await runCli(['score', path])).stdout;
    expect(text).not.toMatch(/leaderboard_bbh\/ /);
    expect(text).toMatch(/leaderboard_bbh_boolean_expressions\/acc_norm +0\.8080 +on 250 samples/);
    const json = (await runCli(['score', path, '--json'])).stdout;
    expect(json).not.toContain('"leaderboard_bbh/ "');
    expect(Object.keys(JSON.parse(json).results[0].reported)).toEqual(expected);
  });
});
