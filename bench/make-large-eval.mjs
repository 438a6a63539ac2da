#!/usr/bin/env node
// A large synthetic Inspect AI .eval log (issue 29's benchmark): an agent run of N samples, each a
// conversation of tool calls and their results with the events Inspect records beside it, written
// in Inspect's own layout (src/inspect_ai/log/_recorders/eval.py in UKGovernmentBEIS/inspect_ai, as
// the real .eval logs in test/fixtures/real/inspect-ai have it): _journal/start.json,
// samples/<id>_epoch_<n>.json (one deflated entry a sample), _journal/summaries/<k>.json,
// summaries.json, reductions.json, header.json, CRC-32 and sizes in every header. Seeded: the same
// bytes every run. The default (2,500 samples) makes about 300 MB whose entries inflate to about 2.3 GB.
//
//   node bench/make-large-eval.mjs [--samples 2500] [--out bench/data/large-agent.eval]
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SAMPLES = Number(opt('--samples', 2500));
const OUT = opt('--out', join(root, 'bench', 'data', 'large-agent.eval'));
const TURNS = Number(opt('--turns', 24));

let seed = 20260429;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const WORDS = ('the a of to and in is it that for on with as was at by an be this from or are which file line error test data model '
  + 'value function return import class def self print result output input path config run build check step list find read write '
  + 'open close main src lib bin usr var tmp home user root node python bash grep cat echo install package version update fix').split(' ');
