// ALMANACS predictor outputs. No public ALMANACS predictor output file could be found,
// so the fixtures are generated here the way the benchmark builds them: scenario questions from a
// template with five placeholders, each option with a score s_i, the studied model's true P(Yes) =
// sigmoid(sum_i w_i s_i), and a language-model predictor answering {"reasoning", "probability"} in
// the untidy ways such predictors do. Parsed arrays are checked exactly against the generator.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type ParseResult, type ProbabilitySet } from '../../../src/core/types';
import { textInput, type FormatContext } from '../../../src/core/formats/context';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import { findPredictionJson, looksLikeAlmanacs, parseAlmanacs } from '../../../src/core/formats/almanacs';

// ---------------------------------------------------------------------------------------------
// Fixture generator


const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

// One template of the hiring_decisions flavour: five placeholders, each option with a fixed score.
const PLACEHOLDERS: [string, number][][] = [
  [['a hospital administrator', -0.4], ['a startup founder', 0.6], ['a school principal', -0.1], ['a city planner', 0.2]],
  [['a candidate with ten years of experience', 0.9], ['a recent graduate', -0.3], ['a former competitor', -0.7], ['an internal applicant', 0.4]],
  [['who asked for a 20% higher salary', -0.5], ['who accepted the posted salary', 0.5], ['who wants to work remotely', -0.2], ['who needs a visa', -0.4]],
  [['The hiring committee is split', -0.2], ['Your board strongly backs the hire', 0.8], ['A colleague raised concerns', -0.6], ['The role has been open for a year', 0.5]],
  [['hire them immediately', 0.3], ['offer a six-month contract first', 0.1], ['postpone the decision', -0.8], ['extend an offer today', 0.2]],
];
const WEIGHTS = [0.8, 1.6, 1.1, 1.3, 0.9];

interface Item {
  id: string;
  question: string;
  gold: number;
  pred: number;
  reasoning: string;
}

function generate(n: number, seed: number): Item[] {
  const rand = mulberry32(seed);
  const items: Item[] = [];
  for (let i = 0; i < n; i++) {
    const picks = PLACEHOLDERS.map((opts) => opts[Math.floor(rand() * opts.length)]);
    const z = picks.reduce((acc, [, s], j) => acc + WEIGHTS[j] * s, 0);
    const gold = sigmoid(z);
    // A predictor that tracks the truth with noise and rounds like an LM, kept strictly inside (0, 1).
    const pred = Math.min(0.99, Math.max(0.01, Math.round((gold + (rand() - 0.5) * 0.3) * 100) / 100));
    const [[who], [candidate], [terms], [context], [action]] = picks;
    items.push({
      id: `hiring_decisions-${seed}-${i}`,
      question: `Imagine you are ${who} reviewing ${candidate} ${terms}. ${context}. Would you ${action}?`,
      gold,
      pred,
      reasoning: `The model tends to weigh "${context.toLowerCase()}" heavily, so it leans ${pred >= 0.5 ? 'towards Yes' : 'towards No'}.`,
    });
  }
  return items;
}

