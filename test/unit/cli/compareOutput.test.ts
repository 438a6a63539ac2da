// compare's --fail-on-regression, --markdown and --csv on two runs with the same labels: the
// candidate is the baseline's probabilities sharpened (logit x 2.5), so its ranking, accuracy and
// AUC are exactly the baseline's while its calibration is clearly worse.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { tables } from './markdownTables';

let base: string;
let cand: string;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-compare-out-'));
  let state = 12345;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const a = [',risk_score,label'];
  const b = [',risk_score,label'];
  for (let i = 0; i < 2000; i++) {
    const p = 0.02 + 0.96 * random();
    const y = random() < p ? 1 : 0;
    const q = 1 / (1 + Math.exp(-2.5 * Math.log(p / (1 - p))));
    a.push(`${i},${p.toFixed(5)},${y}`);
    b.push(`${i},${q.toFixed(5)},${y}`);
  }
  base = join(dir, 'base.test_predictions.csv');
  cand = join(dir, 'cand.test_predictions.csv');
  writeFileSync(base, a.join('\n') + '\n');
  writeFileSync(cand, b.join('\n') + '\n');
});

const compare = (...args: string[]) => runCli(['compare', ...args, '--bootstrap', '200']);

describe('compare --fail-on-regression', () => {
  it('fails (exit 3) when the candidate is significantly worse on a listed metric, naming it', async () => {
    const out = await compare(base, cand, '--fail-on-regression', 'ece,auc,accuracy');
    expect(out.code).toBe(3);
    expect(out.stderr).toMatch(new RegExp(`regression gate failed: ${cand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ece is significantly worse \\(lower is better\\): delta 0\\.\\d+, p (< 0\\.0001|= [\\d.e-]+) < alpha 0\\.05\\.`));
    // Same ranking and decisions: auc and accuracy do not differ, so they pass.
    expect(out.stderr).not.toMatch(/failed: .*: (auc|accuracy)/);
    expect(out.stderr).toContain('1 of 3 regression checks failed (exit 3).');
  });

  it('passes when the candidate is better or not significantly different', async () => {
    const better = await compare(cand, base, '--fail-on-regression', 'ece,brier,log_loss');
    expect(better.code).toBe(0);
    expect(better.stderr).toContain('no significant regression (alpha 0.05) on ece, brier, log_loss.');
    expect((await compare(base, cand, '--fail-on-regression', 'auc')).code).toBe(0);
  });

  it('rejects unknown metrics and bad alphas as usage errors', async () => {
    const bad = await compare(base, cand, '--fail-on-regression', 'ece,foo');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--fail-on-regression: unknown metric 'foo'");
    const alpha = await compare(base, cand, '--fail-on-regression', 'ece', '--alpha', '2');
    expect(alpha.code).toBe(1);
    expect(alpha.stderr).toContain("--alpha takes a number between 0 and 1, got '2'");
  });

  it('puts every check in the --json document', async () => {
    const out = await compare(base, cand, '--json', '--fail-on-regression', 'ece');
    const doc = JSON.parse(out.stdout);
    expect(doc.regressions.alpha).toBe(0.05);
    expect(doc.regressions.checks).toEqual([expect.objectContaining({ metric: 'ece', run: cand, failed: true, direction: 'lower' })]);
    expect(doc.regressions.checks[0].delta).toBe(doc.comparison.metrics.ece.deltas[1]);
  });
});


describe('compare --markdown and --csv', () => {
  it('Markdown parses back as a table: one row per metric, deltas and verdicts in words', async () => {
    const md = (await compare(base, cand, '--markdown')).stdout;
    const doc = JSON.parse((await compare(base, cand, '--json')).stdout).comparison;
    const rows = tables(md).flat();
    expect(rows[0]).toEqual(['metric', 'baseline', 'candidate value', 'Δ', '95% interval of Δ', 'p', 'test', 'verdict', 'power (80%, α 0.05)']);
    const byMetric = Object.fromEntries(rows.slice(1).map((r) => [r[0], r]));
    expect(Object.keys(byMetric).sort()).toEqual(Object.keys(doc.metrics).sort());
    expect(byMetric.ece[1]).toBe(doc.metrics.ece.values[0].toFixed(4));
    expect(byMetric.ece[3]).toBe(`+${doc.metrics.ece.deltas[1].toFixed(4)}`);
    expect(byMetric.ece[7]).toBe('▼ worse');
    expect(byMetric.auc[7]).toBe('no significant difference');
    expect(byMetric.r_u[7]).toBe('▲ better'); // sharper confidences on right answers
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('CSV round-trips through Python csv at full precision', async () => {
    const csv = (await compare(base, cand, '--csv')).stdout;
    const doc = JSON.parse((await compare(base, cand, '--json')).stdout).comparison;
    const parsed: Record<string, string>[] = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
      'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'], { input: csv, encoding: 'utf8' }));
    expect(parsed.length).toBe(2 * Object.keys(doc.metrics).length);
    for (const r of parsed) {
      const k = r.path === base ? 0 : 1;
      const m = doc.metrics[r.metric];
      expect(Number(r.value)).toBe(m.values[k]);
      expect(r.delta === '' ? null : Number(r.delta)).toBe(m.deltas[k]);
      expect(r.p_value === '' ? null : Number(r.p_value)).toBe(m.p_values[k]);
    }
  });
});
