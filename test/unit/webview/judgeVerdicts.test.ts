// The judge stepper's reading of a judge file's rows (webview/judge/verdictRows.ts) against the
// core's own reading of the same files (ScoresSet.judge, src/core/judges/), row for row; the lists
// of doubted verdicts against the report's counts and against Python over the raw file; the
// judge's prompt taken apart (promptParts.ts) on real FastChat prompts; and the host's reading of
// one record, whole, from a JSON Lines file and from a pretty-printed JSON array.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scorePath } from '../../../src/core';
import { parseFile } from '../../../src/core/score';
import type { Report } from '../../../src/core/types';
import type { JudgeRows } from '../../../src/core/judges/types';
import { doubtChoices, gameLabel, lossesOf, lowestScores, orderFlips, upsets, verdictKind, verdictRows, verdictWords } from '../../../webview/judge/verdictRows';
import { conversationTurns, promptParts } from '../../../webview/judge/promptParts';
import { lineBounds, recordAtLine } from '../../../src/extension/report/judgeRecord';
import { gameFields } from '../../../webview/judge/judgeStepper';

const ROOT = join(__dirname, '..', '..', '..');
const SINGLE = join(ROOT, 'test/fixtures/real/mt-bench/medusa/model_judgment/gpt-4_single.jsonl');
const PAIR = join(ROOT, 'test/fixtures/real/mt-bench/phi-3-pair/gpt-4_pair.jsonl');
const ALPACA = join(ROOT, 'test/fixtures/judges/alpacaeval/toy-7b/alpaca_eval_gpt4/annotations.json');
const WEIGHTED = join(ROOT, 'test/fixtures/judges/alpacaeval/toy-7b/weighted_alpaca_eval_gpt4_turbo/annotations.json');
const BATTLES = join(ROOT, 'test/fixtures/judges/arena/battles.jsonl');
const HARD_V01 = join(ROOT, 'test/fixtures/real/arena-hard/arena-hard-auto-greek/data/arena-hard-v0.1/model_judgment/claude-3.5-sonnet-v2/krikri-annealing-sft-mixed-run1.jsonl');
const HARD_V2 = join(ROOT, 'test/fixtures/judges/arena-hard/arena-hard-v2.0/model_judgment/gpt-4.1/toy-model.jsonl');
const PYTHON = '/usr/bin/python3';
const HAVE_PYTHON = existsSync(PYTHON);

function both(path: string): { report: Report; rows: JudgeRows } {
  const report = scorePath(path, { bootstrap: 0 }).reports[0];
  const set = parseFile(path, {}).set;
  if (!set || set.kind !== 'scores' || !set.judge) throw new Error(`${path}: no judge rows`);
  return { report, rows: set.judge };
}

