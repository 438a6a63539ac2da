// Fuzzing every parser with mutated real files: truncations, byte flips, stray quotes, huge fields,
// binary junk, invalid UTF-8 and deeply nested JSON. Whatever the input, the core must return (not
// throw, not hang), every problem must point at a line that exists, and whatever it scored must be
// well-formed. The number of cases run is printed.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileInput } from '../../src/core/formats/context';
import { parseInput } from '../../src/core/score';
import { buildReport, resolveOptions } from '../../src/core/report';
import { nodeCompanionReader } from '../../src/core/io';
import { MAX_PROBLEMS } from '../../src/core/problemCap';
import type { FormatName, ParseResult } from '../../src/core/types';
import { mulberry32 as rng } from '../../src/core/metrics/bootstrap';
import { REAL } from './realData';

const root = join(__dirname, '..', '..');
const shared = REAL;

/** Seeded PRNG so a failure can be replayed. */

type Mutation = (b: Uint8Array, r: () => number) => Uint8Array;
const enc = new TextEncoder();
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
const at = (b: Uint8Array, r: () => number) => Math.floor(r() * (b.length + 1));

export const MUTATIONS: Record<string, Mutation> = {
  truncate: (b, r) => b.slice(0, at(b, r)),
  byteFlips: (b, r) => {
    const out = b.slice();
    for (let k = 0; k < 1 + Math.floor(r() * 20); k++) { const i = Math.floor(r() * out.length); out[i] ^= 1 << Math.floor(r() * 8); }
    return out;
  },
  strayQuote: (b, r) => { const i = at(b, r); return concat(b.slice(0, i), enc.encode('"'), b.slice(i)); },
  strayQuotes: (b, r) => { let out = b; for (let k = 0; k < 5; k++) { const i = at(out, r); out = concat(out.slice(0, i), enc.encode(r() < 0.5 ? '"' : '""'), out.slice(i)); } return out; },
  hugeField: (b, r) => { const i = at(b, r); return concat(b.slice(0, i), enc.encode('x'.repeat(1_000_000)), b.slice(i)); },
  hugeNumber: (b, r) => { const i = at(b, r); return concat(b.slice(0, i), enc.encode('9'.repeat(1_000_000 + Math.floor(r() * 1000))), b.slice(i)); },
  binaryJunk: (b, r) => { const junk = new Uint8Array(2000); for (let k = 0; k < junk.length; k++) junk[k] = Math.floor(r() * 256); const i = at(b, r); return concat(b.slice(0, i), junk, b.slice(i)); },
  invalidUtf8: (b, r) => { const i = at(b, r); return concat(b.slice(0, i), new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0xa0, 0xed, 0xa0, 0x80]), b.slice(i)); },
  deepJson: (b, r) => { const d = 10_000 + Math.floor(r() * 50_000); const i = at(b, r); return concat(b.slice(0, i), enc.encode('['.repeat(d) + ']'.repeat(r() < 0.5 ? d : 3)), b.slice(i)); },
  deepJsonLine: (b, r) => concat(b, enc.encode('\n{"a":' + '{"b":'.repeat(20_000 + Math.floor(r() * 1000)) + '1' + '}'.repeat(20_000) + '}\n')),
  crlfAndBom: (b) => concat(new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode(new TextDecoder().decode(b).replace(/\n/g, '\r\n'))),
  dropNewlines: (b, r) => { const out: number[] = []; for (const c of b) if (!(c === 10 && r() < 0.3)) out.push(c); return Uint8Array.from(out); },
  duplicateLines: (b, r) => { const lines = new TextDecoder().decode(b).split('\n'); const i = Math.floor(r() * lines.length); lines.splice(i, 0, ...Array(50).fill(lines[i])); return enc.encode(lines.join('\n')); },
  nulBytes: (b, r) => { const out = b.slice(); for (let k = 0; k < 10; k++) out[Math.floor(r() * out.length)] = 0; return out; },
  empty: () => new Uint8Array(0),
  onlyHeader: (b) => { const nl = b.indexOf(10); return nl === -1 ? b : b.slice(0, nl + 1); },
};

