// Inspect AI logs: the three real logs of test/fixtures/real/inspect-ai (cancelled .json, successful
// .json, .eval zip) and two synthetic ones made by test/fixtures/inspect/make_fixtures.py (3 epochs
// with partial credit, an unscored sample, numeric scores and logprobs; an errored .json log with a
// bare NaN). The reference is test/reference/inspect_reference.py: Python's zipfile/json and numpy,
// written from Inspect's definitions; the logs' own results.scores[].metrics are checked as well.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile, type Report } from '../../../src/core';
import { parsePythonJson } from '../../../src/core/formats/pythonJson';
import { inspectStderr, reducerNamed, valueToFloat } from '../../../src/core/formats/inspectScores';

const ROOT = resolve(__dirname, '../../..');
const REAL = join(ROOT, 'test/fixtures/real/inspect-ai');
const SYN = join(ROOT, 'test/fixtures/inspect');
const LOGS = [
  join(REAL, '2025-05-12T20-28-13-04-00_popularity.json'),
  join(REAL, 'log_read_sample.json'),
  join(REAL, 'mmlu-summary-choices.eval'),
  join(SYN, 'epochs.eval'),
  join(SYN, 'errored.json'),
];
const PY = '/usr/bin/python3';

interface Figures { n: number; accuracy: number; stderr: number }
interface Reference {
  order: string[];
  scorers: Record<string, { epochs: Record<string, Figures>; reduced: Figures }>;
  confidence: (number | null)[];
  reducer: string;
  status: string;
}

function reference(path: string): Reference {
  return JSON.parse(execFileSync(PY, [join(ROOT, 'test/reference/inspect_reference.py'), path], { encoding: 'utf8' }));
}

function row(report: Report, label: string) {
  const r = report.breakdown?.find((b) => b.label === label);
  if (!r) throw new Error(`no breakdown row ${label}: ${report.breakdown?.map((b) => b.label).join(', ')}`);
  return r;
}

