// Error bars (issue 18) against values computed independently with numpy / scipy / mpmath from the
// definitions in docs/metrics.md and Inspect's stderr(cluster=) (test/reference/error_bars_reference.py
// -> error_bars_expected.json), on files made for it: passages with correlated questions
// (test/fixtures/error-bars/passages.csv) and items with 5 attempts (attempts.csv).
import { describe, expect, it } from 'vitest';
import expected from '../../reference/error_bars_expected.json';
import {
  clusterCodes, clusteredStderr, meanStderr, normalQuantile, pairedPower, repeatFigures, studentTCdf,
  studentTQuantile, tInterval, wilsonInterval, Z_80, Z_975,
} from '../../../src/core/metrics/errorBars';
import { scoreFile } from '../../../src/core/score';
import { comparePaths } from '../../../src/core/compareFiles';
import { boardPaths } from '../../../src/core/boardFiles';
import type { Report } from '../../../src/core/types';

const FIX = 'test/fixtures/error-bars/';
const TOL = 1e-9;

function near(actual: number | null | undefined, want: number, what: string, tol = TOL): void {
  expect(actual, what).toBeTypeOf('number');
  expect(Math.abs((actual as number) - want), `${what}: ${actual} vs ${want}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want)));
}

describe('quantiles', () => {
  it('the normal quantile is scipy.stats.norm.ppf, and the constants are exact', () => {
    near(normalQuantile(0.975), Z_975, 'z 0.975', 1e-15);
    near(normalQuantile(0.8), Z_80, 'z 0.8', 1e-15);
    expect(Z_975).toBe(1.959963984540054);
    expect(Z_80).toBe(0.8416212335729143);
    for (const { p, scipy } of expected.quantiles.normal) near(normalQuantile(p), scipy, `z(${p})`, 1e-12);
  });

  // scipy 1.10's t.ppf (cephes stdtrit) is off by up to 1e-8 (t.ppf(0.9, 3): its own t.cdf there is
  // 0.90000000036); the reference also solves scipy's t.cdf(x) = p to 1e-15 (scipy_root).
  it('the t quantile is within 1e-11 of mpmath (40 digits) and of the root of scipy.stats.t.cdf', () => {
    for (const { p, df, scipy, scipy_root, mpmath } of expected.quantiles.t) {
      const t = studentTQuantile(p, df);
      near(t, mpmath, `t(${p}, ${df}) against mpmath`, 1e-11);
      near(t, scipy_root, `t(${p}, ${df}) against scipy's t.cdf root`, 1e-11);
      near(t, scipy, `t(${p}, ${df}) against scipy's t.ppf`, 1e-8);
      near(studentTQuantile(1 - p, df), -mpmath, `t(${1 - p}, ${df})`, 1e-11);
    }
  });

  it('the t CDF is scipy.stats.t.cdf', () => {
    for (const { t, df, scipy } of expected.quantiles.t_cdf) near(studentTCdf(t, df), scipy, `F(${t}; ${df})`, 1e-13);
  });
});

