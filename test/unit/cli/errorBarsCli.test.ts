// Error bars (issue 18) through the command line: --interval and --cluster on score, compare and
// board, the JSON names, the text / Markdown / CSV documents, and the gates on intervals
// (--fail-on "accuracy.lower<0.8", compare --fail-on-regression M --margin δ). The figures are the
// ones test/reference/error_bars_reference.py computes independently (numpy / scipy) on the files
// made for it (test/fixtures/error-bars/).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import expected from '../../reference/error_bars_expected.json';
import { runCli } from '../../../src/cli/main';
import { parseCsv as parseCsvTable } from '../../../src/core/formats/csv';

/** Header first, then each record's fields. */
function parseCsv(text: string): { rows: string[][] } {
  const t = parseCsvTable(text);
  return { rows: [t.header, ...t.records.map((r) => r.fields)] };
}

const FIX = 'test/fixtures/error-bars/';
const PASSAGES = FIX + 'passages.csv';
const CANDIDATE = FIX + 'passages-candidate.csv';
const ATTEMPTS = FIX + 'attempts.csv';
const BOARD = ['alpha', 'beta', 'gamma', 'delta'].map((r) => `${FIX}board/${r}.csv`);
const TOL = 1e-9;

function near(actual: unknown, want: number, what: string): void {
  expect(actual, what).toBeTypeOf('number');
  expect(Math.abs((actual as number) - want), `${what}: ${actual} vs ${want}`).toBeLessThanOrEqual(TOL * Math.max(1, Math.abs(want)));
}

async function cli(...args: string[]) {
  return runCli(args);
}

async function json(...args: string[]) {
  const out = await cli(...args, '--json');
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

describe('score --interval, --cluster: the JSON', () => {
  it('--interval t --cluster passage: standard_errors, interval_method, clusters and the clustered t intervals', async () => {
    const want = expected.passages;
    const r = (await json('score', '--interval', 't', '--cluster', 'passage', PASSAGES)).results[0];
    for (const [m, v] of Object.entries(want.standard_errors)) near(r.standard_errors[m], v, `SE ${m}`);
    expect(r.interval_method).toBe('t');
    expect(r.rough_intervals).toBeUndefined();
    expect(r.clusters.column).toBe('passage');
    expect(r.clusters.count).toBe(want.clusters);
    for (const [m, v] of Object.entries(want.clustered)) near(r.clusters.standard_errors[m], v, `clustered SE ${m}`);
    for (const [m, v] of Object.entries(want.design_effect)) near(r.clusters.design_effect[m], v, `design effect ${m}`);
    for (const [m, [lo, hi]] of Object.entries(want.t_clustered)) {
      near(r.intervals[m][0], lo, `${m} lower`);
      near(r.intervals[m][1], hi, `${m} upper`);
    }
  });

  it('--interval t without clusters, and --interval wilson, fill intervals without --bootstrap', async () => {
    const want = expected.passages;
    const t = (await json('score', '--interval', 't', PASSAGES)).results[0];
    expect(t.clusters).toBeUndefined();
    for (const [m, [lo, hi]] of Object.entries(want.t)) {
      near(t.intervals[m][0], lo, `t ${m} lower`);
      near(t.intervals[m][1], hi, `t ${m} upper`);
    }
    const w = (await json('score', '--interval', 'wilson', PASSAGES)).results[0];
    expect(w.interval_method).toBe('wilson');
    near(w.intervals.accuracy[0], want.wilson_accuracy[0], 'wilson lower');
    near(w.intervals.accuracy[1], want.wilson_accuracy[1], 'wilson upper');
  });

  it('--cluster COL --data FILE clusters by a column of a data file joined on ID, as --group-by takes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-cluster-'));
    const rows = parseCsv(readFileSync(PASSAGES, 'utf8')).rows;
    const data = join(dir, 'questions.csv');
    writeFileSync(data, ['qid,story', ...rows.slice(1).map((r) => `${r[0]},${r[1]}`)].join('\n') + '\n');
    const r = (await json('score', '--interval', 't', '--cluster', 'story', '--data', data, '--join-key', 'qid', PASSAGES)).results[0];
    expect(r.clusters.column).toBe('story');
    expect(r.clusters.count).toBe(expected.passages.clusters);
    for (const [m, v] of Object.entries(expected.passages.clustered)) near(r.clusters.standard_errors[m], v, `clustered SE ${m}`);
  });

  it('repeats: pass@k, pass^k, variances and flaky items, clustered by item, rough below 30 items', async () => {
    const want = expected.attempts;
    const r = (await json('score', '--interval', 't', ATTEMPTS)).results[0];
    expect(r.repeats.items).toBe(want.repeats.items);
    expect(r.repeats.attempts).toEqual(want.repeats.attempts);
    expect(r.repeats.flaky_items).toBe(want.repeats.flaky_items);
    for (const [k, v] of Object.entries(want.repeats.pass_at_k)) near(r.repeats.pass_at_k[k], v, `pass@${k}`);
    for (const [k, v] of Object.entries(want.repeats.pass_hat_k)) near(r.repeats.pass_hat_k[k], v, `pass^${k}`);
    near(r.repeats.within_item_variance, want.repeats.within_item_variance, 'within');
    near(r.repeats.between_item_variance, want.repeats.between_item_variance, 'between');
    expect(r.clusters.column).toBe('id');
    expect(r.rough_intervals).toBe(true);
    expect(r.repeatRows).toBeUndefined(); // per-row: not in --json
  });

  it('usage errors: an unknown interval method, an empty --cluster', async () => {
    const bad = await cli('score', '--interval', 'normal', PASSAGES);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--interval must be one of bootstrap, t, wilson, got 'normal'");
    expect((await cli('score', '--cluster', ' ', PASSAGES)).code).toBe(1);
    const missing = await cli('score', '--cluster', 'story', PASSAGES);
    expect(missing.stderr + missing.stdout).toContain('to cluster by');
  });
});

