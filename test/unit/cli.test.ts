// The command line end to end: examples made by the project, exit codes, the --json document, and
// the built binary itself.
import { describe, expect, it, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { runCli } from '../../src/cli/main';

const root = join(__dirname, '..', '..');
const examples = join(root, 'examples');
const raftData = join(examples, 'raft', 'data');

type Json = {
  version: number;
  results: {
    path: string; format: string; kind: string | null; notScored?: boolean; fatal?: string; task?: string; n: number; skipped: number; unlabeled: number;
    metrics: Record<string, number | null>; intervals: Record<string, [number, number]>; reported: Record<string, number | null>;
    problems: { line: number; column?: number; severity: string; code: string; message: string }[];
  }[];
  summary: { raft_score?: number };
};

async function scoreJson(...args: string[]): Promise<{ code: number; json: Json; stderr: string }> {
  const out = (await runCli(['score', '--json', ...args]));
  return { code: out.code, json: JSON.parse(out.stdout), stderr: out.stderr };
}

describe('eval-lens score on the examples', () => {
  let result: Awaited<ReturnType<typeof scoreJson>>;
  beforeAll(async () => {
    result = await scoreJson(examples, '--raft-data', raftData);
  });

  it('scores every format in the examples folder and exits 0', async () => {
    expect(result.code).toBe(0);
    expect(result.json.version).toBe(1);
    const formats = new Set(result.json.results.map((r) => r.format));
    expect([...formats].sort()).toEqual(['almanacs', 'folktexts', 'generic', 'lm-eval', 'raft', 'summary']);
    // Companion files (train.csv, task.json) are not mistaken for predictions: they are listed as
    // not scored, with the reason, never dropped silently.
    const companions = result.json.results.filter((r) => /train\.csv|task\.json/.test(relative(examples, r.path)));
    expect(companions.length).toBeGreaterThan(0);
    for (const c of companions) {
      expect(c).toMatchObject({ notScored: true, kind: null, n: 0, metrics: {} });
      expect(c.fatal).toMatch(/task data/);
    }
    // Results summaries (results.bench-*.json) are summaries: their figures, no fatal (issue 26.1).
    const summaries = result.json.results.filter((r) => /results\.bench/.test(relative(examples, r.path)));
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) expect(s).toMatchObject({ format: 'summary', kind: null, n: 0, metrics: {}, reported: { accuracy: expect.any(Number) } });
    for (const s of summaries) expect(s.fatal).toBeUndefined();
  });

  it('agrees with the figures the folktexts results file reports (computed independently by the generator)', async () => {
    const r = result.json.results.find((x) => x.format === 'folktexts' && !x.path.includes('broken'))!;
    expect(r.n).toBe(2000);
    expect(r.kind).toBe('binary');
    for (const name of ['accuracy', 'brier', 'ece', 'log_loss', 'auc']) {
      expect(r.reported[name], name).toBeTypeOf('number');
      expect(r.metrics[name]!, name).toBeCloseTo(r.reported[name]!, 5);
    }
    // The bare NaN in the results file is read as "not reported", not as a disagreement.
    expect(r.reported.ece_quantile).toBeNull();
    expect(r.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
  });

  it('reports raft_score as the mean of per-task macro_f1, and counts test-split IDs as unlabeled', async () => {
    // Two runs (run-1, run-2) of the same three tasks.
    const raft = result.json.results.filter((r) => r.format === 'raft');
    expect(raft).toHaveLength(6);
    expect([...new Set(raft.map((r) => r.task))].sort()).toEqual(['bank_intents', 'paper_safety_relevance', 'support_tweets']);
    for (const r of raft) {
      expect(r.n).toBe(50);
      expect(r.unlabeled).toBe(5);
    }
    const mean = raft.reduce((s, r) => s + (r.metrics.macro_f1 as number), 0) / raft.length;
    expect(result.json.summary.raft_score).toBeCloseTo(mean, 12);
  });

  it('points at every bad row of the broken file with its line and code, and scores the rest', async () => {
    const r = result.json.results.find((x) => x.path.includes('broken'))!;
    const byLine = Object.fromEntries(r.problems.map((p) => [p.line, p.code]));
    expect(byLine).toMatchObject({
      4: 'percent-probability', // 73%
      5: 'not-a-number', // abc
      6: 'out-of-range', // 1.7
      7: 'bad-label', // label 2
      8: 'not-finite', // NaN
      9: 'column-count', // a row with two fields
      11: 'duplicate-id', // index 8 again
    });
    // Rows 2, 3, 10, 12 are clean; the duplicate (line 11) is a warning, its row still scored.
    expect(r.n + r.skipped).toBe(11);
    expect(r.skipped).toBe(6);
  });
});

describe('eval-lens exit status and usage', () => {
  it('exits 1 on a usage error, naming the problem', async () => {
    expect((await runCli(['score'])).code).toBe(1);
    expect((await runCli(['frobnicate'])).code).toBe(1);
    const bad = (await runCli(['score', examples, '--bins', 'ten']));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--bins');
    expect((await runCli(['score', examples, '--no-such-option'])).code).toBe(1);
    expect((await runCli(['score', examples, '--format', 'excel'])).code).toBe(1);
  });

  it('exits 2 when nothing could be scored, saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-cli-'));
    const empty = join(dir, 'empty.test_predictions.csv');
    writeFileSync(empty, '');
    const out = await scoreJson(empty);
    expect(out.code).toBe(2);
    expect(out.json.results[0].problems[0].code).toBe('empty-file');
    expect((await runCli(['score', join(dir, 'missing.csv')])).code).toBe(2);
  });

  it('prints a readable table without --json', async () => {
    const out = (await runCli(['score', join(examples, 'generic')]));
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/hmr\s+0\.\d{4}/);
    expect(out.stdout).toMatch(/ece\s+0\.\d{4}/);
  });

  it('gives the same bootstrap intervals for the same seed, around the point estimate', async () => {
    const file = join(examples, 'generic', 'qa_confidence.csv');
    const a = (await scoreJson(file, '--bootstrap', '200', '--seed', '7')).json.results[0];
    const b = (await scoreJson(file, '--bootstrap', '200', '--seed', '7')).json.results[0];
    const c = (await scoreJson(file, '--bootstrap', '200', '--seed', '8')).json.results[0];
    expect(a.intervals).toEqual(b.intervals);
    expect(a.intervals).not.toEqual(c.intervals);
    const [lo, hi] = a.intervals.accuracy;
    expect(lo).toBeLessThanOrEqual(a.metrics.accuracy!);
    expect(hi).toBeGreaterThanOrEqual(a.metrics.accuracy!);
    expect(hi - lo).toBeGreaterThan(0.01);
  });

  it('honours --format and --bins', async () => {
    const file = join(examples, 'generic', 'qa_confidence.csv');
    const five = (await scoreJson(file, '--bins', '5')).json.results[0] as unknown as { bins: { equalWidth: unknown[] } };
    expect(five.bins.equalWidth).toHaveLength(5);
    const folk = (await scoreJson(join(examples, 'folktexts'), '--format', 'folktexts')).json.results;
    expect(folk.filter((r) => !r.notScored).every((r) => r.format === 'folktexts')).toBe(true);
    expect(folk.filter((r) => r.notScored).every((r) => /scores folktexts files only|not predictions|results summary/.test(r.fatal ?? ''))).toBe(true);
  });
});

