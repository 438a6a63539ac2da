// lighteval details (issue 26): the adapter against files in lighteval's shapes (see
// test/fixtures/lighteval/make_fixtures.mjs: no real details file could be copied), laid out as
// lighteval lays them out (details/<model>/<date_id>/details_<task>|<fewshot>_<date_id>.parquet and
// results/<model>/results_<date_id>.json, names Windows cannot hold, so they are made in a temp
// folder). Every figure equals test/reference/lighteval_reference.py (numpy, scipy, sklearn) run on
// the raw values of the file, which the test takes from the Parquet with the project's reader and
// nothing else; lighteval's own results figures agree where the samples are the same.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parquetToText } from '../../../src/core/formats/parquet';
import { scoreFileAsync, scorePathAsync, detectFormat, decideFile, readHead } from '../../../src/core';
import { parsePythonLiteral } from '../../../src/core/formats/pythonLiteral';
import type { Report } from '../../../src/core/types';
import { runCli } from '../../../src/cli/main';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'lighteval');
const REFERENCE = join(__dirname, '..', '..', 'reference', 'lighteval_reference.py');
const TS = '2025-11-05T14-43-47.148527';
const MODEL = 'HuggingFaceTB/SmolLM2-1.7B-Instruct';
const root = mkdtempSync(join(tmpdir(), 'lighteval-'));
const detailsDir = join(root, 'details', ...MODEL.split('/'), TS);
const resultsPath = join(root, 'results', ...MODEL.split('/'), `results_${TS}.json`);
const arc = join(detailsDir, `details_arc:challenge|25_${TS}.parquet`);
const tqa = join(detailsDir, `details_truthfulqa:mc|0_${TS}.parquet`);
const gsm = join(detailsDir, `details_gsm8k|0_${TS}.parquet`);
const oldDir = join(root, 'old');
// lighteval 0.13.0's own output (its dummy model, two samples per task), in its own layout.
const REAL = join(__dirname, '..', '..', 'fixtures', 'real', 'lighteval');
const REAL_TS = '2026-08-10T17-22-11.385681';
const realDetails = join(root, 'real', 'details', 'eee-smoke', 'dummy-model', REAL_TS);
const realResults = join(root, 'real', 'results', 'eee-smoke', 'dummy-model', `results_${REAL_TS}.json`);
const anli = join(realDetails, `details_anli:r1|0_${REAL_TS}.parquet`);
const squad = join(realDetails, `details_squad_v2|0_${REAL_TS}.parquet`);
const hellaswag = join(oldDir, 'details_lighteval|hellaswag|10_2024-05-01T10-00-00.000000.parquet');

beforeAll(async () => {
  mkdirSync(detailsDir, { recursive: true });
  mkdirSync(join(root, 'results', ...MODEL.split('/')), { recursive: true });
  mkdirSync(oldDir, { recursive: true });
  copyFileSync(join(FIXTURES, 'arc_challenge_25.parquet'), arc);
  copyFileSync(join(FIXTURES, 'truthfulqa_mc_0.parquet'), tqa);
  copyFileSync(join(FIXTURES, 'gsm8k_0.parquet'), gsm);
  copyFileSync(join(FIXTURES, 'results.json'), resultsPath);
  copyFileSync(join(FIXTURES, 'hellaswag_10_v0.6.parquet'), hellaswag);
  mkdirSync(realDetails, { recursive: true });
  mkdirSync(join(root, 'real', 'results', 'eee-smoke', 'dummy-model'), { recursive: true });
  // The copies' names lack lighteval's ':' and '|' (Windows refuses them); here they get them back.
  copyFileSync(join(REAL, `details_anli-r1-0_${REAL_TS}.parquet`), anli);
  copyFileSync(join(REAL, `details_squad_v2-0_${REAL_TS}.parquet`), squad);
  copyFileSync(join(REAL, `results_${REAL_TS}.json`), realResults);
  const sets: Record<string, Obj[]> = {};
  for (const path of [arc, tqa, gsm, hellaswag, anli, squad]) sets[path] = rawValues(await parquetRows(path));
  references = JSON.parse(execFileSync('/usr/bin/python3', [REFERENCE], { input: JSON.stringify({ sets }), encoding: 'utf8' })) as Record<string, Reference>;
});

