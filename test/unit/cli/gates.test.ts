// `--fail-on` and `--fail-on-regression`: each gate failing, passing and malformed. The files are
// built so their metrics are known by hand (no value here comes from the scorer under test).
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { parseGate } from '../../../src/cli/gates';
import { checkRegressions, parseAlpha, parseRegressionMetrics, regressionReport } from '../../../src/cli/regression';
import { betterDirection } from '../../../src/common/metricDirection';
import { METRIC_NAMES } from '../../../src/core/types';

let dir: string;
let overconfident: string;
let calibrated: string;
let oneClass: string;

function folktexts(name: string, rows: [number, number][]): string {
  const sub = join(dir, name);
  mkdirSync(sub);
  const path = join(sub, `${name}.test_predictions.csv`);
  writeFileSync(path, [',risk_score,label', ...rows.map(([s, y], i) => `${i},${s},${y}`)].join('\n') + '\n');
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'eval-lens-gates-'));
  // Every score 0.9, 7 of 10 positive: accuracy 0.7, one bin so ece = |0.9 - 0.7| = 0.2, auc 0.5 (all tied).
  overconfident = folktexts('overconfident', Array.from({ length: 10 }, (_, i) => [0.9, i < 7 ? 1 : 0]));
  // 0.2 x5 with one positive, 0.8 x5 with four: ece 0, accuracy 0.8, auc (16 + 0.5 * 8) / 25 = 0.8.
  calibrated = folktexts('calibrated', [
    ...Array.from({ length: 5 }, (_, i): [number, number] => [0.2, i === 0 ? 1 : 0]),
    ...Array.from({ length: 5 }, (_, i): [number, number] => [0.8, i === 0 ? 0 : 1]),
  ]);
  // Only positives: auc is undefined.
  oneClass = folktexts('oneclass', [[0.7, 1], [0.6, 1], [0.9, 1]]);
});

const score = (...args: string[]) => runCli(['score', ...args]);

describe('--fail-on', () => {
  it('fails (exit 3) when a file crosses the bound, naming file, metric, value and bound', async () => {
    const out = await score(overconfident, calibrated, '--fail-on', 'ece>0.1');
    expect(out.code).toBe(3);
    expect(out.stderr).toContain(`gate failed: ${overconfident}: ece = 0.2 > 0.1 (--fail-on "ece>0.1")`);
    expect(out.stderr).not.toContain(`gate failed: ${calibrated}`);
    expect(out.stderr).toMatch(/1 of 2 gate checks failed \(exit 3\)/);
    // The table is still printed.
    expect(out.stdout).toContain(overconfident);
  });

  it('passes (exit 0) when every file is within the bound, and says so', async () => {
    const out = await score(overconfident, calibrated, '--fail-on', 'ece>0.25', '--fail-on', 'auc<0.4');
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('all 4 gate checks passed (ece>0.25, auc<0.4)');
  });

  it('is repeatable, and each operator is exact at the bound', async () => {
    // accuracy: overconfident 0.7, calibrated 0.8.
    expect((await score(overconfident, calibrated, '--fail-on', 'accuracy<0.7')).code).toBe(0);
    const le = await score(overconfident, calibrated, '--fail-on', 'accuracy<=0.7');
    expect(le.code).toBe(3);
    expect(le.stderr).toContain(`${overconfident}: accuracy = 0.7 <= 0.7`);
    expect((await score(overconfident, calibrated, '--fail-on', 'accuracy>0.8')).code).toBe(0);
    const ge = await score(overconfident, calibrated, '--fail-on', 'accuracy >= 0.8', '--fail-on', 'ece>0.5');
    expect(ge.code).toBe(3);
    expect(ge.stderr).toContain(`${calibrated}: accuracy = 0.8 >= 0.8`);
    expect(ge.stderr).not.toContain(`${overconfident}: accuracy`);
  });

  it('fails a file whose value is undefined, and a gate that no file can answer', async () => {
    const auc = await score(oneClass, '--fail-on', 'auc<0.6');
    expect(auc.code).toBe(3);
    expect(auc.stderr).toContain(`${oneClass}: auc<0.6: auc is undefined for this file.`);
    const spearman = await score(calibrated, '--fail-on', 'spearman<0.5');
    expect(spearman.code).toBe(3);
    expect(spearman.stderr).toContain('spearman<0.5: no file scored has spearman.');
  });

  it('puts every check in the --json document', async () => {
    const out = await score(overconfident, calibrated, '--json', '--fail-on', 'ece>0.1');
    expect(out.code).toBe(3);
    const json = JSON.parse(out.stdout);
    expect(json.gates).toEqual([
      { gate: 'ece>0.1', metric: 'ece', op: '>', bound: 0.1, path: overconfident, value: expect.closeTo(0.2, 12), failed: true },
      { gate: 'ece>0.1', metric: 'ece', op: '>', bound: 0.1, path: calibrated, value: expect.closeTo(0, 12), failed: false },
    ]);
  });

  it.each([
    ['eec>0.05', "unknown metric 'eec'"],
    ['ece=0.05', "operator '=' in 'ece=0.05' is not one of > >= < <="],
    ['ece=>0.05', "operator '=>'"],
    ['ece!=0.05', "operator '!='"],
    ['ece>abc', "bound 'abc' in 'ece>abc' is not a number"],
    ['ece>', "bound '' in 'ece>' is not a number"],
    ['ece>Infinity', "bound 'Infinity'"],
    ['>0.05', '--fail-on takes METRIC OP NUMBER'],
    ['ece 0.05', '--fail-on takes METRIC OP NUMBER'],
  ])('rejects %j with a usage error (exit 1) before scoring', async (expr, message) => {
    const out = await score(calibrated, '--fail-on', expr);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(message);
    expect(out.stderr).toContain('Usage: eval-lens score');
  });

  it('accepts spaces, upper case metric names and exponent bounds', () => {
    expect(parseGate(' ECE >= 5e-2 ')).toEqual({ metric: 'ece', op: '>=', bound: 0.05, text: 'ece>=5e-2' });
  });
});

