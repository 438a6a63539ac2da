// `convert --to eee` of judge files and of sources whose names are no plain model ids:
// - an MT-Bench file grading several models is one evaluation per model (its own model id, samples
//   and judge_score), never one "unknown" model with a score pooled over them, and its benchmark is
//   mt_bench (FastChat's judge prompts say so) rather than "unknown";
// - an AlpacaEval annotations file is benchmark alpaca_eval, its evaluation the annotator config;
// - a promptfoo provider that is a URL has no developer "https_": its folder is its host and path.
// Every file written is validated against the EEE 0.3.0 schemas; the figures are recomputed in Python.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { modelParts } from '../../src/core/eee/names';
import { REAL } from './realData';
import { PY_LAST_JUDGMENTS } from './pythonReferences';
import { validAggregate, validInstance, validate } from './eeeSchemas';


interface Written { source: string; model?: string; aggregate: string; samples: string; n: number }
interface Evaluation { w: Written; agg: any; lines: any[] }

async function convert(paths: string[]): Promise<{ out: string; evaluations: Evaluation[]; stdout: string }> {
  const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-judges-'));
  const r = await runCli(['convert', ...paths, '--to', 'eee', out, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const written: Written[] = JSON.parse(r.stdout).written;
  const evaluations = written.map((w) => {
    const agg = JSON.parse(readFileSync(join(out, w.aggregate), 'utf8'));
    validate(validAggregate, agg, w.aggregate);
    const lines = readFileSync(join(out, w.samples), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const rec of lines) validate(validInstance, rec, w.samples);
    return { w, agg, lines };
  });
  return { out, evaluations, stdout: r.stdout };
}

/** Python: per model, the last judgment of each (model, question, turn, judge), -1 dropped: n, mean and the sample ids. */
function pythonPerModel(path: string): Record<string, { n: number; mean: number; ids: string[] }> {
  const script = `${PY_LAST_JUDGMENTS}
out = {}
for m, q, t, s in valid:
    out.setdefault(m, []).append((f'{q}/{t}', s))
print(json.dumps({m: {'n': len(v), 'mean': sum(s for _, s in v) / len(v), 'ids': sorted(i for i, _ in v)} for m, v in out.items()}))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
}

describe('convert --to eee: a judge file grading several models', () => {
  for (const [what, path, models] of [
    ['dreaming-panda (two models, a re-run appended)', join(REAL, 'mt-bench', 'dreaming-panda', 'gpt-4_single-origin.jsonl'), 2],
    ['Medusa (three models)', join(REAL, 'mt-bench', 'medusa', 'model_judgment', 'gpt-4_single.jsonl'), 3],
  ] as const) {
    it(`${what}: one evaluation per model, under data/mt_bench/, each with its own samples and judge_score`, async () => {
      const { evaluations } = await convert([path]);
      const want = pythonPerModel(path);
      expect(Object.keys(want)).toHaveLength(models);
      expect(evaluations).toHaveLength(models);
      expect(evaluations.map((e) => e.agg.model_info.id).sort()).toEqual(Object.keys(want).sort());
      for (const { w, agg, lines } of evaluations) {
        const model = agg.model_info.id as string;
        const ref = want[model];
        expect(w.model).toBe(model);
        expect(w.aggregate.startsWith(`data/mt_bench/unknown/${model}/`)).toBe(true);
        const result = agg.evaluation_results[0];
        expect(result.evaluation_name).toBe('mt_bench');
        expect(result.source_data.dataset_name).toBe('mt_bench');
        expect(result.metric_config.metric_id).toBe('judge_score');
        expect(result.score_details.score).toBeCloseTo(ref.mean, 12);
        expect(result.score_details.uncertainty.num_samples).toBe(ref.n);
        expect(lines).toHaveLength(ref.n);
        expect(lines.every((l) => l.model_id === model && l.evaluation_id === agg.evaluation_id)).toBe(true);
        // The samples are named as a one-model file names them (question/turn), each once.
        expect(lines.map((l) => l.sample_id).sort()).toEqual(ref.ids);
        expect(lines.reduce((s, l) => s + l.evaluation.score, 0) / lines.length).toBeCloseTo(ref.mean, 12);
      }
      // Each model's evaluation has an id of its own.
      expect(new Set(evaluations.map((e) => e.agg.evaluation_id)).size).toBe(models);
    });
  }

  it('a judge_score\'s interval is said to be its own (t over questions, clustered), not a bootstrap', async () => {
    const { evaluations } = await convert([join(REAL, 'mt-bench', 'dreaming-panda', 'gpt-4_single-origin.jsonl')]);
    for (const { agg } of evaluations) {
      const u = agg.evaluation_results[0].score_details.uncertainty;
      expect(u.confidence_interval.method).toBe('t: mean ± t(questions - 1) · standard error clustered by question');
      expect(u.standard_error.method).toBe('analytic, clustered by question');
      // Normal has questions 81-90 here, Griffin 81-84: t(9) and t(3) at 97.5% (a t table).
      const t = agg.model_info.id.endsWith('Normal') ? 2.2621571627982036 : 3.182446305284263;
      const score = agg.evaluation_results[0].score_details.score;
      expect((u.confidence_interval.upper - score) / u.standard_error.value).toBeCloseTo(t, 9);
      expect((score - u.confidence_interval.lower) / u.standard_error.value).toBeCloseTo(t, 9);
    }
  });

  it('the text output names the model of each evaluation', async () => {
    const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-judges-'));
    const r = await runCli(['convert', join(REAL, 'mt-bench', 'dreaming-panda', 'gpt-4_single-origin.jsonl'), '--to', 'eee', out]);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ 14 samples {2}← .*gpt-4_single-origin\.jsonl \(Meta-Llama-3-8B-Instruct-Normal\)$/);
    expect(lines[1]).toMatch(/ 8 samples {2}← .*gpt-4_single-origin\.jsonl \(Meta-Llama-3-8B-Instruct-Griffin\)$/);
  });

  it('a model whose every grade is -1: not written, and said; the other model keeps its name', async () => {
    const rec = (model: string, q: number, score: number) =>
      JSON.stringify({ question_id: q, model, judge: ['gpt-4', 'single-v1'], user_prompt: `question ${q}`, judgment: `Rating: [[${score}]]`, score, turn: 1, tstamp: 1 });
    const file = join(mkdtempSync(join(tmpdir(), 'eval-lens-mt-')), 'gpt-4_single.jsonl');
    writeFileSync(file, [rec('a', 81, 8), rec('b', 81, -1), rec('a', 82, 6), rec('b', 82, -1)].join('\n') + '\n');
    const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-judges-'));
    const r = await runCli(['convert', file, '--to', 'eee', out, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.written.map((w: Written) => [w.model, w.n])).toEqual([['a', 2]]);
    expect(doc.written[0].aggregate.startsWith('data/mt_bench/unknown/a/')).toBe(true);
    expect(doc.not_written).toEqual([{ source: file, model: 'b', reason: 'all 2 verdicts of b are score -1 or null (the judge\'s [[rating]] could not be parsed): there is no sample to write' }]);
    const text = await runCli(['convert', file, '--to', 'eee', mkdtempSync(join(tmpdir(), 'eval-lens-eee-judges-'))]);
    expect(text.stderr).toContain(`eval-lens: ${file} (b): not converted: all 2 verdicts of b are score -1`);
  });

  it('a one-model MT-Bench file is still one evaluation, benchmark mt_bench', async () => {
    const { evaluations } = await convert([join(REAL, 'mt-bench', 'instructlab-granite', 'gpt-4_single.jsonl')]);
    expect(evaluations).toHaveLength(1);
    expect(evaluations[0].w.model).toBeUndefined();
    expect(evaluations[0].w.aggregate.startsWith('data/mt_bench/unknown/granite-7b-lab/')).toBe(true);
  });
});

/** AlpacaEval annotations in the shape of tatsu-lab/alpaca_eval's results/ (its data is CC BY-NC: made here, not copied). */
function alpacaRecords(model: string, annotator: string | undefined, prefs: (number | null)[]): string {
  return JSON.stringify(prefs.map((p, i) => ({
    instruction: `instruction ${i}`, output_1: `baseline answer ${i}`, generator_1: 'gpt4_1106_preview', dataset: 'helpful_base',
    output_2: `answer ${i}`, generator_2: model, ...(annotator ? { annotator } : {}), preference: p, price_per_example: 0.01, time_per_example: 1.2,
  })));
}

describe('convert --to eee: names of AlpacaEval and promptfoo sources', () => {
  it('AlpacaEval: benchmark alpaca_eval, the evaluation the records\' annotator, the model the generator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-alpaca-'));
    const file = join(dir, 'phi-2.alpaca_eval_gpt4.annotations.json');
    writeFileSync(file, alpacaRecords('phi-2', 'alpaca_eval_gpt4', [1, 2, 2, 1.5, null]));
    const { evaluations } = await convert([file]);
    expect(evaluations).toHaveLength(1);
    const { w, agg, lines } = evaluations[0];
    expect(w.aggregate.startsWith('data/alpaca_eval/unknown/phi-2/')).toBe(true);
    expect(agg.model_info.id).toBe('phi-2');
    const result = agg.evaluation_results[0];
    expect(result.evaluation_name).toBe('alpaca_eval_gpt4');
    expect(result.source_data.dataset_name).toBe('alpaca_eval');
    // By hand: preferences 1, 2, 2, 1.5 (null dropped): 100 · mean(p - 1) = 100 · 2.5 / 4.
    expect(result.metric_config.metric_id).toBe('win_rate');
    expect(result.score_details.score).toBeCloseTo(62.5, 12);
    expect(lines.map((l) => l.evaluation_name)).toEqual(['alpaca_eval_gpt4', 'alpaca_eval_gpt4', 'alpaca_eval_gpt4', 'alpaca_eval_gpt4']);
  });

  it('AlpacaEval annotations of two generators in one file: one evaluation each, its own win rate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-alpaca-'));
    const file = join(dir, 'annotations.json');
    const a = JSON.parse(alpacaRecords('model-a', 'alpaca_eval_gpt4', [2, 2, 1, 2]));
    const b = JSON.parse(alpacaRecords('model-b', 'alpaca_eval_gpt4', [1, 1, 1.5]));
    writeFileSync(file, JSON.stringify([...a, ...b]));
    const { evaluations } = await convert([file]);
    const byModel = Object.fromEntries(evaluations.map((e) => [e.agg.model_info.id, e]));
    expect(Object.keys(byModel).sort()).toEqual(['model-a', 'model-b']);
    // By hand: 100 · mean(p - 1): a (1 + 1 + 0 + 1) / 4 = 75; b (0 + 0 + 0.5) / 3 = 16.67.
    expect(byModel['model-a'].agg.evaluation_results[0].score_details.score).toBeCloseTo(75, 12);
    expect(byModel['model-b'].agg.evaluation_results[0].score_details.score).toBeCloseTo(50 / 3, 12);
    expect(byModel['model-a'].lines.map((l: { sample_id: string }) => l.sample_id)).toEqual(['instruction 0', 'instruction 1', 'instruction 2', 'instruction 3']);
    expect(byModel['model-b'].w.aggregate.startsWith('data/alpaca_eval/unknown/model-b/')).toBe(true);
  });

  it('AlpacaEval without an annotator field: the annotator is the folder of results/<model>/<annotator>/annotations.json', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'eval-lens-alpaca-')), 'results', 'phi-2', 'weighted_alpaca_eval_gpt4_turbo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'annotations.json'), alpacaRecords('phi-2', undefined, [1, 2]));
    const { evaluations } = await convert([join(dir, 'annotations.json')]);
    expect(evaluations[0].agg.evaluation_results[0].evaluation_name).toBe('weighted_alpaca_eval_gpt4_turbo');
    expect(evaluations[0].w.aggregate.startsWith('data/alpaca_eval/unknown/phi-2/')).toBe(true);
  });

  it('promptfoo with a URL provider: developer unknown, the folder its host and path, the id the URL itself', async () => {
    // The shape of a promptfoo results file whose provider is an HTTP endpoint (made here: the real one has no licence).
    const url = 'https://tds-project-1-ruby-one.vercel.app/query';
    const results = [true, false, true].map((ok, i) => ({
      id: `r${i}`, provider: { id: url, label: '' }, promptIdx: 0, testIdx: i, success: ok, score: ok ? 1 : 0,
      prompt: { raw: 'Answer this question:', label: 'Answer this question:' }, response: { output: `answer ${i}` },
      vars: { question: `question ${i}` }, gradingResult: { pass: ok, score: ok ? 1 : 0, reason: ok ? 'ok' : 'Expected output to contain "x"' },
      namedScores: {}, latencyMs: 10, cost: 0, failureReason: ok ? 0 : 1,
    }));
    const doc = {
      evalId: 'eval-test-2025-06-18T20:57:42',
      results: { version: 3, timestamp: '2025-06-18T20:57:42.201Z', prompts: [{ raw: 'Answer this question:', label: 'Answer this question:', provider: url }], results, stats: { successes: 2, failures: 1, errors: 0 } },
      config: { description: 'A RAG API over HTTP', providers: [{ id: url }] },
    };
    const file = join(mkdtempSync(join(tmpdir(), 'eval-lens-pf-')), 'promptfoo_results.json');
    writeFileSync(file, JSON.stringify(doc));
    const { evaluations } = await convert([file]);
    expect(evaluations).toHaveLength(1);
    const { w, agg, lines } = evaluations[0];
    expect(w.aggregate.startsWith('data/A RAG API over HTTP/unknown/tds-project-1-ruby-one.vercel.app_query/')).toBe(true);
    expect(agg.model_info).toMatchObject({ id: url, name: url, developer: 'unknown' });
    expect(agg.evaluation_id).toMatch(/^A RAG API over HTTP\/unknown_tds-project-1-ruby-one\.vercel\.app_query\/[0-9a-f]{16}$/);
    expect(lines.every((l) => l.model_id === url)).toBe(true);
  });

  it('modelParts: a URL is host and path (no scheme, no password, / as _); other ids as before', () => {
    expect(modelParts('https://tds-project-1-ruby-one.vercel.app/query')).toEqual({ developer: 'unknown', name: 'tds-project-1-ruby-one.vercel.app_query' });
    expect(modelParts('http://user:secret@localhost:8080/v1/chat/?m=x')).toEqual({ developer: 'unknown', name: 'localhost_8080_v1_chat_?m=x'.replace('?', '_') });
    expect(modelParts('https://example.com/')).toEqual({ developer: 'unknown', name: 'example.com' });
    expect(modelParts('openai/gpt-4o')).toEqual({ developer: 'openai', name: 'gpt-4o' });
    expect(modelParts('meta-llama/Llama-3.1-8B-Instruct')).toEqual({ developer: 'meta-llama', name: 'Llama-3.1-8B-Instruct' });
    expect(modelParts('phi-2')).toEqual({ developer: 'unknown', name: 'phi-2' });
  });
});