type Obj = Record<string, unknown>;

/** The rows of a Parquet file as the project's reader gives them (JSON Lines), nothing interpreted. */
async function parquetRows(path: string): Promise<Obj[]> {
  const text = await parquetToText(path, new Uint8Array(readFileSync(path)), { format: 'lighteval' }, 1);
  if ('fatal' in text) throw new Error(text.fatal);
  return text.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Obj);
}

/** The raw values the reference reads: lighteval 0.11+ structs, or the flat Detail (strings in 0.3-0.7). */
function rawValues(rows: Obj[]): Obj[] {
  return rows.map((r) => {
    if (r.doc) {
      const doc = r.doc as Obj;
      const response = r.model_response as Obj;
      return { choices: doc.choices, gold_index: doc.gold_index, logprobs: response.logprobs, metric: r.metric };
    }
    return { choices: r.choices, gold_index: r.gold_index, logprobs: r.predictions, metric: r.metrics };
  });
}

interface Reference {
  n: number; mode: string; accuracy: number; macro_f1?: number; brier?: number; nbr?: number; log_loss?: number; ece?: number;
  verdict?: string; task_metrics: Record<string, number>;
}

/** The reference's figures of each file (one Python run for all: numpy, scipy and sklearn take seconds to load). */
let references: Record<string, Reference> = {};

function reference(path: string): Reference {
  return references[path];
}

function expectFigures(report: Report, ref: Reference): void {
  expect(report.n).toBe(ref.n);
  expect(report.metrics.accuracy).toBeCloseTo(ref.accuracy, 9);
  if (ref.mode === 'choices') {
    for (const key of ['macro_f1', 'brier', 'nbr', 'log_loss', 'ece'] as const) {
      expect(report.metrics[key], key).toBeCloseTo(ref[key]!, 6);
    }
  }
  const means = Object.fromEntries((report.taskMetrics ?? []).map((m) => [m.name, m.mean]));
  expect(Object.keys(means)).toEqual(Object.keys(ref.task_metrics));
  for (const [name, mean] of Object.entries(ref.task_metrics)) expect(means[name], name).toBeCloseTo(mean, 9);
}

const results = JSON.parse(readFileSync(join(FIXTURES, 'results.json'), 'utf8')) as { results: Record<string, Record<string, number>> };

