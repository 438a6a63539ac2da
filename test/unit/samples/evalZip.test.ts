// Issue 29: an Inspect .eval whose entries inflate to more than the limit together is read and
// scored (the limit is per entry, and one entry is held at a time), and read by range from disk; an
// entry over the limit is left out with a sentence naming it while the others are scored; an agent
// run's turns, tool calls, tokens and tools become columns; the search reaches inside conversations.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core';
import { searchConversations } from '../../../src/core/samples/conversationSearch';
import { ZipArchive, bytesSource } from '../../../src/core/formats/zipArchive';

const ROOT = resolve(__dirname, '../../..');
const REAL = join(ROOT, 'test/fixtures/real');
const enc = new TextEncoder();

/** A zip written by hand (deflated entries, sizes as given). */
function zip(entries: { name: string; text: string }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const raw = enc.encode(e.text);
    const data = deflateRawSync(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18); local.writeUInt32LE(raw.length, 22); local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0); dir.writeUInt16LE(20, 4); dir.writeUInt16LE(20, 6); dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(data.length, 20); dir.writeUInt32LE(raw.length, 24); dir.writeUInt16LE(name.length, 28); dir.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(dir, name);
    offset += 30 + name.length + data.length;
  }
  const dirSize = central.reduce((s, p) => s + p.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirSize, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

const header = JSON.stringify({ version: 2, status: 'success', eval: { task: 'agent', model: 'm' }, results: { scores: [{ name: 'match', scorer: 'match', metrics: {} }] } });

/** A sample padded with `pad` characters of tool output, `calls` bash calls, right or wrong. */
function sample(id: number, right: boolean, calls: number, pad: number): string {
  const messages: object[] = [{ role: 'user', content: `question ${id}` }];
  for (let k = 0; k < calls; k++) {
    messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${k}`, function: k % 2 ? 'python' : 'bash', arguments: { cmd: `step ${k}` } }] });
    messages.push({ role: 'tool', content: k === 0 ? `needle-${id} ${' '.repeat(pad)}` : 'ok', tool_call_id: `c${k}`, function: k % 2 ? 'python' : 'bash' });
  }
  messages.push({ role: 'assistant', content: `ANSWER: ${right ? 'yes' : 'no'}` });
  return JSON.stringify({
    id, epoch: 1, input: `question ${id}`, target: 'yes', messages,
    output: { completion: `ANSWER: ${right ? 'yes' : 'no'}`, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
    model_usage: { m: { input_tokens: 100 * id, output_tokens: 7, total_tokens: 100 * id + 7 } },
    scores: { match: { value: right ? 'C' : 'I', answer: right ? 'yes' : 'no' } },
  });
}

describe('a large .eval, entry by entry', () => {
  const MB = 1024 * 1024;

  it('entries that inflate past the limit together (3 x 24 MB against 64 MB) are each read, and scored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-zip-'));
    const path = join(dir, 'large.eval');
    const samples = [sample(1, true, 1, 24 * MB), sample(2, false, 3, 24 * MB), sample(3, true, 2, 24 * MB)];
    writeFileSync(path, zip([{ name: 'header.json', text: header }, ...samples.map((t, k) => ({ name: `samples/${k + 1}_epoch_1.json`, text: t }))]));
    const archive = ZipArchive.open(bytesSource(new Uint8Array(execFileSync('cat', [path], { maxBuffer: 64 * MB }))));
    const declared = archive.entries.reduce((s, e) => s + e.size, 0);
    expect(declared).toBeGreaterThan(64 * MB);
    const r = scoreFile(path, { maxFileBytes: 64 * MB });
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(3);
    expect(r.metrics.accuracy).toBeCloseTo(2 / 3, 12);
    // The agent columns: turns (assistant messages), tool calls, tokens (model_usage), tools.
    const fields = r.texts!.fields;
    expect(fields.slice(-4)).toEqual(['turns', 'tool_calls', 'tokens', 'tools']);
    const col = (name: string) => r.texts!.values.map((v) => v[fields.indexOf(name)]);
    expect(col('turns')).toEqual(['2', '4', '3']);
    expect(col('tool_calls')).toEqual(['1', '3', '2']);
    expect(col('tokens')).toEqual(['107', '207', '307']);
    expect(col('tools')).toEqual(['bash', 'bash, python', 'bash, python']);
    // Grouped by the number of tool calls, as any column.
    const g = scoreFile(path, { maxFileBytes: 64 * MB, groupBy: { column: 'tool_calls' } });
    expect(g.groups!.groups.map((x) => [x.value, x.n])).toEqual(expect.arrayContaining([['1', 1], ['3', 1], ['2', 1]]));
  }, 60_000);

  it('an entry over the limit is left out with a sentence naming it; the others are scored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-zip-'));
    const path = join(dir, 'one-big.eval');
    writeFileSync(path, zip([
      { name: 'header.json', text: header },
      { name: 'samples/1_epoch_1.json', text: sample(1, true, 1, 10) },
      { name: 'samples/2_epoch_1.json', text: sample(2, false, 1, 3 * MB) },
      { name: 'samples/3_epoch_1.json', text: sample(3, false, 1, 10) },
    ]));
    const r = scoreFile(path, { maxFileBytes: 2 * MB });
    expect(r.n).toBe(2);
    expect(r.instances!.ids).toEqual(['1', '3']);
    const problem = r.problems.find((p) => /samples\/2_epoch_1\.json/.test(p.message));
    expect(problem?.message).toMatch(/the zip entry samples\/2_epoch_1\.json declares 3 MB uncompressed, above the 2 MB limit .*: that sample is left out; the others are scored/);
  });

  it('the search reaches inside the conversations: tool output, tool names, arguments, by line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-zip-'));
    const path = join(dir, 'search.eval');
    // Written out of order: lines are positions in (id, epoch) order, as the report has them.
    writeFileSync(path, zip([
      { name: 'header.json', text: header },
      { name: 'samples/3_epoch_1.json', text: sample(3, true, 2, 5) },
      { name: 'samples/1_epoch_1.json', text: sample(1, true, 1, 5) },
      { name: 'samples/2_epoch_1.json', text: sample(2, false, 3, 5) },
    ]));
    const r = scoreFile(path);
    const lineOf = (id: string) => r.instances!.lines[r.instances!.ids!.indexOf(id)];
    const needle = searchConversations(path, 'inspect', 'NEEDLE-2');
    expect(needle).toMatchObject({ rows: [{ line: lineOf('2'), terms: 1 }], searched: 3, unread: 0 });
    const python = searchConversations(path, 'inspect', 'python AND /step [12]/');
    expect('rows' in python && python.rows.map((x) => [x.line, x.terms]).sort()).toEqual([[lineOf('2'), 3], [lineOf('3'), 3], [lineOf('1'), 0]].filter(([, t]) => t).sort());
    // Column terms are the page's; a query of them alone searches nothing here.
    expect(searchConversations(path, 'inspect', 'tool_calls > 1')).toEqual({ rows: [], searched: 0, unread: 0 });
  });

  it('a real agent log (Inspect\'s own browser test) gets its columns too', () => {
    const r = scoreFile(join(REAL, 'inspect-ai/2025-05-12T20-27-36-04-00_browser.json'));
    const fields = r.texts!.fields;
    const want = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys
s = json.load(open(sys.argv[1]))['samples'][0]
calls = [t['function'] for m in s['messages'] for t in (m.get('tool_calls') or [])]
print(json.dumps({'turns': sum(m['role'] == 'assistant' for m in s['messages']), 'calls': len(calls),
  'tokens': sum(u['total_tokens'] for u in s['model_usage'].values()), 'tools': list(dict.fromkeys(calls))}))`, join(REAL, 'inspect-ai/2025-05-12T20-27-36-04-00_browser.json')], { encoding: 'utf8' }));
    const row = r.texts!.values[0];
    expect(row[fields.indexOf('turns')]).toBe(String(want.turns));
    expect(row[fields.indexOf('tool_calls')]).toBe(String(want.calls));
    expect(row[fields.indexOf('tokens')]).toBe(String(want.tokens));
    expect(row[fields.indexOf('tools')]).toBe(want.tools.join(', '));
  });
});
