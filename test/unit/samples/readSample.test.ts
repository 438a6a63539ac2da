// The sample view's reader (issue 29) on real files: every message, tool call and score a file
// holds is in the record, as Python's json reads the same file (independently of the code under
// test): Inspect .json (a browser agent with tool calls, v2 2025) and .eval (a v3 log with five bash
// calls and a message pool, a v2 log of 0.3.41, an MMLU question with choices); lm-eval samples
// whose choices get the softmax of their loglikelihoods; Every Eval Ever instance lines, single-turn
// and agentic; and the formats that keep only texts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectKey, readSampleRecord, readLineAt, recordFromTexts } from '../../../src/core/samples/readSample';
import type { SampleRecord } from '../../../src/core/samples/record';
import { inspectSampleRecord } from '../../../src/core/samples/inspectRecord';

const ROOT = resolve(__dirname, '../../..');
const REAL = join(ROOT, 'test/fixtures/real');
const BROWSER = join(REAL, 'inspect-ai/2025-05-12T20-27-36-04-00_browser.json');
const DEDUP = join(REAL, 'inspect-ai/log_message_deduplication.eval');
const FORMATS = join(REAL, 'inspect-ai/log_formats.eval');
const MMLU = join(REAL, 'inspect-ai/mmlu-summary-choices.eval');
const SECURITY = join(REAL, 'inspect-ai/2025-05-12T20-28-26-04-00_security-guide.json');
const BIAS = join(REAL, 'lm-eval/meta-llama__Meta-Llama-3-8B/samples_bias_classification_2024-06-17T16-06-39.458097.json');
const EEE_SINGLE = join(REAL, 'eee/skill-reference/f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl');
const EEE_GAIA = join(REAL, 'eee/inspect-gaia/7c57f847-1098-4472-9fd8-75a7f3995ed0_samples.jsonl');
const EEE_AGENT = join(ROOT, 'test/fixtures/eee/guess_number_samples.jsonl');

/** Runs a Python snippet (Debian's python3, standard library) and parses what it prints as JSON. */
function py(script: string, ...args: string[]): any {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, ...args], { encoding: 'utf8' }));
}

/** An Inspect sample's messages as Python reads them: role, text content, tool calls (name, arguments). */
const INSPECT_MESSAGES = `
import json, sys, zipfile
path, sid = sys.argv[1], sys.argv[2]
if path.endswith('.eval'):
    z = zipfile.ZipFile(path)
    name = [n for n in z.namelist() if n.startswith('samples/' + sid + '_epoch_')][0]
    s = json.loads(z.read(name))
else:
    s = [x for x in json.load(open(path))['samples'] if str(x['id']) == sid][0]
def text(c):
    return c if isinstance(c, str) else '\\n'.join(p['text'] for p in c if p.get('type') == 'text')
print(json.dumps({
  'messages': [{'role': m['role'], 'content': text(m['content']),
                'calls': [[t['function'], t['arguments']] for t in (m.get('tool_calls') or [])],
                'call_id': m.get('tool_call_id')} for m in s['messages']],
  'scores': {k: {'value': v['value'], 'explanation': v.get('explanation')} for k, v in s['scores'].items()},
  'metadata': {k: v if isinstance(v, str) else json.dumps(v) for k, v in (s.get('metadata') or {}).items()},
  'usage': s.get('model_usage'),
  'total_time': s.get('total_time'),
}))
`;

function read(path: string, format: 'inspect' | 'lm-eval' | 'eee', line: number, id?: string): SampleRecord {
  const answer = readSampleRecord({ path, format, row: { line, id } });
  if ('error' in answer) throw new Error(answer.error);
  return answer.record;
}

function expectInspectMessages(record: SampleRecord, path: string, id: string): void {
  const want = py(INSPECT_MESSAGES, path, id);
  expect(record.messages!.length).toBe(want.messages.length);
  want.messages.forEach((m: { role: string; content: string; calls: [string, unknown][]; call_id: string | null }, k: number) => {
    const got = record.messages![k];
    expect(got.role).toBe(m.role);
    expect(got.content).toBe(m.content);
    expect((got.tool_calls ?? []).map((c) => [c.name, JSON.parse(c.arguments)])).toEqual(m.calls);
    expect(got.tool_call_id ?? null).toBe(m.call_id);
  });
  for (const [name, s] of Object.entries(want.scores as Record<string, { value: unknown; explanation: string | null }>)) {
    const got = record.scores!.find((x) => x.name === name)!;
    expect(got.value).toBe(typeof s.value === 'string' ? s.value : JSON.stringify(s.value));
    expect(got.explanation ?? null).toBe(s.explanation);
  }
}

