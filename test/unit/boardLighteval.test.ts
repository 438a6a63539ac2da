// `board` on lighteval folders whose files' figures are their task's own metrics (an "I don't know"
// task: trad_score, idk_score, idk_freq, extract_fail; no verdict). Before: the board's metric was
// judge_score with every cell "—" (exit 0), --metric trad_score was refused, rows were named after
// the details file, and a folder of results_*.json printed a bare header with exit 2 and no word.
// Files made by hand in lighteval's layout (convertLightevalFixture.ts); the expected means by hand.
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import { SIX, writeIdkDetails, writeIdkResults, type IdkRow } from './convertLightevalFixture';

const TASK = 'community|toy-idk|0';
const A = 'openrouter/acme/model-a';
const B = 'openrouter/acme/model-b';
const TS_A = '2025-09-26T18-27-03.114623';
const TS_B = '2025-09-26T18-27-42.841353';
// Model B: 3 of 4 right, 1 wrong, no "I don't know", nothing unextracted.
const FOUR: IdkRow[] = [
  { trad_score: 1, idk_score: 1, idk_freq: 0, extract_fail: 0, answer: 'A' },
  { trad_score: 1, idk_score: 1, idk_freq: 0, extract_fail: 0, answer: 'B' },
  { trad_score: 1, idk_score: 1, idk_freq: 0, extract_fail: 0, answer: 'C' },
  { trad_score: 0, idk_score: -1, idk_freq: 0, extract_fail: 0, answer: 'A' },
];
// By hand: A (SIX) 3/6, 2/6, 1/6, 1/6; B (FOUR) 3/4, (1+1+1-1)/4, 0, 0.
const MEAN_A = { trad_score: 0.5, idk_score: 1 / 3, idk_freq: 1 / 6, extract_fail: 1 / 6 };
const MEAN_B = { trad_score: 0.75, idk_score: 0.5, idk_freq: 0, extract_fail: 0 };

function twoRuns(withResults: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'eval-lens-board-idk-'));
  writeIdkDetails(root, A, TS_A, TASK, SIX);
  writeIdkDetails(root, B, TS_B, TASK, FOUR);
  if (withResults) {
    writeIdkResults(root, A, TS_A, TASK, MEAN_A);
    writeIdkResults(root, B, TS_B, TASK, MEAN_B);
  }
  return root;
}

async function board(args: string[]): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
  const r = await runCli(['board', ...args, '--bootstrap', '0', '--json']);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, json: r.code === 0 || r.code === 2 ? JSON.parse(r.stdout) : undefined };
}

describe('board: lighteval files of task metrics', () => {
  it('picks the first task metric every row has (the task\'s own order), says so, and names rows by model', async () => {
    const root = twoRuns(true);
    const { code, json } = await board([join(root, 'details')]);
    expect(code).toBe(0);
    const b = json.board;
    expect([b.metric, b.task_metric, b.better]).toEqual(['trad_score', true, 'higher']);
    expect(b.metric_note).toMatch(/^trad_score: the files' own task metric.*--metric picks another \(idk_score, idk_freq, extract_fail\); higher is better: declared by the source/);
    expect(b.rows.map((r: any) => [r.run, r.values[TASK]])).toEqual([[B, MEAN_B.trad_score], [A, MEAN_A.trad_score]]);
    // The table says it too.
    const text = await runCli(['board', join(root, 'details'), '--bootstrap', '0']);
    expect(text.stdout).toMatch(/^leaderboard: trad_score; higher is better/);
    expect(text.stdout).toContain('metric: trad_score: the files\' own task metric');
  });

  it('--metric names any task metric of the files, with its declared direction; an unknown one is refused with the list', async () => {
    const root = twoRuns(true);
    const { code, json } = await board([join(root, 'details'), '--metric', 'idk_freq']);
    expect(code).toBe(0);
    expect([json.board.metric, json.board.better]).toEqual(['idk_freq', 'lower']);
    expect(json.board.rows.map((r: any) => [r.run, r.values[TASK]])).toEqual([[B, 0], [A, MEAN_A.idk_freq]]);
    const idk = await board([join(root, 'details'), '--metric', 'idk_score']);
    expect(idk.json.board.rows.map((r: any) => r.values[TASK])).toEqual([MEAN_B.idk_score, MEAN_A.idk_score]);
    const bad = await runCli(['board', join(root, 'details'), '--metric', 'nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('their task metrics: trad_score, idk_score, idk_freq, extract_fail');
  });

  it('without results files: the model from lighteval\'s folders, the direction from the name', async () => {
    const root = twoRuns(false);
    const { code, json } = await board([join(root, 'details')]);
    expect(code).toBe(0);
    expect(json.board.rows.map((r: any) => r.run)).toEqual([B, A]);
    expect(json.board.metric).toBe('trad_score');
    expect(json.board.metric_note).toMatch(/higher is better: the metric's name/);
    // idk_freq: its name says neither way; the board orders it, and says it claims nothing.
    const freq = await board([join(root, 'details'), '--metric', 'idk_freq']);
    expect(freq.json.board.metric_note).toMatch(/^direction unknown: .*rows ordered highest first, not ranked by a claim/);
    expect(freq.json.board.rows.map((r: any) => r.run)).toEqual([A, B]);
  });

  it('a folder of results_*.json only: their reported figures, one row per model', async () => {
    const root = twoRuns(true);
    const { code, json } = await board([join(root, 'results')]);
    expect(code).toBe(0);
    expect([json.board.source, json.board.metric]).toEqual(['reported', 'trad_score']);
    expect(json.board.rows.map((r: any) => [r.run, r.values[TASK]])).toEqual([[B, MEAN_B.trad_score], [A, MEAN_A.trad_score]]);
  });

  it('an empty board says why', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'eval-lens-board-empty-'));
    mkdirSync(join(empty, 'nothing'));
    const r = await runCli(['board', empty]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('The board is empty');
  });
});
