// Summaries are summaries (issue 26.1): results files, HELM stats.json, leaderboards and tables of
// metrics are read as figures named by task and metric, with no fatal and exit 0, alone and in a
// folder, also beside the samples they summarise. Every figure is checked against Python reading the
// same file (json / csv / pandas), independently of the reader under test.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { boardPaths } from '../../../src/core/boardFiles';
import { discoverPredictionFiles } from '../../../src/core/score';

const root = join(__dirname, '..', '..', '..');
const real = join(root, 'test', 'fixtures', 'real');
const made = join(root, 'test', 'fixtures', 'summaries');
const LIGHTEVAL = join(real, 'summaries', 'lighteval', 'eee-smoke', 'results_2026-08-10T17-22-11.385681.json');
const LIGHTEVAL_NAN = join(real, 'summaries', 'lighteval', 'SmolLM2-1.7B-Instruct', 'results_2026-01-21T03-44-18.458309.json');
const LM_EVAL = join(real, 'lm-eval', 'qwen__qwen2.5-7B', 'results_2025-03-18T00-03-26.972068.json');
const LM_EVAL_RUN = join(real, 'lm-eval', 'Qwen__Qwen3-8B');
const HELM_RUN = join(real, 'helm', 'mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2');
const ALPACA = join(real, 'summaries', 'alpacaeval', 'alpaca_eval_gpt4_turbo_fn_leaderboard.csv');
const ALPACA_CLAUDE = join(real, 'summaries', 'alpacaeval', 'claude_leaderboard.csv');
const OPENCOMPASS = join(made, 'opencompass', 'summary_20240119_225509.csv');
const THRESHOLDS = join(made, 'tables', 'thresholds.csv');
const TASKS = join(made, 'tables', 'tasks.tsv');
const FLAT = join(made, 'tables', 'metrics.json');
const NO_GOLD = join(made, 'tables', 'predictions_no_gold.csv');

interface Figure { name: string; metric: string; task?: string; model?: string; split?: string; n?: number; value: number | string | null }
interface Result {
  path: string; format: string; kind: string | null; n: number; fatal?: string; notScored?: boolean; task?: string; sourceModel?: string;
  reported: Record<string, number | null>; reportedNonFinite?: Record<string, string>;
  summary?: { source: string; harness?: string; figures: Figure[] };
}

async function score(...args: string[]): Promise<{ code: number; stdout: string; results: Result[] }> {
  const out = await runCli(['score', ...args, '--json']);
  return { code: out.code, stdout: out.stdout, results: JSON.parse(out.stdout).results };
}

/** Python's reading of a file: {name: value}, with NaN written as the string "NaN". */
function python(code: string, path: string): Record<string, number | string | null> {
  const out = execFileSync('/usr/bin/python3', ['-c', `import json, math, sys\n${code}\nprint(json.dumps({k: ('NaN' if isinstance(v, float) and math.isnan(v) else v) for k, v in out.items()}))`, path], { encoding: 'utf8' });
  return JSON.parse(out);
}

/** The figures of a result as {name: value}, a non-finite one spelled as Python spells it. */
function figures(r: Result): Record<string, number | string | null> {
  return Object.fromEntries(Object.entries(r.reported).map(([k, v]) => [k, r.reportedNonFinite?.[k] ?? v]));
}

function expectSameFigures(got: Record<string, number | string | null>, want: Record<string, number | string | null>): void {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const [k, v] of Object.entries(want)) {
    if (typeof v === 'number') expect(got[k], k).toBeCloseTo(v, 6);
    else expect(got[k], k).toBe(v);
  }
}

/** A summary read as one: exit 0, one result with its path, format summary, n = 0, no fatal, no kind. */
function expectSummary(out: { code: number; results: Result[] }, path: string): Result {
  expect(out.code).toBe(0);
  expect(out.results.map((r) => r.path)).toEqual([path]);
  const r = out.results[0];
  expect([r.format, r.n, r.kind, r.fatal, r.notScored]).toEqual(['summary', 0, null, undefined, undefined]);
  expect(r.summary!.figures.length).toBe(Object.keys(r.reported).length);
  return r;
}

const LIGHTEVAL_PY = `d = json.load(open(sys.argv[1]))
out = {f'{t}/{m}': v for t, ms in d['results'].items() for m, v in ms.items()}`;