/** Seed files: real public data where it exists, the project's own examples otherwise. */
function seeds(dir: string): { format: FormatName; path: string }[] {
  // RAFT needs its companions beside the predictions: build a small run folder from the real data.
  const raftTask = join(dir, 'raft', 'systematic_review_inclusion');
  mkdirSync(raftTask, { recursive: true });
  for (const f of ['train.csv', 'task.json']) copyFileSync(join(shared, 'raft', 'systematic_review_inclusion', f), join(raftTask, f));
  const train = readFileSync(join(raftTask, 'train.csv'), 'utf8');
  const ids = [...train.matchAll(/,(\d+)\r?\n/g)].map((m) => m[1]);
  writeFileSync(join(raftTask, 'predictions.csv'), ['ID,Label', ...ids.map((id, i) => `${id},${i % 3 ? 'included' : 'not included'}`)].join('\n') + '\n');
  // A folktexts-style file from the real Adult test set: a hand-made score, the real income label.
  const adult = readFileSync(join(shared, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => l.includes(',')).slice(0, 3000);
  const folk = [',risk_score,label', ...adult.map((l, i) => {
    const f = l.split(',').map((x) => x.trim());
    const s = 1 / (1 + Math.exp(-(0.03 * Number(f[0]) + 0.3 * Number(f[4]) + 0.02 * Number(f[12]) - 5.5)));
    return `${i},${s.toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0}`;
  })];
  const folkPath = join(dir, 'adult.test_predictions.csv');
  writeFileSync(folkPath, folk.join('\n') + '\n');
  // Judge files: the first records of real MT-Bench judgments and of files made in AlpacaEval's and the arena's shape.
  const firstLines = (from: string, n: number, name: string) => {
    const path = join(dir, name);
    writeFileSync(path, readFileSync(from, 'utf8').split('\n').slice(0, n).join('\n') + '\n');
    return path;
  };
  const judges = join(root, 'test', 'fixtures', 'judges');
  const alpaca = join(dir, 'annotations.json');
  writeFileSync(alpaca, JSON.stringify(JSON.parse(readFileSync(join(judges, 'alpacaeval', 'toy-7b', 'alpaca_eval_gpt4', 'annotations.json'), 'utf8')).slice(0, 15), null, 2));
  return [
    { format: 'mt-bench', path: firstLines(join(shared, 'mt-bench', 'medusa', 'model_judgment', 'gpt-4_single.jsonl'), 12, 'gpt-4_single.jsonl') },
    { format: 'mt-bench', path: firstLines(join(shared, 'mt-bench', 'phi-3-pair', 'gpt-4_pair.jsonl'), 8, 'gpt-4_pair.jsonl') },
    { format: 'alpacaeval', path: alpaca },
    { format: 'arena', path: firstLines(join(judges, 'arena', 'battles.jsonl'), 40, 'battles.jsonl') },
    { format: 'arena-hard', path: firstLines(join(shared, 'arena-hard', 'arena-hard-auto-greek', 'data', 'arena-hard-v0.1', 'model_judgment', 'claude-3.5-sonnet-v2', 'krikri-annealing-sft-mixed-run1.jsonl'), 2, 'krikri.jsonl') },
    { format: 'arena-hard', path: firstLines(join(judges, 'arena-hard', 'arena-hard-v2.0', 'model_judgment', 'gpt-4.1', 'toy-model.jsonl'), 8, 'toy-model.jsonl') },
    { format: 'promptfoo', path: join(root, 'test', 'fixtures', 'promptfoo', 'sample-export.jsonl') },
    { format: 'promptfoo', path: join(shared, 'promptfoo', 'csv', 'simple-cli-output.csv') },
    { format: 'opencompass', path: join(root, 'test', 'fixtures', 'opencompass', 'outputs', 'default', '20250301_120000', 'predictions', 'toy-chat', 'tmp_math.jsonl') },
    { format: 'folktexts', path: folkPath },
    { format: 'raft', path: join(raftTask, 'predictions.csv') },
    { format: 'lm-eval', path: join(shared, 'lm-eval', 'Qwen__Qwen3-8B', 'samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl') },
    { format: 'lm-eval', path: join(shared, 'lm-eval', 'Qwen__Qwen3-8B', 'samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl') },
    { format: 'almanacs', path: join(root, 'examples', 'almanacs', 'moral_dilemmas.predictions.jsonl') },
    { format: 'generic', path: join(root, 'examples', 'generic', 'qa_confidence.csv') },
    { format: 'eee', path: join(shared, 'eee', 'inspect-ai2_arc', '9563d156-9b7e-41b9-b50a-6430637937ed_samples.jsonl') },
    { format: 'generic', path: join(shared, 'raft', 'neurips_impact_statement_risks', 'train.csv') },
    { format: 'helm', path: join(shared, 'helm', 'mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2', 'per_instance_stats.json') },
    { format: 'helm', path: join(shared, 'helm', 'narrative_qa-model=openai_gpt2', 'scenario_state.json') },
    { format: 'promptfoo', path: join(shared, 'promptfoo', 'sample-export.json') },
    { format: 'opencompass', path: join(root, 'test', 'fixtures', 'harness-shape', 'opencompass', 'outputs', 'default', '20240501_120000', 'predictions', 'demo-7b-hf', 'mmlu_demo.json') },
    // lighteval details rows as JSON Lines (its Parquet arrives at the reader as such).
    { format: 'lighteval', path: firstLines(join(root, 'test', 'fixtures', 'lighteval', 'arc_challenge_25.jsonl'), 20, 'arc.details.jsonl') },
  ];
}

function lineCount(bytes: Uint8Array): number {
  let n = 1;
  for (const c of bytes) if (c === 10) n++;
  return n;
}

function checkWellFormed(parsed: ParseResult, bytes: Uint8Array, where: string) {
  const lines = lineCount(bytes);
  for (const p of parsed.problems) {
    if (p.path) continue; // a companion file's line
    expect(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines, `${where}: problem line ${p.line} of ${lines}: ${p.message}`).toBe(true);
    expect(typeof p.message === 'string' && p.message.length > 0, where).toBe(true);
  }
  const set = parsed.set;
  if (!set) {
    expect(typeof parsed.fatal, `${where}: a null set must say why`).toBe('string');
    return;
  }
  expect(set.lines.length, where).toBe(set.n);
  for (const l of set.lines) expect(l >= 1 && l <= lines, `${where}: row line ${l}`).toBe(true);
  if (set.kind === 'binary') {
    expect(set.score.length).toBe(set.n);
    for (const s of set.score) expect(s >= 0 && s <= 1, `${where}: score ${s}`).toBe(true);
    for (const y of set.label) expect(y === 0 || y === 1).toBe(true);
  } else if (set.kind === 'probability') {
    for (const p of set.predProb) expect(p >= 0 && p <= 1).toBe(true);
    for (const p of set.goldProb) expect(p >= 0 && p <= 1).toBe(true);
  } else if (set.kind === 'multiclass') {
    const k = set.classes.length;
    for (let i = 0; i < set.n; i++) {
      expect(set.gold[i] >= 0 && set.gold[i] < k && set.pred[i] >= 0 && set.pred[i] < k, `${where}: class index`).toBe(true);
    }
  } else if (set.kind === 'confidence') {
    for (const c of set.confidence) expect(c >= 0 && c <= 1).toBe(true);
  }
}

describe('fuzzing every parser with mutated real files', () => {
  it('never throws, never hangs, and every problem points at a real line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-fuzz-'));
    const options = resolveOptions({ bins: 10 });
    const r = rng(424242);
    let cases = 0;
    const rounds = 6;
    for (const seed of seeds(dir)) {
      const original = new Uint8Array(readFileSync(seed.path));
      for (const [name, mutate] of Object.entries(MUTATIONS)) {
        for (let round = 0; round < rounds; round++) {
          const bytes = mutate(original, r);
          const where = `${seed.format} ${seed.path.split('/').pop()} ${name}#${round}`;
          // Parse as the seed's format and as every other format: a misdetected file must not crash either.
          for (const format of [...new Set<FormatName>([seed.format, 'folktexts', 'raft', 'almanacs', 'lm-eval', 'generic'])]) {
            const input = fileInput(seed.path, bytes);
            let parsed: ParseResult;
            try {
              parsed = parseInput(input, { ...options, format }, nodeCompanionReader);
              buildReport(seed.path, parsed, options);
            } catch (e) {
              throw new Error(`${where} as ${format} threw: ${(e as Error).stack}`);
            }
            checkWellFormed(parsed, bytes, `${where} as ${format}`);
            cases++;
          }
          if (name === 'empty' || name === 'crlfAndBom') break; // deterministic mutations: one round
        }
      }
    }
    console.log(`fuzz: ${cases} cases ran`);
    expect(cases).toBeGreaterThan(2000);
  }, 600_000);
});