describe('standard errors and intervals: passages with correlated questions', () => {
  const want = expected.passages;
  const plain = scoreFile(FIX + 'passages.csv', { instances: false, interval: 't' });
  const clustered = scoreFile(FIX + 'passages.csv', { instances: false, interval: 't', cluster: { column: 'passage' } });
  const wilson = scoreFile(FIX + 'passages.csv', { instances: false, interval: 'wilson' });

  it('standard_errors are sd (ddof 1) / sqrt(n) of every mean metric, with or without clusters', () => {
    for (const r of [plain, clustered]) {
      for (const [m, v] of Object.entries(want.standard_errors)) near(r.standard_errors?.[m as 'accuracy'], v, `SE ${m}`);
      for (const [m, v] of Object.entries(want.means)) near(r.metrics[m as keyof Report['metrics']], v, `mean ${m}`);
      expect(r.standard_errors?.nbr).toBe(r.standard_errors?.brier);
    }
  });

  it('t intervals: df n - 1, or C - 1 with the clustered SE', () => {
    expect(plain.interval_method).toBe('t');
    for (const [m, [lo, hi]] of Object.entries(want.t)) {
      near(plain.intervals[m as 'accuracy']![0], lo, `t ${m} lower`);
      near(plain.intervals[m as 'accuracy']![1], hi, `t ${m} upper`);
    }
    for (const [m, [lo, hi]] of Object.entries(want.t_clustered)) {
      near(clustered.intervals[m as 'accuracy']![0], lo, `clustered t ${m} lower`);
      near(clustered.intervals[m as 'accuracy']![1], hi, `clustered t ${m} upper`);
    }
    // t fills intervals without a bootstrap, for the means only.
    expect(plain.intervals.auc).toBeUndefined();
    expect(plain.rough_intervals).toBeUndefined();
  });

  it('clusters: Inspect\'s stderr(cluster=) and the design effect', () => {
    const c = clustered.clusters!;
    expect(c.column).toBe('passage');
    expect(c.count).toBe(want.clusters);
    for (const [m, v] of Object.entries(want.clustered)) near(c.standard_errors[m as 'accuracy'], v, `clustered SE ${m}`);
    for (const [m, v] of Object.entries(want.design_effect)) near(c.design_effect[m as 'accuracy'], v, `design effect ${m}`);
    expect(plain.clusters).toBeUndefined();
  });

  it('wilson: accuracy gets the Wilson score interval; non-proportions keep the bootstrap', () => {
    expect(wilson.interval_method).toBe('wilson');
    near(wilson.intervals.accuracy![0], want.wilson_accuracy[0], 'wilson lower');
    near(wilson.intervals.accuracy![1], want.wilson_accuracy[1], 'wilson upper');
    expect(wilson.intervals.brier).toBeUndefined(); // bootstrap 0
    const withBoot = scoreFile(FIX + 'passages.csv', { instances: false, interval: 'wilson', bootstrap: 50 });
    expect(withBoot.intervals.accuracy).toEqual(wilson.intervals.accuracy);
    expect(withBoot.intervals.brier).toBeDefined();
  });

  it('the clustered bootstrap resamples whole passages: wider than the row bootstrap, reproducible', () => {
    const rows = scoreFile(FIX + 'passages.csv', { instances: false, bootstrap: 400, seed: 3 });
    const byPassage = scoreFile(FIX + 'passages.csv', { instances: false, bootstrap: 400, seed: 3, cluster: { column: 'passage' } });
    const again = scoreFile(FIX + 'passages.csv', { instances: false, bootstrap: 400, seed: 3, cluster: { column: 'passage' } });
    expect(byPassage.intervals).toEqual(again.intervals);
    expect(byPassage.interval_method).toBe('bootstrap');
    const width = (r: Report, m: 'accuracy' | 'brier') => r.intervals[m]![1] - r.intervals[m]![0];
    expect(width(byPassage, 'brier')).toBeGreaterThan(width(rows, 'brier'));
    expect(width(byPassage, 'accuracy')).toBeGreaterThan(width(rows, 'accuracy'));
  });
});

describe('repeats: items with 5 attempts', () => {
  const want = expected.attempts;
  const r = scoreFile(FIX + 'attempts.csv', { instances: false, interval: 't' });

  it('pass@k, pass^k, variances and flaky items as the issue defines them', () => {
    const rep = r.repeats!;
    expect(rep.items).toBe(want.repeats.items);
    expect(rep.attempts).toEqual(want.repeats.attempts);
    expect(rep.flaky_items).toBe(want.repeats.flaky_items);
    expect(Object.keys(rep.pass_at_k)).toEqual(Object.keys(want.repeats.pass_at_k));
    for (const [k, v] of Object.entries(want.repeats.pass_at_k)) near(rep.pass_at_k[k], v, `pass@${k}`);
    for (const [k, v] of Object.entries(want.repeats.pass_hat_k)) near(rep.pass_hat_k[k], v, `pass^${k}`);
    near(rep.within_item_variance, want.repeats.within_item_variance, 'within');
    near(rep.between_item_variance, want.repeats.between_item_variance, 'between');
  });

  it('n stays the rows; the item is the cluster; the duplicate IDs are no longer warnings', () => {
    expect(r.n).toBe(want.n);
    expect(r.clusters?.column).toBe('id');
    expect(r.clusters?.count).toBe(want.clusters);
    for (const [m, v] of Object.entries(want.clustered)) near(r.clusters!.standard_errors[m as 'accuracy'], v, `clustered SE ${m}`);
    for (const [m, [lo, hi]] of Object.entries(want.t_clustered)) {
      near(r.intervals[m as 'accuracy']![0], lo, `t ${m} lower`);
      near(r.intervals[m as 'accuracy']![1], hi, `t ${m} upper`);
    }
    expect(r.rough_intervals).toBe(true); // 24 items
    expect(r.problems.filter((p) => p.code === 'duplicate-id' && p.severity === 'warning')).toEqual([]);
  });
});

