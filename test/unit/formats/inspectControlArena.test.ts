// Inspect logs of ControlArena's shape (sweep 12, defect 1). Its logs (UKGovernmentBEIS/inspect-
// evals-log-viewer, no licence: not copied) score each sample with a dict-valued scorer `scorer`
// ({main_task_success: true, side_task_success: false}, listed in the results as one entry per key),
// a 0-10 suspicion score `max_sus_scorer` (-1 when not judged) and `full_traj_monitor`, and have no
// targets. Before, the dict scorer was skipped and the suspicion score (2, 4, -1) shown as "accuracy"
// beside a macro-F1 over empty targets, and the board ranked it. The logs here are written by hand
// (by Python, below) in that shape; the reference figures are numpy's means of the values.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scoreFile } from '../../../src/core/score';
import { boardPaths } from '../../../src/core/boardFiles';

const DIR = mkdtempSync(join(tmpdir(), 'eval-lens-controlarena-'));

// Writes the logs (an .eval zip as Inspect writes it, or a .json log) and prints numpy's figures.
const WRITE = `
import json, sys, zipfile
import numpy as np
out, kind, spec = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
samples, results, reductions = [], [], []
def num(v):
    return {'C': 1.0, 'I': 0.0}[v] if isinstance(v, str) else float(v)
def metrics(vals):
    a = np.array([num(v) for v in vals])
    se = float(np.std(a, ddof=1) / np.sqrt(len(a))) if len(a) > 1 else 0
    return {'accuracy': {'name': 'accuracy', 'value': float(a.mean()), 'params': {}},
            'stderr': {'name': 'stderr', 'value': se, 'params': {}}}
for name, s in spec['scorers'].items():
    if s.get('dict'):
        for key, vals in s['dict'].items():
            results.append({'name': key, 'scorer': name, 'params': {}, 'metrics': metrics(vals)})
    else:
        results.append({'name': name, 'scorer': name, 'reducer': 'mean', 'params': {}, 'metrics': metrics(s['values'])})
n = spec['n']
for i in range(n):
    scores = {}
    for name, s in spec['scorers'].items():
        if s.get('dict'):
            scores[name] = {'value': {k: v[i] for k, v in s['dict'].items()}, 'explanation': 'Main task: -, Side task: -', 'metadata': {}}
        else:
            scores[name] = {'value': s['values'][i], 'explanation': f"Max suspiciousness score: {s['values'][i]}"}
    samples.append({'id': i + 1, 'epoch': 1, 'input': f'task {i + 1}', 'target': '', 'messages': [],
                    'output': {'model': spec['model'], 'choices': []}, 'scores': scores, 'metadata': {}})
for name, s in spec['scorers'].items():
    vals = [dict(zip(s['dict'], [num(v[i]) for v in s['dict'].values()])) if s.get('dict') else num(s['values'][i]) for i in range(n)]
    reductions.append({'scorer': name, 'reducer': 'mean', 'samples': [{'value': v, 'sample_id': i + 1} for i, v in enumerate(vals)]})
header = {'version': 2, 'status': 'success',
          'eval': {'task': spec['task'], 'model': spec['model'], 'config': {'epochs': 1, 'epochs_reducer': ['mean']}},
          'results': {'total_samples': n, 'completed_samples': n, 'scores': results}}
if kind == 'eval':
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('_journal/start.json', json.dumps({'version': 2, 'eval': header['eval']}))
        z.writestr('header.json', json.dumps(header))
        for s in samples: z.writestr(f"samples/{s['id']}_epoch_1.json", json.dumps(s))
        z.writestr('reductions.json', json.dumps(reductions))
else:
    with open(out, 'w') as f: json.dump({**header, 'samples': samples, 'reductions': reductions}, f, indent=2)
print(json.dumps({r['name']: r['metrics']['accuracy']['value'] for r in results}))
`;

function writeLog(path: string, spec: object): Record<string, number> {
  const kind = path.endsWith('.eval') ? 'eval' : 'json';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', WRITE, path, kind, JSON.stringify(spec)], { encoding: 'utf8' }));
}

/** ControlArena's k8s logs: a dict scorer first, then two 0-10 monitors. */
const K8S = {
  task: 'control_arena/k8s_infra_sabotage_simple', model: 'anthropic/claude-3-7-sonnet-latest', n: 4,
  scorers: {
    scorer: { dict: { side_task_success: [false, true, false, false], main_task_success: [true, true, false, true] } },
    max_sus_scorer: { values: [2, 4, -1, 9] },
    full_traj_monitor: { values: [0, 1, 3, 0] },
  },
};

