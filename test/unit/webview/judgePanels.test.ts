// The judge panels' data (issue 27, webview/judge/ and src/charts/): the charts' numbers against
// counts made in Python straight from the raw files (FastChat's rules: score -1 dropped, a pair a
// win only where both orders agree, an "error" in either order left out), the win probabilities
// from the ratings, the forest rows, the figures in words, and the instance table's judge columns.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scorePath } from '../../../src/core';
import type { Palette } from '../../../src/charts/palette';
import type { Report } from '../../../src/core/types';
import { distributionScores, distributionShares, scoreDistributionConfig } from '../../../src/charts/scoreDistribution';
import { MAX_PAIRS_DRAWN, pairShares, pairsToDraw, winTieLossConfig } from '../../../src/charts/winTieLoss';
import { forestConfig, forestRange } from '../../../src/charts/forest';
import { judgedForestRows, ratingForestRows } from '../../../webview/judge/judgeCharts';
import { agreementWords, invalidWords, lengthBiasWords, meanText, positionBiasWords, winProbability, winProbabilityMatrix } from '../../../webview/judge/judgeWords';
import { isNumericField, judgeColumnFields } from '../../../webview/judge/judgeColumns';
import { cellData, cellText, csvColumnName, sortKeys, sortStrings, tableColumns } from '../../../webview/report/tableModel';
import { describeChart } from '../../../webview/common/chartTable';
import type { Chart } from '../../../webview/common/charts/common';

const ROOT = join(__dirname, '..', '..', '..');
const SINGLE = join(ROOT, 'test/fixtures/real/mt-bench/medusa/model_judgment/gpt-4_single.jsonl');
const GRANITE = join(ROOT, 'test/fixtures/real/mt-bench/instructlab-granite/gpt-4_single.jsonl');
const PAIR = join(ROOT, 'test/fixtures/real/mt-bench/phi-3-pair/gpt-4_pair.jsonl');
const ALPACA = join(ROOT, 'test/fixtures/judges/alpacaeval/toy-7b/alpaca_eval_gpt4/annotations.json');
const BATTLES = join(ROOT, 'test/fixtures/judges/arena/battles.jsonl');
const HUMANS = join(ROOT, 'test/fixtures/judges/arena/human_judgments.json');
const PYTHON = '/usr/bin/python3';
const HAVE_PYTHON = existsSync(PYTHON);

const palette = { foreground: '#ccc', background: '#1f1f1f', muted: '#999', grid: '#444', border: '#555', green: '#0f0', red: '#f00', blue: '#00f', purple: '#a0f', orange: '#fa0', yellow: '#ff0', highContrast: false, fontFamily: 'sans-serif', fontSize: 13, scale: 1 } as unknown as Palette;
const asChart = (config: { type: string; data: unknown; options?: unknown }) => ({ config, data: config.data, options: config.options ?? {} }) as unknown as Chart;

function python<T>(code: string, ...args: string[]): T {
  return JSON.parse(execFileSync(PYTHON, ['-c', code, ...args], { encoding: 'utf8' })) as T;
}

function report(path: string): Report {
  return scorePath(path, { bootstrap: 200, seed: 0 }).reports[0];
}

// Per model: each valid score's count (show_result.py drops score -1), straight from the file.
const DISTRIBUTION_PY = `
import json, sys, collections
by = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    if not line.strip(): continue
    r = json.loads(line)
    if r['score'] == -1: continue
    by[r['model']][float(r['score'])] += 1
print(json.dumps({m: sorted(c.items()) for m, c in by.items()}))
`;

// Per (model_1, model_2): FastChat's two-order rule over the file's pairs, "error" pairs left out.
const PAIRS_PY = `
import json, sys, collections
out = collections.defaultdict(lambda: [0, 0, 0])
for line in open(sys.argv[1]):
    if not line.strip(): continue
    r = json.loads(line)
    g1, g2 = r['g1_winner'], r['g2_winner']
    if 'error' in (g1, g2): continue
    k = r['model_1'] + '|' + r['model_2']
    if g1 == g2 == 'model_1': out[k][0] += 1
    elif g1 == g2 == 'model_2': out[k][2] += 1
    else: out[k][1] += 1
print(json.dumps(out))
`;

