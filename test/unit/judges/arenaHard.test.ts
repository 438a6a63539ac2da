// Arena-Hard-Auto judgments (model_judgment/<judge>/<model>.jsonl, two games per question): real v0.1
// files of three forks (test/fixtures/real/arena-hard: ko-arena-hard-auto's judge ensemble with its
// config and leaderboard, arena-hard-auto-greek's Claude judgments with the judge prompts,
// arena-hard-local's bracketed labels) and a v2.0 file made in gen_judgment.py's shape
// (test/fixtures/judges/make_arena_hard.py), each figure against test/reference/arena_hard_reference.py
// (Arena-Hard-Auto's own scoring, written from its show_result.py) and the leaderboard's own figure.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';
import { runCli } from '../../../src/cli/main';
import { HAVE_PYTHON, MADE, PY, ROOT, close } from './reference';

const REAL = join(ROOT, 'test', 'fixtures', 'real', 'arena-hard');
const KO = join(REAL, 'ko-arena-hard-auto');
const KO_DIR = join(KO, 'data', 'ko-arena-hard-v0.1', 'model_judgment', 'ensemble');
const O1 = join(KO_DIR, 'o1-high.jsonl');
const KO_SELF = join(KO_DIR, 'claude-3.7-sonnet.jsonl');
const GREEK = join(REAL, 'arena-hard-auto-greek', 'data', 'arena-hard-v0.1', 'model_judgment', 'claude-3.5-sonnet-v2', 'krikri-annealing-sft-mixed-run1.jsonl');
const LOCAL = join(REAL, 'arena-hard-local', 'Phi-3-medium-128k-instruct-checkpoint.jsonl');
const V2 = join(MADE, 'arena-hard', 'arena-hard-v2.0', 'model_judgment', 'gpt-4.1', 'toy-model.jsonl');

interface RefModel {
  model: string; baseline: string; category: string; games: number; battles: number; wins: number; losses: number; ties: number;
  score: number; se: number; questions: number; position_bias: number | null; pairs: number; differ: number; harness_score: number; elo?: number;
}

