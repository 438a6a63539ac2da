// Every Eval Ever files, read: real files from evaleval/every_eval_ever (test/fixtures/real/eee, see
// its NOTICE): the 0.3.0 reference conversion of the project's own skill, instance files the project's
// HELM converter (0.2.1) and Inspect converter (0.2.0, single-turn and agentic) wrote from real runs,
// and aggregates of real leaderboards. n and accuracy are checked against Python reading the same
// lines (distinct sample_id, mean of is_correct); the written records' shape against the published
// 0.3.0 schemas with ajv. Hand-made lines cover several results in one file, repeats and bad lines.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { scorePath } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';
import { instanceRecord } from '../../../src/core/formats/eeeInstance';
import { REAL } from '../realData';

const EEE = join(REAL, 'eee');
const HELM_MMLU = join(EEE, 'helm-converter', 'mmlu', 'None_samples.jsonl');
const HELM_NQA = join(EEE, 'helm-converter', 'narrativeqa', 'None_samples.jsonl');
const ARC = join(EEE, 'inspect-ai2_arc', '9563d156-9b7e-41b9-b50a-6430637937ed_samples.jsonl');
const ARC_AGG = join(EEE, 'inspect-ai2_arc', '9563d156-9b7e-41b9-b50a-6430637937ed.json');
const GAIA = join(EEE, 'inspect-gaia', '7c57f847-1098-4472-9fd8-75a7f3995ed0_samples.jsonl');
const SKILL = join(EEE, 'skill-reference', 'f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl');
const SKILL_AGG = join(EEE, 'skill-reference', 'f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json');
const HF_AGG = join(EEE, 'aggregates', '98ea850e-7019-4728-a558-8b1819ec47c2.json');
const HAL_AGG = join(EEE, 'aggregates', '1972de5d-e505-4f0e-8a71-14337ad70988.json');