describe('lighteval details (0.11+: doc, metric, model_response)', () => {
  it('a multiple-choice task: softmax of the logprobs, gold at doc.gold_index; every figure equals numpy/sklearn', async () => {
    const report = await scoreFileAsync(arc, { bootstrap: 0 });
    expect(report.fatal).toBeUndefined();
    expect(report.format).toBe('lighteval');
    expect(report.kind).toBe('multiclass');
    expect(report.task).toBe('arc:challenge|25');
    const ref = reference(arc);
    expect(ref.mode).toBe('choices');
    expectFigures(report, ref);
    expect(report.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });

  it('shows lighteval\'s own figures beside the recomputed ones, from the run\'s results file, and they agree', async () => {
    const report = await scoreFileAsync(arc, { bootstrap: 0 });
    const figures = results.results['arc:challenge|25'];
    expect(report.reported.accuracy).toBe(figures.acc);
    expect(report.reported.acc_stderr).toBe(figures.acc_stderr);
    expect(report.metrics.accuracy).toBeCloseTo(figures.acc, 12);
    expect(report.reportedPath).toBe(resultsPath);
    expect(report.sourceModel).toBe(MODEL);
    const byName = Object.fromEntries((report.taskMetrics ?? []).map((m) => [m.name, m]));
    expect(byName.acc_norm.reported).toBe(figures.acc_norm);
    expect(byName.acc_norm.mean).toBeCloseTo(figures.acc_norm, 12);
  });

  it('a results file beside the details is found too; without one, nothing is reported', async () => {
    const flat = join(root, 'flat');
    mkdirSync(flat, { recursive: true });
    const beside = join(flat, `details_arc:challenge|25_${TS}.parquet`);
    copyFileSync(arc, beside);
    expect((await scoreFileAsync(beside, { bootstrap: 0 })).reported).toEqual({});
    copyFileSync(resultsPath, join(flat, `results_${TS}.json`));
    expect((await scoreFileAsync(beside, { bootstrap: 0 })).reported.accuracy).toBe(results.results['arc:challenge|25'].acc);
    // A suite before the task (lighteval up to 0.10: "leaderboard|arc:challenge|25") still finds its figures.
    const suite = join(flat, `details_leaderboard|arc:challenge|25_${TS}.parquet`);
    copyFileSync(arc, suite);
    const withSuite = await scoreFileAsync(suite, { bootstrap: 0 });
    expect(withSuite.task).toBe('leaderboard|arc:challenge|25');
    expect(withSuite.reported.accuracy).toBe(results.results['arc:challenge|25'].acc);
  });

  it('several gold choices (doc.gold_index a list): right when the top choice is one of them, as lighteval\'s acc', async () => {
    const report = await scoreFileAsync(tqa, { bootstrap: 0 });
    const rows = await parquetRows(tqa);
    const ref = reference(tqa);
    expectFigures(report, ref);
    expect(report.metrics.accuracy).toBeCloseTo(results.results['truthfulqa:mc|0'].acc, 12);
    const several = rows.filter((r) => ((r.doc as Obj).gold_index as number[]).length > 1).length;
    expect(several).toBeGreaterThan(0);
    expect(report.problems.find((p) => p.code === 'undefined-metric')?.message).toMatch(new RegExp(`^${several} samples have several gold choices`));
  });

  it('a generative task is scored by its own 0/1 verdict (extractive_match), its metrics by name', async () => {
    const report = await scoreFileAsync(gsm, { bootstrap: 0 });
    const ref = reference(gsm);
    expect(ref.mode).toBe('generative');
    expect(ref.verdict).toBe('extractive_match');
    expectFigures(report, ref);
    expect(report.reported.accuracy).toBe(results.results['gsm8k|0'].extractive_match);
    expect(report.metrics.brier).toBeUndefined();
    // The generation and the gold answer are the instance's texts (search and the stepper read them).
    expect(report.texts?.fields).toEqual(['query', 'choices', 'gold', 'response']);
    expect(report.texts?.values[0][3]).toMatch(/The answer is \d+\./);
  });

  it('the same rows as JSON Lines or as a JSON array give the same report', async () => {
    const jsonl = join(root, 'arc.details.jsonl');
    copyFileSync(join(FIXTURES, 'arc_challenge_25.jsonl'), jsonl);
    const json = join(root, 'arc.details.json');
    writeFileSync(json, JSON.stringify(readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l)), null, 1));
    const fromParquet = await scoreFileAsync(arc, { bootstrap: 0 });
    for (const path of [jsonl, json]) {
      const report = await scoreFileAsync(path, { bootstrap: 0 });
      expect(report.format, path).toBe('lighteval');
      expect(report.metrics).toEqual(fromParquet.metrics);
      expect(report.taskMetrics).toEqual(fromParquet.taskMetrics?.map(({ reported: _r, ...m }) => m));
    }
  });
});