describe('a judge file\'s rows as the stepper reads them', () => {
  it('tells the four layouts apart by their fields', () => {
    expect(verdictKind(['model', 'question_id', 'turn', 'score', 'user_prompt', 'judgment'])).toBe('judged');
    expect(verdictKind(['model_1', 'model_2', 'question_id', 'turn', 'g1_winner', 'g2_winner'])).toBe('orders');
    expect(verdictKind(['instruction', 'generator_1', 'output_1', 'generator_2', 'output_2', 'preference'])).toBe('preference');
    expect(verdictKind(['model_a', 'model_b', 'winner'])).toBe('battle');
    expect(verdictKind(['question', 'answer'])).toBeNull();
  });

  it('MT-Bench single: model, question, turn and grade of every row as the core reads them; the lowest grades first', () => {
    const { report, rows } = both(SINGLE);
    if (rows.kind !== 'judged') throw new Error('not judged');
    const view = verdictRows(report)!;
    expect(view.kind).toBe('judged');
    expect(view.n).toBe(rows.score.length);
    for (let i = 0; i < view.n; i++) {
      expect(view.models(i)).toEqual([rows.models[rows.model[i]]]);
      expect(view.question(i)).toBe(rows.questions[rows.question[i]]);
      expect(view.turn(i)).toBe(rows.turn[i]);
      expect(view.value(i)).toBe(rows.score[i]);
    }
    const lowest = lowestScores(view);
    expect(lowest).toHaveLength(view.n);
    const scores = Array.from(lowest, (i) => rows.score[i]);
    expect(scores).toEqual([...rows.score].sort((a, b) => a - b));
    // Ties in file order.
    for (let k = 1; k < lowest.length; k++) if (scores[k] === scores[k - 1]) expect(lowest[k]).toBeGreaterThan(lowest[k - 1]);
    expect(verdictWords(view, lowest[0])).toBe(`score ${report.texts!.values[lowest[0]][report.texts!.fields.indexOf('score')]}`);
    expect(doubtChoices(view, report).map((c) => c.key)).toEqual(['lowest']);
  });

  it('FastChat pairs: both orders and the two-order outcome as the core; the flips are the position bias\'s pairs; the losses its win table\'s', () => {
    const { report, rows } = both(PAIR);
    if (rows.kind !== 'pair') throw new Error('not pairs');
    const view = verdictRows(report)!;
    expect(view.kind).toBe('orders');
    const side = (g: number) => (g === 1 ? 'a' : g === 2 ? 'b' : 'tie');
    for (let i = 0; i < view.n; i++) {
      expect(view.models(i)).toEqual([rows.models[rows.a[i]], rows.models[rows.b[i]]]);
      expect(view.outcome(i)).toBe(rows.outcome[i]);
      expect(view.orders(i)).toEqual([side(rows.g1![i]), side(rows.g2![i])]);
    }
    const bias = report.judge!.position_bias!;
    expect(orderFlips(view)).toHaveLength(bias.differ);
    for (const w of report.judge!.win_table!) expect(lossesOf(view, w.model)).toHaveLength(w.loss);
    const choices = doubtChoices(view, report);
    expect(choices.map((c) => c.key)).toEqual(['flips', ...report.judge!.models.map((m) => `loss:${m}`)]);
    const flip = orderFlips(view)[0];
    expect(verdictWords(view, flip)).toMatch(/under the two-order rule \(order 1: .*; order 2: .*\)$/);
  });

  it.skipIf(!HAVE_PYTHON)('FastChat pairs: the flips are the lines where g1_winner and g2_winner differ, no "error", in Python over the raw file', () => {
    const { report } = both(PAIR);
    const view = verdictRows(report)!;
    const want = JSON.parse(execFileSync(PYTHON, ['-c', `
import json, sys
lines = []
for k, line in enumerate(open(sys.argv[1]), 1):
    if not line.strip(): continue
    r = json.loads(line)
    if 'error' in (r['g1_winner'], r['g2_winner']): continue
    if r['g1_winner'] != r['g2_winner']: lines.append(k)
print(json.dumps(lines))`, PAIR], { encoding: 'utf8' })) as number[];
    expect(Array.from(orderFlips(view), (i) => report.instances!.lines[i])).toEqual(want);
  });

  it('AlpacaEval: the preference as the core reads it (0 a draw), the losses to the baseline, the clearest first', () => {
    for (const path of [ALPACA, WEIGHTED]) {
      const { report, rows } = both(path);
      if (rows.kind !== 'preference') throw new Error('not preferences');
      const view = verdictRows(report)!;
      for (let i = 0; i < view.n; i++) {
        expect(view.value(i)).toBeCloseTo(rows.preference[i], 12);
        expect(view.models(i)).toEqual([rows.models[rows.model[i]], rows.models[rows.baseline[i]]]);
      }
      const w = report.judge!.win_rates![0];
      const losses = lossesOf(view, w.model);
      expect(losses).toHaveLength(w.n_wins_base);
      const prefs = Array.from(losses, (i) => rows.preference[i]);
      expect(prefs).toEqual([...prefs].sort((a, b) => a - b));
      expect(verdictWords(view, losses[0])).toContain('(the baseline) preferred');
    }
  });

  it('arena battles: the outcome as the core; the losses per model as its win table; upsets are wins of the lower-rated model', () => {
    const { report, rows } = both(BATTLES);
    if (rows.kind !== 'pair') throw new Error('not battles');
    const view = verdictRows(report)!;
    expect(view.kind).toBe('battle');
    for (let i = 0; i < view.n; i++) expect(view.outcome(i)).toBe(rows.outcome[i]);
    for (const w of report.judge!.win_table!) expect(lossesOf(view, w.model)).toHaveLength(w.loss);
    const ratings = report.judge!.ratings!;
    const rating = new Map(ratings.map((r) => [r.model, r.rating]));
    const up = upsets(view, ratings);
    let want = 0;
    for (let i = 0; i < view.n; i++) {
      const [a, b] = view.models(i);
      const o = rows.outcome[i];
      if ((o === 1 && rating.get(a)! < rating.get(b)!) || (o === 0 && rating.get(b)! < rating.get(a)!)) want++;
    }
    expect(up).toHaveLength(want);
    const gap = (i: number) => Math.abs(rating.get(view.models(i)[0])! - rating.get(view.models(i)[1])!);
    for (let k = 1; k < up.length; k++) expect(gap(up[k - 1])).toBeGreaterThanOrEqual(gap(up[k]));
    expect(doubtChoices(view, report).map((c) => c.key)).toEqual(['upsets', ...ratings.map((r) => `loss:${r.model}`)]);
  });
});