const text = (words) => Array.from({ length: words }, () => pick(WORDS)).join(' ');
const id22 = () => Array.from({ length: 22 }, () => pick([...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'])).join('');
// A tool's output: grep-like lines, as repetitive as real listings and logs are (Inspect logs of
// agent runs inflate about 7 times, as the 301 MB log with 2.2 GB of entries does).
const SOURCE = Array.from({ length: 60 }, () => `${pick(['return', 'if', 'for', 'self.'])} ${pick(WORDS)}(${pick(WORDS)}, ${pick(WORDS)})  # ${text(3)}`);
const lines = (n) => Array.from({ length: n }, (_, k) => `${pick(['src', 'lib', 'test'])}/agent/${pick(['tools', 'runner', 'scorer'])}.py:${String(k + 1).padStart(4)}:     ${pick(SOURCE)} ${text(2)}`).join('\n');

/** One sample as Inspect writes it: messages, output, scores, events (each model call with its whole input), usage. */
function sample(id) {
  const right = random() < 0.55;
  const messages = [
    { id: id22(), content: 'You are an agent. Use the bash and python tools to solve the task, then give your answer as ANSWER: <value>.', role: 'system' },
    { id: id22(), content: `Task ${id}: ${text(60)}`, source: 'input', role: 'user' },
  ];
  const events = [{ uuid: id22(), span_id: 'init', timestamp: '2026-04-29T10:00:00+00:00', working_start: 0, event: 'sample_init', sample: { input: messages[1].content, target: 'yes', id } }];
  const turns = 4 + Math.floor(random() * TURNS);
  let tokens = 0;
  for (let k = 0; k < turns; k++) {
    const tool = k % 3 === 2 ? 'python' : 'bash';
    const call = { id: `call_${id22()}`, function: tool, arguments: tool === 'bash' ? { cmd: `grep -rn ${pick(WORDS)} ${pick(['src', 'lib', 'test'])}/` } : { code: `print(${pick(WORDS)}_${k})` }, type: 'function' };
    const assistant = { id: id22(), content: random() < 0.3 ? text(30) : '', source: 'generate', role: 'assistant', tool_calls: [call], model: 'synthetic-agent-1' };
    const result = { id: id22(), content: lines(40 + Math.floor(random() * 60)), role: 'tool', tool_call_id: call.id, function: tool };
    // The model event holds the whole conversation so far, as Inspect logs each generate call.
    events.push({ uuid: id22(), span_id: `s${k}`, timestamp: '2026-04-29T10:00:01+00:00', working_start: k, event: 'model', model: 'synthetic/agent-1', input: messages.slice(), tools: [{ name: 'bash' }, { name: 'python' }], tool_choice: 'auto', config: {}, output: { model: 'agent-1', choices: [{ message: assistant, stop_reason: 'tool_calls' }] } });
    events.push({ uuid: id22(), span_id: `s${k}`, timestamp: '2026-04-29T10:00:02+00:00', working_start: k + 0.5, event: 'tool', type: 'function', id: call.id, function: tool, arguments: call.arguments, result: result.content });
    messages.push(assistant, result);
    tokens += 1500 + Math.floor(random() * 1500);
  }
  const answer = right ? 'yes' : 'no';
  const final = { id: id22(), content: `${text(40)}\n\nANSWER: ${answer}`, source: 'generate', role: 'assistant', model: 'synthetic-agent-1' };
  messages.push(final);
  const usage = { input_tokens: tokens, output_tokens: 40 * turns, total_tokens: tokens + 40 * turns };
  return {
    id, epoch: 1, input: messages[1].content, target: 'yes', messages,
    output: { model: 'agent-1', choices: [{ message: final, stop_reason: 'stop' }], completion: final.content, usage, time: 12.5 },
    scores: { match: { value: right ? 'C' : 'I', answer, explanation: final.content } },
    metadata: { difficulty: pick(['easy', 'medium', 'hard']) }, store: {}, events,
    model_usage: { 'synthetic/agent-1': usage }, total_time: 20 + turns, working_time: 18 + turns, uuid: id22(), error_retries: [], attachments: {},
  };
}

const encoder = new TextEncoder();
mkdirSync(dirname(OUT), { recursive: true });
const fd = openSync(OUT, 'w');
let offset = 0;
const central = [];
let inflated = 0;

function entry(name, json) {
  const raw = encoder.encode(JSON.stringify(json));
  const data = deflateRawSync(raw, { level: 6 });
  const nameBytes = encoder.encode(name);
  const crc = crc32(raw);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(0x0800, 6); local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14); local.writeUInt32LE(data.length, 18); local.writeUInt32LE(raw.length, 22); local.writeUInt16LE(nameBytes.length, 26);
  writeSync(fd, local); writeSync(fd, nameBytes); writeSync(fd, data);
  const dir = Buffer.alloc(46);
  dir.writeUInt32LE(0x02014b50, 0); dir.writeUInt16LE(20, 4); dir.writeUInt16LE(20, 6); dir.writeUInt16LE(0x0800, 8); dir.writeUInt16LE(8, 10);
  dir.writeUInt32LE(crc, 16); dir.writeUInt32LE(data.length, 20); dir.writeUInt32LE(raw.length, 24); dir.writeUInt16LE(nameBytes.length, 28); dir.writeUInt32LE(offset, 42);
  central.push(dir, nameBytes);
  offset += 30 + nameBytes.length + data.length;
  inflated += raw.length;
}

const evalSpec = { run_id: 'bench-run', task: 'synthetic_agent', task_id: 'bench', created: '2026-04-29T10:00:00+00:00', model: 'synthetic/agent-1', dataset: { samples: SAMPLES }, config: { epochs: 1 }, packages: { inspect_ai: '0.3.154' } };
entry('_journal/start.json', { version: 2, eval: evalSpec, plan: { steps: [{ solver: 'react' }] } });
const summaries = [];
const started = Date.now();
for (let id = 1; id <= SAMPLES; id++) {
  const s = sample(id);
  entry(`samples/${id}_epoch_1.json`, s);
  summaries.push({ id, epoch: 1, input: s.input.slice(0, 200), target: s.target, scores: { match: { value: s.scores.match.value, answer: s.scores.match.answer } }, model_usage: s.model_usage, total_time: s.total_time, working_time: s.working_time, completed: true, message_count: s.messages.length });
  if (id % 100 === 0) {
    entry(`_journal/summaries/${id / 100}.json`, summaries.slice(id - 100, id));
    process.stdout.write(`\r${id} samples, ${(offset / 2 ** 20).toFixed(0)} MB written, ${(inflated / 2 ** 30).toFixed(2)} GB inflated, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}
const right = summaries.filter((s) => s.scores.match.value === 'C').length;
entry('summaries.json', summaries);
entry('reductions.json', [{ scorer: 'match', samples: summaries.map((s) => ({ value: s.scores.match.value, answer: s.scores.match.answer, sample_id: s.id })) }]);
entry('header.json', {
  version: 2, status: 'success', eval: evalSpec, plan: { steps: [{ solver: 'react' }] },
  results: { total_samples: SAMPLES, completed_samples: SAMPLES, scores: [{ name: 'match', scorer: 'match', metrics: { accuracy: { name: 'accuracy', value: right / SAMPLES } } }] },
  stats: { started_at: '2026-04-29T10:00:00+00:00', completed_at: '2026-04-29T12:00:00+00:00' },
});
const dirSize = central.reduce((s, b) => s + b.length, 0);
for (const b of central) writeSync(fd, b);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(central.length / 2, 8); end.writeUInt16LE(central.length / 2, 10);
end.writeUInt32LE(dirSize, 12); end.writeUInt32LE(offset, 16);
writeSync(fd, end);
closeSync(fd);
console.log(`\nwrote ${OUT}: ${((offset + dirSize + 22) / 2 ** 20).toFixed(0)} MB, its entries inflating to ${(inflated / 2 ** 30).toFixed(2)} GB together; ${SAMPLES} samples, accuracy ${(right / SAMPLES).toFixed(4)}`);