/** Python's reading of an instance file: per result (evaluation_result_id, else evaluation_name), distinct sample_id and mean is_correct. */
function pythonFigures(path: string): Record<string, { n: number; accuracy: number }> {
  const py = `
import json, sys
groups = {}
for line in open(sys.argv[1], encoding='utf-8'):
    if not line.strip(): continue
    r = json.loads(line)
    key = r.get('evaluation_result_id') or r.get('evaluation_name')
    groups.setdefault(key, []).append(r)
print(json.dumps({k: {'n': len({str(r['sample_id']) for r in rs}), 'accuracy': sum(1 for r in rs if r['evaluation']['is_correct']) / len(rs)} for k, rs in groups.items()}))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, path], { encoding: 'utf8' }));
}

const schema = (name: string) => JSON.parse(readFileSync(join(EEE, 'schemas', name), 'utf8'));

describe('Every Eval Ever instance files from the project\'s own converters', () => {
  for (const [what, path] of [['HELM mmlu (0.2.1)', HELM_MMLU], ['HELM narrativeqa (0.2.1)', HELM_NQA], ['Inspect ai2_arc (0.2.0)', ARC], ['Inspect GAIA, agentic (0.2.0)', GAIA], ['skill reference (0.3.0)', SKILL]] as const) {
    it(`${what}: n is the distinct sample_ids, accuracy the share of is_correct (Python)`, () => {
      expect(detectFormat(path, readFileSync(path, 'utf8').slice(0, 16384))).toBe('eee');
      const want = pythonFigures(path);
      const reports = scorePath(path).reports;
      expect(reports.map((r) => r.task)).toEqual(Object.keys(want));
      for (const r of reports) {
        expect(r.fatal).toBeUndefined();
        expect(r.format).toBe('eee');
        expect(r.n).toBe(want[r.task!].n);
        expect(r.metrics.accuracy).toBeCloseTo(want[r.task!].accuracy, 12);
        // The schema carries no probability: the report says what is missing.
        expect(r.problems.some((p) => p.code === 'undefined-metric' && /AUC, Brier/.test(p.message))).toBe(true);
      }
    });
  }

  it('takes the reported figure from the aggregate beside it (<uuid>.json), and says when it differs', () => {
    const arc = scorePath(ARC).reports[0];
    const agg = JSON.parse(readFileSync(ARC_AGG, 'utf8'));
    expect(arc.reported.accuracy).toBe(agg.evaluation_results[0].score_details.score);
    expect(arc.reportedPath).toBe(ARC_AGG);
    expect(arc.sourceModel).toBe('ollama/qwen2.5-0.5b');
    // The reference conversion reports 0.75 for a file of one right sample: a mismatch, said.
    const skill = scorePath(SKILL).reports[0];
    expect(skill.reported.accuracy).toBe(JSON.parse(readFileSync(SKILL_AGG, 'utf8')).evaluation_results[0].score_details.score);
    expect(skill.metrics.accuracy).toBe(1);
    expect(skill.problems.some((p) => p.code === 'reported-mismatch')).toBe(true);
  });

  it('keeps an agentic sample\'s conversation, tool calls, token usage and metadata in the record', () => {
    const line = readFileSync(GAIA, 'utf8').split('\n')[0];
    const raw = JSON.parse(line);
    const got = instanceRecord(raw, 1);
    if (!('record' in got)) throw new Error('not read');
    const r = got.record;
    expect(r.messages).toHaveLength(raw.interactions.length);
    expect(r.messages!.map((m) => m.role)).toEqual(raw.interactions.map((m: { role: string }) => m.role));
    const calls = raw.interactions.flatMap((m: { tool_calls?: { name: string }[] }) => (m.tool_calls ?? []).map((c) => c.name));
    expect(r.messages!.flatMap((m) => (m.tool_calls ?? []).map((c) => c.name))).toEqual(calls);
    expect(calls.length).toBe(raw.evaluation.tool_calls_count);
    // Tool arguments are objects in the file; the record keeps them as JSON text.
    const firstCall = raw.interactions.find((m: { tool_calls?: unknown[] }) => m.tool_calls?.length).tool_calls[0];
    expect(JSON.parse(r.messages!.flatMap((m) => m.tool_calls ?? [])[0].arguments)).toEqual(firstCall.arguments);
    expect(r.token_usage).toMatchObject({ input_tokens: raw.token_usage.input_tokens, output_tokens: raw.token_usage.output_tokens, total_tokens: raw.token_usage.total_tokens });
    // metadata takes strings only: the file's number 1 is "1".
    expect(r.metadata).toMatchObject({ stop_reason: 'tool_calls', epoch: '1' });
    expect(r.input?.reference).toEqual([raw.input.reference].flat());
    expect(r.output?.raw).toEqual([raw.output.raw]);
  });

  it('reads a numeric sample_id (0.2.0) as text, and the choices', () => {
    const raw = JSON.parse(readFileSync(ARC, 'utf8').split('\n')[0]);
    const got = instanceRecord(raw, 1);
    if (!('record' in got)) throw new Error('not read');
    expect(got.record.sample_id).toBe(String(raw.sample_id));
    expect(got.record.input?.choices).toEqual(raw.input.choices);
    expect(got.record.answer).toBeUndefined(); // answer_attribution is empty in this file
  });
});

describe('Every Eval Ever aggregates alone are summaries', () => {
  it('gives the reported figures, no fatal, n = 0 (0.2.0 with six results, 0.2.2, 0.3.0)', () => {
    for (const path of [HF_AGG, HAL_AGG, SKILL_AGG, ARC_AGG]) {
      const doc = JSON.parse(readFileSync(path, 'utf8'));
      const [r] = scorePath(path).reports;
      expect(r.format).toBe('eee');
      expect(r.fatal).toBeUndefined();
      expect(r.n).toBe(0);
      const values = Object.values(r.reported);
      expect(values).toEqual(doc.evaluation_results.map((x: { score_details: { score: number } }) => x.score_details.score));
      expect(Object.keys(r.reported).every((k, i) => k.startsWith(`${doc.evaluation_results[i].evaluation_name}/`))).toBe(true);
      expect(r.sourceModel).toBe(doc.model_info.id);
      expect(r.summary?.figures.map((f) => [f.name, f.value])).toEqual(Object.entries(r.reported));
    }
    // Older files name the metric only in prose: "Accuracy on IFEval" is accuracy.
    expect(scorePath(HF_AGG).reports[0].reported['IFEval/accuracy']).toBe(0.4486);
  });

  it('does not take the schema files themselves for an evaluation', () => {
    for (const name of ['eval.schema.json', 'instance_level_eval.schema.json']) {
      const path = join(EEE, 'schemas', name);
      expect(detectFormat(path, readFileSync(path, 'utf8').slice(0, 16384))).not.toBe('eee');
    }
  });
});

describe('Every Eval Ever instance files, hand-made', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-eee-'));
  const rec = (id: string, result: string, correct: boolean, extra: Record<string, unknown> = {}) => JSON.stringify({
    schema_version: '0.3.0', evaluation_id: 'e/m/1', model_id: 'org/model', evaluation_name: result.split('/')[0], evaluation_result_id: result,
    sample_id: id, interaction_type: 'single_turn', input: { raw: `q${id}`, reference: ['A'] }, output: { raw: ['A'] },
    answer_attribution: [{ turn_idx: 0, source: 'output.raw', extracted_value: correct ? 'A' : 'B', extraction_method: 'match', is_terminal: true }],
    evaluation: { score: correct ? 1 : 0, is_correct: correct }, ...extra,
  });

  it('gives one result per evaluation_result_id, as a file of several tasks does; --task picks one', () => {
    const path = join(dir, 'two_samples.jsonl');
    // A sample scored by two aggregate results is two records, one per result (the schema's fan-out).
    writeFileSync(path, [rec('1', 'gsm/acc', true), rec('1', 'gsm/strict', false), rec('2', 'gsm/acc', true), rec('2', 'gsm/strict', true), rec('3', 'gsm/acc', false)].join('\n'));
    const reports = scorePath(path).reports;
    expect(reports.map((r) => [r.task, r.n, r.metrics.accuracy])).toEqual([['gsm/acc', 3, 2 / 3], ['gsm/strict', 2, 1 / 2]]);
    expect(reports[0].tasks).toEqual(['gsm/acc', 'gsm/strict']);
    const one = scorePath(path, { task: 'gsm/strict' }).reports;
    expect(one.map((r) => [r.task, r.n])).toEqual([['gsm/strict', 2]]);
    expect(pythonFigures(path)).toEqual({ 'gsm/acc': { n: 3, accuracy: 2 / 3 }, 'gsm/strict': { n: 2, accuracy: 0.5 } });
  });

  it('names the line of a bad record and scores the rest; a repeated sample_id is counted once', () => {
    const path = join(dir, 'bad_samples.jsonl');
    writeFileSync(path, [
      rec('1', 'r', true),
      '{"schema_version": "0.3.0", "evaluation_id": "e", "sample_id": "2", "interaction_type": "single_turn", not json',
      rec('3', 'r', true, { evaluation: { score: 1 } }),
      rec('1', 'r', false),
      rec('4', 'r', false),
    ].join('\n'));
    const [r] = scorePath(path).reports;
    expect(r.n).toBe(2);
    expect(r.metrics.accuracy).toBe(0.5);
    expect(r.skipped).toBe(3);
    const byLine = Object.fromEntries(r.problems.filter((p) => p.severity !== 'info').map((p) => [p.line, p.code]));
    expect(byLine).toEqual({ 2: 'json-parse', 3: 'missing-field', 4: 'duplicate-id' });
    expect(r.problems.find((p) => p.line === 3)!.message).toMatch(/is_correct/);
  });

  it('keeps the attempts at one sample apart when their metadata names the epoch', () => {
    const path = join(dir, 'epochs_samples.jsonl');
    writeFileSync(path, [rec('1', 'r', true, { metadata: { epoch: 1 } }), rec('1', 'r', false, { metadata: { epoch: 2 } }), rec('2', 'r', true, { metadata: { epoch: 1 } })].join('\n'));
    const [r] = scorePath(path, { instances: true }).reports;
    expect(r.n).toBe(3);
    expect(r.instances!.ids).toEqual(['1 (epoch 1)', '1 (epoch 2)', '2']);
    expect(r.metrics.accuracy).toBeCloseTo(2 / 3, 12);
  });

  it('shows evaluation.score as a per-sample metric when it says more than is_correct (partial credit)', () => {
    const path = join(dir, 'partial_samples.jsonl');
    writeFileSync(path, [rec('1', 'r', true, { evaluation: { score: 1, is_correct: true } }), rec('2', 'r', false, { evaluation: { score: 0.5, is_correct: false } })].join('\n'));
    const [r] = scorePath(path).reports;
    expect(r.metrics.accuracy).toBe(0.5);
    expect(r.taskMetrics?.find((t) => t.name === 'score')?.mean).toBe(0.75);
    expect((scorePath(path, { instances: true }).reports[0].classes ?? []).length).toBeGreaterThan(0);
  });
});

describe('the published 0.3.0 schemas, with ajv', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const instance = ajv.compile(schema('instance_level_eval.schema.json'));
  const aggregate = ajv.compile(schema('eval.schema.json'));

  it('accept the project\'s own 0.3.0 reference conversion and reject what breaks their rules', () => {
    const line = JSON.parse(readFileSync(SKILL, 'utf8').trim());
    expect(instance(line)).toBe(true);
    expect(aggregate(JSON.parse(readFileSync(SKILL_AGG, 'utf8')))).toBe(true);
    // metadata takes strings only, and a single-turn record needs its output.
    expect(instance({ ...line, metadata: { subject: 1 } })).toBe(false);
    const { output: _dropped, ...noOutput } = line;
    expect(instance(noOutput)).toBe(false);
    // An older file is not 0.3.0: its reference is a string.
    expect(instance(JSON.parse(readFileSync(ARC, 'utf8').split('\n')[0]))).toBe(false);
  });
});

// The set a verdict-only file gives: a multiclass set whose accuracy is the harness's own verdicts.
it('a verdict-only result is graded by the harness itself (no macro-F1 over its answers)', () => {
  const [r] = scorePath(HELM_MMLU, { instances: true }).reports;
  expect(r.metrics.macro_f1).toBeUndefined();
  expect(r.kind).toBe('multiclass');
  expect(r.classStats).toBeNull();
});