describe('Inspect samples', () => {
  it('a .json log (v2, 2025) of a browsing agent: every message, tool call and result, the score, usage and time', () => {
    const r = read(BROWSER, 'inspect', 3564, '1');
    expectInspectMessages(r, BROWSER, '1');
    expect(r.messages!.filter((m) => m.tool_calls?.length).length).toBe(4);
    expect(r.messages!.filter((m) => m.role === 'tool').map((m) => m.tool_name)).toEqual(['web_browser_go', 'web_browser_click', 'web_browser_click', 'web_browser_click']);
    expect(r.interaction_type).toBe('agentic');
    const want = py(INSPECT_MESSAGES, BROWSER, '1');
    const [model, usage] = Object.entries(want.usage as Record<string, Record<string, number>>)[0];
    expect(r.usage_by_model![model].total_tokens).toBe(usage.total_tokens);
    expect(r.token_usage!.input_tokens).toBe(usage.input_tokens);
    expect(r.timing!.total_seconds).toBe(want.total_time);
  });

  it('a .eval log (v3, a message pool) with five bash calls: read from its one entry, by sample ID', () => {
    const r = read(DEDUP, 'inspect', 1, '0');
    expectInspectMessages(r, DEDUP, '0');
    expect(r.messages!.flatMap((m) => m.tool_calls ?? []).map((c) => c.name)).toEqual(['bash', 'bash', 'bash', 'bash', 'bash']);
    expect(r.scores![0]).toMatchObject({ name: 'closeness_log', value: '0', numeric: 0 });
  });

  it('a .eval log of Inspect 0.3.41 (2024): the system message is there, and the metadata', () => {
    const r = read(FORMATS, 'inspect', 1, py(`import json,zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps(str(json.loads(z.read([n for n in z.namelist() if n.startswith('samples/')][0]))['id'])))`, FORMATS));
    expect(r.messages![0].role).toBe('system');
    expect(r.messages![0].content).toMatch(/Yes|No/);
    const id = r.sample_id;
    expectInspectMessages(r, FORMATS, id);
  });

  it('a multiple-choice question: its choices, the gold and picked choice, the answer marked in the output', () => {
    const r = read(MMLU, 'inspect', 1, '1');
    expect(r.input!.choices).toEqual(['6.0 e', '6.8 eV', '12.2 eV', '13.6 eV']);
    expect([r.goldIndex, r.predIndex, r.answer]).toEqual([0, 2, 'C']);
    const text = r.messages![r.answer_at!.message!].content;
    expect(text.slice(r.answer_at!.start, r.answer_at!.end)).toBe('C');
    expect(text).toBe('ANSWER: C');
    expect(r.metadata!.subject).toBe('college_physics');
  });

  it("a model-graded score keeps the grader's exchange and the Markdown explanation", () => {
    const r = read(SECURITY, 'inspect', 1, '1');
    const s = r.scores![0];
    expect(s.name).toBe('model_graded_fact');
    expect(s.explanation).toMatch(/\*\*Expert's Answer Content:\*\*/);
    expect(s.grader!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.grader!.messages[0].content).toMatch(/\[BEGIN DATA\]/);
    expect(r.messages![0].role).toBe('system');
  });

  it('a row ID with an epoch names the entry of that epoch', () => {
    expect(inspectKey('7 (epoch 2)')).toEqual([{ id: '7 (epoch 2)' }, { id: '7', epoch: 2 }]);
    const r = read(join(ROOT, 'test/fixtures/inspect/epochs.eval'), 'inspect', 2, '1 (epoch 2)');
    expect(r.sample_id).toBe('1');
    expect(r.metadata!.epoch).toBe('2');
  });
});

describe('Inspect content parts (made in inspect_ai\'s shapes: _util/content.py, model/_chat_message.py)', () => {
  it('reasoning apart from the text, a redacted one by its summary, attachments resolved, media as notes', () => {
    const sample = {
      id: 'r1', epoch: 1, input: 'attachment://aa11', target: ['B', 'b'],
      attachments: { aa11: 'The long question, stored once.', bb22: 'A long tool result.' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look:' }, { type: 'image', image: 'data:image/png;base64,AAAA' }] },
        { role: 'assistant', model: 'm-1', content: [{ type: 'reasoning', reasoning: 'First I think.', signature: 'x' }, { type: 'reasoning', reasoning: 'zzz', redacted: true, summary: 'A summary.' }, { type: 'text', text: 'ANSWER: B' }],
          tool_calls: [{ id: 'c1', function: 'python', arguments: { code: 'print(1)' }, parse_error: 'bad json' }] },
        { role: 'tool', content: 'attachment://bb22', tool_call_id: 'c1', function: 'python', error: { type: 'timeout', message: 'took too long' } },
      ],
      scores: { s: { value: { a: 1, b: 'C' }, answer: 'B', explanation: 'attachment://aa11' } },
      limit: { type: 'token', limit: 1000 },
    };
    const r = inspectSampleRecord(sample, { header: { eval: { task: 't', model: 'm' } }, line: 4 });
    expect(r.input!.raw).toBe('The long question, stored once.');
    expect(r.input!.reference).toEqual(['B', 'b']);
    expect(r.messages![0].content).toBe('Look:\n[image]');
    expect(r.messages![1]).toMatchObject({ role: 'assistant', content: 'ANSWER: B', reasoning_trace: 'First I think.\n\nA summary.', model: 'm-1' });
    expect(r.messages![1].tool_calls).toEqual([{ id: 'c1', name: 'python', arguments: '{\n  "code": "print(1)"\n}\n(parse error: bad json)' }]);
    expect(r.messages![2]).toMatchObject({ role: 'tool', content: 'A long tool result.', tool_name: 'python', tool_call_id: 'c1', tool_error: 'timeout: took too long' });
    expect(r.scores![0]).toMatchObject({ name: 's', value: '{"a":1,"b":"C"}', answer: 'B', explanation: 'The long question, stored once.' });
    expect(r.scores![0].numeric).toBeUndefined();
    expect(r.error).toBe('stopped by the token limit (1000)');
    expect(r.interaction_type).toBe('agentic');
    expect(r.messages![r.answer_at!.message!].content.slice(r.answer_at!.start, r.answer_at!.end)).toBe('B');
  });
});

describe('lm-eval samples', () => {
  it("each choice's probability is the softmax of the loglikelihoods (numpy); gold and pick as lm-eval reads them", () => {
    for (const line of [1, 2, 37]) {
      const r = read(BIAS, 'lm-eval', line);
      const want = py(`
import json, sys, numpy as np
rec = json.loads(open(sys.argv[1]).read().split('\\n')[int(sys.argv[2]) - 1])
ll = np.array([float(x[0]) for x in rec['filtered_resps']])
p = np.exp(ll - ll.max()); p /= p.sum()
print(json.dumps({'p': p.tolist(), 'pred': int(ll.argmax()), 'choices': [rec['arguments'][k]['arg_1'].strip() for k in sorted(rec['arguments'], key=lambda k: int(k.split('_')[-1]))], 'target': rec['target'], 'id': str(rec['doc_id']), 'acc': rec['acc']}))`, BIAS, String(line));
      expect(r.sample_id).toBe(want.id);
      expect(r.input!.choices).toEqual(want.choices);
      r.choiceProbs!.forEach((p, k) => expect(p).toBeCloseTo(want.p[k], 12));
      expect(r.predIndex).toBe(want.pred);
      expect(r.input!.choices![r.goldIndex!]).toBe(want.target);
      expect(r.evaluation!.is_correct).toBe(want.acc === 1);
      expect(r.metrics!.acc).toBe(want.acc);
    }
  });

  it('reads the row\'s own line without reading the file to its end', () => {
    expect(JSON.parse(readLineAt(BIAS, 3)!).doc_id).toBe(2);
    expect(readLineAt(BIAS, 10_000)).toBeUndefined();
  });
});

describe('lighteval details', () => {
  const ARC = join(ROOT, 'test/fixtures/lighteval/arc_challenge_25.jsonl');
  it("each choice's probability is the softmax of its log-probability (numpy); the gold at doc.gold_index", () => {
    for (const line of [1, 2, 7]) {
      const r = readSampleRecord({ path: ARC, format: 'lighteval', row: { line } });
      if ('error' in r) throw new Error(r.error);
      const want = py(`
import json, sys, numpy as np
rec = json.loads(open(sys.argv[1]).read().split('\\n')[int(sys.argv[2]) - 1])
k = len(rec['doc']['choices'])
lp = np.array(rec['model_response']['logprobs'][:k])
p = np.exp(lp - lp.max()); p /= p.sum()
print(json.dumps({'p': p.tolist(), 'pred': int(lp.argmax()), 'gold': rec['doc']['gold_index'], 'choices': rec['doc']['choices'], 'query': rec['doc']['query']}))`, ARC, String(line));
      expect(r.record.input!.raw).toBe(want.query);
      expect(r.record.input!.choices).toEqual(want.choices);
      r.record.choiceProbs!.forEach((p, k) => expect(p).toBeCloseTo(want.p[k], 12));
      expect(r.record.predIndex).toBe(want.pred);
      expect(r.record.goldIndex).toBe(Array.isArray(want.gold) ? want.gold[0] : want.gold);
    }
  });
});

describe('Every Eval Ever instance lines', () => {
  // The schema repository's own example, which the EEE reader's fixtures hold.
  it.skipIf(!existsSync(EEE_SINGLE))('single-turn (the schema repository\'s own example): input, output, the answer located in it, usage, metadata', () => {
    const r = read(EEE_SINGLE, 'eee', 1);
    expect(r.sample_id).toBe('demo_0001');
    expect(r.input).toMatchObject({ raw: 'What is 2 + 2?', formatted: 'Q: What is 2 + 2?\nA:', reference: ['4'] });
    expect(r.output!.raw).toEqual(['The answer is 4.']);
    expect(r.answer).toBe('4');
    expect('The answer is 4.'.slice(r.answer_at!.start, r.answer_at!.end)).toBe('4');
    expect(r.answer_at!.output).toBe(0);
    expect(r.token_usage).toEqual({ input_tokens: 12, output_tokens: 5, total_tokens: 17 });
    expect(r.metadata!.subject).toBe('arithmetic');
    expect(r.evaluation).toEqual({ score: 1, is_correct: true });
  });

  it('agentic: every message, tool call (arguments as the schema writes them) and tool result', () => {
    const r = read(EEE_AGENT, 'eee', 1);
    const want = py(`
import json, sys
rec = json.loads(open(sys.argv[1]).readline())
print(json.dumps({'roles': [m['role'] for m in rec['messages']], 'contents': [m['content'] for m in rec['messages']],
  'calls': [[c['name'], c['arguments']] for m in rec['messages'] for c in m['tool_calls']], 'count': rec['evaluation']['tool_calls_count'],
  'ids': [', '.join(m['tool_call_id']) if m['tool_call_id'] else None for m in rec['messages']]}))`, EEE_AGENT);
    expect(r.messages!.map((m) => m.role)).toEqual(want.roles);
    expect(r.messages!.map((m) => m.content)).toEqual(want.contents);
    const calls = r.messages!.flatMap((m) => m.tool_calls ?? []);
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual(want.calls);
    expect(calls.length).toBe(want.count);
    expect(r.messages!.map((m) => m.tool_call_id ?? null)).toEqual(want.ids);
    expect(r.interaction_type).toBe('agentic');
    expect(r.answer).toBe('done');
    expect(r.timing!.working_seconds).toBeCloseTo(0.449, 9);
  });

  // A real agentic file (schema 0.2.0: `interactions`), converted from an Inspect GAIA run; it is the
  // EEE reader's fixture, so the test runs where that folder is.
  it.skipIf(!existsSync(EEE_GAIA))('agentic, schema 0.2.0 (GAIA): the 20 interactions with their 9 tool calls', () => {
    const r = read(EEE_GAIA, 'eee', 1);
    const want = py(`
import json, sys
rec = json.loads(open(sys.argv[1]).readline())
print(json.dumps({'roles': [m['role'] for m in rec['interactions']], 'contents': [m['content'] or '' for m in rec['interactions']],
  'calls': [c['name'] for m in rec['interactions'] for c in (m['tool_calls'] or [])], 'count': rec['evaluation']['tool_calls_count'], 'raw': rec['output']['raw']}))`, EEE_GAIA);
    expect(r.messages!.map((m) => m.role)).toEqual(want.roles);
    expect(r.messages!.map((m) => m.content)).toEqual(want.contents);
    expect(r.messages!.flatMap((m) => m.tool_calls ?? []).map((c) => c.name)).toEqual(want.calls);
    expect(want.calls.length).toBe(want.count);
    expect(r.output!.raw).toEqual([want.raw]);
  });
});

describe('formats that keep only texts', () => {
  it('gathers the row\'s texts, labels and verdict; the answer is marked in the output', () => {
    const r = recordFromTexts({
      line: 7, id: 'q7', gold: 'Paris', pred: 'Lyon', correct: false,
      texts: { fields: ['question', 'output', 'subject'], values: ['Capital of France?', 'I think it is Lyon.', 'geography'] },
    });
    expect(r.input).toEqual({ raw: 'Capital of France?', reference: ['Paris'] });
    expect(r.output!.raw).toEqual(['I think it is Lyon.']);
    expect(r.metadata).toEqual({ subject: 'geography' });
    expect(r.scores![0]).toMatchObject({ value: 'incorrect', numeric: 0 });
    expect('I think it is Lyon.'.slice(r.answer_at!.start, r.answer_at!.end)).toBe('Lyon');
  });

  it('says why a sample cannot be read', () => {
    const answer = readSampleRecord({ path: DEDUP, format: 'inspect', row: { line: 1, id: 'nope' } });
    expect(answer).toEqual({ error: expect.stringMatching(/no entry samples\/<id>_epoch_<n>\.json for sample nope/) });
  });
});
