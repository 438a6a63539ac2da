// lm-evaluation-harness sample logs: the two real NegotiationToM files from test/fixtures/real (a
// multiple_choice task and a generate_until task, Qwen3-8B, --limit 20), plus hand-made lines for
// every kind of bad row. The harness's own per-sample verdicts (acc, exact_match) and its
// results_*.json are the references.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type MulticlassSet, type ParseResult } from '../../../src/core/types';
import { fileInput, textInput, type FormatContext } from '../../../src/core/formats/context';
import { isLmEvalSamples, lmEvalFileParts, parseLmEval, softmax } from '../../../src/core/formats/lmEval';
import { REAL } from '../realData';

const DATA = join(REAL, 'lm-eval', 'Qwen__Qwen3-8B');
const fileNamed = (part: string) => join(DATA, readdirSync(DATA).find((f) => f.startsWith(part))!);
const BELIEF = fileNamed('samples_negotiationtom_belief_');
const INTENTION = fileNamed('samples_negotiationtom_intention_');
const RESULTS = fileNamed('results_');

const fsCtx: FormatContext = {
  options: DEFAULT_OPTIONS,
  io: {
    readText: (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } },
    list: (d) => { try { return readdirSync(d); } catch { return undefined; } },
  },
};
const noFiles: FormatContext = { options: DEFAULT_OPTIONS, io: { readText: () => undefined, list: () => undefined } };

function parseFile(path: string): ParseResult {
  return parseLmEval(fileInput(path, readFileSync(path)), fsCtx);
}

function multiclass(r: ParseResult): MulticlassSet {
  expect(r.fatal).toBeUndefined();
  expect(r.set?.kind).toBe('multiclass');
  return r.set as MulticlassSet;
}

const rawRows = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const results = JSON.parse(readFileSync(RESULTS, 'utf8')).results;

describe('real lm-eval multiple_choice samples (negotiationtom_belief)', () => {
  const r = parseFile(BELIEF);
  const set = multiclass(r);
  const raw = rawRows(BELIEF);

  it('reads all 20 samples cleanly, with the task from the file name', () => {
    expect(set.n).toBe(20);
    expect(r.skipped).toBe(0);
    expect(r.problems).toEqual([]);
    expect(r.task).toBe('negotiationtom_belief');
    expect(set.ids).toEqual(raw.map((x) => String(x.doc_id)));
    expect(Array.from(set.lines)).toEqual(raw.map((_, i) => i + 1));
  });

  it('names the classes by the choices every sample shares (A-D) and takes gold from target', () => {
    expect(set.classes).toEqual(['A', 'B', 'C', 'D']);
    expect(set.classesKnown).toBe(true);
    expect(Array.from(set.gold)).toEqual(raw.map((x) => Number(x.target)));
  });

  it('prediction == gold exactly when the harness logged acc = 1, on every row', () => {
    for (let i = 0; i < set.n; i++) expect(set.pred[i] === set.gold[i] ? 1 : 0).toBe(raw[i].acc);
  });

  it('probabilities are the softmax of the logged loglikelihoods; confidence is p(pred)', () => {
    const k = set.classes.length;
    for (let i = 0; i < set.n; i++) {
      const lls = raw[i].filtered_resps.map((pair: [string, string]) => Number(pair[0]));
      const z = lls.reduce((a: number, x: number) => a + Math.exp(x), 0);
      const row = Array.from(set.probs!.subarray(i * k, (i + 1) * k));
      lls.forEach((x: number, j: number) => expect(row[j]).toBeCloseTo(Math.exp(x) / z, 12));
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(set.pred[i]).toBe(lls.indexOf(Math.max(...lls)));
      expect(set.confidence![i]).toBe(row[set.pred[i]]);
    }
    // Row 0: ll = -10.125, -17.625, -21.125, -17.875; p(A) = 1 / (1 + e^-7.5 + e^-11 + e^-7.75).
    expect(set.confidence![0]).toBeCloseTo(1 / (1 + Math.exp(-7.5) + Math.exp(-11) + Math.exp(-7.75)), 12);
  });

  it('carries the harness-reported accuracy from results_<timestamp>.json, equal to ours', () => {
    // Every figure lm-eval reported for the task: acc under the recomputed name, the rest under its own.
    expect(r.reported).toEqual({ accuracy: results.negotiationtom_belief['acc,none'], acc_stderr: results.negotiationtom_belief['acc_stderr,none'] });
    expect(r.reportedPath).toBe(RESULTS);
    const accuracy = Array.from(set.gold).filter((g, i) => g === set.pred[i]).length / set.n;
    expect(accuracy).toBeCloseTo(0.45, 12);
  });

  it('keeps the question (doc.prompt) and the choices for the stepper', () => {
    expect(set.texts?.fields).toEqual(['prompt', 'choices']);
    expect(set.texts?.values[0][0]).toBe(raw[0].doc.prompt);
    expect(set.texts?.values[0][1]).toBe('0: A\n1: B\n2: C\n3: D');
  });

  it('reads the same from `resps` when `filtered_resps` is absent', () => {
    const text = readFileSync(BELIEF, 'utf8').trim().split('\n').map((l) => {
      const o = JSON.parse(l);
      delete o.filtered_resps;
      return JSON.stringify(o);
    }).join('\n');
    const again = multiclass(parseLmEval(textInput(BELIEF, text), noFiles));
    expect(Array.from(again.probs!)).toEqual(Array.from(set.probs!));
  });
});

