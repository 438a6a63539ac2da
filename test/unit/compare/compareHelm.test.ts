// `compare` on HELM runs (test/fixtures/real/helm/helm-v4-bbq/: bbq on Llama 3 8B chat and on
// GPT-4o, HELM v4, their first 30 instances; NOTICE.md). per_instance_stats.json holds each
// instance's exact match, not the predicted answer: compare shows what `score` shows (accuracy,
// paired by McNemar), never a macro-F1 over "right" against "(no answer)" (before: 0.4253 vs
// 0.4872 on the whole runs, "significant").
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaths } from '../../../src/core/compareFiles';
import { scoreFile } from '../../../src/core/score';
import { mcnemarExact } from '../../../src/core/compare/mcnemar';
import { PY_AGREEMENT } from '../pythonReferences';

const BBQ = resolve(__dirname, '../../fixtures/real/helm/helm-v4-bbq');
const LLAMA = join(BBQ, 'bbq-subject=all,method=multiple_choice_joint,model=meta_llama-3-8b-chat');
const GPT4O = join(BBQ, 'bbq-subject=all,method=multiple_choice_joint,model=openai_gpt-4o-2024-05-13');

/** Python's reading: each run's exact match by instance (test split, unperturbed), and the 2x2 table. */
const PY = String.raw`
import json, sys
def em(path):
    out = {}
    for e in json.load(open(path)):
        for s in e['stats']:
            n = s['name']
            if n['name'] == 'exact_match' and n.get('split') == 'test' and 'perturbation' not in n and not e.get('perturbation'):
                out.setdefault(e['instance_id'], s['mean'])
    return out
a, b = em(sys.argv[1]), em(sys.argv[2])
` + PY_AGREEMENT;

describe('compare on HELM per_instance_stats.json', () => {
  const a = join(LLAMA, 'per_instance_stats.json');
  const b = join(GPT4O, 'per_instance_stats.json');
  const ref = JSON.parse(execFileSync('python3', ['-c', PY, a, b], { encoding: 'utf8' }));

  it('compares the figures score shows (accuracy = mean exact match, McNemar), and no macro-F1', () => {
    const c = comparePaths([a, b], { bootstrap: 200 });
    const shown = scoreFile(a, { bootstrap: 0 });
    expect(Object.keys(shown.metrics)).toEqual(['accuracy']); // what score shows, which compare must match
    expect(c.aligned).toBe(ref.n);
    expect(c.aligned_by).toBe('id');
    expect(Object.keys(c.metrics)).toEqual(['accuracy']);
    expect(c.metrics.macro_f1).toBeUndefined();
    expect(c.metrics.accuracy!.values[0]).toBeCloseTo(ref.acc[0], 12);
    expect(c.metrics.accuracy!.values[1]).toBeCloseTo(ref.acc[1], 12);
    expect(c.metrics.accuracy!.test).toBe('mcnemar');
    expect(c.agreement[1]).toEqual(ref.table);
    expect(c.metrics.accuracy!.p_values[1]).toBe(mcnemarExact(ref.table.baseline_only, ref.table.candidate_only));
  });
});

describe('compare on HELM run folders of one scenario run by two models', () => {
  it('the task is the run spec without its model= argument, so the folders share it', () => {
    const spec = JSON.parse(readFileSync(join(LLAMA, 'run_spec.json'), 'utf8'));
    expect(spec.name).toBe('bbq:subject=all,method=multiple_choice_joint,model=meta_llama-3-8b-chat');
    const r = scoreFile(join(LLAMA, 'per_instance_stats.json'), { bootstrap: 0 });
    expect(r.task).toBe('bbq:subject=all,method=multiple_choice_joint');
    expect(r.sourceModel).toBe(spec.adapter_spec.model); // the model stays the run's model
    expect(scoreFile(join(GPT4O, 'per_instance_stats.json'), { bootstrap: 0 }).task).toBe(r.task);
  });

  it('compares the folders as their per_instance_stats.json files, with no RAFT score', () => {
    const folders = comparePaths([LLAMA, GPT4O], { bootstrap: 200 });
    const files = comparePaths([join(LLAMA, 'per_instance_stats.json'), join(GPT4O, 'per_instance_stats.json')], { bootstrap: 200 });
    expect(folders.runs.map((r) => r.name)).toEqual([LLAMA, GPT4O]);
    expect(folders.task).toBe('bbq:subject=all,method=multiple_choice_joint');
    expect(folders.metrics.raft_score).toBeUndefined(); // RAFT's mean macro-F1 over tasks, not HELM's
    expect(Object.keys(folders.metrics)).toEqual(['accuracy']);
    expect(folders.metrics).toEqual(files.metrics);
    expect(folders.agreement).toEqual(files.agreement);
  });

  it('of a run folder\'s files with the same task, per_instance_stats.json is compared and scenario_state.json named', () => {
    // mmlu philosophy (the HELM fixtures' run folder): per_instance_stats.json and scenario_state.json, one task.
    const mmlu = resolve(__dirname, '../../fixtures/real/helm/mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2');
    const copy = join(mkdtempSync(join(tmpdir(), 'compare-helm-')), 'mmlu-copy');
    cpSync(mmlu, copy, { recursive: true });
    const c = comparePaths([mmlu, copy], { bootstrap: 0 });
    const alone = comparePaths([join(mmlu, 'per_instance_stats.json'), join(copy, 'per_instance_stats.json')], { bootstrap: 0 });
    expect(c.runs.map((r) => r.path)).toEqual([join(mmlu, 'per_instance_stats.json'), join(copy, 'per_instance_stats.json')]);
    expect(c.metrics).toEqual(alone.metrics);
    const named = c.problems.filter((p) => /scenario_state\.json holds the same task .* as per_instance_stats\.json/.test(p.message));
    expect(named.map((p) => p.path)).toEqual([join(mmlu, 'scenario_state.json'), join(copy, 'scenario_state.json')]);
  });
});
