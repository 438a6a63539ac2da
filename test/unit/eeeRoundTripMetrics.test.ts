// An EEE round trip of a file with one result per metric (sweep 12, defect 11): HELM Safety's
// per_instance_stats.json converts to three results (<task>/<metric>); scoring the samples file back,
// each result's task metrics are its own metric, under its own name, with the aggregate's figure
// beside it. Before: every result listed all three metrics plus a `score` copy of its own, and the
// aggregate's `eval_lens.reported` (the source's own figure) came back as a metric named "reported".
// Expected means by Python over the fixture's per_instance_stats.json (mean of stats[].mean per name):
// harm_bench_score 0.75, harm_bench_gpt_score 0.7, harm_bench_claude_score 0.8 (10 instances).
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { scorePathAsync } from '../../src/core/scoreAsync';
import { REAL } from './realData';

const SAFETY = join(REAL, 'helm', 'helm-safety-v4');
const HARM = { harm_bench_score: 0.75, harm_bench_gpt_score: 0.7, harm_bench_claude_score: 0.8 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

async function convertedSamples(source: string): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-roundtrip-'));
  const r = await runCli(['convert', source, '--to', 'eee', out]);
  expect(r.code, r.stderr).toBe(0);
  return filesUnder(out).find((f) => f.endsWith('_samples.jsonl'))!;
}

async function readBack(samples: string, task: string) {
  const [r] = (await scorePathAsync(samples, { task })).reports;
  return { task: r.task, metrics: (r.taskMetrics ?? []).map((t) => [t.name, t.mean, t.reported]), reported: r.reported };
}

describe('EEE round trip: one result per metric', () => {
  it('gives each result its own metric back, with the aggregate\'s figure beside it', async () => {
    const samples = await convertedSamples(join(SAFETY, 'harm_bench-model=meta_llama-3-8b-chat', 'per_instance_stats.json'));
    for (const [m, mean] of Object.entries(HARM)) {
      const back = await readBack(samples, `harm_bench/${m}`);
      expect(back.task).toBe(`harm_bench/${m}`);
      expect(back.metrics).toHaveLength(1);
      expect(back.metrics[0][0]).toBe(m);
      expect(back.metrics[0][1]).toBeCloseTo(mean, 12);
      expect(back.metrics[0][2]).toBeCloseTo(mean, 12);
      expect(Object.keys(back.reported)).toEqual([m]);
    }
  });

  it('does not read the source\'s own figure (eval_lens.reported) as a metric named "reported"', async () => {
    // xstest's stats.json reports xst_score over its 100 instances, written as eval_lens.reported.
    const samples = await convertedSamples(join(SAFETY, 'xstest-model=openai_gpt-4o-2024-05-13', 'per_instance_stats.json'));
    const agg = JSON.parse(readFileSync(samples.replace(/_samples\.jsonl$/, '.json'), 'utf8'));
    expect(agg.evaluation_results[0].score_details.details['eval_lens.reported']).toBeDefined();
    const back = await readBack(samples, 'xstest/xst_score');
    expect(Object.keys(back.reported)).toEqual(['xst_score']);
    expect(back.metrics.map((t) => t[0])).toEqual(['xst_score']);
  });

  it('reads a file written before the fix (every metric on every record) the same way', async () => {
    const samples = await convertedSamples(join(SAFETY, 'harm_bench-model=meta_llama-3-8b-chat', 'per_instance_stats.json'));
    const lines = readFileSync(samples, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // As the old writer did: each record carries all three of its sample's metrics.
    const bySample = new Map<string, Record<string, string>>();
    for (const l of lines) for (const [k, v] of Object.entries(l.metadata as Record<string, string>)) if (k.startsWith('eval_lens.metric.')) bySample.set(l.sample_id, { ...bySample.get(l.sample_id), [k]: v });
    for (const l of lines) Object.assign(l.metadata, bySample.get(l.sample_id));
    expect(Object.keys(lines[0].metadata).filter((k) => k.startsWith('eval_lens.metric.'))).toHaveLength(3);
    writeFileSync(samples, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const back = await readBack(samples, 'harm_bench/harm_bench_gpt_score');
    expect(back.metrics.map((t) => t[0])).toEqual(['harm_bench_gpt_score']);
    expect(back.metrics[0][1]).toBeCloseTo(0.7, 12);
  });
});