describe('real lm-eval generate_until samples (negotiationtom_intention)', () => {
  const r = parseFile(INTENTION);
  const set = multiclass(r);
  const raw = rawRows(INTENTION);

  it('uses the task\'s own (gold labels, predicted labels) pair as gold and prediction', () => {
    expect(set.n).toBe(20);
    expect(r.skipped).toBe(0);
    expect(r.task).toBe('negotiationtom_intention');
    expect(set.classesKnown).toBe(false);
    expect(set.probs).toBeUndefined();
    expect(set.confidence).toBeUndefined();
    const name = (labels: string[]) => [...labels].sort().join(', ');
    for (let i = 0; i < set.n; i++) {
      expect(set.classes[set.gold[i]]).toBe(name(raw[i].micro_f1[0]));
      expect(set.classes[set.pred[i]]).toBe(name(raw[i].micro_f1[1]));
      // The gold label set is the target text's comma-separated labels.
      expect(set.classes[set.gold[i]]).toBe(name(raw[i].target.split(',')));
      expect(set.pred[i] === set.gold[i] ? 1 : 0).toBe(raw[i].exact_match);
    }
    expect(set.classes[set.pred[12]]).toBe('Build-Rapport'); // the response was "A.II"
  });

  it('accuracy equals the harness\'s exact_match, which it reports', () => {
    const accuracy = Array.from(set.gold).filter((g, i) => g === set.pred[i]).length / set.n;
    expect(accuracy).toBeCloseTo(0.2, 12);
    const t = results.negotiationtom_intention;
    expect(r.reported).toEqual({
      accuracy: t['exact_match,none'], exact_match_stderr: t['exact_match_stderr,none'],
      micro_f1: t['micro_f1,none'], micro_f1_stderr: null, macro_f1: t['macro_f1,none'], macro_f1_stderr: null,
    });
  });

  it('says once that calibration is unavailable, and nothing else', () => {
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['undefined-metric', 'info']]);
    expect(r.problems[0].message).toMatch(/no probabilities/);
  });

  it('keeps prompt, raw response and target for the stepper', () => {
    expect(set.texts?.fields).toEqual(['prompt', 'response', 'target']);
    expect(set.texts?.values[19]).toEqual([raw[19].doc.prompt, 'Answer: A, C, D, F, G', 'Callout-Fairness']);
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-made samples in the current (0.4.4+) layout.

interface McOptions { id: number; lls: unknown[]; target: unknown; acc?: number; choices?: string[]; filter?: string }

function mcLine(o: McOptions): string {
  const choices = o.choices ?? ['A', 'B', 'C', 'D'].slice(0, o.lls.length);
  const args = Object.fromEntries(choices.map((c, j) => [`gen_args_${j}`, { arg_0: `Question ${o.id}?\nAnswer:`, arg_1: ` ${c}` }]));
  const pairs = o.lls.map((x) => [x, 'False']);
  return JSON.stringify({
    doc_id: o.id, doc: { question: `Question ${o.id}?`, choices }, target: o.target, arguments: args,
    resps: pairs.map((p) => [p]), filtered_resps: pairs, filter: o.filter ?? 'none', metrics: ['acc'], acc: o.acc,
  });
}

describe('hand-made bad multiple-choice lines', () => {
  const lines = [
    mcLine({ id: 0, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: '1', acc: 1 }),      // 1 ok
    '{"doc_id": 1, "doc": {"question": "x"}, "target": "0", "resps": [[["-1.0", "Fal',   // 2 json-parse
    mcLine({ id: 2, lls: ['-1.5', 'abc', '-3.0', '-2.0'], target: '0', acc: 0 }),        // 3 not-a-number
    mcLine({ id: 3, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: '7', acc: 0 }),       // 4 target out of range
    mcLine({ id: 0, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: '1', acc: 1 }),       // 5 duplicate doc_id
    mcLine({ id: 5, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: 'C', acc: 0 }),       // 6 target by choice text: ok
    mcLine({ id: 6, lls: ['-1.5', 'nan', '-3.0', '-2.0'], target: '0', acc: 0 }),        // 7 not-finite
    mcLine({ id: 7, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: '1', acc: 0 }),       // 8 acc disagrees: warning, scored
    JSON.stringify({ doc_id: 8, doc: {}, target: '0', filter: 'none', acc: 0 }),         // 9 no resps
    mcLine({ id: 9, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: 'Z', acc: 0 }),       // 10 target not a choice
    mcLine({ id: 10, lls: ['-inf', '-0.5', '-inf', '-2.0'], target: 3, acc: 0 }),        // 11 -inf is a legal choice; numeric target
    mcLine({ id: 11, lls: ['-1.5', '-0.5', '-3.0', '-2.0'], target: undefined, acc: 0 }), // 12 no target
  ];
  const r = parseLmEval(textInput('/ws/samples_mytask_2025-01-02T03-04-05.123456.jsonl', lines.join('\n') + '\n'), noFiles);
  const set = multiclass(r);
  const at = (line: number) => r.problems.filter((p) => p.line === line).map((p) => [p.code, p.severity]);

  it('scores the good lines', () => {
    expect(Array.from(set.lines)).toEqual([1, 6, 8, 11]);
    expect(Array.from(set.gold)).toEqual([1, 2, 1, 3]);
    expect(Array.from(set.pred)).toEqual([1, 1, 1, 1]);
    expect(r.skipped).toBe(8);
    expect(r.task).toBe('mytask');
    // -inf choices get probability 0; the rest are a softmax over the finite ones.
    const [p1, p3] = softmax([-0.5, -2.0]);
    expect(Array.from(set.probs!.subarray(12, 16))).toEqual([0, p1, 0, p3]);
  });

  it.each([
    [2, 'json-parse', 'error'], [3, 'not-a-number', 'error'], [4, 'unknown-class', 'error'], [5, 'duplicate-id', 'warning'],
    [7, 'not-finite', 'error'], [8, 'reported-mismatch', 'warning'], [9, 'missing-field', 'error'],
    [10, 'unknown-class', 'error'], [12, 'missing-field', 'error'],
  ] as const)('line %i: %s (%s)', (line, code, severity) => {
    expect(at(line)).toEqual([[code, severity]]);
  });

  it('messages name the sample and the value, and squiggle the field', () => {
    const notNumber = r.problems.find((p) => p.line === 3)!;
    expect(notNumber.message).toContain('doc_id 2');
    expect(notNumber.message).toContain('"abc"');
    expect(notNumber.column).toBe(lines[2].indexOf('"filtered_resps"') + 1);
    const range = r.problems.find((p) => p.line === 4)!;
    expect(range.message).toMatch(/target "7" is not a choice index 0\.\.3/);
    expect(range.column).toBe(lines[3].indexOf('"target"') + 1);
    expect(r.problems.find((p) => p.line === 5)!.message).toMatch(/doc_id 0 was already seen on line 1/);
    expect(r.problems.find((p) => p.line === 10)!.message).toMatch(/"Z" is not one of the choices/);
  });

  it('no reported figures without a results file', () => {
    expect(r.reported).toBeUndefined();
  });
});

describe('other lm-eval shapes', () => {
  const path = '/ws/samples_t_2025-01-02T03-04-05.jsonl';

  it('uses indices as classes when choices differ between samples, padding missing choices with 0', () => {
    const text = [
      mcLine({ id: 0, lls: [-1, -2, -3], target: 0, acc: 1, choices: ['The cat sat on the mat.', 'A dog barked.', 'Rain fell.'] }),
      mcLine({ id: 1, lls: [-2, -1], target: 1, acc: 1, choices: ['Yes', 'No'] }),
    ].join('\n');
    const set = multiclass(parseLmEval(textInput(path, text), noFiles));
    expect(set.classes).toEqual(['0', '1', '2']);
    expect(set.probs!.length).toBe(6);
    expect(set.probs![5]).toBe(0);
    expect(set.probs![3] + set.probs![4]).toBeCloseTo(1, 12);
    expect(set.texts?.values[1][1]).toBe('0: Yes\n1: No');
  });

  it('reads the older layout: arguments as [[context, continuation], ...] and numeric resps', () => {
    const line = JSON.stringify({
      doc_id: 0, doc: { query: 'Is water wet?' }, target: ' no', arguments: [['Is water wet?', ' yes'], ['Is water wet?', ' no']],
      resps: [[[-0.2, false]], [[-1.9, true]]], filtered_resps: [[-0.2, false], [-1.9, true]], acc: 0,
    });
    const r = parseLmEval(textInput(path, line), noFiles);
    const set = multiclass(r);
    expect(set.classes).toEqual(['yes', 'no']);
    expect([set.gold[0], set.pred[0]]).toEqual([1, 0]);
    expect(r.problems).toEqual([]);
  });

  it('generation without a (gold, pred) pair: target vs trimmed response, the harness verdict deciding', () => {
    const gen = (id: number, target: unknown, resp: string, em: number) => JSON.stringify({
      doc_id: id, doc: { question: `What is ${id} + ${id}?` }, target, arguments: { gen_args_0: { arg_0: 'Q', arg_1: { until: ['\n'] } } },
      resps: [[resp]], filtered_resps: [resp], filter: 'strict-match', metrics: ['exact_match'], exact_match: em,
    });
    const text = [
      gen(0, '0', ' 0\n', 1),          // equal after trimming
      gen(1, '2', 'The answer is 2', 1), // the harness's regex filter matched: counted correct
      gen(2, '4', '5', 0),
      gen(3, ['6', 'six'], 'six', 1),    // several references: the matching one is gold
      gen(4, '8', '8', 0),               // the harness disagrees with plain equality: warning
    ].join('\n');
    const r = parseLmEval(textInput(path, text), noFiles);
    const set = multiclass(r);
    const cls = (xs: Int32Array) => Array.from(xs, (i) => set.classes[i]);
    expect(cls(set.gold)).toEqual(['0', '2', '4', 'six', '8']);
    expect(cls(set.pred)).toEqual(['0', '2', '5', 'six', '8']);
    // One problem per row judged differently from lm-eval's exact_match, then one summary.
    expect(r.problems.map((p) => [p.line, p.code, p.severity])).toEqual([
      [2, 'reported-mismatch', 'info'], [5, 'reported-mismatch', 'warning'], [2, 'reported-mismatch', 'info'], [1, 'undefined-metric', 'info'],
    ]);
    expect(r.problems[2].message).toMatch(/^2 of 5 samples are judged differently/);
    expect(set.texts?.values[1]).toEqual(['What is 1 + 1?', 'The answer is 2', '2']);
  });

  it('scores only the first filter when the file logs several per document', () => {
    const text = [
      mcLine({ id: 0, lls: [-1, -2], target: 0, acc: 1, filter: 'none' }),
      mcLine({ id: 0, lls: [-1, -2], target: 0, acc: 1, filter: 'other' }),
      mcLine({ id: 1, lls: [-2, -1], target: 0, acc: 0, filter: 'none' }),
      mcLine({ id: 1, lls: [-2, -1], target: 0, acc: 0, filter: 'other' }),
    ].join('\n');
    const r = parseLmEval(textInput(path, text), noFiles);
    expect(multiclass(r).n).toBe(2);
    expect(r.skipped).toBe(2);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 2, severity: 'info' });
    expect(r.problems[0].message).toMatch(/2 samples for filter "other" are not scored/);
  });

  it('scores single-continuation loglikelihood tasks (greedy share), is fatal for empty files', () => {
    const single = JSON.stringify({ doc_id: 0, doc: { text: 'The end' }, target: ' end', resps: [[['-1.2', 'True']]], filtered_resps: [['-1.2', 'True']], acc: 1 });
    const r = parseLmEval(textInput(path, single), noFiles);
    const set = multiclass(r);
    expect([set.n, set.gold[0], set.pred[0]]).toEqual([1, 0, 0]);
    expect(Array.from(set.continuationLoglik!)).toEqual([-1.2]);
    const empty = parseLmEval(textInput(path, ''), noFiles);
    expect(empty.set).toBeNull();
    expect(empty.problems.map((p) => p.code)).toEqual(['empty-file']);
    const garbage = parseLmEval(textInput(path, 'not json\n'), noFiles);
    expect(garbage.set).toBeNull();
    expect(garbage.fatal).toMatch(/parses as JSON/);
  });
});

describe('isLmEvalSamples / lmEvalFileParts', () => {
  it('recognises samples files by name and by content', () => {
    expect(isLmEvalSamples(BELIEF, '')).toBe(true);
    const head = readFileSync(INTENTION, 'utf8').slice(0, 16384);
    expect(isLmEvalSamples('/ws/renamed.jsonl', head)).toBe(true);
    expect(isLmEvalSamples('/ws/renamed.jsonl', '{"id": 1, "probability": 0.3, "answer_prob": 0.4}\n')).toBe(false);
    expect(isLmEvalSamples(RESULTS, readFileSync(RESULTS, 'utf8').slice(0, 16384))).toBe(false);
    expect(isLmEvalSamples('/ws/data.csv', '{"doc_id": 0, "doc": {}}')).toBe(false);
  });

  it('splits task and timestamp, task names with underscores included', () => {
    expect(lmEvalFileParts(BELIEF)).toEqual({ task: 'negotiationtom_belief', timestamp: '2026-07-08T18-15-33.115417' });
    expect(lmEvalFileParts('C:\\out\\samples_arc_challenge_2025-03-18T00-03-26.972068.jsonl').task).toBe('arc_challenge');
  });
});