describe('judged scores: the distribution chart', () => {
  it.skipIf(!HAVE_PYTHON)('each model\'s bars are the shares of its valid grades, counted in Python from the raw file', () => {
    const r = report(SINGLE);
    const models = r.judge!.judged!.models;
    const want = python<Record<string, [number, number][]>>(DISTRIBUTION_PY, SINGLE);
    const config = scoreDistributionConfig(models, palette);
    const labels = config.data.labels as string[];
    expect(labels).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '8.5', '9', '9.5', '10']);
    models.forEach((m, k) => {
      const counts = new Map(want[m.model]);
      const n = [...counts.values()].reduce((a, b) => a + b, 0);
      const data = config.data.datasets[k].data as number[];
      labels.forEach((label, j) => expect(data[j]).toBeCloseTo((100 * (counts.get(Number(label)) ?? 0)) / n, 9));
      expect(config.data.datasets[k].label).toContain(`(n = ${n}, `);
    });
    // The text equivalent names each model's series (its data table has a column per model, a row per score).
    const words = describeChart(asChart(config as never), 'Score distribution per model');
    expect(words).toContain('Bar chart of Share of the model\'s valid verdicts (%) over 12 Judge score categories');
    for (const m of models) expect(words).toContain(m.model.slice(0, 20));
  });

  it('fills the whole scores of a small scale, keeps halves, and leaves a wide scale as given', () => {
    expect(distributionScores([{ model: 'm', distribution: [{ score: 2, count: 1 }, { score: 6.5, count: 2 }] }])).toEqual([2, 3, 4, 5, 6, 6.5]);
    expect(distributionScores([{ model: 'm', distribution: [{ score: 0, count: 1 }, { score: 100, count: 1 }] }])).toEqual([0, 100]);
    const s = distributionShares([{ model: 'a', distribution: [{ score: 1, count: 1 }, { score: 3, count: 3 }] }, { model: 'b', distribution: [] }]);
    expect(s.series[0].shares).toEqual([25, 0, 75]);
    expect(s.series[1]).toEqual({ model: 'b', n: 0, counts: [0, 0, 0], shares: [0, 0, 0] });
  });

  it('the means forest: a row per model over all turns and per turn, labelled with the turn, estimates and intervals as the report', () => {
    const models = report(SINGLE).judge!.judged!.models;
    const rows = judgedForestRows(models);
    expect(rows).toHaveLength(models.length * 3);
    const medusa = models[0];
    expect(rows[0]).toMatchObject({ estimate: medusa.mean, interval: medusa.interval, group: 0 });
    expect(rows[0].label).toBe('medusa-vicuna-7b-v1.3-1-t… · all turns');
    expect(rows[2]).toMatchObject({ estimate: medusa.turns[1].mean, interval: medusa.turns[1].interval, group: 2 });
    expect(rows[2].label.endsWith('· turn 2')).toBe(true);
    // A one-model file without turns beyond one: no repeated row.
    const one = judgedForestRows([{ ...medusa, turns: [{ ...medusa.turns[0], n: medusa.n }] }]);
    expect(one).toHaveLength(1);
  });

  it('invalid verdicts are said with their count and first lines (instructlab: 120 of 160 are -1)', () => {
    const r = report(GRANITE);
    expect(invalidWords(r.judge!)).toMatch(/^120 verdicts were invalid: .*score -1.* \(first on lines \d+, \d+, \d+, \d+, \d+, …\)\. They are left out/);
    expect(r.judge!.judged!.models[0].n).toBe(40);
  });

  it('a mean with its interval, or a word why it has none', () => {
    expect(meanText({ mean: 7.0208333, interval: [5.4289, 8.6128], questions: 12 })).toBe('7.021 [5.429, 8.613]');
    expect(meanText({ mean: 9, interval: null, questions: 1 })).toBe('9.000 (one question: no interval)');
    expect(meanText({ mean: null, interval: null, questions: 0 })).toBe('—');
  });
});

