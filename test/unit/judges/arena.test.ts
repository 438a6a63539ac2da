// Arena ratings: Chatbot Arena battles (made in clean_battle_data.py's shape, a JSON array and
// JSON Lines) against the Chatbot Arena notebook's logistic regression in scikit-learn (to 0.05
// rating points), the bootstrap against the same refits in Python on the same resampled battles
// (the project's seeded draws), rank intervals, the JSON `ratings`, and the fit's edge cases.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';
import { runCli } from '../../../src/cli/main';
import { CountDraws } from '../../../src/core/metrics/bootstrap';
import { fitRatings, fitStrengths, pairTotals, toRatings, winProbabilities } from '../../../src/core/judges/bradleyTerry';
import { boardPaths } from '../../../src/core/boardFiles';
import { HAVE_PYTHON, MADE, ROOT, close, reference } from './reference';
import { readFileSync } from 'node:fs';

const BATTLES = join(MADE, 'arena', 'battles.json');
const LINES = join(MADE, 'arena', 'battles.jsonl');

function battlesFile(records: object[], name = 'battles.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-'));
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(records, null, 2));
  return path;
}

describe('Arena ratings', () => {
  it('battles are detected, as a JSON array and as JSON Lines', () => {
    for (const p of [BATTLES, LINES]) expect(detectFormat(p, readFileSync(p, 'utf8').slice(0, 16 * 1024))).toBe('arena');
  });

  for (const path of [BATTLES, LINES]) {
    it.skipIf(!HAVE_PYTHON)(`${path.endsWith('l') ? 'JSON Lines' : 'JSON array'}: Bradley–Terry ratings equal a logistic-regression fit to 0.05 points, centred on 1000`, () => {
      const ref = reference('arena', path);
      const r = scoreFile(path, { bootstrap: 50 });
      expect(r.n).toBe(ref.battles);
      expect(r.judge!.kind).toBe('arena');
      const ratings = r.judge!.ratings!;
      expect(ratings).toHaveLength(5);
      for (const row of ratings) close(row.rating, ref.ratings[row.model], 0.05, `${row.model} rating`);
      const mean = ratings.reduce((s, x) => s + x.rating, 0) / ratings.length;
      close(mean, 1000, 1e-9, 'mean rating');
      // Best first, ranked 1..5, each group's rating the same figure.
      expect(ratings.map((x) => x.rank)).toEqual([1, 2, 3, 4, 5]);
      for (const g of r.groups!.groups) close(g.metrics.rating, ratings.find((x) => x.model === g.value)!.rating, 1e-12, 'group rating');
    });
  }

  it.skipIf(!HAVE_PYTHON)('bootstrap intervals and rank intervals equal the refits of the same resampled battles in Python (fixed seed)', () => {
    const R = 60;
    const seed = 12345;
    const r = scoreFile(BATTLES, { bootstrap: R, seed });
    const n = r.n;
    // The resamples the fit drew: the project's seeded draws over the battles, in file order.
    const draws = new CountDraws(n, seed);
    const counts = Array.from({ length: R }, () => Array.from(draws.next()));
    const dir = mkdtempSync(join(tmpdir(), 'arena-'));
    const countsPath = join(dir, 'counts.json');
    writeFileSync(countsPath, JSON.stringify(counts));
    const ref = reference('arena', BATTLES, countsPath);
    expect(r.judge!.rating_bootstrap).toEqual({ resamples: R, seed, battles: n });
    for (const row of r.judge!.ratings!) {
      close(row.interval![0], ref.intervals[row.model][0], 0.05, `${row.model} 2.5%`);
      close(row.interval![1], ref.intervals[row.model][1], 0.05, `${row.model} 97.5%`);
      expect(row.rank_interval).toEqual(ref.rank_intervals[row.model]);
    }
  });

  it('1,000 resamples by default, seeded: the same seed gives the same intervals, another seed others', () => {
    const a = scoreFile(LINES);
    const b = scoreFile(LINES);
    const c = scoreFile(LINES, { seed: 7 });
    expect(a.judge!.rating_bootstrap!.resamples).toBe(1000);
    expect(a.judge!.ratings!.map((x) => x.interval)).toEqual(b.judge!.ratings!.map((x) => x.interval));
    expect(a.judge!.ratings!.map((x) => x.interval)).not.toEqual(c.judge!.ratings!.map((x) => x.interval));
    expect(a.judge!.ratings!.map((x) => x.rating)).toEqual(c.judge!.ratings!.map((x) => x.rating));
    for (const x of a.judge!.ratings!) {
      expect(x.interval![0]).toBeLessThan(x.rating);
      expect(x.interval![1]).toBeGreaterThan(x.rating);
      expect(x.tier).toBeGreaterThanOrEqual(1);
    }
  });

  it('--json: ratings: [{model, rating, interval, rank, rank_interval}], best first', async () => {
    const res = JSON.parse((await runCli(['score', '--json', '--bootstrap', '100', LINES])).stdout).results[0];
    expect(res.ratings).toHaveLength(5);
    for (const x of res.ratings) {
      expect(Object.keys(x)).toEqual(expect.arrayContaining(['model', 'rating', 'interval', 'rank', 'rank_interval']));
      expect(x.interval).toHaveLength(2);
    }
    const values = res.ratings.map((x: { rating: number }) => x.rating);
    expect([...values].sort((p: number, q: number) => q - p)).toEqual(values);
    expect(res.judge.win_probabilities).toHaveLength(5);
  });

  it('ties are half a win each way; tie (bothbad) is a tie; an unknown winner is an invalid verdict', () => {
    const b = (a: string, bm: string, winner: unknown) => ({ model_a: a, model_b: bm, winner, judge: 'arena_user_1', turn: 1 });
    // a beats b twice, b beats a once, one tie: a's score against b is 2.5 of 4.
    const path = battlesFile([b('a', 'b', 'model_a'), b('b', 'a', 'model_b'), b('a', 'b', 'model_b'), b('a', 'b', 'tie (bothbad)'),
      b('b', 'c', 'model_a'), b('c', 'b', 'model_a'), b('a', 'c', 'tie'), b('c', 'a', 'model_b'), b('a', 'c', 'draw')]);
    const r = scoreFile(path, { bootstrap: 20 });
    expect(r.n).toBe(8);
    expect(r.judge!.invalid).toBe(1);
    expect(r.problems.some((p) => p.code === 'bad-label' && /winner "draw"/.test(p.message))).toBe(true);
    // The likelihood's score equations: each model's expected total equals what it scored. a scored
    // 2.5 of 4 against b (two wins, a loss, a tie) and 1.5 of 2 against c (a win, a tie); b 1 of 2 against c.
    const rating = Object.fromEntries(r.judge!.ratings!.map((x) => [x.model, x.rating]));
    const p = (x: string, y: string) => 1 / (1 + 10 ** ((rating[y] - rating[x]) / 400));
    const expectedA = 4 * p('a', 'b') + 2 * p('a', 'c');
    close(expectedA, 2.5 + 1.5, 1e-6, "a's expected score");
    const expectedB = 4 * p('b', 'a') + 2 * p('b', 'c');
    close(expectedB, 1.5 + 1, 1e-6, "b's expected score");
  });

  it('a model that won every battle is said to have an unbounded rating; models that never met are said too', () => {
    const b = (a: string, bm: string, winner: string) => ({ model_a: a, model_b: bm, winner });
    const r = scoreFile(battlesFile([b('a', 'b', 'model_a'), b('a', 'c', 'model_a'), b('b', 'c', 'model_a'), b('c', 'b', 'model_a'), b('d', 'e', 'tie'), b('e', 'd', 'model_a')]), { bootstrap: 10 });
    expect(r.problems.some((p) => /^a won every battle it played/.test(p.message))).toBe(true);
    expect(r.problems.some((p) => /2 groups that never met/.test(p.message))).toBe(true);
    for (const x of r.judge!.ratings!) expect(Number.isFinite(x.rating)).toBe(true);
  });

  it('the fit: centred strengths, probabilities that mirror, and a refit from the fit converges to the same place', () => {
    const battles = { a: Int32Array.from([0, 1, 2, 0, 1]), b: Int32Array.from([1, 2, 0, 2, 0]), outcome: Float64Array.from([1, 0.5, 0, 1, 0.25]), models: 3 };
    const theta = fitStrengths(pairTotals(battles), 3);
    close(theta[0] + theta[1] + theta[2], 0, 1e-12, 'centred');
    const again = fitStrengths(pairTotals(battles), 3, theta);
    for (let i = 0; i < 3; i++) close(again[i], theta[i], 1e-9, 'refit');
    const p = winProbabilities(toRatings(theta));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) close(p[i][j] + p[j][i], 1, 1e-12, 'mirror');
    expect(fitRatings(battles, 0, 0).samples).toBeUndefined();
  });

  it('board on a battles file: one row per model, ranked by rating with the ratings\' rank intervals', () => {
    const result = boardPaths([LINES], { bootstrap: 100 });
    const board = result.board;
    expect(board.metric).toBe('rating');
    expect(board.rows).toHaveLength(5);
    const r = scoreFile(LINES, { bootstrap: 100 });
    board.rows.forEach((row, k) => {
      const x = r.judge!.ratings![k];
      expect(row.run).toBe(x.model);
      close(row.mean, x.rating, 1e-9, 'board mean');
      expect(row.rank_interval).toEqual(x.rank_interval);
      expect(row.tier).toBe(x.tier);
    });
  });

  it.skipIf(!HAVE_PYTHON)("Arena-Hard-Auto's own battles file (arena-hard-local): strong verdicts already repeated, the baseline against itself said once, ratings as the notebook's fit", () => {
    const file = join(ROOT, 'test', 'fixtures', 'real', 'arena-hard', 'arena-hard-local', 'arena_hard_battles.jsonl');
    expect(detectFormat(file, readFileSync(file, 'utf8').slice(0, 16 * 1024))).toBe('arena');
    const r = scoreFile(file, { bootstrap: 0 });
    const ref = reference('arena', file);
    expect(r.n).toBe(320); // 360 battles, 40 of the baseline against itself
    const self = r.problems.filter((p) => p.message.includes('against itself'));
    expect(self).toHaveLength(1);
    expect(self[0].message).toContain('40 battles of a model against itself');
    const ratings = new Map(r.judge!.ratings!.map((x) => [x.model, x.rating]));
    const base = 'Phi-3-medium-128k-instruct';
    for (const [m, want] of Object.entries(ref.ratings as Record<string, number>)) {
      // Differences (the reference keeps the notebook's centring; Eval Lens centres on the mean).
      close(ratings.get(m)! - ratings.get(base)!, want - (ref.ratings as Record<string, number>)[base], 0.05, `${m} above the baseline`);
    }
  });
});

