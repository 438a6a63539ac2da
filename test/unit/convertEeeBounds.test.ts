// `convert --to eee` never writes a result the 0.3.0 schema or EEE's gate rejects (sweep 12, defect 2):
//  - a metric whose mean is not a finite number (lm-eval's polymer_tg_prediction: an MAE where some
//    per-sample errors are `inf`) has no result: said on stderr and in source_metadata, and when it is
//    the only metric, nothing is written (before: "score": null, which the schema rejects);
//  - lower_is_better follows lm-eval's own higher_is_better for the task (before: false for mae when
//    the headline fell back to the first task metric);
//  - a figure outside the bounds its result claims (an "accuracy" of 2 from a 0-10 suspicion scorer)
//    is not written as that metric (before: score 2 with min_score 0, max_score 1);
//  - Inspect's accuracy over C/P/I grades is defined as the mean of those values, each sample's score
//    its own value (before: "the share of is_correct", with P samples scored 0).
// The fixture is a real lm-eval run (test/fixtures/real/lm-eval/polymer-tg-gpt-4o-mini: 4 of its 24
// samples, docs 0, 1, 2, 8). Expected means by hand: docs 1 and 8 log mae 259.6069226 and 238.413054.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { buildReport, resolveOptions } from '../../src/core/report';
import { writeEvaluation } from '../../src/core/eee/write';
import type { MulticlassSet, ParseResult } from '../../src/core/types';
import { validAggregate, validInstance, validate } from './eeeSchemas';
import { REAL } from './realData';

const RUN = join(REAL, 'lm-eval', 'polymer-tg-gpt-4o-mini');
const TS = '2025-06-30T19-40-09.461247';
const SAMPLES = `samples_polymer_tg_prediction_${TS}.jsonl`;
const RESULTS = `results_${TS}.json`;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

/** The run's two files in a fresh folder, the samples' lines changed by `edit` (Python's `inf` kept as written). */
function runCopy(edit: (lines: string[]) => string[] = (l) => l): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-polymer-'));
  copyFileSync(join(RUN, RESULTS), join(dir, RESULTS));
  const lines = readFileSync(join(RUN, SAMPLES), 'utf8').trim().split('\n');
  writeFileSync(join(dir, SAMPLES), edit(lines).join('\n') + '\n');
  return join(dir, SAMPLES);
}

async function convert(path: string) {
  const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-bounds-'));
  const r = await runCli(['convert', path, '--to', 'eee', out]);
  const files = filesUnder(out);
  const aggPath = files.find((f) => f.endsWith('.json'));
  const agg: any = aggPath ? JSON.parse(readFileSync(aggPath, 'utf8')) : undefined;
  const lines: any[] = aggPath ? readFileSync(files.find((f) => f.endsWith('.jsonl'))!, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  if (agg) validate(validAggregate, agg, 'aggregate');
  for (const l of lines) validate(validInstance, l, 'instance');
  return { ...r, files, agg, lines };
}

describe('convert --to eee: a metric with no finite mean', () => {
  it('writes nothing when the only metric\'s mean is Infinity, and says why on stderr', async () => {
    const { code, files, stderr } = await convert(runCopy());
    expect(files).toEqual([]);
    expect(code).toBe(2);
    // Docs 0 and 2 log mae inf.
    expect(stderr).toContain('mae\'s mean is Infinity (2 of 4 samples\' mae are infinite), and the schema\'s score must be a finite number');
  });

  it('follows the results file\'s higher_is_better: mae is lower-is-better, as the task declares', async () => {
    // Only the two samples with a finite error (docs 1 and 8).
    const { code, agg, lines } = await convert(runCopy((l) => l.filter((x) => !/"mae": Infinity/.test(x))));
    expect(code).toBe(0);
    const [res] = agg.evaluation_results;
    expect(res.metric_config.metric_id).toBe('mae');
    expect(res.metric_config.lower_is_better).toBe(true);
    expect(res.metric_config.additional_details['eval_lens.direction']).toBe(`lower is better: declared by the source (${RESULTS}: higher_is_better)`);
    expect(res.score_details.score).toBeCloseTo((259.6069226 + 238.413054) / 2, 9);
    expect(lines.map((l) => l.evaluation.score)).toEqual([259.6069226, 238.413054]);
  });

  it('leaves out the infinite metric beside a finite one, in the file and on stderr', async () => {
    // A second per-sample metric (made up here: 1 where the response is a bare number) beside mae.
    const path = runCopy((l) => l.map((x) => {
      const bare = /"filtered_resps": \["\d+"\]/.test(x) ? 1 : 0;
      return x.replace(/"metrics": \["mae"\]/, '"metrics": ["mae", "bare_number"]').replace(/\}$/, `, "bare_number": ${bare}}`);
    }));
    const { code, agg, lines, stderr } = await convert(path);
    expect(code).toBe(0);
    expect(agg.evaluation_results.map((r: any) => r.metric_config.metric_id)).toEqual(['bare_number']);
    // Docs 1 and 8 answered a bare number: 2 of 4.
    expect(agg.evaluation_results[0].score_details.score).toBe(0.5);
    expect(agg.source_metadata.additional_details['eval_lens.left_out.mae']).toBe('mae\'s mean is Infinity (2 of 4 samples\' mae are infinite), and the schema\'s score must be a finite number');
    expect(stderr).toMatch(/: mae left out: mae's mean is Infinity \(2 of 4 samples' mae are infinite\)/);
    // Each record carries its own result's metric, not the left-out one.
    expect(lines.every((l) => Object.keys(l.metadata).filter((k) => k.startsWith('eval_lens.metric.')).join() === 'eval_lens.metric.bare_number')).toBe(true);
  });
});