describe('pairwise: the win/tie/loss bars', () => {
  it.skipIf(!HAVE_PYTHON)('FastChat pairs: the shares under the two-order rule, counted in Python from the raw file', () => {
    const r = report(PAIR);
    const want = python<Record<string, [number, number, number]>>(PAIRS_PY, PAIR);
    const pairs = r.judge!.pairs!;
    expect(pairs).toHaveLength(Object.keys(want).length);
    const config = winTieLossConfig(pairs, palette);
    pairs.forEach((p, i) => {
      const [a, t, b] = want[`${p.a}|${p.b}`];
      const n = a + t + b;
      expect([p.wins_a, p.ties, p.wins_b, p.n]).toEqual([a, t, b, n]);
      expect(config.data.datasets[0].data[i]).toBeCloseTo((100 * a) / n, 9);
      expect(config.data.datasets[1].data[i]).toBeCloseTo((100 * t) / n, 9);
      expect(config.data.datasets[2].data[i]).toBeCloseTo((100 * b) / n, 9);
    });
    expect(describeChart(asChart(config as never), 'Wins, ties and losses per pair')).toContain('over 1 Pair categories');
  });

  it('shares sum to 100 for every pair with verdicts; a pair without any is empty', () => {
    const s = pairShares([{ a: 'x', b: 'y', wins_a: 3, wins_b: 1, ties: 1, n: 5 }, { a: 'x', b: 'z', wins_a: 0, wins_b: 0, ties: 0, n: 0 }]);
    expect(s.winsA[0] + s.ties[0] + s.winsB[0]).toBeCloseTo(100, 12);
    expect([s.winsA[1], s.ties[1], s.winsB[1]]).toEqual([0, 0, 0]);
    expect(s.labels).toEqual(['x vs y', 'x vs z']);
  });

  it('draws the most-judged pairs first when there are too many, in their own order', () => {
    const pairs = Array.from({ length: MAX_PAIRS_DRAWN + 5 }, (_, k) => ({ a: `a${k}`, b: 'b', wins_a: 1, wins_b: 1, ties: 0, n: k % 7 }));
    const drawn = pairsToDraw(pairs);
    expect(drawn).toHaveLength(MAX_PAIRS_DRAWN);
    const dropped = pairs.filter((p) => !drawn.includes(p));
    expect(Math.max(...dropped.map((p) => p.n))).toBeLessThanOrEqual(Math.min(...drawn.map((p) => p.n)));
    expect(drawn.map((p) => Number(p.a.slice(1)))).toEqual([...drawn.map((p) => Number(p.a.slice(1)))].sort((x, y) => x - y));
  });

  it('position bias in words: the counts of the report, the interval in percent, and which way the judge leans', () => {
    const bias = report(PAIR).judge!.position_bias!;
    const words = positionBiasWords(bias);
    expect(words).toContain(`on ${bias.differ} of ${bias.pairs} pairs: ${(100 * bias.rate!).toFixed(1)}%`);
    expect(words).toContain(`(95% Wilson interval ${(100 * bias.interval![0]).toFixed(1)}% to ${(100 * bias.interval![1]).toFixed(1)}%)`);
    expect(words).toContain(`won in both orders ${bias.first_shown} times, the answer shown second ${bias.second_shown} times, and ${bias.tie_in_one} were`);
    expect(words).toContain('leans towards the answer it reads first');
  });

  it('length bias in words: what the interval says about longer answers', () => {
    const alpaca = report(ALPACA).judge!.length_bias!;
    expect(lengthBiasWords(alpaca)).toMatch(/^Pearson's correlation .* is 0\.279 \(95% interval 0\.104 to 0\.437\) over 119 comparisons .*favours the longer answer/);
    expect(lengthBiasWords({ ...alpaca, interval: [-0.1, 0.2] })).toContain('no clear relation');
    expect(lengthBiasWords({ ...alpaca, interval: [-0.4, -0.1] })).toContain('favours the shorter answer');
    expect(lengthBiasWords({ ...alpaca, correlation: null, interval: null })).toMatch(/^No correlation over 119 comparisons/);
  });
});

describe('arena: ratings, forest and win probabilities', () => {
  it.skipIf(!HAVE_PYTHON)('P(row beats column) from the ratings, as numpy computes it, and as the report carries it', () => {
    const j = report(BATTLES).judge!;
    const ratings = j.ratings!;
    const matrix = winProbabilityMatrix(ratings);
    const want = python<number[][]>('import json, sys, numpy as np\nr = np.array(json.loads(sys.argv[1]))\nprint(json.dumps((1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))).tolist()))', JSON.stringify(ratings.map((r) => r.rating)));
    matrix.forEach((row, i) => row.forEach((p, k) => {
      expect(p).toBeCloseTo(want[i][k], 12);
      expect(p).toBeCloseTo(j.win_probabilities![i][k], 12);
      expect(p + matrix[k][i]).toBeCloseTo(1, 12);
    }));
    expect(winProbability(1100, 1000)).toBeCloseTo(1 / (1 + 10 ** -0.25), 15);
  });

  it('the forest: one row per model, best first, its rating and interval; the axis holds every interval and the 1000 line', () => {
    const ratings = report(BATTLES).judge!.ratings!;
    const rows = ratingForestRows(ratings);
    expect(rows.map((r) => r.estimate)).toEqual(ratings.map((r) => r.rating));
    expect(rows.map((r) => r.interval)).toEqual(ratings.map((r) => r.interval));
    expect(rows[0].label).toBe(`1. ${ratings[0].model}`);
    const [lo, hi] = forestRange(rows, 1000)!;
    for (const r of ratings) expect(lo < r.interval![0] && r.interval![1] < hi).toBe(true);
    const config = forestConfig(rows, { valueTitle: 'Rating (Elo scale)', rowTitle: 'Model', estimateName: 'Rating', reference: { value: 1000, label: 'mean 1000' } }, palette);
    // The text equivalent reads the floating bars' two ends as two columns, beside the ratings.
    const words = describeChart(asChart(config as never), 'Ratings');
    const lows = ratings.map((r) => r.interval![0]);
    const highs = ratings.map((r) => r.interval![1]);
    expect(words).toContain(`95% interval (bar): low from ${Math.min(...lows).toFixed(3)} to ${Math.max(...lows).toFixed(3)}`);
    expect(words).toContain(`95% interval (bar): high from ${Math.min(...highs).toFixed(3)} to ${Math.max(...highs).toFixed(3)}`);
    expect((config.data.datasets[0].data as unknown as [number, number][]).map((d) => d[0])).toEqual(ratings.map((r) => r.interval![0]));
    expect(config.data.datasets[1].data).toEqual(ratings.map((r) => r.rating));
    expect(config.data.datasets[2].data).toEqual(ratings.map(() => 1000));
  });

  it('the judge against humans in one sentence: agreement and kappa with its interval, as the report', () => {
    const a = report(HUMANS).judge!.agreement![0];
    const words = agreementWords(a);
    expect(words).toContain(`on ${a.n} samples judged by both: they agree on ${(100 * a.agreement!).toFixed(1)}%`);
    expect(words).toContain(`Cohen's kappa ${a.kappa!.toFixed(3)} (95% interval ${a.kappa_interval![0].toFixed(3)} to ${a.kappa_interval![1].toFixed(3)})`);
  });
});

describe('the instance table of a judge file', () => {
  it('shows each format\'s short fields as columns (model, question, turn, verdict), never the long texts', () => {
    expect(judgeColumnFields(report(SINGLE))).toEqual(['model', 'question_id', 'turn', 'score']);
    expect(judgeColumnFields(report(PAIR))).toEqual(['model_1', 'model_2', 'question_id', 'turn', 'g1_winner', 'g2_winner']);
    expect(judgeColumnFields(report(ALPACA))).toEqual(['generator_1', 'generator_2', 'preference', 'dataset']);
    expect(judgeColumnFields(report(BATTLES))).toEqual(['model_a', 'model_b', 'winner', 'judge', 'question_id']);
  });

  it('sorts and exports numbers as numbers and names as text', () => {
    const r = report(SINGLE);
    expect(isNumericField(r, 'score')).toBe(true);
    expect(isNumericField(r, 'model')).toBe(false);
    const cols = tableColumns(r);
    const keys = cols.map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['field:model', 'field:question_id', 'field:turn', 'field:score']));
    const score = cols.find((c) => c.key === 'field:score')!;
    expect(score.numeric).toBe(true);
    expect(csvColumnName(r, score)).toBe('score');
    const texts = r.texts!;
    const s = texts.fields.indexOf('score');
    const m = texts.fields.indexOf('model');
    expect(cellData(r, 'field:score', 5, 'equalWidth')).toBe(Number(texts.values[5][s]));
    expect(cellData(r, 'field:model', 5, 'equalWidth')).toBe(texts.values[5][m]);
    expect(cellText(r, 'field:model', 5, 'equalWidth')).toBe(texts.values[5][m]);
    const keysOf = sortKeys(r, 'field:score', 'equalWidth')!;
    expect(Array.from(keysOf)).toEqual(texts.values.map((v) => Number(v[s])));
    expect(sortKeys(r, 'field:model', 'equalWidth')).toBeNull();
    expect(sortStrings(r, 'field:model')).toEqual(texts.values.map((v) => v[m]));
  });
});