describe('score documents: text, Markdown and CSV', () => {
  it('text: SE beside each mean metric, the clusters\' design effects, the interval method', async () => {
    const out = await cli('score', '--interval', 't', '--cluster', 'passage', PASSAGES);
    expect(out.stdout).toMatch(/accuracy +0\.6520 +\[0\.5677, 0\.7363\] +SE 0\.0317, clustered 0\.0417/);
    expect(out.stdout).toContain('intervals: t: mean ± t·SE, 39 df, clustered by passage (40 clusters)');
    expect(out.stdout).toMatch(/accuracy +1\.73 +SE ×1\.32 \(0\.0317 → 0\.0417\); 227 rows are worth about 131 independent ones/);
  });

  it('text and Markdown: rough intervals and the pass@k table', async () => {
    const text = (await cli('score', '--interval', 't', ATTEMPTS)).stdout;
    expect(text).toContain('intervals are rough (24 clusters < 30)');
    expect(text).toContain('repeats: 24 items (22 with 5 attempts, 2 with 3); 16 flaky');
    expect(text).toMatch(/ 2 +0\.6500 +0\.3056/);
    const md = (await cli('score', '--markdown', '--interval', 't', ATTEMPTS)).stdout;
    expect(md).toContain('⚠ Intervals are rough (24 clusters < 30).');
    expect(md).toContain('| 3 | 0.7417 | 0.2250 |');
    expect(md).toContain('| `accuracy` | 0.0466 | 0.0704 | 2.28 | ×1.51 |');
  });

  it('CSV: standard errors, design effects and the repeats at full precision', async () => {
    const rows = parseCsv((await cli('score', '--csv', '--interval', 't', ATTEMPTS)).stdout).rows;
    const head = rows[0];
    const get = (metric: string, col: string) => rows.find((r) => r[head.indexOf('metric')] === metric)?.[head.indexOf(col)];
    near(Number(get('accuracy', 'standard_error')), expected.attempts.standard_errors.accuracy, 'csv SE');
    near(Number(get('accuracy', 'standard_error_clustered')), expected.attempts.clustered.accuracy, 'csv clustered SE');
    near(Number(get('accuracy', 'design_effect')), expected.attempts.design_effect.accuracy, 'csv design effect');
    expect(get('accuracy', 'interval_method')).toBe('t');
    near(Number(get('pass_at_k:2', 'value')), expected.attempts.repeats.pass_at_k['2'], 'csv pass@2');
    expect(Number(get('flaky_items', 'value'))).toBe(expected.attempts.repeats.flaky_items);
  });
});

