// HELM run folders (test/fixtures/real/helm/: three real runs of crfm-helm, copied from
// evaleval/every_eval_ever's tests/data/helm, see NOTICE.md): mmlu philosophy (test and valid
// splits, multiple choice), hellaswag (a valid split only), narrative_qa (generation, with f1_score,
// rouge_l, bleu). Every figure is checked against Python reading the same files on its own, and
// against the run's own stats.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';
import { indentedSpans, memberSpans, readJsonMembers } from '../../../src/core/formats/jsonMembers';

const HELM = resolve(__dirname, '../../fixtures/real/helm');
const RUNS = {
  mmlu: join(HELM, 'mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2'),
  hellaswag: join(HELM, 'commonsense-dataset=hellaswag,method=multiple_choice_joint,model=eleutherai_pythia-1b-v0'),
  narrativeqa: join(HELM, 'narrative_qa-model=openai_gpt2'),
};

/** HELM's bookkeeping stats, which the report leaves out of the per-sample metrics (docs/formats.md). */
const BOOKKEEPING = String.raw`^(num_|finish_reason_|inference_|training_|batch_size$|prompt_truncated$|max_prob$|logprob$)`;

/** Python's reading of per_instance_stats.json and stats.json: the split, n, each metric's mean per instance, the run's figures. */
const PER_INSTANCE_PY = String.raw`
import json, re, sys, os
import numpy as np
path = sys.argv[1]
entries = json.load(open(path))
def perturbed(e):
    return bool(e.get('perturbation')) or any(s['name'].get('perturbation') for s in e['stats'])
plain = [e for e in entries if not perturbed(e)]
splits = []
for e in plain:
    sp = e['stats'][0]['name'].get('split')
    if sp not in splits: splits.append(sp)
split = 'test' if 'test' in splits else splits[0]
rows = [e for e in plain if e['stats'][0]['name'].get('split') == split]
by_id = {}
for e in rows:
    by_id.setdefault(e['instance_id'], []).append({s['name']['name']: s['mean'] for s in e['stats'] if 'mean' in s})
names = sorted({k for trials in by_id.values() for t in trials for k in t if not re.match(sys.argv[2], k)})
means = {}
for k in names:
    per_instance = [np.mean([t[k] for t in trials if k in t]) for trials in by_id.values() if any(k in t for t in trials)]
    means[k] = float(np.mean(per_instance))
stats_path = os.path.join(os.path.dirname(path), 'stats.json')
reported = {}
if os.path.exists(stats_path):
    for s in json.load(open(stats_path)):
        n = s['name']
        if n.get('split') == split and 'perturbation' not in n and 'sub_split' not in n and 'mean' in s:
            reported.setdefault(n['name'], s['mean'])
print(json.dumps({'split': split, 'n': len(by_id), 'means': means, 'reported': reported}))
`;

/** Python's recomputation of exact match from scenario_state.json, as crfm-helm's compute_reference_metrics does. */
const SCENARIO_STATE_PY = String.raw`
import json, sys
from sklearn.metrics import f1_score
doc = json.load(open(sys.argv[1]))
states = [s for s in doc['request_states'] if not s['instance'].get('perturbation')]
splits = []
for s in states:
    if s['instance']['split'] not in splits: splits.append(s['instance']['split'])
split = 'test' if 'test' in splits else splits[0]
states = [s for s in states if s['instance']['split'] == split]
em, gold, pred = [], [], []
for s in states:
    refs = s['instance']['references']
    correct = [r['output']['text'] for r in refs if 'correct' in r['tags']]
    top = sorted(s['result']['completions'], key=lambda c: -c['logprob'])[0]['text'].strip()
    mapping = s.get('output_mapping')
    answer = mapping.get(top) if mapping is not None else top
    right = 1 if answer and any(g.strip() == answer.strip() for g in correct) else 0
    em.append(right)
    if mapping is not None:
        letter = [k for k, v in mapping.items() if v.strip() == correct[0].strip()][0]
        gold.append(letter)
        pred.append(letter if right else (top or '(no answer)'))
out = {'split': split, 'n': len(states), 'accuracy': sum(em) / len(em)}
if gold: out['macro_f1'] = f1_score(gold, pred, average='macro')
print(json.dumps(out))
`;