describe('the built eval-lens binary', () => {
  it('runs as a program and keeps the exit status contract', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'eval-lens-bin-')), 'cli.js');
    // @napi-rs/canvas (plot) is a native module: external, as in scripts/build.mjs.
    await build({ entryPoints: [join(root, 'src/cli/bin.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'silent', external: ['@napi-rs/canvas'] });
    const json = execFileSync('node', [out, 'score', '--json', join(examples, 'almanacs')], { encoding: 'utf8' });
    const doc = JSON.parse(json) as Json;
    expect(doc.results[0].format).toBe('almanacs');
    expect(doc.results[0].kind).toBe('probability');
    expect(Object.keys(doc.results[0].metrics).sort()).toEqual(['kl', 'mse', 'spearman', 'tvd']);
    expect(spawnSync('node', [out, 'score'], { encoding: 'utf8' }).status).toBe(1);
  });
});

describe('examples/', () => {
  it('is exactly what the generator writes (regenerated into a temp folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-examples-'));
    execFileSync('node', [join(root, 'scripts/make-examples.mjs'), dir]);
    const files = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)).map((f) => join(n, f)) : [n]));
    expect(files(dir).sort()).toEqual(files(examples).sort());
    for (const f of files(dir)) expect(readFileSync(join(dir, f), 'utf8'), f).toBe(readFileSync(join(examples, f), 'utf8'));
  });
});

describe('eval-lens score --help', () => {
  it('lists every format --format accepts', async () => {
    const help = (await runCli(['score', '--help'])).stdout;
    const line = help.split('\n').find((l) => l.trimStart().startsWith('--format'))!;
    for (const name of ['folktexts', 'raft', 'almanacs', 'lm-eval', 'inspect', 'generic']) expect(line).toMatch(new RegExp(`\\b${name}\\b`));
    // Each listed name is accepted.
    const file = join(examples, 'generic', 'qa_confidence.csv');
    expect((await runCli(['score', '--format', 'inspect', file])).stderr).not.toMatch(/unknown format|--format must/i);
  });
});
