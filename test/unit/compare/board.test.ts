// Leaderboards: the HMR paper's Example 1 systems, folktexts' aggregated results (against pandas,
// test/reference/board_reference.py -> board_expected.json), and two RAFT runs with raft_score.
import { describe, expect, it } from 'vitest';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import expected from '../../reference/board_expected.json';
import { runCli } from '../../../src/cli/main';
import { makeRaftRun, raftData, raftRun1, root, tempDir } from './tempRuns';

const AGGREGATED = join(root, 'test', 'fixtures', 'real', 'folktexts', 'aggregated-results.2024-08.csv');

interface BoardJson {
  metric: string;
  better: string;
  mean_of: string;
  columns: string[];
  rows: { run: string; values: Record<string, number | null>; intervals: Record<string, [number, number] | null>; mean: number | null }[];
}

async function board(...args: string[]): Promise<{ board: BoardJson; pivots?: Record<string, BoardJson> }> {
  const out = await runCli(['board', '--json', ...args]);
  expect(out.code, out.stderr).toBe(0);
  const j = JSON.parse(out.stdout);
  expect(j.version).toBe(1);
  return j;
}

describe('HMR paper, Example 1, as a board', () => {
  // The HMR paper's Example 1: X's confidences, and Y, Z, W changing one or two of them; correctness is shared.
  const X = [0.4, 0.4, 0.4, 0.6, 0.6, 0.6, 0.8, 0.8, 0.8];
  const CORRECT = [1, 1, 0, 1, 1, 0, 1, 1, 1];
  const systems: Record<string, number[]> = {
    X, Y: X.map((c, i) => (i === 8 ? 0.7 : c)), Z: X.map((c, i) => (i === 2 ? 0.6 : c)), W: X.map((c, i) => (i === 8 ? 0.7 : i === 2 ? 0.6 : c)),
  };
  const dir = tempDir();
  for (const [name, conf] of Object.entries(systems)) {
    writeFileSync(join(dir, `${name}.csv`), ['confidence,correct', ...conf.map((c, i) => `${c},${CORRECT[i]}`)].join('\n') + '\n');
  }

  it('HMR ranks X first', async () => {
    const { board: b } = await board(dir, '--metric', 'hmr', '--bins', '3', '--bootstrap', '0');
    expect(b.better).toBe('higher');
    expect(b.rows.map((r) => r.run)[0]).toBe('X');
    expect(b.rows[0].mean).toBeCloseTo(0.557, 3); // the paper's table
    expect(b.rows.find((r) => r.run === 'Z')!.mean).toBeCloseTo(0.489, 3);
  });

  it('ECE over the same three equal-count bins ranks Z above X', async () => {
    const { board: b } = await board(dir, '--metric', 'ece_quantile', '--bins', '3', '--bootstrap', '0');
    expect(b.better).toBe('lower');
    const order = b.rows.map((r) => r.run);
    expect(order.indexOf('Z')).toBeLessThan(order.indexOf('X'));
    expect(b.rows.find((r) => r.run === 'X')!.mean).toBeCloseTo(0.178, 3);
    expect(b.rows.find((r) => r.run === 'Z')!.mean).toBeCloseTo(0.156, 3);
  });
});

describe('folktexts aggregated results as a board', () => {
  it('rows are model · prompting, columns tasks, figures and means as pandas reads them', async () => {
    const { board: b } = await board(AGGREGATED, '--metric', 'auc');
    const want = expected.rows.auc as Record<string, { values: Record<string, number>; mean: number }>;
    expect(b.columns).toEqual(['ACSEmployment', 'ACSIncome', 'ACSMobility', 'ACSPublicCoverage', 'ACSTravelTime']);
    expect(b.rows.map((r) => r.run).sort()).toEqual(Object.keys(want).sort());
    for (const row of b.rows) {
      for (const t of b.columns) expect(row.values[t], `${row.run} ${t}`).toBeCloseTo(want[row.run].values[t], 12);
      expect(row.mean, row.run).toBeCloseTo(want[row.run].mean, 12);
    }
    // Ranked best (highest mean AUC) first.
    const means = b.rows.map((r) => r.mean!);
    expect(means).toEqual([...means].sort((x, y) => y - x));
  });

  it('--pivot prompting: per model and task the change from multiple-choice to numeric, for ECE and AUC', async () => {
    const j = await board(AGGREGATED, '--pivot', 'prompting');
    for (const [metric, name] of [['ece', 'ece'], ['auc', 'auc']] as const) {
      const got = j.pivots![metric];
      const want = expected.pivot[name] as Record<string, { values: Record<string, number>; mean: number }>;
      expect(got.rows.length).toBe(Object.keys(want).length);
      for (const row of got.rows) {
        for (const t of got.columns) expect(row.values[t], `${metric} ${row.run} ${t}`).toBeCloseTo(want[row.run].values[t], 12);
      }
    }
    expect(j.board.metric).toBe('ece');
    // folktexts' finding: numeric prompting lowers the ECE of most instruction-tuned models.
    const it = j.pivots!.ece.rows.filter((r) => r.run.endsWith('(it)'));
    expect(it.filter((r) => r.mean! < 0).length).toBeGreaterThan(it.length / 2);
  });
});

describe('two RAFT runs as a board', () => {
  it('rows are the run folders, columns the tasks, the mean is raft_score', async () => {
    const dir = tempDir();
    const run2 = makeRaftRun(dir, 'run-2', 3);
    const { board: b } = await board(raftRun1, run2, '--raft-data', raftData, '--bootstrap', '100');
    expect(b.metric).toBe('macro_f1');
    expect(b.mean_of).toBe('raft_score');
    expect(b.columns).toEqual(readdirSync(raftRun1).sort());
    expect(b.rows.map((r) => r.run)).toEqual(['run-1', 'run-2']); // run-2 changed a third of its answers
    // raft_score = what `score` reports for the same run folder.
    const scored = JSON.parse((await runCli(['score', '--json', raftRun1, '--raft-data', raftData])).stdout);
    expect(b.rows[0].mean).toBeCloseTo(scored.summary.raft_score, 14);
    for (const t of b.columns) {
      const [lo, hi] = b.rows[0].intervals[t]!;
      expect(lo).toBeLessThanOrEqual(b.rows[0].values[t]!);
      expect(hi).toBeGreaterThanOrEqual(b.rows[0].values[t]!);
    }
  });
});