describe('compare: power and clusters', () => {
  const want = expected.power;

  it('JSON carries mde and n_needed per candidate (index 0 null), clustered with --cluster', async () => {
    const plain = (await json('compare', '--bootstrap', '0', PASSAGES, CANDIDATE)).comparison;
    const clustered = (await json('compare', '--bootstrap', '0', '--cluster', 'passage', PASSAGES, CANDIDATE)).comparison;
    expect(clustered.clusters).toEqual({ column: 'passage', count: 40 });
    for (const [m, w] of Object.entries(want)) {
      expect(plain.metrics[m].mde[0]).toBeNull();
      near(plain.metrics[m].mde[1], w.mde, `mde ${m}`);
      expect(plain.metrics[m].n_needed[1]).toBe(w.n_needed);
      near(clustered.metrics[m].mde[1], w.mde_clustered, `clustered mde ${m}`);
      expect(clustered.metrics[m].n_needed[1]).toBe(w.n_needed_clustered);
    }
  });

  it('text, Markdown and CSV say it in words', async () => {
    const text = (await cli('compare', '--bootstrap', '0', PASSAGES, CANDIDATE)).stdout;
    expect(text).toMatch(/accuracy +could detect ±0\.0598; 291 items would make this Δ significant/);
    const clustered = (await cli('compare', '--bootstrap', '50', '--cluster', 'passage', PASSAGES, CANDIDATE)).stdout;
    expect(clustered).toContain('clusters: passage, 40 clusters among the aligned instances');
    expect(clustered).toMatch(/accuracy +could detect ±0\.0880; 629 items would make this Δ significant/);
    const md = (await cli('compare', '--markdown', '--bootstrap', '0', PASSAGES, CANDIDATE)).stdout;
    expect(md).toContain('| could detect ±0.0154; 84 items would make this Δ significant |');
    const rows = parseCsv((await cli('compare', '--csv', '--bootstrap', '0', PASSAGES, CANDIDATE)).stdout).rows;
    const h = rows[0];
    const acc = rows.find((r) => r[h.indexOf('metric')] === 'accuracy' && r[h.indexOf('path')] === CANDIDATE)!;
    near(Number(acc[h.indexOf('mde')]), want.accuracy.mde, 'csv mde');
    expect(Number(acc[h.indexOf('n_needed')])).toBe(want.accuracy.n_needed);
  });
});