describe('edge cases', () => {
  it('one row: SE 0 and no t interval; one cluster: clustered SE null', () => {
    expect(meanStderr([0.4])).toEqual({ mean: 0.4, se: 0 });
    expect(tInterval(0.4, 0, 0)).toBeNull();
    const one = clusterCodes(['a', 'a', 'a']);
    expect(one.count).toBe(1);
    expect(clusteredStderr([1, 0, 1], one)).toBeNull();
  });

  it('rows without a cluster value are clusters of their own', () => {
    const c = clusterCodes(['a', undefined, 'a', undefined, 'b']);
    expect(c.count).toBe(4);
    expect(c.missing).toBe(2);
    // Singleton clusters: the clustered SE of independent rows is the plain SE (C / (C - 1) = n / (n - 1)).
    const x = [0.3, 0.9, 0.1, 0.5];
    near(clusteredStderr(x, clusterCodes(['a', 'b', 'c', 'd']))!, meanStderr(x).se, 'singletons');
  });

  it('Wilson at 0 and n', () => {
    const [lo0, hi0] = wilsonInterval(0, 10)!;
    expect(lo0).toBe(0);
    expect(hi0).toBeGreaterThan(0.2);
    const [lo, hi] = wilsonInterval(10, 10)!;
    expect(hi).toBeCloseTo(1, 15);
    expect(lo).toBeLessThan(0.8);
  });

  it('repeats: k runs to the smallest attempt count; one attempt items are out of the within variance', () => {
    const f = repeatFigures(Int32Array.from([0, 0, 1]), 2, [1, 0, 1]);
    expect(Object.keys(f.pass_at_k)).toEqual(['1']);
    expect(f.within_item_variance).toBeCloseTo(0.5, 15);
    expect(f.flaky_items).toBe(1);
  });

  it('power: null for one item, n_needed null for a zero difference', () => {
    expect(pairedPower([0.1])).toEqual({ mde: null, n_needed: null });
    expect(pairedPower([1, -1, 1, -1]).n_needed).toBeNull();
  });
});

describe('power of a paired comparison: passages, baseline against candidate', () => {
  const want = expected.power;
  const paths = [FIX + 'passages.csv', FIX + 'passages-candidate.csv'];
  const plain = comparePaths(paths, { bootstrap: 0 });
  const clustered = comparePaths(paths, { bootstrap: 0, cluster: { column: 'passage' } });

  it('mde and n_needed of every mean metric, index 0 null', () => {
    for (const [m, w] of Object.entries(want)) {
      const mc = plain.metrics[m as 'accuracy']!;
      near(mc.deltas[1], w.delta, `delta ${m}`);
      expect(mc.mde?.[0]).toBeNull();
      expect(mc.n_needed?.[0]).toBeNull();
      near(mc.mde![1], w.mde, `mde ${m}`);
      expect(mc.n_needed![1], `n_needed ${m}`).toBe(w.n_needed);
    }
    expect(plain.metrics.auc?.mde).toBeUndefined();
  });

  it('with clusters the SE of the difference is the clustered one', () => {
    expect(clustered.clusters).toEqual({ column: 'passage', count: 40 });
    for (const [m, w] of Object.entries(want)) {
      near(clustered.metrics[m as 'accuracy']!.mde![1], w.mde_clustered, `clustered mde ${m}`);
      expect(clustered.metrics[m as 'accuracy']!.n_needed![1], `clustered n_needed ${m}`).toBe(w.n_needed_clustered);
    }
  });

  it('the paired bootstrap resamples passages: reproducible, and wider than the row bootstrap here', () => {
    const rows = comparePaths(paths, { bootstrap: 300, seed: 1 });
    const a = comparePaths(paths, { bootstrap: 300, seed: 1, cluster: { column: 'passage' } });
    const b = comparePaths(paths, { bootstrap: 300, seed: 1, cluster: { column: 'passage' } });
    expect(a.metrics.brier!.intervals).toEqual(b.metrics.brier!.intervals);
    const width = (c: typeof a) => c.metrics.brier!.intervals[1]![1] - c.metrics.brier!.intervals[1]![0];
    expect(width(a)).toBeGreaterThan(width(rows));
  });
});