describe('lighteval 0.13.0\'s own details (real files)', () => {
  const realFigures = () => (JSON.parse(readFileSync(realResults, 'utf8')) as { results: Record<string, Record<string, number>> }).results;

  it('anli:r1 (log-likelihood, three choices): figures equal numpy/sklearn, and lighteval\'s acc agrees', async () => {
    const report = await scoreFileAsync(anli, { bootstrap: 0 });
    expect(report.format).toBe('lighteval');
    expect(report.task).toBe('anli:r1|0');
    expect(report.sourceModel).toBe('eee-smoke/dummy-model');
    const ref = reference(anli);
    expect(ref.mode).toBe('choices');
    expectFigures(report, ref);
    expect(report.reported.accuracy).toBe(realFigures()['anli:r1|0'].acc);
    expect(report.metrics.accuracy).toBeCloseTo(realFigures()['anli:r1|0'].acc, 12);
    expect(report.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });

  it('squad_v2 (generative, gold_index a list): scored by its em, the generation in the texts', async () => {
    const report = await scoreFileAsync(squad, { bootstrap: 0 });
    const ref = reference(squad);
    expect(ref.mode).toBe('generative');
    expect(ref.verdict).toBe('em');
    expectFigures(report, ref);
    expect(report.reported.accuracy).toBe(realFigures()['squad_v2|0'].em);
    expect(report.texts?.values.map((v) => v[3])).toEqual(['random baseline', 'random baseline']);
  });
});

describe('lighteval details of 0.3-0.7 (the flat Detail, every value saved as str())', () => {
  it('reads Python literals: (logprob, is_greedy) predictions, "[0]" gold_index, "{\'acc\': 1}" metrics', async () => {
    const report = await scoreFileAsync(hellaswag, { bootstrap: 0 });
    expect(report.format).toBe('lighteval');
    expect(report.task).toBe('lighteval|hellaswag|10');
    const rows = await parquetRows(hellaswag);
    expect(typeof rows[0].predictions).toBe('string');
    expectFigures(report, reference(hellaswag));
  });

  it('parses Python reprs as Python does', () => {
    expect(parsePythonLiteral("[(-1.5, False), (-2e-3, True)]")).toEqual([[-1.5, false], [-0.002, true]]);
    expect(parsePythonLiteral("{'acc': 1, \"em\": np.float64(0.5), 'x': None}")).toEqual({ acc: 1, em: 0.5, x: null });
    expect(parsePythonLiteral("[' it\\'s', \"a \\\"b\\\"\", '\\u00e9\\n']")).toEqual([" it's", 'a "b"', 'é\n']);
    expect(parsePythonLiteral('(nan, -inf, 1_000)')).toEqual([NaN, -Infinity, 1000]);
    expect(parsePythonLiteral('(3,)')).toEqual([3]);
    expect(() => parsePythonLiteral("[1, 2")).toThrow(SyntaxError);
  });
});

describe('reading a details Parquet', () => {
  it('leaves the columns it never reads undecoded (few-shot docs, tokens, the prompt) and keeps the rest', async () => {
    const bytes = new Uint8Array(readFileSync(arc));
    const all = await parquetToText(arc, bytes, {}, 1);
    const pruned = await parquetToText(arc, bytes, { format: 'lighteval' }, 1);
    if ('fatal' in all || 'fatal' in pruned) throw new Error('unreadable');
    const first = (t: { text: string }) => JSON.parse(t.text.split('\n')[0]) as { doc: Obj; model_response: Obj; metric: Obj };
    const a = first(all);
    const b = first(pruned);
    expect(Object.keys(a.doc)).toContain('fewshot_samples');
    expect(Object.keys(b.doc).sort()).toEqual(Object.keys(a.doc).filter((k) => k !== 'fewshot_samples' && k !== 'images').sort());
    expect(Object.keys(b.model_response).sort()).toEqual(Object.keys(a.model_response).filter((k) => !['input', 'input_tokens', 'output_tokens', 'logits'].includes(k)).sort());
    expect(b.metric).toEqual(a.metric);
    expect(b.model_response.logprobs).toEqual(a.model_response.logprobs);
    expect(pruned.rows).toBe(all.rows);
  });
});

describe('what is lighteval\'s', () => {
  it('a Parquet table with doc, metric and model_response columns, whatever its name', async () => {
    const renamed = join(root, 'run.parquet');
    copyFileSync(arc, renamed);
    const report = await scoreFileAsync(renamed, { bootstrap: 0 });
    expect(report.format).toBe('lighteval');
    // The one decision the editor's tree and a folder walk take says so too, from the footer alone.
    expect(decideFile(renamed, readHead(renamed))).toEqual({ format: 'lighteval' });
    expect(decideFile(hellaswag, readHead(hellaswag))).toEqual({ format: 'lighteval' });
    expect(report.metrics.accuracy).toBe((await scoreFileAsync(arc, { bootstrap: 0 })).metrics.accuracy);
  });

  it('detects JSON details by content, and leaves lm-eval samples and tables alone', () => {
    const head = readFileSync(join(FIXTURES, 'arc_challenge_25.jsonl'), 'utf8').slice(0, 16384);
    expect(detectFormat('/x/anything.jsonl', head)).toBe('lighteval');
    expect(detectFormat('/x/anything.json', `[${head.split('\n')[0]}`)).toBe('lighteval');
    expect(detectFormat('/x/samples.jsonl', '{"doc_id": 0, "doc": {"query": "q", "choices": ["a"], "gold": 0}, "target": 0, "arguments": []}')).toBe('lm-eval');
    expect(detectFormat('/x/preds.jsonl', '{"id": 1, "label": 1, "score": 0.5}')).toBe('generic');
    // lighteval's results file is a summary's, not the details adapter's.
    expect(detectFormat(resultsPath, readFileSync(resultsPath, 'utf8'))).not.toBe('lighteval');
  });

  it('a folder: one result per details file, each with its own path and task', async () => {
    const { reports } = await scorePathAsync(root, { bootstrap: 0 });
    const lighteval = reports.filter((r) => r.format === 'lighteval' && !r.fatal);
    expect(lighteval.map((r) => r.path)).toEqual(expect.arrayContaining([arc, tqa, gsm, hellaswag, anli, squad]));
    expect(reports.find((r) => r.path === arc)?.metrics).toEqual((await scoreFileAsync(arc, { bootstrap: 0 })).metrics);
  });
});

describe('bad rows', () => {
  it('says what is wrong with a row, on its line, and scores the rest', async () => {
    const lines = readFileSync(join(FIXTURES, 'arc_challenge_25.jsonl'), 'utf8').trim().split('\n');
    const edit = (i: number, f: (r: Obj) => void) => {
      const r = JSON.parse(lines[i]) as Obj;
      f(r);
      lines[i] = JSON.stringify(r);
    };
    edit(2, (r) => { (r.model_response as Obj).logprobs = [-1.5]; });
    edit(4, (r) => { (r.doc as Obj).gold_index = 9; });
    edit(6, (r) => { (r.doc as Obj).gold_index = 'B'; });
    edit(8, (r) => { r.metric = { acc: 1 - ((r.metric as Obj).acc as number), acc_norm: 0 }; });
    lines[10] = '{"doc": {"query": "cut off';
    lines[12] = '42';
    const path = join(root, 'bad.details.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const report = await scoreFileAsync(path, { bootstrap: 0 });
    expect(report.format).toBe('lighteval');
    expect(report.n).toBe(60 - 5);
    expect(report.skipped).toBe(5);
    const at = (line: number) => report.problems.filter((p) => p.line === line).map((p) => `${p.severity} ${p.code}: ${p.message}`);
    expect(at(3)).toEqual(['error missing-field: model_response.logprobs has 1 value for 4 choices; the sample is skipped.'.replace('4 choices', `${(JSON.parse(lines[2]).doc as Obj & { choices: string[] }).choices.length} choices`)]);
    expect(at(5)[0]).toMatch(/^error unknown-class: doc\.gold_index 9 is not one of its \d choices; the sample is skipped\.$/);
    expect(at(7)).toEqual(['error missing-field: "doc.gold_index" is "B", not an index or a list of indices; the sample is skipped.']);
    expect(at(9)[0]).toMatch(/^warning reported-mismatch: lighteval's acc is [01], but the choice with the highest log-probability/);
    expect(at(11)[0]).toMatch(/^error json-parse: Line 11 is not valid JSON/);
    expect(at(13)).toEqual(['error missing-field: The record is not an object; the sample is skipped.']);
  });

  it('a Parquet row\'s problem names its row', async () => {
    const rows = (await parquetRows(arc)).slice(0, 5);
    (rows[1].model_response as Obj).logprobs = [];
    const path = join(root, 'bad.jsonl');
    writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n'));
    const report = await scoreFileAsync(path, { bootstrap: 0 });
    expect(report.n).toBe(4);
    expect(report.problems[0].line).toBe(2);
  });
});

describe('the CLI', () => {
  it('score FILE --json: format lighteval, the task, the reported figures, exit 0', async () => {
    const out = await runCli(['score', '--json', '--bootstrap', '0', arc]);
    expect(out.code).toBe(0);
    const r = (JSON.parse(out.stdout) as { results: (Obj & { reported: Obj })[] }).results[0];
    expect(r.format).toBe('lighteval');
    expect(r.task).toBe('arc:challenge|25');
    expect(r.reported.accuracy).toBe(results.results['arc:challenge|25'].acc);
  });
});