describe('--fail-on-regression (compare)', () => {
  const compared = [
    { metric: 'auc', delta: -0.03, p_value: 0.01 },  // worse, significant
    { metric: 'ece', delta: -0.02, p_value: 0.001 }, // better (lower), significant
    { metric: 'brier', delta: 0.01, p_value: 0.2 },  // worse, not significant
    { metric: 'accuracy', delta: 0.05, p_value: 0.0001 }, // better, significant
    { metric: 'log_loss', delta: 0.2, p_value: 0.04 },   // worse, significant
    { metric: 'ks', delta: 0.1, p_value: null },         // no test
  ].map((c) => ({ ...c, run: 'cand' }));

  it('fails a metric significantly worse in its own direction, and only that', () => {
    const failed = (metrics: string, alpha = 0.05) =>
      checkRegressions(compared, parseRegressionMetrics(metrics), alpha).filter((r) => r.failed).map((r) => r.metric);
    expect(failed('auc')).toEqual(['auc']);
    expect(failed('ece,accuracy,brier')).toEqual([]);
    expect(failed('auc,ece,log_loss')).toEqual(['auc', 'log_loss']);
    // A stricter alpha lets the p = 0.04 and p = 0.01 regressions through.
    expect(failed('auc,log_loss', 0.005)).toEqual([]);
    // No test result, or not compared at all: the gate cannot vouch for it.
    expect(failed('ks,mce')).toEqual(['ks', 'mce']);
  });

  it('checks every candidate, and prints each failure with run, delta, p and alpha', () => {
    const two = [
      { metric: 'ece', run: 'a', delta: -0.01, p_value: 0.01 },
      { metric: 'ece', run: 'b', delta: 0.03, p_value: 0.002 },
    ];
    const results = checkRegressions(two, ['ece'], 0.05);
    expect(results.map((r) => [r.run, r.failed])).toEqual([['a', false], ['b', true]]);
    expect(regressionReport(results, 0.05)).toBe(
      'eval-lens: regression gate failed: b: ece is significantly worse (lower is better): delta 0.03, p = 0.002 < alpha 0.05.\n'
      + 'eval-lens: 1 of 2 regression checks failed (exit 3).\n');
    expect(regressionReport(checkRegressions(two.slice(0, 1), ['ece'], 0.05), 0.05)).toBe('eval-lens: no significant regression (alpha 0.05) on ece.\n');
  });

  it('rejects unknown metrics and bad alphas', () => {
    expect(() => parseRegressionMetrics('auc,foo')).toThrow("--fail-on-regression: unknown metric 'foo'");
    expect(() => parseRegressionMetrics(',')).toThrow('--fail-on-regression takes METRIC[,METRIC...]');
    expect(parseAlpha(undefined)).toBe(0.05);
    expect(parseAlpha('0.01')).toBe(0.01);
    for (const bad of ['0', '1', '-0.1', 'x', '']) expect(() => parseAlpha(bad), bad).toThrow('--alpha takes a number between 0 and 1');
  });

  it('knows a direction for every metric, matching METRICS.md (errors lower, scores higher)', () => {
    for (const m of ['ece', 'brier', 'log_loss', 'mce', 'ks', 'mse', 'kl', 'tvd', 'nbr', 'perplexity'] as const) expect(betterDirection(m)).toBe('lower');
    for (const m of ['auc', 'accuracy', 'acc_norm', 'macro_f1', 'hmr', 'spearman', 'raft_score'] as const) expect(betterDirection(m)).toBe('higher');
  });
});

describe('metric direction', () => {
  // One table (src/common/metricDirection.ts) now serves the gate, the board, the compare tables and
  // the report cards' arrows (the webview used to keep a copy). Every metric is written out here
  // from METRICS.md, so a new metric name fails until its direction is stated.
  it('states a direction for every metric name, errors lower and scores higher', () => {
    const lower = ['brier', 'nbr', 'log_loss', 'ece', 'ece_quantile', 'mce', 'mce_quantile', 'ks', 'mse', 'tvd', 'kl', 'perplexity', 'stderr', 'smece', 'smece_sigma', 'ece_classwise', 'confidence_brier', 'position_bias', 'length_bias'] as const;
    const higher = ['accuracy', 'acc_norm', 'auc', 'macro_f1', 'raft_score', 'hmr', 'r_o', 'r_u', 'hmr_beta', 'spearman', 'confidence_auroc', 'judge_score', 'win_rate', 'win_rate_adjusted', 'rating', 'agreement', 'kappa'] as const;
    expect([...lower, ...higher].sort()).toEqual([...METRIC_NAMES].sort());
    for (const m of lower) expect(betterDirection(m), m).toBe('lower');
    for (const m of higher) expect(betterDirection(m), m).toBe('higher');
  });
});