function python(code: string, ...args: string[]): any {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', code, ...args], { encoding: 'utf8' }));
}

function head(path: string): string {
  return readFileSync(path, 'utf8').slice(0, 16 * 1024);
}

describe('HELM: detection by content', () => {
  it('claims per_instance_stats.json and scenario_state.json of every run, and leaves stats.json to the summary reader', () => {
    for (const dir of Object.values(RUNS)) {
      expect(detectFormat(join(dir, 'per_instance_stats.json'), head(join(dir, 'per_instance_stats.json')))).toBe('helm');
      expect(detectFormat(join(dir, 'scenario_state.json'), head(join(dir, 'scenario_state.json')))).toBe('helm');
      expect(detectFormat(join(dir, 'stats.json'), head(join(dir, 'stats.json')))).not.toBe('helm');
    }
  });

  it('reads a run file whatever its name (content, not name)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'helm-renamed-'));
    const path = join(dir, 'mmlu_run.json');
    copyFileSync(join(RUNS.mmlu, 'per_instance_stats.json'), path);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.format).toBe('helm');
    expect(r.n).toBe(9);
  });

  it("says what run_spec.json and scenario.json are, and which file of the folder to score", () => {
    for (const name of ['run_spec.json', 'scenario.json']) {
      const r = scoreFile(join(RUNS.narrativeqa, name), { bootstrap: 0 });
      expect(r.format).toBe('helm');
      expect(r.fatal).toMatch(/holds no samples.*per_instance_stats\.json/);
    }
  });
});

describe('HELM per_instance_stats.json: the test split (or the only one), unperturbed, n = its instances', () => {
  for (const [run, dir] of Object.entries(RUNS)) {
    const path = join(dir, 'per_instance_stats.json');
    const ref = python(PER_INSTANCE_PY, path, BOOKKEEPING);
    const r = scoreFile(path, { bootstrap: 0 });

    it(`${run}: n, accuracy = mean exact_match on the ${ref.split} split, each per-sample metric's mean`, () => {
      expect(r.format).toBe('helm');
      expect(r.fatal).toBeUndefined();
      expect(r.n).toBe(ref.n);
      expect(r.metrics.accuracy).toBeCloseTo(ref.means.exact_match, 9);
      const byName = Object.fromEntries((r.taskMetrics ?? []).map((t) => [t.name, t]));
      expect(Object.keys(byName).sort()).toEqual(Object.keys(ref.means).sort());
      for (const [name, mean] of Object.entries(ref.means as Record<string, number>)) {
        expect(Math.abs(byName[name].mean! - mean)).toBeLessThan(1e-9);
        expect(byName[name].n).toBe(ref.n);
      }
    });

    it(`${run}: stats.json's figures stand beside them, and HELM's own accuracy agrees`, () => {
      expect(r.reportedPath).toBe(join(dir, 'stats.json'));
      expect(r.reported.accuracy).toBeCloseTo(ref.reported.exact_match, 12);
      expect(Math.abs(ref.reported.exact_match - ref.means.exact_match)).toBeLessThan(1e-9);
      for (const t of r.taskMetrics ?? []) expect(t.reported).toBeCloseTo(ref.reported[t.name], 12);
      expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
      expect(r.problems.filter((p) => p.severity !== 'info')).toEqual([]);
    });
  }

  it('shows the other split apart (mmlu: 1 valid instance), not in n', () => {
    const r = scoreFile(join(RUNS.mmlu, 'per_instance_stats.json'), { bootstrap: 0 });
    const entries = JSON.parse(readFileSync(join(RUNS.mmlu, 'per_instance_stats.json'), 'utf8'));
    const valid = entries.filter((e: any) => e.stats[0].name.split === 'valid');
    const em = valid.map((e: any) => e.stats.find((s: any) => s.name.name === 'exact_match').mean);
    expect(r.breakdown).toEqual([expect.objectContaining({ label: 'split valid', n: valid.length })]);
    expect(r.breakdown![0].metrics.accuracy).toBeCloseTo(em.reduce((a: number, b: number) => a + b, 0) / em.length, 12);
  });

  it('reports a run without a test split on its only split (hellaswag: valid), named in the task', () => {
    const r = scoreFile(join(RUNS.hellaswag, 'per_instance_stats.json'), { bootstrap: 0 });
    expect(r.task).toBe('commonsense:dataset=hellaswag,method=multiple_choice_joint'); // the run spec's name without its model
    expect(r.sourceModel).toBe('eleutherai/pythia-1b-v0');
    expect(r.breakdown).toBeUndefined();
    expect(r.n).toBe(10);
  });

  it("keeps each instance's question, choices, gold, completion and prompt from scenario_state.json beside it (stepper, search)", () => {
    const r = scoreFile(join(RUNS.mmlu, 'per_instance_stats.json'), { bootstrap: 0 });
    expect(r.texts!.fields).toEqual(['input', 'choices', 'reference', 'output', 'answer', 'prompt']);
    const i = r.instances!.ids!.indexOf('id147');
    const row = r.texts!.values[i];
    expect(row[0]).toBe('What does the notion of “meaning in life” refer to?');
    expect(row[1]).toBe("A. external meaning\nB. god's plan\nC. internalmeaning\nD. meaning in an afterlife");
    expect(row[2]).toBe('internalmeaning');
    expect(row[3]).toBe(' D');
    expect(row[4]).toBe('meaning in an afterlife');
    expect(row[5]).toMatch(/^The following are multiple choice questions/);
    expect(r.instances!.correct[i]).toBe(0);
  });
});