describe('results files', () => {
  it("lighteval's results file (lighteval 0.13.0's own output): every task's figures by task and metric", async () => {
    const r = expectSummary(await score(LIGHTEVAL), LIGHTEVAL);
    expectSameFigures(figures(r), python(LIGHTEVAL_PY, LIGHTEVAL));
    expect(r.reported['anli:r1|0/acc']).toBe(0);
    expect([r.summary!.harness, r.summary!.source, r.sourceModel]).toEqual(['lighteval', "lighteval's results summary", 'eee-smoke/dummy-model']);
  });

  it("lighteval's NaN figures are kept as NaN (Python's json writes them), not dropped or zeroed", async () => {
    const r = expectSummary(await score(LIGHTEVAL_NAN), LIGHTEVAL_NAN);
    const want = python(LIGHTEVAL_PY, LIGHTEVAL_NAN);
    expect(want['mmlu:anatomy|5/acc_stderr']).toBe('NaN');
    expectSameFigures(figures(r), want);
  });

  it("lm-eval's results file: figures by task and metric, the filter dropped when it is none, n from n-samples", async () => {
    const r = expectSummary(await score(LM_EVAL), LM_EVAL);
    const want = python(`d = json.load(open(sys.argv[1]))
out = {}
for section in ('results', 'groups'):
    for t, ms in d.get(section, {}).items():
        for k, v in ms.items():
            if k in ('alias', 'name', 'sample_len', 'samples'): continue
            metric, _, flt = k.rpartition(',')
            name = f'{t}/{metric}' if flt == 'none' else f'{t}/{k}'
            out.setdefault(name, None if v == 'N/A' else v)`, LM_EVAL);
    expectSameFigures(figures(r), want);
    expect(r.reported['arc_easy/acc']).toBeCloseTo(0.8042929292929293, 12);
    const doc = JSON.parse(readFileSync(LM_EVAL, 'utf8'));
    const arc = r.summary!.figures.find((f) => f.name === 'arc_easy/acc')!;
    expect([arc.task, arc.metric, arc.n]).toEqual(['arc_easy', 'acc', doc['n-samples'].arc_easy.effective]);
    // The table says so too, with its count: "on 2,376 samples".
    const table = await runCli(['score', LM_EVAL]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/arc_easy\/acc +0\.8043 {2}on 2,376 samples/);
    expect(table.stdout).not.toMatch(/not scored|could be scored/);
  });

  it("folktexts' results.bench-*.json is an object of metrics: each key a figure, over its n_samples", async () => {
    const path = join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'results.bench-1337.json');
    const r = expectSummary(await score(path), path);
    expectSameFigures(figures(r), python(`d = json.load(open(sys.argv[1]))
out = {k: v for k, v in d.items() if v is None or isinstance(v, (int, float)) and not isinstance(v, bool)}`, path));
    expect(r.summary!.harness).toBe('folktexts');
    expect(r.summary!.figures.find((f) => f.name === 'accuracy')!.n).toBe(JSON.parse(readFileSync(path, 'utf8').replace(/\bNaN\b/g, 'null')).n_samples);
  });

  it('an object of metric -> number is a summary; its text fields are not figures', async () => {
    const r = expectSummary(await score(FLAT), FLAT);
    expect(r.reported).toEqual({ accuracy: 0.8125, macro_f1: 0.7421, auc: 0.9012, n_samples: 480 });
    expect(r.summary!.figures.find((f) => f.name === 'auc')!.n).toBe(480);
  });
});

describe('HELM stats.json', () => {
  const path = join(HELM_RUN, 'stats.json');
  it('every Stat\'s mean by split and name (perturbed ones by their perturbation), n = the split\'s instances, the run named by run_spec.json', async () => {
    const r = expectSummary(await score(path), path);
    const want = python(`stats = json.load(open(sys.argv[1]))
out = {}
for s in stats:
    nm = s['name']; p = nm.get('perturbation')
    split = nm.get('split', '') + (':' + nm['sub_split'] if nm.get('sub_split') else '')
    on = ':' + p['computed_on'] if p and p.get('computed_on') not in (None, 'worst') else ''
    metric = nm['name'] + ('@' + p['name'] + on if p else '')
    name = f'{split}/{metric}' if split else metric
    k, i = name, 1
    while k in out: i += 1; k = f'{name} ({i})'
    out[k] = s.get('mean') if s['count'] else None`, path);
    expectSameFigures(figures(r), want);
    const stats = JSON.parse(readFileSync(path, 'utf8')) as { name: { name: string; split: string; perturbation?: unknown }; mean: number }[];
    const instances = stats.find((s) => s.name.name === 'num_instances' && s.name.split === 'test' && !s.name.perturbation)!.mean;
    const em = r.summary!.figures.find((f) => f.name === 'test/exact_match')!;
    expect([em.split, em.metric, em.n, em.value]).toEqual(['test', 'exact_match', instances, stats.find((s) => s.name.name === 'exact_match' && s.name.split === 'test' && !s.name.perturbation)!.mean]);
    // The run spec without its model (as the run's per-instance files name the task): runs of one scenario by two models are one task.
    expect(JSON.parse(readFileSync(join(HELM_RUN, 'run_spec.json'), 'utf8')).name).toBe('mmlu:subject=philosophy,method=multiple_choice_joint,model=openai_gpt2');
    expect(r.task).toBe('mmlu:subject=philosophy,method=multiple_choice_joint');
    expect(r.summary!.harness).toBe('HELM');
  });

  it('in its run folder, beside the per-instance files another reader takes, it is still its own summary', async () => {
    const out = await score(HELM_RUN);
    const stats = out.results.filter((x) => x.path === path);
    expect(stats.length).toBe(1);
    expect([stats[0].format, stats[0].fatal, stats[0].notScored]).toEqual(['summary', undefined, undefined]);
    expect(figures(stats[0])).toEqual(figures((await score(path)).results[0]));
  });
});

