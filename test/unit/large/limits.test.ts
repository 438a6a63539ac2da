// Large-file guards of the core's front door: the size limit (ScoreOptions.maxFileBytes,
// --max-file-mb), progress (ScoreOptions.onProgress) and cancellation (ScoreOptions.shouldCancel),
// and a clear fatal where a file cannot be held as one string. The >512 MB cases are simulated
// (a decoder that fails as V8 does past its string limit); the real sizes run in the benchmark.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_MAX_FILE_BYTES, ScoreCancelledError, fileInput, parseInput, resolveOptions, scoreInput, scorePath, textInput,
  type FormatName, type ScoreOptions,
} from '../../../src/core/index';
import { runCli } from '../../../src/cli/main';
import { csvFile, jsonFile, rng } from './generate';

const dir = mkdtempSync(join(tmpdir(), 'eval-lens-large-'));
const enc = new TextEncoder();

function write(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

// Files of a few MB, one per format and reading path.
const r = rng(3);
const lmLine = (i: number) => JSON.stringify({
  doc_id: i, doc: { question: `Question ${i}: ${'lorem ipsum '.repeat(40)}`, choices: ['A', 'B', 'C', 'D'] }, target: i % 4,
  arguments: { gen_args_0: { arg_0: 'context '.repeat(60), arg_1: ' A' } },
  filtered_resps: [0, 1, 2, 3].map(() => [String(-r() * 5), 'False']), filter: 'none', acc: 0,
});
const FILES: Record<string, { format: FormatName; content: string }> = {
  'lm-eval': { format: 'lm-eval', content: Array.from({ length: 4000 }, (_, i) => lmLine(i)).join('\n') + '\n' },
  almanacs: {
    format: 'almanacs',
    content: Array.from({ length: 20000 }, (_, i) => JSON.stringify({ id: i, question: 'Would you? '.repeat(8), prediction: `{"reasoning": "${'because '.repeat(10)}", "probability": ${r().toFixed(3)}}`, gold_prob: r() })).join('\n'),
  },
  'generic-jsonl': { format: 'generic', content: Array.from({ length: 60000 }, (_, i) => JSON.stringify({ id: `row-${i}`, pred: `c${i % 5}`, gold: `c${i % 3}`, confidence: r() })).join('\n') },
  'folktexts-fast': { format: 'folktexts', content: ',risk_score,label\n' + Array.from({ length: 150000 }, (_, i) => `${i},${r().toFixed(6)},${i % 2}`).join('\n') },
  'folktexts-general': { format: 'folktexts', content: ',risk_score,label\n"0",0.5,1\n' + Array.from({ length: 150000 }, (_, i) => `${i + 1},${r().toFixed(6)},${i % 2}`).join('\n') },
  'generic-csv': { format: 'generic', content: 'id,pred,gold\n' + Array.from({ length: 150000 }, (_, i) => `id-${i},c${i % 7},c${i % 5}`).join('\r\n') },
};

type Call = [number, 'parse' | 'score'];

function checkProgress(calls: Call[], size: number, where: string) {
  const parse = calls.filter((c) => c[1] === 'parse').map((c) => c[0]);
  const score = calls.filter((c) => c[1] === 'score').map((c) => c[0]);
  // Parse first, then score; each phase grows and ends at exactly 1.
  expect(calls.findIndex((c) => c[1] === 'score'), where).toBe(parse.length);
  for (let i = 1; i < parse.length; i++) expect(parse[i] > parse[i - 1], `${where}: ${parse[i - 1]} then ${parse[i]}`).toBe(true);
  expect(parse[parse.length - 1], where).toBe(1);
  expect(parse.every((f) => f > 0 && f <= 1), where).toBe(true);
  expect(score, where).toEqual([0, 1]);
  // At most one report per 64 KB of input (plus the last), and at least one per MB.
  expect(parse.length, where).toBeLessThanOrEqual(Math.ceil(size / (64 * 1024)) + 2);
  expect(parse.length, where).toBeGreaterThanOrEqual(Math.floor(size / (1024 * 1024)));
}

describe('ScoreOptions.onProgress', () => {
  for (const [name, { format, content }] of Object.entries(FILES)) {
    it(`grows and reaches 1 on a ${(content.length / 2 ** 20).toFixed(1)} MB ${name} file, from disk and from text`, () => {
      const path = write(name === 'lm-eval' ? 'samples_task_2024-01-01T00-00-00.jsonl' : name.includes('csv') || name.startsWith('folk') ? `${name}.csv` : `${name}.jsonl`, content);
      const calls: Call[] = [];
      const [report] = scorePath(path, { format, onProgress: (f, phase) => { calls.push([f, phase]); } }).reports;
      expect(report.fatal, name).toBeUndefined();
      expect(report.n, name).toBeGreaterThan(1000);
      checkProgress(calls, enc.encode(content).length, `${name} (disk)`);
      // The report stays plain JSON: no function from the options reaches it.
      expect(report.options).toEqual({ bins: 10, threshold: 0.5, hmrBeta: 1, bootstrap: 0, seed: 0 });
      const textCalls: Call[] = [];
      const fromText = scoreInput(textInput(path, content), { format, onProgress: (f, phase) => { textCalls.push([f, phase]); } });
      expect(fromText.metrics).toEqual(report.metrics);
      checkProgress(textCalls, content.length, `${name} (text)`);
    });
  }

  it('is called with 1 for parse and score even for a tiny, empty or refused file', () => {
    const calls: Call[] = [];
    scoreInput(fileInput('t.jsonl', enc.encode('{"score": 0.3, "label": 1}\n')), { onProgress: (f, p) => { calls.push([f, p]); } });
    expect(calls).toEqual([[1, 'parse'], [0, 'score'], [1, 'score']]);
    const empty: Call[] = [];
    scoreInput(fileInput('t.jsonl', new Uint8Array(0)), { onProgress: (f, p) => { empty.push([f, p]); } });
    expect(empty).toEqual([[1, 'parse'], [0, 'score'], [1, 'score']]);
    const over: Call[] = [];
    scorePath(write('over.csv', 'score,label\n0.5,1\n'), { maxFileBytes: 5, onProgress: (f, p) => { over.push([f, p]); } });
    expect(over).toEqual([[1, 'parse'], [0, 'score'], [1, 'score']]);
  });
});

describe('ScoreOptions.shouldCancel', () => {
  for (const [name, { format, content }] of Object.entries(FILES)) {
    it(`stops a ${name} parse part-way with a ScoreCancelledError`, () => {
      let checks = 0;
      let lastFraction = 0;
      const options: Partial<ScoreOptions> = { format, shouldCancel: () => ++checks > 2, onProgress: (f) => { lastFraction = f; } };
      expect(() => scoreInput(fileInput(`x.${name.includes('json') || name === 'almanacs' || name === 'lm-eval' ? 'jsonl' : 'csv'}`, enc.encode(content)), options)).toThrow(ScoreCancelledError);
      expect(checks).toBe(3);
      expect(lastFraction).toBeGreaterThan(0);
      expect(lastFraction).toBeLessThan(1);
    });
  }

  it('stops before reading, and between parsing and scoring', () => {
    const input = fileInput('t.jsonl', enc.encode('{"score": 0.3, "label": 1}\n'));
    expect(() => scoreInput(input, { shouldCancel: () => true })).toThrow(ScoreCancelledError);
    const phases: string[] = [];
    let cancel = false;
    const e = (() => {
      try {
        scoreInput(input, { shouldCancel: () => cancel, onProgress: (_f, p) => { phases.push(p); if (p === 'parse') cancel = true; } });
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(ScoreCancelledError);
    expect((e as Error).name).toBe('ScoreCancelledError');
    expect(phases).toEqual(['parse']);
  });

  it('never fires when it says no', () => {
    const content = FILES['lm-eval'].content;
    let checks = 0;
    const report = scoreInput(fileInput('samples_t_2024-01-01T00-00-00.jsonl', enc.encode(content)), { shouldCancel: () => { checks++; return false; } });
    expect(report.n).toBe(4000);
    expect(checks).toBeGreaterThan(3);
  });
});

describe('ScoreOptions.maxFileBytes and --max-file-mb', () => {
  const path = write('samples_big_2024-01-01T00-00-00.jsonl', FILES['lm-eval'].content);
  const size = enc.encode(FILES['lm-eval'].content).length;

  it('defaults to 2 GiB, the default of evalLens.maxFileSizeMB', () => {
    expect(DEFAULT_MAX_FILE_BYTES).toBe(2048 * 1024 * 1024);
  });

  it('turns a file over the limit into a one-sentence fatal, without reading it', () => {
    const [report] = scorePath(path, { maxFileBytes: 1024 * 1024 }).reports;
    expect(report.fatal).toBe(`samples_big_2024-01-01T00-00-00.jsonl is ${(size / 2 ** 20).toFixed(1)} MB, above the 1 MB limit set by evalLens.maxFileSizeMB / --max-file-mb; raise the limit to score it.`);
    expect(report.format).toBe('lm-eval');
    expect(report.n).toBe(0);
    expect(report.problems).toEqual([{ line: 1, severity: 'error', code: 'unscorable', message: report.fatal }]);
    expect(scorePath(path, { maxFileBytes: size }).reports[0].fatal).toBeUndefined();
    // scoreInput and parseInput check it too (an editor buffer, a worker given bytes).
    expect(scoreInput(fileInput(path, enc.encode(FILES['lm-eval'].content)), { maxFileBytes: 100 }).fatal).toMatch(/ is \d+(\.\d)? MB, above the 100 bytes limit /);
    expect(parseInput(textInput('t.csv', 'score,label\n0.5,1\n'), resolveOptions({ maxFileBytes: 10 })).fatal).toBe('t.csv is 18 bytes, above the 10 bytes limit set by evalLens.maxFileSizeMB / --max-file-mb; raise the limit to score it.');
  });

  it('applies to each file of a folder', () => {
    const folder = join(dir, 'folder');
    write('folder/small.test_predictions.csv', ',risk_score,label\n0,0.2,0\n1,0.9,1\n');
    write('folder/samples_big_2024-01-01T00-00-00.jsonl', FILES['lm-eval'].content);
    const reports = scorePath(folder, { maxFileBytes: 64 * 1024 }).reports;
    expect(reports.map((x) => [x.format, x.n, x.fatal?.slice(0, 40)])).toEqual([
      ['lm-eval', 0, 'samples_big_2024-01-01T00-00-00.jsonl is'],
      ['folktexts', 2, undefined],
    ]);
  });

  it('rejects a limit that is not a positive number', () => {
    expect(() => scorePath(path, { maxFileBytes: 0 })).toThrow(RangeError);
  });

  it('is --max-file-mb on the command line', async () => {
    const out = (await runCli(['score', '--json', '--max-file-mb', '0.5', path]));
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout).results[0].fatal).toMatch(/above the 512 KB limit set by evalLens\.maxFileSizeMB \/ --max-file-mb/);
    expect((await runCli(['score', '--json', '--max-file-mb', '10', path])).code).toBe(0);
    const bad = (await runCli(['score', '--max-file-mb', '0', path]));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--max-file-mb takes a positive number, got '0'/);
    expect((await runCli(['--help'])).stdout).toMatch(/--max-file-mb N/);
  });
});

describe('files too large for one string (simulated)', () => {
  // V8 cannot make a string over ~512 MB. Stand in for it: decoding more than 100 KB at once fails
  // the way Node's TextDecoder fails past that limit (detection reads a 16 KB head, and the CSV
  // sniffer 64 KB).
  const decodeOf = TextDecoder.prototype.decode;
  const tooLong = (limit = 100 * 1024) => {
    vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (this: TextDecoder, input?: AllowSharedBufferSource, opts?: TextDecodeOptions) {
      if (input && (input as Uint8Array).byteLength > limit) throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' });
      return decodeOf.call(this, input, opts);
    });
  };
  afterEach(() => { vi.restoreAllMocks(); });

  it('JSON Lines are still read, line by line', () => {
    const bytes = enc.encode(FILES['lm-eval'].content);
    const expected = scoreInput(fileInput('samples_t_2024-01-01T00-00-00.jsonl', bytes), {});
    tooLong();
    const got = scoreInput(fileInput('samples_t_2024-01-01T00-00-00.jsonl', bytes), {});
    expect(got.fatal).toBeUndefined();
    expect(got.metrics).toEqual(expected.metrics);
    expect(got.problems).toEqual(expected.problems);
  });

  it('a JSON array document is a clear fatal for every JSON format', () => {
    const bytes = enc.encode('[\n' + Array.from({ length: 2000 }, (_, i) => JSON.stringify({ doc_id: i, id: i, score: 0.5, label: 1, prediction: 0.4, gold_prob: 0.5 })).join(',\n') + '\n]\n');
    tooLong();
    for (const format of ['lm-eval', 'almanacs', 'generic'] as FormatName[]) {
      const report = scoreInput(fileInput('records.json', bytes), { format });
      expect(report.fatal, format).toMatch(/^The file is \d+(\.\d)? KB of JSON, more than fits in one JavaScript string \(512 MB\): a JSON array document is parsed whole, so it cannot be read; write the records as JSON Lines \(one per line\) instead\.$/);
      expect(report.n).toBe(0);
    }
  });

  it('a single JSON document too large to parse whole is read as JSON Lines, with a warning', () => {
    const content = JSON.stringify({ samples: Array.from({ length: 3000 }, (_, i) => ({ score: 0.5, label: i % 2 })) }, null, 1);
    tooLong();
    const report = scoreInput(fileInput('doc.json', enc.encode(content)), { format: 'generic' });
    const warning = report.problems.find((p) => p.severity === 'warning');
    expect(warning).toMatchObject({ line: 1, column: 1, code: 'json-parse' });
    expect(warning!.message).toMatch(/^The file is \d+(\.\d)? KB of JSON, more than fits in one JavaScript string \(512 MB\), too large to parse as one JSON document; it is read as JSON Lines/);
    expect(report.fatal).toBe('No JSON record in the file could be read.');
  });

  it('CSV is decoded a chunk at a time, and FileInput.text() says what went wrong', () => {
    const content = FILES['generic-csv'].content;
    const expected = scoreInput(fileInput('t.csv', enc.encode(content)), {});
    const raftRun = write('raft/run/twitter_complaints/predictions.csv', 'ID,Label\n' + Array.from({ length: 150_000 }, (_, i) => `${i},complaint`).join('\n'));
    const raftBefore = scorePath(raftRun, {}).reports[0];
    // Chunks are 1 MB: a limit of 1.5 MB is below both files' sizes but above a chunk.
    tooLong(1.5 * 1024 * 1024);
    const got = scoreInput(fileInput('t.csv', enc.encode(content)), {});
    expect(got.fatal).toBeUndefined();
    expect(got.metrics).toEqual(expected.metrics);
    expect(scorePath(raftRun, {}).reports[0].problems).toEqual(raftBefore.problems);
    expect(() => fileInput('/data/huge.csv', enc.encode(content)).text()).toThrow(/^\/data\/huge\.csv is \d+(\.\d)? MB of text, more than fits in one JavaScript string \(512 MB\)\.$/);
  });
});

describe('bytes and text give the same parse', () => {
  it('on generated JSON Lines and CSV files, for every format', () => {
    const g = rng(11);
    const formats: FormatName[] = ['folktexts', 'raft', 'almanacs', 'lm-eval', 'generic'];
    for (let f = 0; f < 300; f++) {
      const json = g() < 0.5;
      let bytes = json ? jsonFile(g) : csvFile(g);
      // textInput strips one BOM, FileInput.text() strips two (as before): compare files with at most one.
      if (bytes[0] === 0xef && bytes[3] === 0xef && bytes[4] === 0xbb) bytes = bytes.subarray(3);
      const text = new TextDecoder().decode(bytes);
      const path = `/nowhere/${json ? 'samples_t_2024-01-01T00-00-00.jsonl' : 'p.csv'}`;
      for (const format of formats) {
        const options = resolveOptions({ format });
        expect(parseInput(fileInput(path, bytes), options), `#${f} as ${format}`).toStrictEqual(parseInput(textInput(path, text), options));
      }
    }
  });
});