describe('Inspect logs against the Python reference', () => {
  for (const path of LOGS) {
    it.skipIf(!existsSync(PY))(path.slice(ROOT.length + 1), () => {
      const ref = reference(path);
      const report = scoreFile(path);
      expect(report.format).toBe('inspect');
      expect(report.fatal).toBeUndefined();
      const first = ref.order[0];
      expect(report.metrics.accuracy).toBeCloseTo(ref.scorers[first].reduced.accuracy, 12);
      expect(report.metrics.stderr).toBeCloseTo(ref.scorers[first].reduced.stderr, 12);
      const epochs = Object.keys(ref.scorers[first].epochs);
      for (const name of ref.order) {
        const s = ref.scorers[name];
        const red = row(report, `${name} · reduced (${ref.reducer})`);
        expect(red.n).toBe(s.reduced.n);
        expect(red.metrics.accuracy).toBeCloseTo(s.reduced.accuracy, 12);
        expect(red.metrics.stderr).toBeCloseTo(s.reduced.stderr, 12);
        if (epochs.length > 1) {
          for (const e of epochs) {
            const r = row(report, `${name} · epoch ${e}`);
            expect(r.n).toBe(s.epochs[e].n);
            expect(r.metrics.accuracy).toBeCloseTo(s.epochs[e].accuracy, 12);
            expect(r.metrics.stderr).toBeCloseTo(s.epochs[e].stderr, 12);
          }
        }
      }
      // One instance per scored sample and epoch, each with its confidence when the log has one.
      const scored = Object.values(ref.scorers[first].epochs).reduce((a, f) => a + f.n, 0);
      expect(report.n).toBe(scored);
      const conf = Array.from(report.instances!.confidence).map((c) => (Number.isNaN(c) ? null : c));
      conf.sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
      expect(conf.length).toBe(ref.confidence.length);
      conf.forEach((c, i) => (c === null ? expect(ref.confidence[i]).toBeNull() : expect(c).toBeCloseTo(ref.confidence[i]!, 12)));
      // An unfinished run is scored, with an info saying so.
      const incomplete = report.problems.filter((p) => p.code === 'incomplete-log');
      expect(incomplete.length).toBe(ref.status === 'success' ? 0 : 1);
      if (incomplete.length) expect(incomplete[0].severity).toBe('info');
      // The log's own figures, shown as reported, agree (no mismatch warning).
      expect(report.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
    });
  }

  it('shows results.scores[].metrics as reported, and they agree with the recomputed figures', () => {
    const cancelled = scoreFile(LOGS[0]);
    expect(cancelled.reported).toEqual({ accuracy: 0.6666666666666666, stderr: 0.33333333333333337 });
    const epochs = scoreFile(join(SYN, 'epochs.eval'));
    expect(Object.keys(epochs.reported)).toEqual(['accuracy', 'stderr', 'judge/accuracy', 'judge/stderr']);
    expect(epochs.reported['judge/accuracy']).toBeCloseTo(row(epochs, 'judge · reduced (mean)').metrics.accuracy!, 12);
  });

  it('bootstraps Inspect\'s own accuracy over its reduced per-sample values, not the set\'s rows (issue 28.6); stderr gets none', () => {
    const r = scoreFile(join(SYN, 'epochs.eval'), { bootstrap: 50 });
    const values = row(r, 'choice · reduced (mean)');
    const iv = r.intervals.accuracy!;
    expect(iv).toBeDefined();
    expect(iv[0]).toBeLessThanOrEqual(r.metrics.accuracy!);
    expect(iv[1]).toBeGreaterThanOrEqual(r.metrics.accuracy!);
    expect(values.n).toBeLessThan(r.n); // the resampled units are samples, not sample x epoch rows
    expect(r.intervals.stderr).toBeUndefined();
    expect(r.intervals.ece).toBeDefined();
  });

  it('names the sample, epoch, texts and answer of each instance (the stepper\'s content)', () => {
    const r = scoreFile(join(REAL, 'mmlu-summary-choices.eval'));
    expect(r.instances!.ids).toEqual(['1']);
    expect(r.classes![r.instances!.gold[0]]).toBe('A');
    expect(r.classes![r.instances!.pred[0]]).toBe('C');
    expect(r.texts!.fields).toEqual(['input', 'choices', 'target', 'output', 'scores', 'explanation']);
    expect(r.texts!.values[0][0]).toMatch(/^Positronium is an atom/);
    expect(r.texts!.values[0][1]).toBe('A) 6.0 e\nB) 6.8 eV\nC) 12.2 eV\nD) 13.6 eV');
    expect(r.texts!.values[0][4]).toBe('choice: "I"');
    const e = scoreFile(join(SYN, 'epochs.eval'));
    expect(e.instances!.ids!.slice(0, 3)).toEqual(['1 (epoch 1)', '1 (epoch 2)', '1 (epoch 3)']);
    // A correct answer whose text differs from the target (' Yes' vs 'Yes') is still correct.
    const pop = scoreFile(LOGS[0]);
    expect(Array.from(pop.instances!.correct)).toEqual([1, 1, 0]);
  });

  it('offers its text fields to Group by, never the zip\'s raw bytes as column names (issue 21, point 7)', () => {
    for (const file of [join(REAL, 'mmlu-summary-choices.eval'), join(SYN, 'epochs.eval')]) {
      const r = scoreFile(file, { listColumns: {} });
      const offered = r.groupColumns!.predictions;
      expect(offered.length, file).toBeGreaterThan(0);
      // Its text fields but the gold (target holds the gold label's text: issue 28, point 12) and
      // free text: the MMLU log's questions and choices (sentences), epochs.eval's choices (lines).
      expect(offered, file).toEqual(file.endsWith('mmlu-summary-choices.eval') ? ['output', 'scores', 'explanation'] : ['input', 'output', 'scores', 'explanation']);
      for (const c of offered) expect(c, file).not.toMatch(/PK|[\u0000-\u0008]/);
      // Grouping by one of them works; by a name the log lacks is an error naming those it has.
      const g = scoreFile(file, { groupBy: { column: 'target' } });
      expect(g.groups?.groups.length, file).toBeGreaterThan(0);
      const missing = scoreFile(file, { groupBy: { column: 'nope' } });
      expect(missing.problems.find((p) => p.code === 'group-column')?.message ?? '', file).not.toMatch(/PK/);
    }
  });

  it('points each sample of a .json log at its line', () => {
    const r = scoreFile(LOGS[0]);
    const lines = readFileSync(LOGS[0], 'utf8').split('\n');
    const uuids = ['G7qmTyE6WB9wLq6GAv5w9K', '76snEZzrGrPY97wTmfrn3j', 'W8MPQk6wsigrQepwJF9pUJ'];
    Array.from(r.instances!.lines).forEach((line, i) => expect(lines[line - 1]).toContain(uuids[i]));
  });
});

describe('Inspect detection and bad logs', () => {
  it('detects .eval by name and .json logs by their head, and leaves other JSON alone', () => {
    expect(detectFormat('/x/run.eval', '')).toBe('inspect');
    expect(detectFormat(LOGS[0], readFileSync(LOGS[0], 'utf8').slice(0, 4096))).toBe('inspect');
    expect(detectFormat('/x/p.json', '{"version": 2, "status": "success", "eval": {}}')).toBe('inspect');
    expect(detectFormat('/x/p.json', '{"version": 2, "results": {}}')).not.toBe('inspect');
  });

  it('a .eval that is not a zip, or a zip without a header, is a clear fatal, not a crash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspect-'));
    const junk = join(dir, 'junk.eval');
    writeFileSync(junk, 'PK\u0003\u0004 this is not really a zip');
    const r = scoreFile(junk);
    expect(r.fatal).toMatch(/^Not a readable Inspect log: not a readable \.eval zip/);
    expect(r.problems[0]).toMatchObject({ line: 1, severity: 'error', code: 'unscorable' });
    const text = join(dir, 'text.eval');
    writeFileSync(text, 'hello');
    expect(scoreFile(text).fatal).toMatch(/Not a readable Inspect log/);
  });

  it('a log without samples says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspect-'));
    const p = join(dir, 'empty.json');
    writeFileSync(p, JSON.stringify({ version: 2, status: 'started', eval: { task: 't' } }));
    const r = scoreFile(p);
    expect(r.fatal).toMatch(/holds no samples/);
    expect(r.problems.map((x) => x.code)).toEqual(['incomplete-log', 'unscorable']);
  });
});

