// OpenCompass predictions: two real files from open-compass/opencompass's history (a subjective
// evaluation, whose gold is a judging criterion, not a label: test/fixtures/real/opencompass/, see
// NOTICE.md), and a work dir in OpenCompass's exact shape (test/fixtures/harness-shape/
// make_fixtures.py: predictions/<model>/<dataset>.json beside results/<model>/<dataset>.json, one
// dataset split in two shards). Figures are checked against Python (numpy, scikit-learn) reading
// the same files, and against the results file's own figure (in percent).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';
import { detectFormat, DETECT_HEAD_BYTES } from '../../../src/core/formats/detect';

const WORK = resolve(__dirname, '../../fixtures/harness-shape/opencompass/outputs/default/20240501_120000');
const PRED = join(WORK, 'predictions/demo-7b-hf');
const REAL = resolve(__dirname, '../../fixtures/real/opencompass/20231208_194351/predictions');

/** n, accuracy and macro-F1 of prediction against gold (both stripped), and the results file's accuracy / 100. */
const PY = String.raw`
import json, sys, os
from sklearn.metrics import accuracy_score, f1_score
path = sys.argv[1]
recs = json.load(open(path, encoding='utf-8'))
rows = [recs[str(i)] for i in range(len(recs))]
rows = [r for r in rows if 'gold' in r and 'prediction' in r]
gold = [str(r['gold']).strip() for r in rows]
pred = [str(r['prediction']).strip() for r in rows]
out = {'n': len(rows), 'accuracy': accuracy_score(gold, pred), 'macro_f1': f1_score(gold, pred, average='macro')}
if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
    out['reported'] = json.load(open(sys.argv[2]))['accuracy'] / 100
print(json.dumps(out))
`;

function python(...args: string[]): any {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY, ...args], { encoding: 'utf8' }));
}

function head(path: string): string {
  return new TextDecoder().decode(readFileSync(path).subarray(0, DETECT_HEAD_BYTES));
}

describe('OpenCompass: detection by content', () => {
  it('claims predictions files (generated, sharded, a chat\'s, real ones) before the generic reader takes them as one row', () => {
    for (const name of ['mmlu_demo.json', 'ceval_demo_0.json', 'ceval_demo_1.json']) expect(detectFormat(join(PRED, name), head(join(PRED, name)))).toBe('opencompass');
    for (const m of ['qwen-7b-chat-hf', 'baichuan2-7b-chat-hf']) expect(detectFormat(join(REAL, m, 'COREV2_6A_.json'), head(join(REAL, m, 'COREV2_6A_.json')))).toBe('opencompass');
    // ChatOutputHandler writes gold first; PPLInferencerOutputHandler the in-context examples.
    expect(detectFormat('/x/p.json', '{\n    "0": {\n        "gold": "A",\n        "prediction": "A",')).toBe('opencompass');
    expect(detectFormat('/x/p.json', '{\n    "0": {\n        "in-context examples": "",\n        "prediction": "A",')).toBe('opencompass');
    // The results file is a summary, not predictions.
    expect(detectFormat(join(WORK, 'results/demo-7b-hf/mmlu_demo.json'), head(join(WORK, 'results/demo-7b-hf/mmlu_demo.json')))).not.toBe('opencompass');
  });

  it('claims a large file whose first 16 KB cut its first record (a long few-shot prompt), and scores all of it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oc-large-'));
    const preds = join(dir, 'predictions/big-model');
    mkdirSync(preds, { recursive: true });
    const path = join(preds, 'long_prompts.json');
    // Written by Python's json.dump(indent=4, ensure_ascii=False), as OpenCompass writes it.
    execFileSync('/usr/bin/python3', ['-c', String.raw`
import json, sys, random
random.seed(5)
shots = ''.join('Question %d: %s\nAnswer: %s\n\n' % (k, 'é' * 300, 'ABCD'[k % 4]) for k in range(40))
recs = {}
for i in range(3000):
    g = 'ABCD'[random.randrange(4)]
    p = g if random.random() < 0.6 else 'ABCD'[random.randrange(4)]
    # The first record carries the few-shot examples (24 KB in UTF-8), the others a short question.
    recs[str(i)] = {'origin_prompt': (shots if i == 0 else '') + 'Question: item %d\nAnswer:' % i, 'prediction': p, 'gold': g}
json.dump(recs, open(sys.argv[1], 'w', encoding='utf-8'), indent=4, ensure_ascii=False)
`, path]);
    const h = head(path);
    expect(h.length).toBeLessThan(readFileSync(path, 'utf8').indexOf('"prediction"'));
    expect(detectFormat(path, h)).toBe('opencompass');
    const ref = python(path);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.n).toBe(3000);
    expect(r.metrics.accuracy).toBeCloseTo(ref.accuracy, 12);
    expect(r.metrics.macro_f1).toBeCloseTo(ref.macro_f1, 9);
  });
});

