// `eval-lens compare` end to end: the JSON's field names, the table's words, exit codes, RAFT
// run folders task by task with raft_score.
import { describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { examples, folktextsFile, makeFolktextsCandidate, makeRaftRun, raftData, raftRun1, tempDir } from './tempRuns';

describe('eval-lens compare', () => {
  const dir = tempDir();
  const candidate = makeFolktextsCandidate(dir, 5);

  it('writes the JSON with exactly the issue\'s field names', async () => {
    const out = await runCli(['compare', folktextsFile, candidate, '--json', '--bootstrap', '200']);
    expect(out.code).toBe(0);
    const j = JSON.parse(out.stdout);
    expect(j.version).toBe(1);
    const c = j.comparison;
    expect(c.kind).toBe('binary');
    expect(c.runs.map((r: { path: string; format: string; n: number }) => [r.path, r.format, r.n])).toEqual([[folktextsFile, 'folktexts', 2000], [candidate, 'folktexts', 1995]]);
    expect(c.aligned).toBe(1995);
    expect(c.unmatched).toEqual([5, 0]);
    for (const key of ['values', 'deltas', 'intervals', 'p_values', 'statistics', 'test']) expect(Object.keys(c.metrics.auc)).toContain(key);
    expect(c.metrics.auc.test).toBe('delong');
    expect(c.metrics.accuracy.test).toBe('mcnemar');
    expect(c.metrics.ece.test).toBe('bootstrap');
    expect(c.metrics.auc.deltas[0]).toBeNull();
    expect(c.metrics.auc.deltas[1]).toBeCloseTo(c.metrics.auc.values[1] - c.metrics.auc.values[0], 14);
    expect(typeof c.metrics.auc.statistics[1]).toBe('number');
    expect(c.agreement[0]).toBeNull();
    expect(Object.keys(c.agreement[1]).sort()).toEqual(['baseline_only', 'both_right', 'both_wrong', 'candidate_only']);
    expect(Array.isArray(c.problems)).toBe(true);
  });

  it('prints a table with the significance in words', async () => {
    const out = await runCli(['compare', folktextsFile, candidate, '--bootstrap', '200']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^auc .* DeLong z=[\d.]+ +p=[\d.e-]+, significant at 0\.05: candidate better$/m);
    expect(out.stdout).toMatch(/not significant at 0\.05/);
    expect(out.stdout).toContain('aligned: 1995 instances by ID');
  });

  it('exit 2 and nothing on stdout for runs of different kinds; 1 for a usage error', async () => {
    const lm = join(examples, 'lm-eval', 'sim-model');
    const lmFile = join(lm, readdirSync(lm)[0]);
    const out = await runCli(['compare', folktextsFile, lmFile]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/different kinds.*binary.*multiclass/);
    expect((await runCli(['compare', folktextsFile])).code).toBe(1);
    expect((await runCli(['compare', folktextsFile, candidate, '--bootstrap', 'x'])).code).toBe(1);
  });

  it('exit 2 when no instance is in common', async () => {
    const other = join(dir, 'other.test_predictions.csv');
    writeFileSync(other, ',risk_score,label\n1,0.2,0\n2,0.8,1\n');
    const out = await runCli(['compare', folktextsFile, other]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/No instance is in every run/);
  });

  it('two RAFT run folders: each task, and raft_score with a bootstrap stratified by task', async () => {
    const run2 = makeRaftRun(dir, 'run-2', 4);
    const out = await runCli(['compare', raftRun1, run2, '--raft-data', raftData, '--json', '--bootstrap', '200']);
    expect(out.code).toBe(0);
    const c = JSON.parse(out.stdout).comparison;
    const tasks = readdirSync(raftRun1).sort();
    expect(Object.keys(c.tasks)).toEqual(tasks);
    const f1 = (k: number) => tasks.reduce((s: number, t: string) => s + c.tasks[t].metrics.macro_f1.values[k], 0) / tasks.length;
    expect(c.metrics.raft_score.values[0]).toBeCloseTo(f1(0), 14);
    expect(c.metrics.raft_score.values[1]).toBeCloseTo(f1(1), 14);
    expect(c.metrics.raft_score.deltas[1]).toBeLessThan(0); // run-2 changed a quarter of the answers
    const [lo, hi] = c.metrics.raft_score.intervals[1];
    expect(lo).toBeLessThanOrEqual(hi);
    expect(c.metrics.raft_score.test).toBe('bootstrap');
    for (const t of tasks) expect(c.tasks[t].metrics.accuracy.test).toBe('mcnemar');
  });
});

describe('a file with several models\' columns', () => {
  it('compare: the models against the first, by row; board: one row per model', async () => {
    const dir = tempDir();
    const path = join(dir, 'models.csv');
    const rows = ['id,label,Prob_small,Prob_large,Prob_huge'];
    for (let i = 0; i < 60; i++) {
      const y = i % 3 === 0 ? 1 : 0;
      rows.push(`${i},${y},${(0.3 + 0.2 * y + ((i * 7) % 10) / 40).toFixed(3)},${(0.2 + 0.5 * y + ((i * 3) % 10) / 50).toFixed(3)},${(0.1 + 0.8 * y).toFixed(3)}`);
    }
    writeFileSync(path, rows.join('\n') + '\n');
    const out = await runCli(['compare', path, '--json', '--bootstrap', '100']);
    expect(out.code, out.stderr).toBe(0);
    const c = JSON.parse(out.stdout).comparison;
    expect(c.runs.map((r: { name: string }) => r.name)).toEqual(['small', 'large', 'huge']);
    expect(c.aligned).toBe(60);
    expect(c.metrics.auc.values[2]).toBe(1); // huge separates the classes perfectly
    expect(c.metrics.auc.p_values_holm).toHaveLength(3);
    const b = JSON.parse((await runCli(['board', path, '--json', '--metric', 'auc', '--bootstrap', '0'])).stdout).board;
    expect(b.rows.map((r: { run: string }) => r.run)).toEqual(['huge', 'large', 'small']);
  });
});