describe('tables', () => {
  it('an AlpacaEval leaderboard: each model\'s figures ("<model>/win_rate"), n = n_total; the mode column is no figure', async () => {
    for (const path of [ALPACA, ALPACA_CLAUDE]) {
      const r = expectSummary(await score(path), path);
      expectSameFigures(figures(r), python(`import pandas as pd
df = pd.read_csv(sys.argv[1], index_col=0)
out = {}
for model, row in df.iterrows():
    for col in df.columns:
        if pd.api.types.is_numeric_dtype(df[col]) and not pd.isna(row[col]):
            out[f'{model}/{col}'] = float(row[col])`, path));
      expect(r.summary!.harness).toBe('AlpacaEval');
      const first = r.summary!.figures.find((f) => f.metric === 'win_rate')!;
      expect(first.n).toBe(805);
      expect(first.model).toBe(first.name.replace(/\/win_rate$/, ''));
    }
  });

  it('an OpenCompass summary: "<model>/<dataset>/<metric>" per model column, "-" not reported, a dataset without results left out', async () => {
    const r = expectSummary(await score(OPENCOMPASS), OPENCOMPASS);
    expectSameFigures(figures(r), python(`import csv
rows = list(csv.reader(open(sys.argv[1])))
models = rows[0][4:]
out = {}
for row in rows[1:]:
    if row[2] == '-': continue
    for m, v in zip(models, row[4:]):
        out[f'{m}/{row[0]}/{row[2]}'] = None if v == '-' else float(v)`, OPENCOMPASS));
    expect(r.reported['qwen-7b-chat-hf/ceval-operating_system/accuracy']).toBeNull();
    expect(r.summary!.harness).toBe('OpenCompass');
    expect(Object.keys(r.reported).some((k) => k.includes('mmlu'))).toBe(false);
  });

  it('a table whose rows are thresholds, and one whose rows are tasks, are summaries named by their row', async () => {
    const th = expectSummary(await score(THRESHOLDS), THRESHOLDS);
    expectSameFigures(figures(th), python(`import csv
out = {}
for row in csv.DictReader(open(sys.argv[1])):
    for k, v in row.items():
        if k != 'threshold': out[f"{row['threshold']}/{k}"] = float(v)`, THRESHOLDS));
    expect(th.summary!.figures.find((f) => f.name === '0.5/f1')).toMatchObject({ task: '0.5', metric: 'f1', n: 1000, value: 0.7788 });
    const tasks = expectSummary(await score(TASKS), TASKS);
    expect(tasks.reported['hellaswag/acc_norm']).toBe(0.7895);
    expect(tasks.summary!.figures.find((f) => f.name === 'piqa/acc')!.n).toBe(1838);
  });

  it('the real folktexts tables of results per model and task are summaries (they were refused with a --map hint that scored nothing)', async () => {
    const path = join(real, 'folktexts', 'baseline-results.GBM.LR.XGBoost.csv');
    const r = expectSummary(await score(path), path);
    const want = python(`import pandas as pd
df = pd.read_csv(sys.argv[1], index_col=0)
out = {}
for model, row in df.iterrows():
    for col in df.columns:
        if col != 'config_task_name' and pd.api.types.is_numeric_dtype(df[col]) and df[col].dtype != bool and not pd.isna(row[col]):
            out[f"{model}/{row['config_task_name']}/{col}"] = float(row[col])`, path);
    expectSameFigures(figures(r), want);
  });

  it('a table of predictions without a gold column is still refused, with the generic reader\'s words', async () => {
    const out = await score(NO_GOLD);
    expect(out.code).toBe(2);
    expect(out.results[0].format).not.toBe('summary');
    expect(out.results[0].summary).toBeUndefined();
    expect(out.results[0].fatal).toMatch(/gold/);
  });

  it('with --map, a summary-looking table is read as the predictions the user says it holds', async () => {
    const out = await score(THRESHOLDS, '--map', 'label=threshold', '--map', 'score=accuracy');
    expect(out.results[0].format).toBe('generic');
  });
});