describe('OpenCompass predictions: n = records, accuracy and macro-F1 of prediction against gold, the results file beside them', () => {
  it('mmlu_demo: the figures, and the results file\'s accuracy (percent) as a fraction, agreeing', () => {
    const path = join(PRED, 'mmlu_demo.json');
    const ref = python(path, join(WORK, 'results/demo-7b-hf/mmlu_demo.json'));
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.format).toBe('opencompass');
    expect(r.n).toBe(ref.n);
    expect(r.n).toBe(60);
    expect(r.metrics.accuracy).toBeCloseTo(ref.accuracy, 12);
    expect(r.metrics.macro_f1).toBeCloseTo(ref.macro_f1, 9);
    expect(r.reported.accuracy).toBeCloseTo(ref.reported, 12);
    expect(r.reportedPath).toBe(join(WORK, 'results/demo-7b-hf/mmlu_demo.json'));
    expect(r.reportedNotes!.accuracy).toMatch(/in percent \(53\.3333333333\d*\); it is shown as a fraction/);
    expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
    expect(r.task).toBe('mmlu_demo');
    expect(r.sourceModel).toBe('demo-7b-hf');
  });

  it('keeps the prompt, the prediction as written and the gold as texts, and labels trimmed', () => {
    const r = scoreFile(join(PRED, 'mmlu_demo.json'), { bootstrap: 0 });
    const recs = JSON.parse(readFileSync(join(PRED, 'mmlu_demo.json'), 'utf8'));
    expect(r.instances!.ids![2]).toBe('2');
    expect(r.texts!.values[2][0]).toBe(recs['2'].origin_prompt);
    expect(r.texts!.values[2][2]).toBe(recs['2'].gold);
    expect(r.texts!.values[2][3]).toBe(recs['2'].prediction);
    expect(r.classes!.every((c) => c === c.trim())).toBe(true);
  });

  it('a shard: its own records, with the whole dataset\'s figure beside them and a note saying so', () => {
    for (const [name, n] of [['ceval_demo_0.json', 25], ['ceval_demo_1.json', 15]] as const) {
      const ref = python(join(PRED, name), join(WORK, 'results/demo-7b-hf/ceval_demo.json'));
      const r = scoreFile(join(PRED, name), { bootstrap: 0 });
      expect(r.n).toBe(n);
      expect(r.metrics.accuracy).toBeCloseTo(ref.accuracy, 12);
      expect(r.reported.accuracy).toBeCloseTo(ref.reported, 12);
      expect(r.task).toBe('ceval_demo');
      expect(r.reportedNotes!.accuracy).toMatch(/one shard of 2 \(ceval_demo_0\.json, \.\.\.\); the reported figure covers them all/);
      // A difference the shard explains is information, not a warning.
      expect(r.problems.filter((p) => p.severity === 'warning')).toEqual([]);
    }
  });

  it('real subjective predictions (gold is a judging criterion): says why nothing is compared, names no figure', () => {
    const path = join(REAL, 'qwen-7b-chat-hf/COREV2_6A_.json');
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.format).toBe('opencompass');
    expect(r.n).toBe(0);
    expect(r.fatal).toMatch(/not labels \(8 of 8 records hold a list or an object/);
    expect(r.problems.find((p) => p.code === 'bad-label')!.line).toBe(2);
    expect(r.sourceModel).toBe('qwen-7b-chat-hf');
    expect(r.task).toBe('COREV2_6A_');
  });

  it('the same run\'s judge output (results/<model1>_<model2>/: the judge\'s verdicts as predictions) is said to be one, alone and in its folder', () => {
    // Before: "...not labels...; no results/<model>/<dataset>.json with them is beside this file", of a file that is in results/.
    const path = resolve(REAL, '../results/baichuan2-7b-chat-hf_qwen-7b-chat-hf/COREV2_6A_.json');
    const golds = Object.values(JSON.parse(readFileSync(path, 'utf8'))).map((r: any) => r.gold);
    expect(golds.every((g: any) => g.answer1 === 'baichuan2-7b-chat-hf' && g.answer2 === 'qwen-7b-chat-hf')).toBe(true);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.format).toBe('opencompass');
    expect(r.n).toBe(0);
    expect(r.fatal).toMatch(/^This is an OpenCompass judge's output \(a comparison of baichuan2-7b-chat-hf and qwen-7b-chat-hf\)/);
    expect(r.fatal).toMatch(/\(answer1, answer2, capability\)/);
    expect(r.fatal).not.toMatch(/beside this file/);
    const folder = scorePath(resolve(REAL, '..'), { bootstrap: 0 }).reports.find((x) => resolve(x.path) === path)!;
    expect(folder.fatal).toBe(r.fatal);
  });
});