/** An Inspect-like parse: one scorer's values per sample (graded as Inspect's value_to_float reads C/P/I). */
function inspectLike(values: number[]): ParseResult {
  const n = values.length;
  const set: MulticlassSet = {
    kind: 'multiclass', n, lines: Uint32Array.from(values, (_, i) => i + 1), ids: values.map((_, i) => `s${i + 1}`),
    classes: ['target', '(no answer)'], classesKnown: false,
    gold: new Int32Array(n), pred: Int32Array.from(values, (v) => (v === 1 ? 0 : 1)),
  };
  const mean = values.reduce((s, v) => s + v, 0) / n;
  return { format: 'inspect', task: 'toy', set, problems: [], skipped: 0, unlabeled: 0, reported: {}, metrics: { accuracy: mean }, metricValues: { accuracy: Float64Array.from(values) } };
}

function write(parsed: ParseResult) {
  const report = buildReport('toy.eval', parsed, resolveOptions({ instances: true, bootstrap: 0 }));
  return writeEvaluation(report, parsed, { uuid: '00000000-0000-4000-8000-000000000000', retrieved: 1, generator: 'test' });
}

describe('convert --to eee: a figure and its bounds', () => {
  it('refuses an accuracy outside [0, 1] rather than claim it lies in them', () => {
    // A suspicion scorer's values (2, 4, -1): their mean 5/3 is no share of samples.
    expect(() => write(inspectLike([2, 4, -1]))).toThrow(/accuracy 1\.6+7 lies outside \[0, 1\]/);
  });

  it('defines a graded accuracy as the mean of the values, each sample\'s score its own value', () => {
    const e = write(inspectLike([1, 0.5, 0, 1]));
    validate(validAggregate, e.aggregate, 'aggregate');
    const res = (e.aggregate.evaluation_results as any[])[0];
    expect(res.score_details.score).toBe(0.625);
    expect(res.metric_config.additional_details['eval_lens.definition']).toMatch(/^the mean over the samples of the scorer's per-sample value \(Inspect's value_to_float: C = 1, P = 0\.5, I = 0\)/);
    const records = e.samples.trim().split('\n').map((l) => JSON.parse(l));
    for (const r of records) validate(validInstance, r, 'instance');
    expect(records.map((r) => r.evaluation.score)).toEqual([1, 0.5, 0, 1]);
    expect(records.map((r) => r.evaluation.is_correct)).toEqual([true, false, false, true]);
  });

  it('keeps the share-of-is_correct definition for right-or-wrong values', () => {
    const e = write(inspectLike([1, 0, 1, 1]));
    const res = (e.aggregate.evaluation_results as any[])[0];
    expect(res.score_details.score).toBe(0.75);
    expect(res.metric_config.min_score).toBe(0);
    expect(res.metric_config.max_score).toBe(1);
    expect(res.metric_config.additional_details['eval_lens.definition']).toMatch(/^the share of samples whose evaluation\.is_correct is true/);
  });
});
