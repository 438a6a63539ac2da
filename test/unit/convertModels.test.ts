// `convert --to eee` of a file holding several models side by side (promptfoo's providers): score
// scores one model at a time (the first, or --model NAME), and convert writes every model, each as
// `score --model NAME` scores it; before, only the first was written, and the others were dropped
// with nothing on stderr. The input is made in the shape of a real promptfoo results file (an HTTP
// endpoint and openai:chat:gpt-4o-mini on the same five tests; the real file has no licence to copy).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { validAggregate, validate } from './eeeSchemas';


const URL_PROVIDER = 'https://tds-project-1-ruby-one.vercel.app/query';
const MINI = 'openai:chat:gpt-4o-mini';
const OUTCOMES: Record<string, boolean[]> = { [URL_PROVIDER]: [true, false, false, true, true], [MINI]: [true, false, true, true, true] };

function promptfooFile(): string {
  const prompt = 'Answer this question using the RAG knowledge base:';
  const results = [0, 1, 2, 3, 4].flatMap((t) => [URL_PROVIDER, MINI].map((p, k) => {
    const ok = OUTCOMES[p][t];
    return {
      id: `r${t}-${k}`, provider: { id: p, label: '' }, promptIdx: k, testIdx: t, success: ok, score: ok ? 1 : 0,
      prompt: { raw: prompt, label: prompt }, response: { output: `answer ${t}` }, vars: { question: `question ${t}` },
      gradingResult: { pass: ok, score: ok ? 1 : 0, reason: ok ? 'All assertions passed' : 'Expected output to contain "x"' },
      namedScores: {}, latencyMs: 10, cost: 0, failureReason: ok ? 0 : 1,
    };
  }));
  const doc = {
    evalId: 'eval-OoM-2025-06-18T20:57:42',
    results: {
      version: 3, timestamp: '2025-06-18T20:57:42.201Z',
      prompts: [URL_PROVIDER, MINI].map((p) => ({ raw: prompt, label: prompt, provider: p })),
      results, stats: { successes: 7, failures: 3, errors: 0 },
    },
    config: { description: 'TDS Virtual TA', providers: [{ id: URL_PROVIDER }, { id: MINI }] },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'eval-lens-pf-models-')), 'promptfoo_results.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('convert --to eee: a file of several models side by side', () => {
  it('promptfoo with two providers: one evaluation per provider, each with its own samples and accuracy', async () => {
    const file = promptfooFile();
    const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-models-'));
    const r = await runCli(['convert', file, '--to', 'eee', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const written: { model?: string; aggregate: string; samples: string; n: number; accuracy: number }[] = JSON.parse(r.stdout).written;
    expect(written.map((w) => w.model)).toEqual([URL_PROVIDER, MINI]);
    // By hand: 3 of 5 and 4 of 5 tests passed.
    expect(written.map((w) => [w.n, w.accuracy])).toEqual([[5, 0.6], [5, 0.8]]);
    for (const w of written) {
      const agg = JSON.parse(readFileSync(join(out, w.aggregate), 'utf8'));
      validate(validAggregate, agg, 'aggregate');
      expect(agg.model_info.id).toBe(w.model);
      const lines = readFileSync(join(out, w.samples), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.evaluation.is_correct)).toEqual(OUTCOMES[w.model!]);
      expect(lines.every((l) => l.model_id === w.model)).toBe(true);
    }
    expect(written[0].aggregate.startsWith('data/TDS Virtual TA/unknown/tds-project-1-ruby-one.vercel.app_query/')).toBe(true);
    expect(written[1].aggregate.startsWith('data/TDS Virtual TA/unknown/openai_chat_gpt-4o-mini/')).toBe(true);
  });

  it('a table of two models\' columns (Prob_LogReg, Prob_SVM): one evaluation each, the model named by its columns', async () => {
    const csv = join(__dirname, '..', 'fixtures', 'generic-field', 'models.csv');
    const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-models-'));
    const r = await runCli(['convert', csv, '--to', 'eee', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const written: { model?: string; aggregate: string; n: number; accuracy: number }[] = JSON.parse(r.stdout).written;
    expect(written.map((w) => w.model)).toEqual(['LogReg', 'SVM']);
    // Python on the CSV: mean((Prob_M >= 0.5) == Actual) over the 30 rows: 11/30 and 14/30.
    const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(30);
    expect(written[0].accuracy).toBeCloseTo(11 / 30, 12);
    expect(written[1].accuracy).toBeCloseTo(14 / 30, 12);
    for (const w of written) {
      const agg = JSON.parse(readFileSync(join(out, w.aggregate), 'utf8'));
      expect(agg.model_info.id).toBe(w.model);
      expect(w.aggregate.startsWith(`data/unknown/unknown/${w.model}/`)).toBe(true);
    }
  });

  it('--model NAME writes that model only', async () => {
    const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-models-'));
    const r = await runCli(['convert', promptfooFile(), '--model', MINI, '--to', 'eee', out, '--json']);
    const written = JSON.parse(r.stdout).written;
    expect(written).toHaveLength(1);
    expect([written[0].n, written[0].accuracy]).toEqual([5, 0.8]);
    expect(written[0].model).toBeUndefined();
  });
});