describe('HELM scenario_state.json alone: exact match recomputed from the completions', () => {
  for (const [run, dir] of Object.entries(RUNS)) {
    const path = join(dir, 'scenario_state.json');
    const ref = python(SCENARIO_STATE_PY, path);
    const r = scoreFile(path, { bootstrap: 0 });
    it(`${run}: accuracy (and macro-F1 over the letters of a multiple-choice run) as crfm-helm computes them`, () => {
      expect(r.n).toBe(ref.n);
      expect(r.metrics.accuracy).toBeCloseTo(ref.accuracy, 12);
      if (ref.macro_f1 !== undefined) expect(r.metrics.macro_f1).toBeCloseTo(ref.macro_f1, 9);
      else expect(r.metrics.macro_f1).toBeUndefined();
      // The same as HELM's own per-instance exact_match on that split.
      const stats = python(PER_INSTANCE_PY, join(dir, 'per_instance_stats.json'), BOOKKEEPING);
      expect(r.metrics.accuracy).toBeCloseTo(stats.means.exact_match, 12);
      expect(r.reported.accuracy).toBeCloseTo(stats.reported.exact_match, 12);
    });
  }
});

describe('HELM: perturbations, train trials and bad entries', () => {
  /** The mmlu run with every test entry also run under a "typo" perturbation (all wrong) and a second train trial. */
  function augmented(): string {
    const dir = mkdtempSync(join(tmpdir(), 'helm-aug-'));
    const entries = JSON.parse(readFileSync(join(RUNS.mmlu, 'per_instance_stats.json'), 'utf8'));
    const typo = { name: 'typo', robustness: true, fairness: false, computed_on: 'perturbed', prob: 0.1 };
    const out: unknown[] = [];
    for (const e of entries) {
      out.push(e);
      if (e.stats[0].name.split !== 'test') continue;
      out.push({ ...e, perturbation: typo, stats: e.stats.map((s: any) => ({ ...s, name: { ...s.name, perturbation: typo }, ...(s.name.name === 'exact_match' ? { mean: 0, sum: 0, max: 0 } : {}) })) });
      // Trial 1: the answer right where trial 0 had it wrong, on the first three instances.
      const flip = out.length < 8;
      out.push({ ...e, train_trial_index: 1, stats: e.stats.map((s: any) => (s.name.name === 'exact_match' && flip ? { ...s, mean: 1 - s.mean } : s)) });
    }
    const path = join(dir, 'per_instance_stats.json');
    writeFileSync(path, JSON.stringify(out, null, 2));
    return path;
  }

  it('leaves perturbed entries out of n and the headline, shows each perturbation apart, averages train trials per instance', () => {
    const path = augmented();
    const ref = python(PER_INSTANCE_PY, path, BOOKKEEPING);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.n).toBe(ref.n);
    expect(r.n).toBe(9);
    expect(r.metrics.accuracy).toBeCloseTo(ref.means.exact_match, 12);
    const em = r.taskMetrics!.find((t) => t.name === 'exact_match')!;
    expect(em.mean).toBeCloseTo(ref.means.exact_match, 12);
    const typo = r.breakdown!.find((b) => b.label === 'test, perturbation typo')!;
    expect(typo.n).toBe(9);
    expect(typo.metrics.accuracy).toBe(0);
    expect(r.problems.some((p) => /perturbed entr.*typo/.test(p.message))).toBe(true);
    expect(r.problems.some((p) => /2 train trials/.test(p.message))).toBe(true);
  });

  it('reports an entry without instance_id, a stat without a name and a broken element on their lines, and scores the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'helm-bad-'));
    const lines = readFileSync(join(RUNS.mmlu, 'per_instance_stats.json'), 'utf8').split('\n');
    // Line 2 opens the first entry ('  {'), line 3 holds its instance_id: drop the id.
    expect(lines[2]).toMatch(/"instance_id": "id147"/);
    lines[2] = '    "instance_idx": "id147",';
    // Cut the file in the middle of its last entry: it is read element by element.
    const text = lines.slice(0, lines.length - 40).join('\n');
    const path = join(dir, 'per_instance_stats.json');
    writeFileSync(path, text);
    copyFileSync(join(RUNS.mmlu, 'stats.json'), join(dir, 'stats.json'));
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    const noId = r.problems.find((p) => /instance_id/.test(p.message))!;
    expect(noId.line).toBe(2);
    expect(r.problems.some((p) => p.code === 'json-parse' && p.line > 1)).toBe(true);
    expect(r.problems.some((p) => p.code === 'json-parse' && /not valid JSON as a whole/.test(p.message))).toBe(true);
    // The first test entry (no id) and the last entry (cut; the valid one) are out; the rest are scored.
    const entries = JSON.parse(readFileSync(join(RUNS.mmlu, 'per_instance_stats.json'), 'utf8'));
    const kept = entries.slice(1, -1).filter((e: any) => e.stats[0].name.split === 'test');
    const em = kept.map((e: any) => e.stats.find((s: any) => s.name.name === 'exact_match').mean);
    expect(r.n).toBe(kept.length);
    expect(r.metrics.accuracy).toBeCloseTo(em.reduce((a: number, b: number) => a + b, 0) / em.length, 12);
    expect(r.skipped).toBeGreaterThanOrEqual(2);
  });
});

