// Arena-Hard-Auto's leaderboard CSV (show_result.py --output: model, score, rating_q025, rating_q975,
// CI, avg_tokens, date; elo_* columns in later versions) is a summary, as AlpacaEval's is. Before,
// both real ones here were refused: "No column holds the gold label ... score is a prediction".
// Figures against pandas reading the same files.
import { execFileSync } from 'node:child_process';
import { PY_PANDAS_SUMMARY } from '../pythonReferences';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { detectFormat } from '../../../src/core/formats/detect';

const REAL = resolve(__dirname, '../../fixtures/real/arena-hard');
const FILES = [
  join(REAL, 'zeppombal/leaderboard/arena_hard_leaderboard_20240731.csv'),
  join(REAL, 'ko-arena-hard-auto/leaderboard/arena_hard_leaderboard_20250423_ensemble/no_control.csv'),
];


describe('Arena-Hard-Auto leaderboard CSV', () => {
  for (const file of FILES) {
    it(`is a summary of each model's figures: ${file.split('/').slice(-2).join('/')}`, () => {
      expect(detectFormat(file, readFileSync(file, 'utf8'))).toBe('summary');
      const ref: Record<string, number> = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY_PANDAS_SUMMARY, file, 'model'], { encoding: 'utf8' }));
      const r = scoreFile(file, { bootstrap: 0 });
      expect(r.fatal).toBeUndefined();
      expect(r.n).toBe(0);
      expect(r.summary?.harness).toBe('Arena-Hard-Auto');
      expect(Object.keys(r.reported!).sort()).toEqual(Object.keys(ref).sort());
      for (const [k, v] of Object.entries(ref)) expect(r.reported![k]).toBeCloseTo(v, 9);
      expect(r.summary!.figures.every((f) => f.model !== undefined)).toBe(true);
    });
  }
});