describe('an Inspect log whose first scorer gives a dict of verdicts (ControlArena)', () => {
  const path = join(DIR, 'k8s.eval');
  const ref = writeLog(path, K8S);
  const r = scoreFile(path, { bootstrap: 0 });

  it('is headed by the dict scorer\'s first key, as the log lists it, and gives one figure per key', () => {
    // numpy: side [0,1,0,0] -> 0.25, main [1,1,0,1] -> 0.75.
    expect(ref.side_task_success).toBe(0.25);
    expect(ref.main_task_success).toBe(0.75);
    expect(r.metrics.accuracy).toBeCloseTo(ref.side_task_success, 12);
    expect(r.reported.accuracy).toBe(ref.side_task_success);
    expect(r.taskMetrics!.map((t) => t.name)).toEqual(['side_task_success', 'main_task_success']);
    for (const t of r.taskMetrics!) {
      expect(t.mean).toBeCloseTo(ref[t.name], 12);
      expect(t.reported).toBe(ref[t.name]);
      expect(t.n).toBe(4);
    }
  });

  it('never calls the 0-10 suspicion score an accuracy, and gives no macro-F1 over empty targets', () => {
    expect(ref.max_sus_scorer).toBe(3.5);
    expect(r.metrics.macro_f1).toBeUndefined();
    // The log's "accuracy" of the suspicion score is its mean, reported under the scorer's name.
    expect(r.reported.max_sus_scorer).toBe(ref.max_sus_scorer);
    expect(r.reported['max_sus_scorer/accuracy']).toBeUndefined();
    expect(r.reported.full_traj_monitor).toBe(ref.full_traj_monitor);
    const row = r.breakdown!.find((b) => b.label === 'max_sus_scorer · reduced (mean)')!;
    expect(Object.keys(row.metrics)).toEqual(['mean', 'stderr']);
    expect(row.metrics.mean).toBeCloseTo(ref.max_sus_scorer, 12);
    expect(r.problems.some((p) => p.code === 'undefined-metric' && /no targets/.test(p.message))).toBe(true);
    expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
  });

  it('the CLI prints the keys by name and no accuracy of 3.5', async () => {
    const out = (await runCli(['score', path])).stdout;
    expect(out).toMatch(/^\s+accuracy\s+0\.2500\b/m);
    expect(out).toMatch(/^\s+main_task_success\s+0\.7500\s+reported 0\.7500$/m);
    expect(out).not.toMatch(/macro_f1/);
    expect(out).not.toMatch(/accuracy 3\.5000/);
    expect(out).toMatch(/also reported: .*max_sus_scorer 3\.5000/);
  });
});

describe('an Inspect log whose first scorer is a 0-10 score', () => {
  const dir = join(DIR, 'board');
  mkdirSync(dir);
  const one = (model: string, values: number[]) => ({ task: 'control_arena/bash_task', model, n: values.length, scorers: { max_sus_scorer: { values } } });
  const refA = writeLog(join(dir, 'a.json'), one('model-a', [2, 4, -1]));
  writeLog(join(dir, 'b.json'), one('model-b', [7, 9, 8]));

  it('is shown as a mean named as the scorer, beside the log\'s figure, not as an accuracy', () => {
    const r = scoreFile(join(dir, 'a.json'), { bootstrap: 0 });
    // numpy: mean([2, 4, -1]) = 5/3.
    expect(refA.max_sus_scorer).toBeCloseTo(5 / 3, 15);
    expect(r.metrics.accuracy).toBeUndefined();
    expect(r.metrics.macro_f1).toBeUndefined();
    expect(r.taskMetrics).toHaveLength(1);
    expect(r.taskMetrics![0].name).toBe('max_sus_scorer');
    expect(r.taskMetrics![0].mean).toBeCloseTo(refA.max_sus_scorer, 12);
    expect(r.taskMetrics![0].reported).toBe(refA.max_sus_scorer);
    expect(r.reported.accuracy).toBeUndefined();
    expect(r.problems.some((p) => /leave \[0, 1\]/.test(p.message))).toBe(true);
  });

  it('a board of such logs is of that score, in no claimed direction, not "accuracy; higher is better"', async () => {
    const { board } = boardPaths([dir], { bootstrap: 0 });
    expect(board.metric).toBe('max_sus_scorer');
    expect(board.task_metric).toBe(true);
    expect(board.metric_note).toMatch(/not ranked by a claim/);
    const out = (await runCli(['board', dir])).stdout;
    expect(out).not.toMatch(/accuracy; higher is better/);
  });
});

describe('an Inspect log of C/I verdicts and no targets (ControlArena bash)', () => {
  it('keeps the verdicts\' accuracy and computes no macro-F1 over classes "" and "(no answer)"', () => {
    const path = join(DIR, 'bash.json');
    const ref = writeLog(path, {
      task: 'control_arena/bash_task', model: 'm', n: 5,
      scorers: { main_task_correctness: { values: ['C', 'I', 'I', 'C', 'I'] }, max_sus_scorer: { values: [10, 7, 2, 8, 9] } },
    });
    const r = scoreFile(path, { bootstrap: 0 });
    // Two C of five: 0.4 (as bash_4.eval reports).
    expect(r.metrics.accuracy).toBeCloseTo(0.4, 12);
    expect(r.metrics.macro_f1).toBeUndefined();
    expect(r.reported.max_sus_scorer).toBe(ref.max_sus_scorer);
  });
});
