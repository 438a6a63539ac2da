// `convert --to eee` on lighteval details whose task logs several per-sample metrics (an "I don't
// know" task: trad_score, idk_score, idk_freq, extract_fail) and no verdict: each metric is its own
// EEE result, the headline first, each with its direction and its own samples. Before, one result
// was written, extract_fail (the first name alphabetically), as higher-is-better, and the others
// survived only as strings in score_details.details. Expected figures are by hand (the fixture's
// comment) and Python's statistics module: mean, and stdev (ddof 1) / sqrt(n) as lighteval's stderr.
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { taskMetricDirection } from '../../src/core/eee/taskMetrics';
import { validAggregate, validInstance, validate } from './eeeSchemas';
import { SIX, writeIdkDetails, writeIdkResults } from './convertLightevalFixture';


const TASK = 'community|toy-idk|0';
const TS = '2025-09-26T18-27-03.114623';
const MODEL = 'openrouter/acme/model-x';
// By hand from SIX: 3/6 right, (1-1+0+1+0+1)/6, 1/6 "I don't know", 1/6 not extracted.
const MEANS = { trad_score: 0.5, idk_score: 1 / 3, idk_freq: 1 / 6, extract_fail: 1 / 6 };
// python3: statistics.stdev(values) / math.sqrt(6)
const SE = { trad_score: 0.22360679774997896, idk_score: 0.33333333333333337, idk_freq: 0.16666666666666669, extract_fail: 0.16666666666666669 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

async function convert(path: string): Promise<{ agg: any; lines: any[]; stdout: string }> {
  const out = mkdtempSync(join(tmpdir(), 'eval-lens-lighteval-eee-'));
  const r = await runCli(['convert', path, '--to', 'eee', out]);
  expect(r.code, r.stderr).toBe(0);
  const files = filesUnder(out);
  expect(files).toHaveLength(2);
  const raw: unknown = JSON.parse(readFileSync(files.find((f) => f.endsWith('.json'))!, 'utf8'));
  const agg: any = raw;
  const lines = readFileSync(files.find((f) => f.endsWith('.jsonl'))!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  validate(validAggregate, raw, 'aggregate');
  for (const l of lines) validate(validInstance, l, 'instance');
  expect(agg.detailed_evaluation_results.total_rows).toBe(lines.length);
  return { agg, lines, stdout: r.stdout };
}

describe('convert --to eee: lighteval details with several per-sample metrics', () => {
  it('writes one result per metric, in the task\'s own order, with the direction its results file declares', async () => {
    const root = mkdtempSync(join(tmpdir(), 'eval-lens-idk-'));
    const details = writeIdkDetails(root, MODEL, TS, TASK, SIX);
    writeIdkResults(root, MODEL, TS, TASK, { ...MEANS, trad_score_stderr: SE.trad_score });
    const { agg, lines, stdout } = await convert(details);
    const results = agg.evaluation_results;
    expect(results.map((r: any) => r.metric_config.metric_id)).toEqual(['trad_score', 'idk_score', 'idk_freq', 'extract_fail']);
    expect(results.map((r: any) => r.metric_config.lower_is_better)).toEqual([false, false, true, true]);
    for (const r of results) {
      const m = r.metric_config.metric_id as keyof typeof MEANS;
      expect(r.evaluation_result_id).toBe(`${TASK}/${m}`);
      expect(r.score_details.score).toBeCloseTo(MEANS[m], 12);
      expect(r.score_details.uncertainty.num_samples).toBe(6);
      expect(r.score_details.uncertainty.standard_error.value).toBeCloseTo(SE[m], 12);
      expect(r.metric_config.additional_details['eval_lens.direction']).toMatch(/declared by the source \(results_.*config_tasks higher_is_better\)/);
    }
    // Each sample once under each result, its score the metric's own value for that sample.
    expect(lines).toHaveLength(24);
    for (const [k, m] of (['trad_score', 'idk_score', 'idk_freq', 'extract_fail'] as const).entries()) {
      const mine = lines.filter((l) => l.evaluation_result_id === `${TASK}/${m}`);
      expect(mine.map((l) => l.sample_id)).toEqual(SIX.map((_, i) => String(100 + i)));
      expect(mine.map((l) => l.evaluation.score)).toEqual(SIX.map((r) => r[m]));
      // Grouped by result, the headline's samples first.
      expect(lines.slice(6 * k, 6 * k + 6)).toEqual(mine);
    }
    expect(agg.model_info.id).toBe(MODEL);
    expect(stdout).toContain('6 samples × 4 results (trad_score, idk_score, idk_freq, extract_fail)');
  });

  it('without a results file, decides the direction from the name and says when it cannot', async () => {
    const root = mkdtempSync(join(tmpdir(), 'eval-lens-idk-'));
    // The metric struct in alphabetical order, as the real files have it: extract_fail first.
    const { agg, lines } = await convert(writeIdkDetails(root, MODEL, TS, TASK, SIX, ['extract_fail', 'idk_freq', 'idk_score', 'trad_score']));
    const results = agg.evaluation_results;
    // Scores first (in the file's order, the first the headline), unknown next, failure rates last.
    expect(results.map((r: any) => r.metric_config.metric_id)).toEqual(['idk_score', 'trad_score', 'idk_freq', 'extract_fail']);
    const direction = Object.fromEntries(results.map((r: any) => [r.metric_config.metric_id, [r.metric_config.lower_is_better, r.metric_config.additional_details['eval_lens.direction']]]));
    expect(direction.extract_fail[0]).toBe(true);
    expect(direction.extract_fail[1]).toMatch(/^lower is better: the metric's name/);
    expect(direction.trad_score[0]).toBe(false);
    expect(direction.trad_score[1]).toMatch(/^higher is better: the metric's name/);
    // idk_freq: neither a score nor a failure by its name; the schema's boolean is marked a placeholder.
    expect(direction.idk_freq[1]).toMatch(/^unknown: .*placeholder/);
    expect(lines).toHaveLength(24);
  });

  it('taskMetricDirection: source, our table, then the words of the name', () => {
    expect(taskMetricDirection('perplexity').better).toBe('lower');
    expect(taskMetricDirection('word_perplexity').better).toBe('lower');
    expect(taskMetricDirection('eval_loss').better).toBe('lower');
    expect(taskMetricDirection('extractFail').better).toBe('lower');
    expect(taskMetricDirection('exact_match').better).toBe('higher');
    expect(taskMetricDirection('rougeL').better).toBe('higher');
    expect(taskMetricDirection('error_score').better).toBeUndefined();
    expect(taskMetricDirection('idk_freq').better).toBeUndefined();
    expect(taskMetricDirection('idk_freq', { order: [], higherIsBetter: { idk_freq: false }, from: 'r.json' }).better).toBe('lower');
  });
});