describe('HELM: runs without exact_match, runs of one request per choice', () => {
  it('a run whose stats have no exact_match (summarization: ROUGE only) is per-sample scores: no accuracy, each stat by name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'helm-rouge-'));
    const entries = JSON.parse(readFileSync(join(RUNS.narrativeqa, 'per_instance_stats.json'), 'utf8'));
    const noEm = entries.map((e: any) => ({ ...e, stats: e.stats.filter((s: any) => !/exact_match/.test(s.name.name)) }));
    const path = join(dir, 'per_instance_stats.json');
    writeFileSync(path, JSON.stringify(noEm, null, 2));
    const ref = python(PER_INSTANCE_PY, path, BOOKKEEPING);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.kind).toBe('scores');
    expect(r.metrics.accuracy).toBeUndefined();
    expect(r.n).toBe(ref.n);
    for (const t of r.taskMetrics!) expect(t.mean).toBeCloseTo(ref.means[t.name], 12);
    expect(r.taskMetrics!.map((t) => t.name).sort()).toEqual(Object.keys(ref.means).sort());
  });

  it('scenario_state.json of a multiple_choice_separate run (one request per choice) is refused, pointing at per_instance_stats.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'helm-separate-'));
    const doc = JSON.parse(readFileSync(join(RUNS.mmlu, 'scenario_state.json'), 'utf8'));
    doc.adapter_spec.method = 'multiple_choice_separate_original';
    doc.request_states = doc.request_states.map((s: any, k: number) => ({ ...s, reference_index: k % 4, request_mode: 'original', output_mapping: undefined }));
    const path = join(dir, 'scenario_state.json');
    writeFileSync(path, JSON.stringify(doc, null, 2));
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.format).toBe('helm');
    expect(r.fatal).toMatch(/multiple_choice_separate_original.*one request per choice.*per_instance_stats\.json/);
  });
});