// Very long fields, placed exactly: each file has three rows and the long field in the second. A
// numeric or label field over 1,000 characters is a 'field-too-long' problem on its row, and the
// other rows are scored; an ID is text of any length. Both CSV paths (the byte scanner takes
// unquoted rows; a quote sends the file to the RFC 4180 parser) and JSON values (a bare number
// literal, a numeric string, an array document).
describe('very long fields are problems on their row, never crashes', () => {
  const options = resolveOptions({ bins: 10 });
  const long = (c: string) => c.repeat(3_000_000);
  const cases: { name: string; file: string; format: FormatName; text: string; scored: number; tooLong: boolean }[] = [
    { name: 'folktexts risk_score, scanner', file: 'a.test_predictions.csv', format: 'folktexts', text: `,risk_score,label\n0,0.5,1\n1,${long('9')},1\n2,0.25,0\n`, scored: 2, tooLong: true },
    { name: 'folktexts risk_score, RFC 4180', file: 'a.test_predictions.csv', format: 'folktexts', text: `,risk_score,label\n0,"0.5",1\n1,"0.${long('0')}1",1\n2,0.25,0\n`, scored: 2, tooLong: true },
    { name: 'folktexts label, scanner', file: 'a.test_predictions.csv', format: 'folktexts', text: `,risk_score,label\n0,0.5,1\n1,0.7,${long('1')}\n2,0.25,0\n`, scored: 2, tooLong: true },
    { name: 'folktexts ID, scanner', file: 'a.test_predictions.csv', format: 'folktexts', text: `,risk_score,label\n0,0.5,1\n${long('7')},0.7,1\n2,0.25,0\n`, scored: 3, tooLong: false },
    { name: 'generic score, scanner', file: 'g.csv', format: 'generic', text: `score,label\n0.5,1\n${long('9')},1\n0.25,0\n`, scored: 2, tooLong: true },
    { name: 'generic score, RFC 4180', file: 'g.csv', format: 'generic', text: `score,label\n"0.5",1\n"${long('9')}",1\n0.25,0\n`, scored: 2, tooLong: true },
    { name: 'generic label, RFC 4180', file: 'g.csv', format: 'generic', text: `score,label\n"0.5",1\n0.7,"${long('0')}"\n0.25,0\n`, scored: 2, tooLong: true },
    { name: 'generic ID, RFC 4180', file: 'g.csv', format: 'generic', text: `id,score,label\n"a",0.5,1\n"${long('x')}",0.7,1\n"c",0.25,0\n`, scored: 3, tooLong: false },
    { name: 'JSON Lines number literal', file: 'g.jsonl', format: 'generic', text: `{"score":0.5,"label":1}\n{"score":${long('9')},"label":1}\n{"score":0.25,"label":0}\n`, scored: 2, tooLong: true },
    { name: 'JSON Lines tiny number literal', file: 'g.jsonl', format: 'generic', text: `{"score":0.5,"label":1}\n{"score":0.${long('0')}1,"label":1}\n{"score":0.25,"label":0}\n`, scored: 2, tooLong: true },
    { name: 'JSON Lines numeric string', file: 'g.jsonl', format: 'generic', text: `{"score":0.5,"label":1}\n{"score":"${long('9')}","label":1}\n{"score":0.25,"label":0}\n`, scored: 2, tooLong: true },
    { name: 'JSON Lines label string', file: 'g.jsonl', format: 'generic', text: `{"score":0.5,"label":1}\n{"score":0.7,"label":"${long('1')}"}\n{"score":0.25,"label":0}\n`, scored: 2, tooLong: true },
    { name: 'JSON array number literal', file: 'g.json', format: 'generic', text: `[{"score":0.5,"label":1},\n{"score":${long('9')},"label":1},\n{"score":0.25,"label":0}]\n`, scored: 2, tooLong: true },
    { name: 'JSON text holding digits is not a number', file: 'g.jsonl', format: 'generic', text: `{"score":0.5,"label":1,"note":"${long('9')}"}\n{"score":0.7,"label":1}\n{"score":0.25,"label":0}\n`, scored: 3, tooLong: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const bytes = enc.encode(c.text);
      const parsed = parseInput(fileInput(`/virtual/${c.file}`, bytes), { ...options, format: c.format }, nodeCompanionReader);
      buildReport(c.file, parsed, options);
      checkWellFormed(parsed, bytes, c.name);
      expect(parsed.set?.n, c.name).toBe(c.scored);
      const tooLong = parsed.problems.filter((p) => p.code === 'field-too-long');
      expect(tooLong.length, JSON.stringify(parsed.problems)).toBe(c.tooLong ? 1 : 0);
      if (c.tooLong) {
        expect(tooLong[0].line).toBe(c.file.endsWith('.json') || c.file.endsWith('.jsonl') ? 2 : 3);
        expect(tooLong[0].message).toMatch(/3,00\d,\d{3} characters long/);
      }
    });
  }
  it('a million repeated IDs: warnings capped at MAX_PROBLEMS plus a summary, no argument-stack overflow', () => {
    const bytes = enc.encode(',risk_score,label\n' + '7,0.5,1\n'.repeat(1_000_000));
    const parsed = parseInput(fileInput('/virtual/a.test_predictions.csv', bytes), { ...options, format: 'folktexts' }, nodeCompanionReader);
    expect(parsed.set?.n).toBe(1_000_000);
    expect(parsed.problems.filter((p) => p.code === 'duplicate-id').length).toBe(MAX_PROBLEMS);
    expect(parsed.problems.at(-1)?.omitted).toBe(1_000_000 - 1 - MAX_PROBLEMS);
  });
  it('a field of exactly 1,000 characters is still read', () => {
    const value = `0.${'0'.repeat(997)}1`; // 1,000 characters
    const bytes = enc.encode(`score,label\n0.5,1\n${value},1\n0.25,0\n`);
    const parsed = parseInput(fileInput('/virtual/g.csv', bytes), { ...options, format: 'generic' }, nodeCompanionReader);
    expect(parsed.set?.n).toBe(3);
    expect(parsed.problems).toEqual([]);
  });
});