describe('Arena-Hard-Auto: one row per game against the baseline', () => {
  for (const path of [HARD_V01, HARD_V2]) {
    it(`${path.includes('v2.0') ? 'v2.0' : 'v0.1'}: the model's outcome in each game as the core; flips are the questions whose games disagree; losses as the core's`, () => {
      const { report, rows } = both(path);
      if (rows.kind !== 'pair') throw new Error('not pairs');
      const view = verdictRows(report)!;
      expect(view.kind).toBe('games');
      for (let i = 0; i < view.n; i++) {
        expect(view.models(i)).toEqual([rows.models[rows.a[i]], rows.models[rows.b[i]]]);
        expect(view.outcome(i)).toBe(rows.outcome[i]);
      }
      const flips = orderFlips(view);
      expect(flips.length).toBe(2 * report.judge!.position_bias!.differ);
      const model = rows.models[rows.a[0]];
      expect(lossesOf(view, model)).toHaveLength(Array.from(rows.outcome).filter((o, i) => rows.models[rows.a[i]] === model && o === 0).length);
      expect(doubtChoices(view, report).map((c) => c.key)).toEqual(['flips', `loss:${model}`]);
      expect(verdictWords(view, 0)).toMatch(/^\S+: .* \(game [12]: Assistant A is /);
    });
  }

  it('v0.1: each game\'s two answers from its whole prompt (game 1: the baseline is A), their lengths the core\'s', () => {
    const { rows } = both(HARD_V01);
    if (rows.kind !== 'pair') throw new Error('not pairs');
    // The prompts as the file holds them (the page's are cut at 4,000 characters; the host reads these).
    const lengths: [number, number][] = [];
    for (const line of readFileSync(HARD_V01, 'utf8').split('\n').filter(Boolean)) {
      const record = JSON.parse(line) as { games: { user_prompt: string; score: string | null }[] };
      record.games.slice(0, 2).forEach((g, k) => {
        if (!g || gameLabel(g.score ?? '') === null) return;
        const [a, b] = promptParts(g.user_prompt).answers;
        const [model, baseline] = k === 1 ? [a, b] : [b, a];
        lengths.push([[...model].length, [...baseline].length]);
      });
    }
    expect(lengths).toEqual(Array.from(rows.lengthA, (a, i) => [a, rows.lengthB[i]]));
  });

  it('labels as Arena-Hard-Auto reads them; a record\'s game picked from its whole record (v0.1 user_prompt, v2.0 prompt messages)', () => {
    expect([gameLabel('A>>B'), gameLabel('[b>a]'), gameLabel(' A=B '), gameLabel('A>>>B'), gameLabel('')]).toEqual(['A>>B', 'B>A', 'A=B', null, null]);
    const v01 = gameFields({ games: JSON.stringify([{ user_prompt: 'p1', judgment: 'j1', score: 'A>B' }, { user_prompt: 'p2', judgment: 'j2', score: 'B>A' }]) }, 2);
    expect([v01.user_prompt, v01.judgment]).toEqual(['p2', 'j2']);
    const v2 = gameFields({ games: JSON.stringify([{ prompt: [{ role: 'system', content: 's' }, { role: 'user', content: 'u1' }], judgment: { answer: 'x' }, score: 'A=B' }, null]) }, 1);
    expect(v2.user_prompt).toBe('u1');
    expect(JSON.parse(v2.judgment)).toEqual({ answer: 'x' });
    expect(gameFields({ games: 'not json' }, 1)).toEqual({ games: 'not json' });
  });
});

describe('what a FastChat judge was shown, taken apart', () => {
  const records = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  it('single-v1 and single-math-v1: the question, the answer and the reference, between FastChat\'s markers', () => {
    const all = records(SINGLE);
    const plain = all.find((r) => (r.judge as string[])[1] === 'single-v1')!;
    const parts = promptParts(plain.user_prompt as string);
    expect(parts.question).toBe('Compose an engaging travel blog post about a recent trip to Hawaii, highlighting cultural experiences and must-see attractions.');
    expect(parts.answers).toHaveLength(1);
    expect(parts.answers[0].startsWith('Title: "Aloha Adventures')).toBe(true);
    expect(parts.answers[0]).not.toContain('[The End of');
    const math = all.find((r) => (r.judge as string[])[1] === 'single-math-v1')!;
    const m = promptParts(math.user_prompt as string);
    expect(m.reference).toBeTruthy();
    expect(m.question).not.toContain('[The Start of');
  });

  it('multi-turn: the conversation\'s turns, the last turn\'s question and answer', () => {
    const multi = records(SINGLE).find((r) => (r.judge as string[])[1] === 'single-v1-multi-turn')!;
    const parts = promptParts(multi.user_prompt as string);
    expect(parts.conversations).toHaveLength(1);
    expect(parts.conversations![0]).toHaveLength(2);
    expect(parts.question).toBe(parts.conversations![0][1].user);
    expect(parts.answers[0]).toBe(parts.conversations![0][1].answer);
    expect(conversationTurns('### User:\nhi\n\n### Assistant A:\nhello\n')).toEqual([{ user: 'hi', answer: 'hello' }]);
  });

  it('pair-v2: both answers, A then B, whose lengths are the ones the core\'s length bias read from the same prompt', () => {
    const { rows } = both(PAIR);
    if (rows.kind !== 'pair') throw new Error('not pairs');
    const file = records(PAIR).filter((r) => r.g1_winner !== 'error' && r.g2_winner !== 'error');
    let checked = 0;
    file.forEach((r, i) => {
      const parts = promptParts(r.g1_user_prompt as string);
      if ((r.judge as string[])[1] !== 'pair-v2') return;
      expect(parts.answers).toHaveLength(2);
      expect([...parts.answers[0]].length).toBe(rows.lengthA[i]);
      expect([...parts.answers[1]].length).toBe(rows.lengthB[i]);
      checked++;
    });
    expect(checked).toBeGreaterThan(10);
  });

  it('a prompt cut inside the first answer gives that answer to the end and no second one; an unknown template gives nothing', () => {
    const cut = '[User Question]\nWhy?\n\n[The Start of Assistant A\'s Answer]\nBecause the';
    expect(promptParts(cut)).toEqual({ question: 'Why?', answers: ['Because the'] });
    expect(promptParts('Rate this: 42')).toEqual({ answers: [] });
  });
});

describe('one record of a judge file, whole, read by its line (the host)', () => {
  it('JSON Lines: the line alone, every field as text', () => {
    const bytes = new Uint8Array(readFileSync(PAIR));
    const lines = readFileSync(PAIR, 'utf8').split('\n');
    const got = recordAtLine(bytes, 40);
    if (!('fields' in got)) throw new Error(got.error);
    const want = JSON.parse(lines[39]);
    expect(got.fields.g1_user_prompt).toBe(want.g1_user_prompt);
    expect(got.fields.g1_user_prompt.length).toBeGreaterThan(4000);
    expect(got.fields.question_id).toBe(String(want.question_id));
    expect(got.fields.judge).toBe(JSON.stringify(want.judge, null, 1));
    expect(lineBounds(bytes, lines.length + 5)).toBeNull();
  });

  it('a pretty-printed JSON array (AlpacaEval): the record that starts on that line', () => {
    const { report } = both(ALPACA);
    const k = 7;
    const line = report.instances!.lines[k];
    const got = recordAtLine(new Uint8Array(readFileSync(ALPACA)), line);
    if (!('fields' in got)) throw new Error(got.error);
    const all = JSON.parse(readFileSync(ALPACA, 'utf8')) as Record<string, unknown>[];
    const want = all.find((r) => r.instruction === report.texts!.values[k][report.texts!.fields.indexOf('instruction')])!;
    expect(got.fields.output_1).toBe(want.output_1);
    expect(got.fields.output_2).toBe(want.output_2);
    expect(recordAtLine(new Uint8Array(readFileSync(ALPACA)), 3)).toEqual({ error: 'no record starts on line 3' });
  });

  it('an arena conversation as the arena reader writes it: "role: content" turns', () => {
    const text = '{"model_a": "x", "model_b": "y", "winner": "tie", "conversation_a": [{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A."}]}\n';
    const got = recordAtLine(new TextEncoder().encode(text), 1);
    expect(got).toEqual({ fields: { model_a: 'x', model_b: 'y', winner: 'tie', conversation_a: 'user: Q?\n\nassistant: A.' } });
  });
});
