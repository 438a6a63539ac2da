// OpenCompass work folders of other tasks than the one real run (test/fixtures/real/opencompass, a
// subjective comparison): made in the shape its code writes by test/fixtures/opencompass/
// make_fixtures.py (gen with a chat prompt, several acceptable answers, PPL, several returns, an
// unfinished run's tmp_<dataset>.jsonl, results with and without details). Each figure against
// Python's reading of the same files.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';

const ROOT = resolve(__dirname, '..', '..', '..');
const WORK = join(ROOT, 'test', 'fixtures', 'opencompass', 'outputs', 'default', '20250301_120000');
const PRED = join(WORK, 'predictions', 'toy-chat');
const PY = '/usr/bin/python3';

const head = (p: string) => readFileSync(p, 'utf8').slice(0, 16 * 1024);

/** Python: the details' share correct, the results file's figure, the records' count. */
function py(dataset: string): { n: number; share: number | null; reported: number | null } {
  const code = `
import json, sys
preds = json.load(open(sys.argv[1], encoding='utf-8'))
try:
    res = json.load(open(sys.argv[2], encoding='utf-8'))
except FileNotFoundError:
    res = {}
d = res.get('details')
flags = None
if isinstance(d, list):
    flags = [x['correct'][0] if isinstance(x['correct'], list) else x['correct'] for x in d]
rep = res.get('accuracy', res.get('score'))
print(json.dumps({'n': len(preds), 'share': (sum(flags) / len(flags)) if flags else None, 'reported': rep / 100 if rep is not None else None}))
`;
  return JSON.parse(execFileSync(PY, ['-c', code, join(PRED, `${dataset}.json`), join(WORK, 'results', 'toy-chat', `${dataset}.json`)], { encoding: 'utf8' }));
}

describe('OpenCompass predictions of other tasks', () => {
  it('gen with free-text answers: OpenCompass\'s own verdicts from the results\' details (before: accuracy 0 beside a reported 0.583)', () => {
    const want = py('gsm8k');
    const r = scoreFile(join(PRED, 'gsm8k.json'));
    expect(r.format).toBe('opencompass');
    expect(r.n).toBe(want.n);
    expect(r.metrics.accuracy).toBeCloseTo(want.share!, 12);
    expect(r.reported!.accuracy).toBeCloseTo(want.reported!, 12);
    expect(r.metrics.accuracy).toBeCloseTo(r.reported!.accuracy!, 12);
    expect(r.metrics.macro_f1).toBeUndefined(); // free text has no classes
    expect(r.problems.some((p) => p.message.includes('as OpenCompass\'s evaluator judged it'))).toBe(true);
  });

  it('gold as a list of acceptable answers (NQ): every record by its verdict, and `score` read as the share (before: 4 of 10 records, accuracy 0.5)', () => {
    const preds = JSON.parse(readFileSync(join(PRED, 'nq.json'), 'utf8'));
    const details = JSON.parse(readFileSync(join(WORK, 'results', 'toy-chat', 'nq.json'), 'utf8')).details as { correct: boolean }[];
    const r = scoreFile(join(PRED, 'nq.json'));
    expect(r.n).toBe(Object.keys(preds).length);
    expect(r.metrics.accuracy).toBeCloseTo(details.filter((d) => d.correct).length / details.length, 12);
    expect(r.reported!.accuracy).toBeCloseTo(r.metrics.accuracy!, 12);
  });

  it('without details, several acceptable answers are refused in one sentence that says what would score them', () => {
    // The same predictions with no results beside them.
    const alone = join(ROOT, 'test', 'fixtures', 'opencompass', 'nq-alone.json');
    const s = scoreFile(alone);
    expect(s.fatal).toContain('several acceptable gold answers');
    expect(s.fatal).toContain('--dump-eval-details');
  });

  it('PPL: the least-perplexity label against the gold, as labels (accuracy and macro-F1), the reported figure beside', () => {
    const preds = JSON.parse(readFileSync(join(PRED, 'ceval-ppl.json'), 'utf8')) as Record<string, { prediction: string; gold: string }>;
    const want = JSON.parse(execFileSync(PY, ['-c', `
import json, sys
from sklearn.metrics import f1_score
p = json.load(open(sys.argv[1]))
y = [p[k]['gold'] for k in p]; yhat = [p[k]['prediction'] for k in p]
print(json.dumps({'acc': sum(a == b for a, b in zip(y, yhat)) / len(y), 'f1': f1_score(y, yhat, average='macro', labels=sorted(set(y) | set(yhat)))}))`, join(PRED, 'ceval-ppl.json')], { encoding: 'utf8' }));
    const r = scoreFile(join(PRED, 'ceval-ppl.json'));
    expect(r.n).toBe(Object.keys(preds).length);
    expect(r.metrics.accuracy).toBeCloseTo(want.acc, 12);
    expect(r.metrics.macro_f1).toBeCloseTo(want.f1, 12);
    expect(r.reported!.accuracy).toBeCloseTo(want.acc, 12);
  });

  it('several returns per prompt: the message says the predictions are lists (before: that the gold answers were)', () => {
    const r = scoreFile(join(PRED, 'humaneval.json'));
    expect(r.fatal).toContain('hold several predictions');
    expect(r.fatal).not.toContain('gold answers of these');
  });

  it('an unfinished run\'s tmp_<dataset>.jsonl is OpenCompass, keyed by idx (before: a generic table)', () => {
    const file = join(PRED, 'tmp_math.jsonl');
    expect(detectFormat(file, head(file))).toBe('opencompass');
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const r = scoreFile(file);
    expect(r.format).toBe('opencompass');
    expect(r.n).toBe(lines.length);
    expect(r.metrics.accuracy).toBeCloseTo(lines.filter((x) => x.prediction === x.gold).length / lines.length, 12);
    expect(r.instances!.ids).toEqual(lines.map((x) => x.idx));
    expect(r.problems.some((p) => p.message.includes('unfinished'))).toBe(true);
  });

  it.each([
    ['since 2025: a list of {example_abbr, pred, answer, correct} lists', 'gsm8k'],
    ['NQEvaluator\'s own: a list of {pred, answer, correct}, the figure named score', 'nq'],
    ['format_details: an object keyed by index with "type"', 'race-high'],
  ])('a results file with its details (%s) is its samples, each as OpenCompass judged it (before: a summary, or refused)', (_name, dataset) => {
    const file = join(WORK, 'results', 'toy-chat', `${dataset}.json`);
    expect(detectFormat(file, head(file))).toBe('opencompass');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const details = Array.isArray(doc.details) ? doc.details : Object.entries(doc.details).filter(([k]) => k !== 'type').map(([, v]) => v);
    const flags = details.map((d: { correct: boolean | boolean[] }) => (Array.isArray(d.correct) ? d.correct[0] : d.correct));
    const r = scoreFile(file);
    expect(r.format).toBe('opencompass');
    expect(r.n).toBe(flags.length);
    expect(r.metrics.accuracy).toBeCloseTo(flags.filter(Boolean).length / flags.length, 12);
    expect(r.reported!.accuracy).toBeCloseTo((doc.accuracy ?? doc.score) / 100, 12);
  });

  it('clean labels whose comparison agrees with the details stay labels (accuracy and macro-F1)', () => {
    const r = scoreFile(join(PRED, 'race-high.json'));
    expect(r.metrics.macro_f1).toBeDefined();
    expect(r.metrics.accuracy).toBeCloseTo(r.reported!.accuracy!, 12);
  });
});