describe('leaderboard ranks: four runs of the same 150 items', () => {
  const want = expected.board;
  const files = ['alpha', 'beta', 'gamma', 'delta'].map((n) => `${FIX}board/${n}.csv`);
  const { board } = boardPaths(files, { bootstrap: want.resamples, seed: want.seed, instances: false }, { metric: 'accuracy' });

  it('rank by the mean; rank_interval from item resamples (the same draw for every run); tiers by Holm', () => {
    expect(board.rows.map((r) => r.run)).toEqual(want.order);
    for (const row of board.rows) {
      near(row.mean, want.means[row.run as 'alpha'], `mean ${row.run}`);
      expect(row.rank, `rank ${row.run}`).toBe(want.rank[row.run as 'alpha']);
      expect(row.rank_interval, `rank_interval ${row.run}`).toEqual(want.rank_interval[row.run as 'alpha']);
      expect(row.tier, `tier ${row.run}`).toBe(want.tier[row.run as 'alpha']);
    }
  });

  it('without a bootstrap: rank only', () => {
    const plain = boardPaths(files, { bootstrap: 0, instances: false }, { metric: 'accuracy' }).board;
    expect(plain.rows.map((r) => r.rank)).toEqual(want.order.map((k) => want.rank[k as 'alpha']));
    expect(plain.rows[0].rank_interval).toBeUndefined();
    expect(plain.rows[0].tier).toBeUndefined();
  });
});

describe('repeats: an Inspect log with epochs', () => {
  it('the samples are the items, every epoch an attempt', () => {
    const r = scoreFile('test/fixtures/inspect/epochs.eval', { instances: false });
    const rep = r.repeats!;
    expect(rep.items).toBe(6);
    expect(r.clusters).toMatchObject({ column: 'id', count: 6 });
    expect(Object.entries(rep.attempts).reduce((s, [k, v]) => s + Number(k) * v, 0)).toBe(r.n);
    expect(Object.keys(rep.pass_at_k)).toEqual(['1', '2']); // the smallest attempt count is 2
    expect(rep.pass_at_k['1']).toBeCloseTo(rep.pass_hat_k['1'], 12); // k = 1: both are the mean success rate
  });
});

describe("standard errors of a task's own per-sample metrics (lm-eval eqbench)", () => {
  it('sd (ddof 1) / sqrt(n) over the samples that logged it, and the t interval with --interval t', () => {
    const r = scoreFile('test/fixtures/lm-eval-field/issue17/v0.4.2/samples_eqbench_2024-06-01T10-00-00.123456.json', { bootstrap: 0, interval: 't', instances: false });
    for (const [name, w] of Object.entries(expected.task_metrics)) {
      near(r.standard_errors?.[name], w.se, `SE ${name}`);
      const shown = r.taskMetrics!.find((t) => t.name === name)!;
      expect(shown.n).toBe(w.n);
      near(shown.interval![0], w.t[0], `t ${name} lower`);
      near(shown.interval![1], w.t[1], `t ${name} upper`);
    }
  });
});

describe('repeatRows: what the stepper walks', () => {
  it('each row\'s item and the flaky items, with per-instance columns only', () => {
    const r = scoreFile(FIX + 'attempts.csv', {});
    const rows = r.repeatRows!;
    expect(rows.items.length).toBe(expected.attempts.repeats.items);
    expect(rows.row.length).toBe(r.n);
    expect(rows.flaky.length).toBe(expected.attempts.repeats.flaky_items);
    expect(rows.items[rows.row[0]]).toBe('item0');
    expect(scoreFile(FIX + 'attempts.csv', { instances: false }).repeatRows).toBeUndefined();
  });
});