function reference(path: string, baseline?: string): { v2: boolean; baseline: string; models: Record<string, RefModel> } {
  return JSON.parse(execFileSync(PY, [join(ROOT, 'test', 'reference', 'arena_hard_reference.py'), path, ...(baseline ? [baseline] : [])], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

function head(path: string): string {
  return readFileSync(path, 'utf8').slice(0, 16 * 1024);
}

describe('Arena-Hard-Auto judgments', () => {
  it('are detected by their games, before MT-Bench reads the games\' judgment keys as a single-answer file', () => {
    for (const f of [O1, GREEK, LOCAL, V2]) expect(detectFormat(f, head(f))).toBe('arena-hard');
    // Before: the Greek and arena-hard-local files were MT-Bench singles ("score" missing on every line).
    const r = scoreFile(GREEK);
    expect(r.format).toBe('arena-hard');
    expect(r.fatal).toBeUndefined();
  });

  it.skipIf(!HAVE_PYTHON)('ko-arena-hard-auto: the baseline from config/judge_config.yaml, the score as its leaderboard and its own Bradley–Terry give it', () => {
    const ref = reference(O1, 'claude-3.7-sonnet').models['o1-high vs claude-3.7-sonnet'];
    const r = scoreFile(O1);
    expect(r.format).toBe('arena-hard');
    expect(r.kind).toBe('scores');
    expect(r.n).toBe(1000); // 500 questions, two games each, none unreadable
    const w = r.judge!.win_rates![0];
    expect(w.model).toBe('o1-high');
    expect(w.baseline).toBe('claude-3.7-sonnet');
    expect(r.judge!.win_rate_rule).toBe('arena-hard');
    close(w.win_rate, ref.score, 1e-9, 'win rate (share of battles)');
    close(w.win_rate, ref.harness_score, 1e-6, "win rate against Arena-Hard's Bradley-Terry fit");
    close(r.metrics.win_rate, ref.score, 1e-9, 'metrics.win_rate');
    close(w.standard_error, ref.se, 1e-9, 'clustered SE');
    close(r.standard_errors!.win_rate, ref.se, 1e-9, 'standard_errors.win_rate');
    expect([w.n_wins, w.n_wins_base, w.n_draws, w.n_total, w.questions]).toEqual([ref.wins, ref.losses, ref.ties, ref.battles, ref.questions]);
    // The leaderboard's own row (leaderboard/arena_hard_leaderboard_20250423_ensemble/no_control.csv): score 57.92.
    const board = readFileSync(join(KO, 'leaderboard', 'arena_hard_leaderboard_20250423_ensemble', 'no_control.csv'), 'utf8')
      .split('\n').find((l) => l.startsWith('o1-high,'))!.split(',');
    expect(Math.abs(w.win_rate! - Number(board[1]))).toBeLessThan(0.005);
    close(ref.elo, Number(board[5]), 1e-4, 'the reference reproduces the leaderboard\'s elo_score');
    // Position bias: questions whose two games name different winners.
    const pb = r.judge!.position_bias!;
    expect([pb.differ, pb.pairs]).toEqual([ref.differ, ref.pairs]);
    close(pb.rate, ref.position_bias, 1e-12, 'position bias');
    close(r.metrics.position_bias, ref.position_bias, 1e-12, 'metrics.position_bias');
    expect(pb.first_shown + pb.second_shown + pb.tie_in_one).toBe(pb.differ);
    expect(r.problems.some((p) => p.message.includes('baseline_model: claude-3.7-sonnet'))).toBe(true);
  });

  it('the baseline judged against itself is no comparison: one sentence that says so', () => {
    const r = scoreFile(KO_SELF);
    expect(r.fatal).toContain('judges claude-3.7-sonnet against itself');
    expect(r.n).toBe(0);
  });

  it.skipIf(!HAVE_PYTHON)('arena-hard-auto-greek: strong verdicts count three, the baseline from its config, answer lengths from the judge prompts', () => {
    const ref = reference(GREEK, 'gpt-4o-mini').models['krikri-annealing-sft-mixed-run1 vs gpt-4o-mini'];
    const r = scoreFile(GREEK);
    expect(r.n).toBe(12);
    const w = r.judge!.win_rates![0];
    expect(w.baseline).toBe('gpt-4o-mini');
    close(w.win_rate, ref.score, 1e-9, 'win rate');
    close(w.win_rate, ref.harness_score, 1e-6, 'against the Bradley-Terry fit');
    close(w.standard_error, ref.se, 1e-9, 'SE');
    expect(w.n_total).toBe(ref.battles);
    expect(ref.battles).toBeGreaterThan(12); // strong verdicts weigh three
    expect(r.judge!.position_bias!.differ).toBe(ref.differ);
    // The answers are in the prompts: a length bias over every game.
    expect(r.judge!.length_bias!.n).toBe(12);
  });

  it('arena-hard-local: labels written in brackets ("[A=B]") are read as the label they spell, and said', () => {
    const r = scoreFile(LOCAL);
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(10);
    expect(r.judge!.win_rates![0].win_rate).toBe(50);
    expect(r.judge!.win_rates![0].n_draws).toBe(10);
    expect(r.problems.find((p) => p.message.includes('in brackets'))!.message).toContain('10 verdicts');
    // No config above it: the baseline is unnamed, and the report says where it would be.
    expect(r.judge!.win_rates![0].baseline).toBe('baseline');
    expect(r.problems.some((p) => p.message.includes("judge_config.yaml's baseline_model"))).toBe(true);
  });

  it.skipIf(!HAVE_PYTHON)('v2.0: per category and baseline, a question with a null or unreadable game left out whole, figures as show_result.py', () => {
    const ref = reference(V2);
    const r = scoreFile(V2);
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(22); // 14 questions, 3 left out
    expect(r.judge!.invalid).toBe(6);
    expect(r.problems.find((p) => p.code === 'invalid-verdict')!.message).toContain('6 of 28 verdicts');
    expect(r.problems.find((p) => p.code === 'bad-label')!.message).toContain('"A>>>B"');
    const rows = r.judge!.win_rates!;
    expect(rows.map((w) => `${w.model} vs ${w.baseline} (${w.category})`).sort()).toEqual(Object.keys(ref.models).sort());
    for (const w of rows) {
      const want = ref.models[`${w.model} vs ${w.baseline} (${w.category})`];
      close(w.win_rate, want.harness_score, 1e-9, `${w.category}: v2.0's mean of the exploded battle scores`);
      close(w.standard_error, want.se, 1e-9, `${w.category}: SE`);
      expect([w.n_wins, w.n_wins_base, w.n_draws, w.n_total, w.rows]).toEqual([want.wins, want.losses, want.ties, want.battles, want.games]);
    }
    // Two categories: no one figure over both; a group each.
    expect(r.metrics.win_rate).toBeUndefined();
    expect(r.groups!.groups.map((g) => g.value).sort()).toEqual(Object.keys(ref.models).sort());
    const differ = Object.values(ref.models).reduce((s, m) => s + m.differ, 0);
    const pairs = Object.values(ref.models).reduce((s, m) => s + m.pairs, 0);
    expect([r.judge!.position_bias!.differ, r.judge!.position_bias!.pairs]).toEqual([differ, pairs]);
  });

  it.skipIf(!HAVE_PYTHON)('several models in one file: arena ratings by the shared Bradley–Terry code, their differences those of Arena-Hard\'s fit', () => {
    // Two models' files of the ko layout concatenated, beside the same config.
    const dir = mkdtempSync(join(tmpdir(), 'arena-hard-'));
    cpSync(KO, join(dir, 'ko'), { recursive: true });
    const ensemble = join(dir, 'ko', 'data', 'ko-arena-hard-v0.1', 'model_judgment', 'ensemble');
    const copyRecords = readFileSync(O1, 'utf8').split('\n').filter(Boolean).map((l) => {
      const x = JSON.parse(l);
      x.model = 'o1-high-copy';
      x.games = x.games.map((g: { score: string }) => ({ score: g.score.includes('>>') ? g.score.replace('>>', '>') : g.score }));
      return JSON.stringify(x);
    });
    const both = join(ensemble, 'two-models.jsonl');
    writeFileSync(both, `${readFileSync(O1, 'utf8').trim()}\n${copyRecords.join('\n')}\n`);
    const ref = reference(both, 'claude-3.7-sonnet').models;
    const r = scoreFile(both, { bootstrap: 0 });
    const ratings = r.judge!.ratings!;
    expect(ratings.map((x) => x.model).sort()).toEqual(['claude-3.7-sonnet', 'o1-high', 'o1-high-copy']);
    const rating = (m: string) => ratings.find((x) => x.model === m)!.rating;
    for (const m of ['o1-high', 'o1-high-copy']) {
      const want = ref[`${m} vs claude-3.7-sonnet`];
      close(rating(m) - rating('claude-3.7-sonnet'), want.elo! - 1000, 0.05, `${m}: rating above the baseline`);
      // Against the baseline alone, the fit gives each model its share of the battles.
      close(100 / (1 + 10 ** ((rating('claude-3.7-sonnet') - rating(m)) / 400)), want.score, 1e-3, `${m}: predicted win rate`);
    }
    expect(r.judge!.headline).toBe('rating');
  });

  it('the CLI names the rule in its tables', async () => {
    const text = (await runCli(['score', O1])).stdout;
    expect(text).toContain('Arena-Hard-Auto score against the baseline');
    expect(text).not.toContain('AlpacaEval win rate');
  });
});