describe('HELM: a run folder', () => {
  it('scores each file as it scores it alone, each result with its own path', () => {
    const { reports } = scorePath(RUNS.mmlu, { bootstrap: 0 });
    for (const name of ['per_instance_stats.json', 'scenario_state.json']) {
      const inFolder = reports.find((x) => x.path === join(RUNS.mmlu, name))!;
      const alone = scoreFile(join(RUNS.mmlu, name), { bootstrap: 0 });
      expect(inFolder.format).toBe('helm');
      expect(inFolder.n).toBe(alone.n);
      expect(inFolder.metrics).toEqual(alone.metrics);
      expect(inFolder.reported).toEqual(alone.reported);
    }
    expect(reports.find((x) => x.path === join(RUNS.mmlu, 'stats.json'))!.format).not.toBe('helm');
  });
});

describe('Records\' lines in nested JSON (jsonMembers.ts, used by the HELM, promptfoo and OpenCompass readers)', () => {
  const fixtures = resolve(__dirname, '../../fixtures');
  const cases: [string, string[], boolean][] = [
    [join(RUNS.mmlu, 'per_instance_stats.json'), [], false],
    [join(RUNS.narrativeqa, 'scenario_state.json'), ['request_states'], false],
    [join(fixtures, 'real/promptfoo/sample-export.json'), ['results', 'results'], false],
    [join(fixtures, 'harness-shape/opencompass/outputs/default/20240501_120000/predictions/demo-7b-hf/mmlu_demo.json'), [], true],
  ];
  it('finds each record from the indentation alone exactly where the character scan does', () => {
    for (const [path, keys, isObject] of cases) {
      const text = readFileSync(path, 'utf8');
      const scanned = memberSpans(text, keys).spans;
      const indented = indentedSpans(text, keys, isObject, scanned.length)!;
      expect(indented).toBeDefined();
      expect(indented.map((s) => [s.key, s.line])).toEqual(scanned.map((s) => [s.key, s.line]));
      // And the line is where the record opens.
      for (const s of indented) expect(text.split('\n')[s.line - 1].trim()[0]).toMatch(isObject ? /"/ : /\{/);
    }
  });

  it('falls back to the scan when the layout is not indented (one line), and still finds every record', () => {
    const doc = JSON.parse(readFileSync(join(RUNS.narrativeqa, 'scenario_state.json'), 'utf8'));
    const compact = JSON.stringify(doc);
    expect(indentedSpans(compact, ['request_states'], false, doc.request_states.length)).toBeUndefined();
    const read = readJsonMembers(compact, ['request_states'], 'request state');
    expect(read.members.length).toBe(doc.request_states.length);
    expect(read.members.every((m) => m.line === 1 && m.column > 1)).toBe(true);
  });
});