describe('Inspect arithmetic', () => {
  it('value_to_float as Inspect documents it', () => {
    const cases: [string | number | boolean | null, number][] = [
      ['C', 1], ['I', 0], ['P', 0.5], ['N', 0], ['yes', 1], ['TRUE', 1], ['No', 0], ['false', 0],
      ['0.25', 0.25], [' 3 ', 3], [true, 1], [false, 0], [0.7, 0.7], [2, 2], ['banana', 0],
    ];
    for (const [v, f] of cases) expect(valueToFloat(v).value).toBe(f);
    expect(valueToFloat('banana').known).toBe(false);
    expect(valueToFloat('c').known).toBe(false); // "C" is case-sensitive in Inspect
  });

  it('stderr is the sample SD over sqrt(n), 0 for one value', () => {
    expect(inspectStderr([1])).toBe(0);
    // [1, 1, 0]: SD (ddof 1) = sqrt(1/3), over sqrt(3) = 1/3.
    expect(inspectStderr([1, 1, 0])).toBeCloseTo(1 / 3, 15);
  });

  it('reducers by their logged names, worked by hand', () => {
    const vs = ['C', 'I', 'C', 'P'];
    expect(reducerNamed('mean')!(vs)).toBeCloseTo(0.625, 15);
    expect(reducerNamed('median')!(vs)).toBe(0.75);
    expect(reducerNamed('mode')!(vs)).toBe(1);
    expect(reducerNamed('max')!(vs)).toBe(1);
    expect(reducerNamed('at_least_2')!(vs)).toBe(1);
    expect(reducerNamed('at_least_3')!(vs)).toBe(0);
    // pass@2 of 4 attempts with 2 correct: 1 - C(2,2)/C(4,2) = 5/6.
    expect(reducerNamed('pass_at_2')!(vs)).toBeCloseTo(5 / 6, 15);
    // pass^2: C(2,2)/C(4,2) = 1/6.
    expect(reducerNamed('pass_k_2')!(vs)).toBeCloseTo(1 / 6, 15);
    expect(reducerNamed('my_custom')).toBeUndefined();
  });

  it('reads the bare NaN and Infinity pydantic writes, and leaves them alone inside strings', () => {
    expect(parsePythonJson('{"a": NaN, "b": "NaN Infinity", "c": -Infinity}')).toEqual({ a: NaN, b: 'NaN Infinity', c: -Infinity });
  });
});