describe('board: rank, rank interval and tier', () => {
  const want = expected.board;
  const args = ['board', '--metric', 'accuracy', '--bootstrap', String(want.resamples), '--seed', String(want.seed), ...BOARD];

  it('JSON rows carry rank, rank_interval and tier', async () => {
    const board = (await json(...args)).board;
    expect(board.rows.map((r: { run: string }) => r.run)).toEqual(want.order);
    for (const row of board.rows) {
      expect(row.rank, row.run).toBe(want.rank[row.run as 'alpha']);
      expect(row.rank_interval, row.run).toEqual(want.rank_interval[row.run as 'alpha']);
      expect(row.tier, row.run).toBe(want.tier[row.run as 'alpha']);
    }
  });

  it('text, Markdown and CSV show them in columns with a note saying what they are', async () => {
    const text = (await cli(...args)).stdout;
    expect(text).toMatch(/#\s+run\s+all\s+mean\s+rank 95%\s+tier/);
    expect(text).toMatch(/3\s+delta\s+.*\s3–4\s+2$/m);
    expect(text).toContain('tier 1: the top run and every run not significantly worse than it');
    const md = (await cli(...args, '--markdown')).stdout;
    expect(md).toContain('| rank | run | all | mean | rank 95% | tier |');
    expect(md).toMatch(/\| 1 \| `alpha` \| .* \| 1–2 \| 1 \|/);
    const rows = parseCsv((await cli(...args, '--csv')).stdout).rows;
    const h = rows[0];
    const gamma = rows.find((r) => r[h.indexOf('run')] === 'gamma')!;
    expect([gamma[h.indexOf('rank')], gamma[h.indexOf('rank_low')], gamma[h.indexOf('rank_high')], gamma[h.indexOf('tier')]]).toEqual(['4', '3', '4', '2']);
  });
});

describe('gates on intervals', () => {
  it('--fail-on "accuracy.lower<0.8" reads the lower bound of the 95% interval', async () => {
    const failed = await cli('score', '--interval', 't', '--fail-on', 'accuracy.lower<0.8', PASSAGES);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain('accuracy.lower (the lower bound of its 95% interval) = 0.589545 < 0.8');
    const passed = await cli('score', '--interval', 't', '--fail-on', 'accuracy.lower<0.5', '--fail-on', 'accuracy.upper>0.75', PASSAGES);
    expect(passed.code, passed.stderr).toBe(0);
    const json = JSON.parse((await cli('score', '--json', '--interval', 't', '--fail-on', 'accuracy.lower<0.8', PASSAGES)).stdout);
    near(json.gates[0].value, expected.passages.t.accuracy[0], 'gate value');
    expect(json.gates[0].side).toBe('lower');
  });

  it('without an interval the gate fails and says how to get one', async () => {
    const out = await cli('score', '--fail-on', 'accuracy.lower<0.5', PASSAGES);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('accuracy has no 95% interval: use --bootstrap N or --interval t|wilson');
    expect((await cli('score', '--fail-on', 'accuracy.middle<0.5', PASSAGES)).code).toBe(1);
  });

  // The candidate file as the baseline: passages.csv is 0.0529 worse in accuracy (McNemar p = 0.023).
  const worse = ['--bootstrap', '300', CANDIDATE, PASSAGES];

  it('--margin: non-inferiority on the 95% interval of delta; a significant regression within the margin passes', async () => {
    expect((await cli('compare', '--fail-on-regression', 'accuracy', ...worse)).code).toBe(3);
    const within = await cli('compare', '--fail-on-regression', 'accuracy', '--margin', '0.2', ...worse);
    expect(within.code, within.stderr).toBe(0);
    expect(within.stderr).toContain('non-inferior within the margin 0.2');
    const beyond = await cli('compare', '--fail-on-regression', 'accuracy', '--margin', '0.01', ...worse);
    expect(beyond.code).toBe(3);
    expect(beyond.stderr).toMatch(/accuracy: may be worse by more than the margin: the 95% interval of delta \[-0\.\d+, -?0\.\d+\] reaches -0\.\d+, beyond −0\.01/);
    // brier: lower is better, so the upper bound of delta is the worse end.
    const brier = JSON.parse((await cli('compare', '--json', '--fail-on-regression', 'brier', '--margin', '0.01', ...worse)).stdout);
    const check = brier.regressions.checks[0];
    expect(check.failed).toBe(check.interval[1] > 0.01);
    expect(brier.regressions.margin).toBe(0.01);
  });

  it('--margin without an interval fails with a reason; --margin alone is a usage error', async () => {
    const none = await cli('compare', '--fail-on-regression', 'brier', '--margin', '0.5', CANDIDATE, PASSAGES, '--bootstrap', '0');
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no 95% interval of the difference');
    expect((await cli('compare', '--margin', '0.5', ...worse)).code).toBe(1);
    expect((await cli('compare', '--fail-on-regression', 'auc', '--margin', '-1', ...worse)).code).toBe(1);
  });
});
