// HELM Safety's per_instance_stats.json writes each instance twice in one train trial (HELM v4
// harm_bench on Llama 3 8B chat, the records of its first 10 instances: NOTICE.md): one entry with
// the annotators' scores, one with the counts and timings, both train_trial_index 0, and run_spec.json
// says num_train_trials 1. Before: "Each instance ran in 2 train trials" (the figures were right).
// Entries of the same instance and trial are merged; different trials are still averaged and named.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';

const RUN = resolve(__dirname, '../../fixtures/real/helm/helm-safety-v4/harm_bench-model=meta_llama-3-8b-chat');

/** Python's reading: instances, (instance, trial) pairs, entries, the spec's trials, each score's mean over instances (trials averaged). */
const PY = String.raw`
import json, sys
run = sys.argv[1]
entries = json.load(open(run + '/per_instance_stats.json'))
spec = json.load(open(run + '/run_spec.json'))
vals = {}
for e in entries:
    for s in e['stats']:
        if s['name']['name'].startswith('harm_bench') and 'mean' in s:
            vals.setdefault(s['name']['name'], {}).setdefault(e['instance_id'], {})[e['train_trial_index']] = s['mean']
means = {k: sum(sum(t.values()) / len(t) for t in v.values()) / len(v) for k, v in vals.items()}
print(json.dumps({'entries': len(entries), 'instances': len({e['instance_id'] for e in entries}),
                  'pairs': len({(e['instance_id'], e['train_trial_index']) for e in entries}),
                  'spec_trials': spec['adapter_spec']['num_train_trials'], 'means': means}))
`;

const trialNotes = (problems: { message: string }[]) => problems.filter((p) => /train trials/.test(p.message));

describe('HELM per_instance_stats.json: two entries of one instance in one train trial', () => {
  it('are merged, not counted as two trials; n and the figures as Python reads them', () => {
    const ref = JSON.parse(execFileSync('python3', ['-c', PY, RUN], { encoding: 'utf8' }));
    expect([ref.entries, ref.instances, ref.pairs, ref.spec_trials]).toEqual([20, 10, 10, 1]);
    const r = scoreFile(join(RUN, 'per_instance_stats.json'), { bootstrap: 0 });
    expect(r.n).toBe(ref.instances);
    expect(trialNotes(r.problems)).toEqual([]);
    expect(Object.keys(ref.means).sort()).toEqual(['harm_bench_claude_score', 'harm_bench_gpt_score', 'harm_bench_score']);
    for (const [name, value] of Object.entries(ref.means as Record<string, number>)) {
      expect(r.taskMetrics!.find((t) => t.name === name)!.mean).toBeCloseTo(value, 12);
    }

    // The second entries in a train trial of their own (index 1): then it is two trials, and said.
    const dir = mkdtempSync(join(tmpdir(), 'helm-trials-'));
    const entries = JSON.parse(readFileSync(join(RUN, 'per_instance_stats.json'), 'utf8'));
    const seen = new Set<string>();
    for (const e of entries) { if (seen.has(e.instance_id)) e.train_trial_index = 1; seen.add(e.instance_id); }
    writeFileSync(join(dir, 'per_instance_stats.json'), JSON.stringify(entries, null, 2));
    copyFileSync(join(RUN, 'run_spec.json'), join(dir, 'run_spec.json'));
    const two = scoreFile(join(dir, 'per_instance_stats.json'), { bootstrap: 0 });
    expect(two.n).toBe(ref.instances);
    expect(trialNotes(two.problems).map((p) => p.message)).toEqual([expect.stringMatching(/^Each instance ran in 2 train trials/)]);
  });
});
