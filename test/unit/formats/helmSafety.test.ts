// A HELM Safety run folder as crfm-helm v0.5 wrote it (stanford-crfm/helm's own history, NOTICE.md:
// xstest on gpt-4o, trimmed to 4 instances), with helm-summarize's display_predictions.json and
// instances.json beside the run's files, and completions scored by LLM-judge annotators.
// Before: scenario_state.json was scored as exact match against the reference the judges use as
// their label ("safe"), accuracy 0 (36 such runs in that suite); display_predictions.json went to
// the generic reader with the hint --map label=train_trial_index; instances.json was a generic refusal.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const RUN = resolve(__dirname, '../../fixtures/real/helm/helm-safety-v4/xstest-model=openai_gpt-4o-2024-05-13');
const file = (name: string) => join(RUN, name);
const head = (name: string) => readFileSync(file(name), 'utf8').slice(0, 16384);

/** Each per-instance score's mean, from display_predictions.json and from per_instance_stats.json (unperturbed, test). */
const PY = String.raw`
import json, sys
import numpy as np
run = sys.argv[1]
disp = json.load(open(run + '/display_predictions.json'))
skip = ('num_', 'inference_', 'training_', 'finish_reason_')
names = sorted({k for d in disp for k in d['stats'] if not k.startswith(skip) and k not in ('prompt_truncated', 'batch_size', 'max_prob', 'logprob')})
display = {k: float(np.mean([d['stats'][k] for d in disp])) for k in names}
pis = json.load(open(run + '/per_instance_stats.json'))
per = {}
for e in pis:
    for s in e['stats']:
        if s['name']['name'] in names and 'perturbation' not in s['name'] and s['name'].get('split') == 'test':
            per.setdefault(s['name']['name'], {})[e['instance_id']] = s['mean']
state = json.load(open(run + '/scenario_state.json'))
print(json.dumps({'n': len(disp), 'display': display, 'per': {k: float(np.mean(list(v.values()))) for k, v in per.items()},
                  'annotators': sorted({k for r in state['request_states'] for k in r.get('annotations', {})}),
                  'tagged_correct': sum(any('correct' in ref['tags'] for ref in r['instance']['references']) for r in state['request_states'])}))
`;

describe('HELM Safety run folder (v0.5, annotators)', () => {
  const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, RUN], { encoding: 'utf8' }));

  it('scenario_state.json of a run scored by annotators gives no exact-match figure, and says where the scores are', () => {
    expect(ref.tagged_correct).toBeGreaterThan(0); // "safe" is tagged correct: the old reading compared completions with it
    const r = scoreFile(file('scenario_state.json'), { bootstrap: 0 });
    expect(r.format).toBe('helm');
    expect(r.n).toBe(0);
    expect(r.metrics.accuracy).toBeUndefined();
    expect(r.fatal).toMatch(new RegExp(`scored by annotators \\(${ref.annotators.join(', ')}\\)`));
    expect(r.fatal).toMatch(/per_instance_stats\.json/);
  });

  it('display_predictions.json is read as HELM\'s per-instance stats: the same scores as per_instance_stats.json', () => {
    expect(detectFormat(file('display_predictions.json'), head('display_predictions.json'))).toBe('helm');
    const d = scoreFile(file('display_predictions.json'), { bootstrap: 0 });
    const p = scoreFile(file('per_instance_stats.json'), { bootstrap: 0 });
    expect(d.format).toBe('helm');
    expect(d.fatal).toBeUndefined();
    expect(d.n).toBe(ref.n);
    expect(p.n).toBe(ref.n);
    for (const [name, value] of Object.entries(ref.display as Record<string, number>)) {
      const t = d.taskMetrics!.find((x) => x.name === name)!;
      expect(t.mean).toBeCloseTo(value, 12);
      expect(t.mean).toBeCloseTo(ref.per[name], 12);
      expect(p.taskMetrics!.find((x) => x.name === name)!.mean).toBeCloseTo(value, 12);
      // stats.json's figure (over the run's 100 instances) is shown beside, as for per_instance_stats.json.
      expect(t.reported).toBe(p.taskMetrics!.find((x) => x.name === name)!.reported);
    }
    expect(d.problems.some((x) => /display_predictions\.json \(written by helm-summarize/.test(x.message))).toBe(true);
  });

  it('instances.json is one of the run\'s companions, refused with a pointer; each file reads the same in its folder', () => {
    expect(detectFormat(file('instances.json'), head('instances.json'))).toBe('helm');
    const alone = ['instances.json', 'display_predictions.json', 'scenario_state.json'].map((f) => scoreFile(file(f), { bootstrap: 0 }));
    expect(alone[0].fatal).toMatch(/^This is HELM's instances\.json/);
    const folder = scorePath(RUN, { bootstrap: 0 }).reports;
    for (const [i, f] of ['instances.json', 'display_predictions.json', 'scenario_state.json'].entries()) {
      const inFolder = folder.find((x) => resolve(x.path) === file(f))!;
      expect(inFolder.fatal).toBe(alone[i].fatal);
      expect(inFolder.n).toBe(alone[i].n);
      expect(inFolder.taskMetrics).toEqual(alone[i].taskMetrics);
    }
  });

  it('a display_predictions.json whose stats are only counts and timings says so', () => {
    const rows = JSON.parse(readFileSync(file('display_predictions.json'), 'utf8')).map((d: any) => ({ ...d, stats: { num_prompt_tokens: 5, inference_runtime: 0.3 } }));
    const dir = mkdtempSync(join(tmpdir(), 'helm-disp-'));
    writeFileSync(join(dir, 'display_predictions.json'), JSON.stringify(rows, null, 2));
    const r = scoreFile(join(dir, 'display_predictions.json'), { bootstrap: 0 });
    expect(r.format).toBe('helm');
    expect(r.fatal).toMatch(/none is a per-instance score/);
  });
});
