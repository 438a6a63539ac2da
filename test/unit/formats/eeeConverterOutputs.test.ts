// Every Eval Ever 0.3.0 files written by Every Eval Ever's own lm_eval converter (evaleval/every_eval_ever
// @ 9bce4136, `python -m every_eval_ever.converters.lm_eval --include_samples`) from the real lm-eval
// run in test/fixtures/real/lm-eval/Qwen__Qwen3-8B: one aggregate result per lm-eval metric, each
// named only by metric_config.evaluation_description ("acc", "exact_match", "micro_f1").
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';

const DIR = join(resolve(__dirname, '..', '..', '..'), 'test', 'fixtures', 'real', 'eee', 'lm-eval-converter');
const GROUP = join(DIR, '073e6c74-51b8-4300-bef5-1d08aec5aef3.json');
const INTENTION = join(DIR, '430420ec-7858-42da-9514-2137a5ca822d.json');
const SAMPLES = join(DIR, '430420ec-7858-42da-9514-2137a5ca822d_samples.jsonl');

/** The aggregate's figures as the file writes them: evaluation_description -> score. */
function figures(path: string): [string, number][] {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  return doc.evaluation_results.map((r: { metric_config: { evaluation_description: string }; score_details: { score: number } }) => [r.metric_config.evaluation_description, r.score_details.score]);
}

describe("Every Eval Ever's lm_eval converter output (0.3.0)", () => {
  it('an aggregate alone: one figure per metric, each named by it (before: all four were "score", and three were lost)', () => {
    expect(detectFormat(GROUP, readFileSync(GROUP, 'utf8'))).toBe('eee');
    const r = scoreFile(GROUP);
    expect(r.fatal).toBeUndefined();
    const want = figures(GROUP);
    expect(want.map(([m]) => m)).toEqual(['acc', 'micro_f1', 'macro_f1', 'exact_match']);
    const name = (m: string) => `negotiationtom/${m === 'acc' ? 'accuracy' : m}`;
    expect(Object.keys(r.reported).sort()).toEqual(want.map(([m]) => name(m)).sort());
    for (const [m, v] of want) expect(r.reported[name(m)]).toBe(v);
  });

  it('an instance file: accuracy the share of is_correct over distinct samples, every metric of its result reported by name (before: micro_f1 reported as "score")', () => {
    const rows = readFileSync(SAMPLES, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const bySample = new Map(rows.map((x) => [x.sample_id, x.evaluation.is_correct as boolean]));
    const r = scoreFile(SAMPLES);
    expect(r.format).toBe('eee');
    expect(r.n).toBe(bySample.size);
    expect(r.metrics.accuracy).toBeCloseTo([...bySample.values()].filter(Boolean).length / bySample.size, 12);
    const want = Object.fromEntries(figures(INTENTION));
    expect(r.reported).toEqual({ micro_f1: want.micro_f1, macro_f1: want.macro_f1, exact_match: want.exact_match });
    // is_correct is exact_match == 1 (the converter's first numeric metric): the two agree here.
    expect(r.metrics.accuracy).toBeCloseTo(want.exact_match, 12);
  });
});
