// AlpacaEval on a board: a win rate is against one baseline, judged by one annotator config, so the
// board's column is "<annotator> vs <baseline>" and AlpacaEval 1 (alpaca_eval_gpt4 against
// text_davinci_003) is never ranked in one column with AlpacaEval 2 (weighted_alpaca_eval_gpt4_turbo
// against gpt4_1106_preview). The annotations are hand-made in AlpacaEval's layout
// (results/<model>/<annotator>/annotations.json; the real ones are CC BY-NC).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boardPaths } from '../../../src/core/boardFiles';

function annotations(root: string, model: string, folder: string, annotator: string | undefined, baseline: string, preferences: number[]): void {
  const dir = join(root, model, folder);
  mkdirSync(dir, { recursive: true });
  const records = preferences.map((preference, i) => ({
    instruction: `instruction ${i}`, output_1: `baseline answer ${i}`, generator_1: baseline, dataset: 'helpful_base',
    output_2: `${model} answer ${i}`, generator_2: model, ...(annotator ? { annotator } : {}), preference,
  }));
  writeFileSync(join(dir, 'annotations.json'), JSON.stringify(records, null, 2));
}

/** AlpacaEval's win rate: 100 · mean(preference - 1). */
const winRate = (ps: number[]) => 100 * ps.reduce((s, p) => s + (p - 1), 0) / ps.length;

describe('AlpacaEval annotations on a board', () => {
  const root = mkdtempSync(join(tmpdir(), 'alpaca-board-'));
  const v1a = [2, 1, 1, 2, 1.5, 1];
  const v1b = [1, 1, 2, 1, 1, 1];
  const v2 = [1.9, 1.2, 1.05, 1.5, 1.75, 1.01];
  annotations(root, 'model-a', 'alpaca_eval_gpt4', 'alpaca_eval_gpt4', 'text_davinci_003', v1a);
  annotations(root, 'model-b', 'alpaca_eval_gpt4', 'alpaca_eval_gpt4', 'text_davinci_003', v1b);
  annotations(root, 'model-c', 'weighted_alpaca_eval_gpt4_turbo', 'weighted_alpaca_eval_gpt4_turbo', 'gpt4_1106_preview', v2);
  // No annotator field (older files): the folder AlpacaEval wrote them under names the config.
  annotations(root, 'model-d', 'alpaca_eval_gpt4_turbo_fn', undefined, 'gpt4_1106_preview', v2.slice(0, 3));

  it('puts each annotator config and baseline in its own column', () => {
    const board = boardPaths([root], { bootstrap: 0 }).board;
    expect(board.metric).toBe('win_rate');
    expect(board.columns).toEqual([
      'alpaca_eval_gpt4 vs text_davinci_003',
      'alpaca_eval_gpt4_turbo_fn vs gpt4_1106_preview',
      'weighted_alpaca_eval_gpt4_turbo vs gpt4_1106_preview',
    ]);
    const cell = (run: string, column: string) => board.rows.find((r) => r.run === run)!.values[column];
    expect(cell('model-a', 'alpaca_eval_gpt4 vs text_davinci_003')).toBeCloseTo(winRate(v1a), 9);
    expect(cell('model-b', 'alpaca_eval_gpt4 vs text_davinci_003')).toBeCloseTo(winRate(v1b), 9);
    expect(cell('model-c', 'weighted_alpaca_eval_gpt4_turbo vs gpt4_1106_preview')).toBeCloseTo(winRate(v2), 9);
    expect(cell('model-c', 'alpaca_eval_gpt4 vs text_davinci_003')).toBeNull();
    expect(cell('model-d', 'alpaca_eval_gpt4_turbo_fn vs gpt4_1106_preview')).toBeCloseTo(winRate(v2.slice(0, 3)), 9);
  });

  it('warns that rows with no column in common are not compared by their ranks', () => {
    const problems = boardPaths([root], { bootstrap: 0 }).board.problems;
    const w = problems.find((p) => p.severity === 'warning' && /annotator configs or baselines/.test(p.message));
    expect(w?.message).toMatch(/3 annotator configs or baselines/);
    expect(w?.message).toMatch(/alpaca_eval_gpt4 vs text_davinci_003: 2 models/);
  });

  it('says nothing more when every model was judged by one config against one baseline', () => {
    const one = mkdtempSync(join(tmpdir(), 'alpaca-board-one-'));
    annotations(one, 'model-a', 'alpaca_eval_gpt4', 'alpaca_eval_gpt4', 'text_davinci_003', v1a);
    annotations(one, 'model-b', 'alpaca_eval_gpt4', 'alpaca_eval_gpt4', 'text_davinci_003', v1b);
    const board = boardPaths([one], { bootstrap: 0 }).board;
    expect(board.columns).toEqual(['alpaca_eval_gpt4 vs text_davinci_003']);
    expect(board.rows.map((r) => r.run)).toEqual(['model-a', 'model-b']);
    expect(board.problems.filter((p) => p.severity === 'warning')).toEqual([]);
  });
});