describe('OpenCompass: bad records', () => {
  it('reports a record without prediction, one without gold and one that is not JSON on their lines, and scores the rest', () => {
    const recs = JSON.parse(readFileSync(join(PRED, 'mmlu_demo.json'), 'utf8'));
    delete recs['3'].prediction;
    delete recs['7'].gold;
    let text = JSON.stringify(recs, null, 4);
    text = text.replace(`"gold": "${recs['11'].gold}"\n    },\n    "12"`, `"gold": ${recs['11'].gold}\n    },\n    "12"`);
    const dir = mkdtempSync(join(tmpdir(), 'oc-bad-'));
    const path = join(dir, 'mmlu_demo.json');
    writeFileSync(path, text);
    const lines = text.split('\n');
    const lineOf = (key: string) => lines.findIndex((l) => l.startsWith(`    "${key}": {`)) + 1;
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.problems.find((p) => /has no prediction/.test(p.message))!.line).toBe(lineOf('3'));
    expect(r.problems.find((p) => /has no gold/.test(p.message))!.line).toBe(lineOf('7'));
    expect(r.problems.find((p) => p.code === 'json-parse' && p.line > 1)!.line).toBe(lineOf('11'));
    const kept = Object.entries(recs).filter(([k]) => !['3', '7', '11'].includes(k)).map(([, v]) => v as { prediction: string; gold: string });
    const acc = kept.filter((x) => x.prediction.trim() === x.gold).length / kept.length;
    expect(r.n).toBe(57);
    expect(r.metrics.accuracy).toBeCloseTo(acc, 12);
    expect(r.skipped).toBe(3);
  });
});

describe('OpenCompass: a work dir', () => {
  it('scores each predictions file as alone, with its own path', () => {
    const { reports } = scorePath(WORK, { bootstrap: 0 });
    for (const name of ['mmlu_demo.json', 'ceval_demo_0.json', 'ceval_demo_1.json']) {
      const path = join(PRED, name);
      const inFolder = reports.find((x) => x.path === path)!;
      const alone = scoreFile(path, { bootstrap: 0 });
      expect(inFolder.format).toBe('opencompass');
      expect(inFolder.n).toBe(alone.n);
      expect(inFolder.metrics).toEqual(alone.metrics);
      expect(inFolder.reported).toEqual(alone.reported);
    }
  });
});