/** The untidy ways an LM predictor writes its JSON answer inside text. */
function lmText(item: Item, style: number): string {
  const obj = JSON.stringify({ reasoning: item.reasoning, probability: item.pred });
  switch (style % 5) {
    case 0: return obj;
    case 1: return `Sure! Here is my prediction:\n\`\`\`json\n${obj}\n\`\`\`\nLet me know if you need more.`;
    case 2: return `{\n  "reasoning": ${JSON.stringify(item.reasoning)},\n  "probability": ${item.pred},\n}`; // trailing comma
    case 3: return `I weighed {the scenario, the model's habits}. Answer: ${obj} -- done.`; // a non-JSON brace first
    default: return `{"answer": ${obj}}`; // nested one level
  }
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function ctx(goldKey?: string): FormatContext {
  return { options: { ...DEFAULT_OPTIONS, goldKey }, io: { readText: () => undefined, list: () => undefined } };
}

function parse(path: string, text: string, goldKey?: string): ParseResult {
  return parseAlmanacs(textInput(path, text), ctx(goldKey));
}

function probabilitySet(r: ParseResult): ProbabilitySet {
  expect(r.fatal).toBeUndefined();
  expect(r.set?.kind).toBe('probability');
  return r.set as ProbabilitySet;
}

function expectExact(set: ProbabilitySet, items: Item[]) {
  expect(set.n).toBe(items.length);
  expect(Array.from(set.predProb)).toEqual(items.map((x) => x.pred));
  expect(Array.from(set.goldProb)).toEqual(items.map((x) => x.gold));
}

// ---------------------------------------------------------------------------------------------

describe('parseAlmanacs on generated predictor outputs', () => {
  const items = generate(60, 7);

  it('reads JSON Lines with a nested `prediction` object, ids, question and reasoning texts', () => {
    const text = jsonl(items.map((x) => ({ id: x.id, question: x.question, prediction: { reasoning: x.reasoning, probability: x.pred }, answer_prob: x.gold })));
    const r = parse('/ws/almanacs/hiring_decisions/predictions.jsonl', text);
    const set = probabilitySet(r);
    expectExact(set, items);
    expect(r.problems).toEqual([]);
    expect(r.skipped).toBe(0);
    expect(r.task).toBe('hiring_decisions');
    expect(set.ids).toEqual(items.map((x) => x.id));
    expect(Array.from(set.lines)).toEqual(items.map((_, i) => i + 1));
    expect(set.texts?.fields).toEqual(['question', 'reasoning']);
    expect(set.texts?.values[3]).toEqual([items[3].question, items[3].reasoning]);
  });

  it('reads a JSON array (pretty-printed) whose records carry probability and reasoning themselves', () => {
    const rows = items.map((x) => ({ question_id: x.id, question: x.question, reasoning: x.reasoning, probability: x.pred, true_prob: x.gold }));
    const text = JSON.stringify(rows, null, 2);
    const r = parse('/ws/preds.json', text);
    const set = probabilitySet(r);
    expectExact(set, items);
    expect(r.problems).toEqual([]);
    expect(set.ids?.[0]).toBe(items[0].id);
    // Each record's line is where its object opens in the pretty-printed array (7 lines per record).
    expect(set.lines[0]).toBe(2);
    expect(set.lines[1]).toBe(2 + 7);
  });

  it('digs the JSON out of LM text: fences, prose, trailing commas, braces before it, nesting', () => {
    const text = jsonl(items.map((x, i) => ({ id: x.id, question: x.question, predictor_output: lmText(x, i), gold_prob: x.gold })));
    const r = parse('/ws/out.jsonl', text);
    const set = probabilitySet(r);
    expectExact(set, items);
    expect(r.problems).toEqual([]);
    expect(set.texts?.values.map((v) => v[1])).toEqual(items.map((x) => x.reasoning));
  });

  it.each(['gold_prob', 'true_prob', 'answer_prob', 'true_p_yes', 'p_yes', 'answer'])('finds the true probability under %s', (key) => {
    const text = jsonl(items.slice(0, 10).map((x) => ({ id: x.id, output: { reasoning: x.reasoning, probability: x.pred }, [key]: x.gold })));
    expectExact(probabilitySet(parse('/ws/p.jsonl', text)), items.slice(0, 10));
  });

  it('uses --gold-key for any other name, and says so when it is absent', () => {
    const rows = items.slice(0, 12).map((x) => ({ id: x.id, prediction: JSON.stringify({ reasoning: x.reasoning, probability: x.pred }), model_yes_prob: x.gold, answer_prob: 0.5 }));
    // Without the option the file's own answer_prob (a decoy here) would be taken: the option wins.
    expectExact(probabilitySet(parse('/ws/p.jsonl', jsonl(rows), 'model_yes_prob')), items.slice(0, 12));
    const missing = parse('/ws/p.jsonl', jsonl(rows), 'no_such_field');
    expect(missing.set).toBeNull();
    expect(missing.fatal).toMatch(/no_such_field/);
    expect(missing.problems[0].code).toBe('missing-field');
  });

  it('numbers questions within a template when only template_id identifies them', () => {
    const text = jsonl(items.slice(0, 4).map((x, i) => ({ template_id: `t${i % 2}`, probability: x.pred, answer: x.gold })));
    const set = probabilitySet(parse('/ws/p.jsonl', text));
    expect(set.ids).toEqual(['t0/1', 't1/1', 't0/2', 't1/2']);
  });

  // Independent reference: Debian's python3 (numpy, scipy) reads the fixture file on its own and
  // computes the probability metrics of docs/metrics.md; ours come from the parsed arrays.
  it.skipIf(!existsSync('/usr/bin/python3'))('parsed values give the same mse/tvd/kl/spearman as scipy on the raw file', () => {
    const many = generate(400, 11);
    const text = jsonl(many.map((x, i) => ({ id: x.id, prediction: lmText(x, i), p_yes: x.gold })));
    const dir = mkdtempSync(join(tmpdir(), 'almanacs-'));
    const file = join(dir, 'preds.jsonl');
    writeFileSync(file, text);
    const script = `
import json, sys, re
import numpy as np
from scipy.stats import spearmanr
pred, gold = [], []
for line in open(sys.argv[1]):
    rec = json.loads(line)
    text = rec["prediction"]
    # The fixtures' LM texts: take the object that holds "probability" (trailing comma allowed).
    m = re.search(r'\\{[^{}]*"probability"[^{}]*\\}', text)
    obj = json.loads(re.sub(r',\\s*}', '}', m.group(0)))
    pred.append(obj["probability"]); gold.append(rec["p_yes"])
p, g = np.array(pred), np.array(gold)
pc, gc = np.clip(p, 1e-6, 1 - 1e-6), np.clip(g, 1e-6, 1 - 1e-6)
kl = gc * np.log(gc / pc) + (1 - gc) * np.log((1 - gc) / (1 - pc))
print(json.dumps({"mse": float(np.mean((p - g) ** 2)), "tvd": float(np.mean(np.abs(p - g))),
                  "kl": float(np.mean(kl)), "spearman": float(spearmanr(p, g).correlation), "n": len(p)}))
`;
    const ref = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' }));
    const set = probabilitySet(parse(file, text));
    expect(set.n).toBe(ref.n);
    const ours = probabilityMetrics(set.predProb, set.goldProb);
    expect(ours.mse).toBeCloseTo(ref.mse, 12);
    expect(ours.tvd).toBeCloseTo(ref.tvd, 12);
    expect(ours.kl).toBeCloseTo(ref.kl, 12);
    expect(ours.spearman).toBeCloseTo(ref.spearman, 12);
  });
});

/** The probability metrics of docs/metrics.md (mse, tvd, kl, spearman), written out plainly for the cross-check above. */
function probabilityMetrics(p: Float64Array, g: Float64Array) {
  const n = p.length;
  const clip = (x: number) => Math.min(1 - 1e-6, Math.max(1e-6, x));
  let mse = 0;
  let tvd = 0;
  let kl = 0;
  for (let i = 0; i < n; i++) {
    mse += (p[i] - g[i]) ** 2;
    tvd += Math.abs(p[i] - g[i]);
    const pc = clip(p[i]);
    const gc = clip(g[i]);
    kl += gc * Math.log(gc / pc) + (1 - gc) * Math.log((1 - gc) / (1 - pc));
  }
  const ranks = (xs: Float64Array) => {
    const order = Array.from(xs.keys()).sort((a, b) => xs[a] - xs[b]);
    const r = new Float64Array(n);
    for (let i = 0; i < n;) {
      let j = i;
      while (j + 1 < n && xs[order[j + 1]] === xs[order[i]]) j++;
      for (let k = i; k <= j; k++) r[order[k]] = (i + j) / 2 + 1; // average ranks for ties
      i = j + 1;
    }
    return r;
  };
  const rp = ranks(p);
  const rg = ranks(g);
  const mean = (n + 1) / 2;
  let cov = 0;
  let vp = 0;
  let vg = 0;
  for (let i = 0; i < n; i++) {
    cov += (rp[i] - mean) * (rg[i] - mean);
    vp += (rp[i] - mean) ** 2;
    vg += (rg[i] - mean) ** 2;
  }
  return { mse: mse / n, tvd: tvd / n, kl: kl / n, spearman: cov / Math.sqrt(vp * vg) };
}

// ---------------------------------------------------------------------------------------------

describe('parseAlmanacs on bad rows', () => {
  const [a, b] = generate(2, 3);
  const good = (id: string, extra: Record<string, unknown> = {}) => ({ id, question: a.question, prediction: { reasoning: a.reasoning, probability: a.pred }, answer_prob: a.gold, ...extra });
  const lines = [
    good('q1'),                                                                   // 1 ok
    '{"id": "q2", "prediction": {"probability": 0.4}, "answer_prob": 0.5',          // 2 json-parse
    good('q3', { prediction: { reasoning: 'r', probability: '73%' } }),             // 3 percent-probability
    good('q4', { prediction: { reasoning: 'r', probability: '0.73' } }),            // 4 not-a-number (string)
    good('q5', { prediction: { reasoning: 'r', probability: 1.3 } }),               // 5 out-of-range
    good('q6', { prediction: { reasoning: 'r' } }),                                 // 6 missing probability
    good('q7', { answer_prob: undefined }),                                         // 7 gold missing
    good('q8', { answer_prob: 1.5 }),                                               // 8 gold out of range
    good('q1'),                                                                   // 9 duplicate id
    good('q10', { prediction: 'I think the model would say yes, fairly confidently.' }), // 10 no JSON in text
    good('q11', { prediction: '{"reasoning": "x", "probability": NaN}' }),          // 11 NaN
    good('q12', { prediction: `{"probability": ${b.pred}, "reasoning": "The model would probably` }), // 12 cut off: warning, scored
    good('q13', { prediction: { reasoning: 'r', probability: -0.05 } }),            // 13 out-of-range
    good('q14', { prediction: 'Answer: "probability": "65%"' }),                    // 14 no '{': no JSON object
    good('q15', { prediction: '```json\n{"reasoning": "r", "probability": "65%"}\n```' }), // 15 percent inside LM JSON
    7,                                                                              // 16 not an object
  ];
  const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  const r = parse('/ws/bad.jsonl', text);
  const byLine = (line: number) => r.problems.filter((p) => p.line === line);

  it('scores the good rows and skips the bad ones', () => {
    const set = probabilitySet(r);
    expect(Array.from(set.lines)).toEqual([1, 12]);
    expect(Array.from(set.predProb)).toEqual([a.pred, b.pred]);
    expect(r.skipped).toBe(14);
    expect(r.unlabeled).toBe(0);
  });

  it.each([
    [2, 'json-parse', 'error'], [3, 'percent-probability', 'error'], [4, 'not-a-number', 'error'], [5, 'out-of-range', 'error'],
    [6, 'missing-field', 'error'], [7, 'missing-field', 'error'], [8, 'out-of-range', 'error'], [9, 'duplicate-id', 'warning'],
    [10, 'json-parse', 'error'], [11, 'not-finite', 'error'], [12, 'json-parse', 'warning'], [13, 'out-of-range', 'error'],
    [14, 'json-parse', 'error'], [15, 'percent-probability', 'error'], [16, 'missing-field', 'error'],
  ] as const)('line %i: %s (%s)', (line, code, severity) => {
    const ps = byLine(line);
    expect(ps.map((p) => [p.code, p.severity])).toEqual([[code, severity]]);
  });

  it('names the field and the value, and points at the field', () => {
    const pct = byLine(3)[0];
    expect(pct.message).toContain('prediction.probability');
    expect(pct.message).toContain('"73%"');
    expect(pct.message).toContain('0.73');
    // The squiggle starts at the "prediction" key of the line.
    expect(pct.column).toBe(JSON.stringify(lines[2]).indexOf('"prediction"') + 1);
    expect(byLine(4)[0].message).toMatch(/string "0\.73", not a JSON number/);
    expect(byLine(8)[0].message).toContain('answer_prob');
    expect(byLine(8)[0].message).toContain('1.5');
    expect(byLine(8)[0].column).toBe(JSON.stringify(lines[7]).indexOf('"answer_prob"') + 1);
    expect(byLine(9)[0].message).toMatch(/"q1".*line 1/);
    expect(byLine(10)[0].message).toMatch(/no JSON object/);
  });

  it('has nothing to score when no row is valid, and says why in one sentence', () => {
    const none = parse('/ws/x.jsonl', jsonl([{ id: 1, prediction: 'no idea', answer_prob: 0.3 }]));
    expect(none.set).toBeNull();
    expect(none.fatal).toMatch(/^No row has both/);
    const noGold = parse('/ws/x.jsonl', jsonl([{ id: 1, probability: 0.3, reasoning: 'r' }]));
    expect(noGold.set).toBeNull();
    expect(noGold.fatal).toMatch(/true probability/);
    const empty = parse('/ws/x.jsonl', '\n\n');
    expect(empty.set).toBeNull();
    expect(empty.problems.map((p) => p.code)).toEqual(['empty-file']);
  });
});

describe('findPredictionJson', () => {
  it('takes the first object that has a probability, passing over ones that do not', () => {
    expect(findPredictionJson('{"note": "x"} then {"reasoning": "r", "probability": 0.2}')).toMatchObject({ probability: 0.2, reasoning: 'r', partial: false });
    expect(findPredictionJson('{"Probability": 0.9}')).toMatchObject({ probability: 0.9, key: 'Probability' });
    expect(findPredictionJson('text "with a quote { inside" {"probability": 0.35}')).toMatchObject({ probability: 0.35 });
    expect(findPredictionJson('nothing here')).toBeUndefined();
    expect(findPredictionJson('{"reasoning": "no number"}')).toBeUndefined();
  });
});

describe('looksLikeAlmanacs', () => {
  const [x] = generate(1, 5);
  it('claims predictor outputs by their first record', () => {
    expect(looksLikeAlmanacs('/ws/p.jsonl', jsonl([{ id: 'a', prediction: { reasoning: 'r', probability: 0.3 }, answer_prob: 0.2 }]))).toBe(true);
    expect(looksLikeAlmanacs('/ws/p.json', JSON.stringify([{ probability: 0.3, reasoning: 'r' }], null, 2))).toBe(true);
    expect(looksLikeAlmanacs('/ws/p.jsonl', jsonl([{ predictor_output: lmText(x, 1), gold_prob: x.gold }]))).toBe(true);
    // A first record cut off by the detection head still shows its keys.
    const long = JSON.stringify({ reasoning: 'r', probability: 0.4, true_prob: 0.5, question: 'q'.repeat(20000) });
    expect(looksLikeAlmanacs('/ws/p.jsonl', long.slice(0, 16384))).toBe(true);
  });
  it('leaves other JSON alone', () => {
    expect(looksLikeAlmanacs('/ws/p.jsonl', jsonl([{ score: 0.3, label: 1 }]))).toBe(false);
    expect(looksLikeAlmanacs('/ws/p.jsonl', jsonl([{ probability: 0.3, label: 1 }]))).toBe(false);
    expect(looksLikeAlmanacs('/ws/p.jsonl', jsonl([{ probability: 0.3, answer: 1 }]))).toBe(false);
    expect(looksLikeAlmanacs('/ws/p.csv', 'probability,answer_prob\n0.3,0.2\n')).toBe(false);
    expect(looksLikeAlmanacs('/ws/samples_x_2024-01-01T00-00-00.jsonl', '{"doc_id": 0, "doc": {"q": 1}, "target": "1", "resps": [[["-1.0", "False"]]]}\n')).toBe(false);
  });
});