describe('alone and in a folder, beside the samples they summarise', () => {
  it("lm-eval's results file beside its samples: a summary of its own, and the samples keep its figures as reported", async () => {
    const results = join(LM_EVAL_RUN, 'results_2026-07-08T18-15-33.115417.json');
    const folder = await score(LM_EVAL_RUN);
    expect(folder.code).toBe(0);
    const summary = folder.results.filter((r) => r.path === results);
    expect(summary.length).toBe(1);
    expect([summary[0].format, summary[0].fatal, summary[0].notScored]).toEqual(['summary', undefined, undefined]);
    expect(figures(summary[0])).toEqual(figures((await score(results)).results[0]));
    const samples = folder.results.filter((r) => basename(r.path).startsWith('samples_'));
    expect(samples.length).toBe(2);
    for (const s of samples) {
      expect(s.format).toBe('lm-eval');
      expect(s.n).toBeGreaterThan(0);
      // The samples' reported accuracy is the summary's figure for their task (acc, or exact_match of generations).
      expect(s.reported.accuracy).toBe(summary[0].reported[`${s.task}/acc`] ?? summary[0].reported[`${s.task}/exact_match`]);
      // lm-eval wrote each task's sample count as sample_len: the figures carry it.
      expect(summary[0].summary!.figures.find((f) => f.task === s.task)!.n).toBe(s.n);
    }
  });

  it('a lighteval results file in a folder is lighteval\'s, not "lm-eval\'s results summary"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-summary-'));
    mkdirSync(join(dir, 'results', 'eee-smoke'), { recursive: true });
    const copy = join(dir, 'results', 'eee-smoke', basename(LIGHTEVAL));
    copyFileSync(LIGHTEVAL, copy);
    writeFileSync(join(dir, 'notes.json'), '{"run": 1, "seed": 3}\n');
    const folder = (await score(dir)).results.find((r) => r.path === copy)!;
    const alone = (await score(copy)).results[0];
    expect(folder.summary!.source).toBe("lighteval's results summary");
    expect(folder).toEqual(alone);
    // An object of settings (no metric names) is no summary: refused alone and in the folder alike.
    const notes = (await score(dir)).results.find((r) => r.path.endsWith('notes.json'))!;
    expect(notes.notScored).toBe(true);
    expect(notes.fatal).toMatch(/^No prediction fields: run, seed;/);
    expect((await score(join(dir, 'notes.json'))).results[0]).toEqual(notes);
  });
});

describe('a summary is no run', () => {
  it('board leaves it out with an info line; compare does not take it for predictions; gates skip it', async () => {
    const results = join(LM_EVAL_RUN, 'results_2026-07-08T18-15-33.115417.json');
    const { board } = boardPaths([LM_EVAL_RUN], { bootstrap: 0 }, {});
    expect(board.problems.find((p) => p.path === results)).toMatchObject({ severity: 'info', message: expect.stringMatching(/^Not on the board: it is lm-eval's results summary/) });
    expect(discoverPredictionFiles(LM_EVAL_RUN).map((f) => f.path)).not.toContain(results);
    const gated = await runCli(['score', LM_EVAL, '--fail-on', 'accuracy<0.5']);
    expect(gated.code).not.toBe(0); // no file scored has accuracy: the gate cannot pass on a summary's figures
    expect(gated.stderr + gated.stdout).toMatch(/no file scored has accuracy/);
  });
});

describe('a summary in --markdown and --csv', () => {
  it('Markdown: what it is and a table of its figures; CSV: one row per figure, its value under reported (pandas reads it back)', async () => {
    const md = await runCli(['score', LIGHTEVAL_NAN, '--markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/summary · lighteval\n\nlighteval's results summary: \d+ figures of \d+ tasks, model HuggingFaceTB\/SmolLM2-1\.7B-Instruct\./);
    expect(md.stdout).toMatch(/\| mmlu:anatomy\\\|5\/acc\\_stderr \| NaN \| 135 \|/);
    const csv = await runCli(['score', LIGHTEVAL_NAN, '--csv']);
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-summary-csv-'));
    writeFileSync(join(dir, 'out.csv'), csv.stdout);
    const read = python(`import pandas as pd
df = pd.read_csv(sys.argv[1], keep_default_na=False, na_values=[''])
out = {row['metric']: (float(row['reported']) if row['reported'] != '' else None) for _, row in df.iterrows()}`, join(dir, 'out.csv'));
    expectSameFigures(read, python(LIGHTEVAL_PY, LIGHTEVAL_NAN));
  });
});
