// Two run folders holding files of the same name (run-a/scores.csv, run-b/scores.csv) are two runs
// on the leaderboard, named by their folders; before, the second was dropped with "scores has a
// second all result; the first is kept" (found by the journey suite, issue 28).
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boardPaths } from '../../../src/core/boardFiles';
import { scoreFile } from '../../../src/core/score';

function table(shift: number): string {
  const rows = ['id,score,label'];
  for (let i = 0; i < 120; i++) {
    const s = ((i * 7919 + shift * 131) % 1000) / 1000;
    rows.push(`r${i},${s.toFixed(3)},${((i * 104729) % 997) / 997 < s ? 1 : 0}`);
  }
  return rows.join('\n') + '\n';
}

describe('board run names', () => {
  it('names same-named files of two folders by their folders, each with its own figure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'board-names-'));
    for (const [run, shift] of [['run-a', 0], ['run-b', 3]] as const) {
      mkdirSync(join(dir, run));
      writeFileSync(join(dir, run, 'scores.csv'), table(shift));
    }
    const { board } = boardPaths([dir], { bootstrap: 0 });
    expect(board.rows.map((r) => r.run).sort()).toEqual(['run-a', 'run-b']);
    expect(board.problems.some((p) => /second all result/.test(p.message))).toBe(false);
    for (const row of board.rows) {
      const own = scoreFile(join(dir, row.run, 'scores.csv')).metrics[board.metric];
      expect(row.values.all).toBe(own);
    }
  });
});
