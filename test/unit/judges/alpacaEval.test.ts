// AlpacaEval annotations: files made in its shape (test/fixtures/judges/make_fixtures.py; the real
// ones are CC BY-NC) against AlpacaEval's own describe_head2head in Python; a real annotations file
// against the leaderboard's figure when ../shared/data holds one; compare over shared instructions.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';
import { comparePaths } from '../../../src/core/compareFiles';
import { runCli } from '../../../src/cli/main';
import { parseCsv } from '../../../src/core/formats/csv';
import { sharedOnly } from '../realData';
import { HAVE_PYTHON, MADE, close, reference } from './reference';

const DISCRETE = join(MADE, 'alpacaeval', 'toy-7b', 'alpaca_eval_gpt4', 'annotations.json');
const WEIGHTED = join(MADE, 'alpacaeval', 'toy-7b', 'weighted_alpaca_eval_gpt4_turbo', 'annotations.json');
const OTHER = join(MADE, 'alpacaeval', 'toy-13b', 'alpaca_eval_gpt4', 'annotations.json');

describe('AlpacaEval annotations', () => {
  it('are detected from their keys', () => {
    for (const p of [DISCRETE, WEIGHTED]) expect(detectFormat(p, readFileSync(p, 'utf8').slice(0, 16 * 1024))).toBe('alpacaeval');
  });

  for (const [name, path] of [['discrete preferences (1, 2, 0 for a draw, one null)', DISCRETE], ['weighted preferences (fractions of [1, 2])', WEIGHTED]] as const) {
    it.skipIf(!HAVE_PYTHON)(`${name}: win rate, standard error and counts as the leaderboard computes them`, () => {
      const want = reference('alpaca', path)['toy-7b'];
      const r = scoreFile(path);
      expect(r.format).toBe('alpacaeval');
      expect(r.n).toBe(want.n_total);
      expect(r.judge!.invalid).toBe(want.invalid);
      const w = r.judge!.win_rates![0];
      expect(w.baseline).toBe(want.baseline);
      close(w.win_rate, want.win_rate, 1e-9, 'win_rate');
      close(w.standard_error, want.standard_error, 1e-9, 'standard_error');
      close(w.discrete_win_rate, want.discrete_win_rate, 1e-9, 'discrete_win_rate');
      expect([w.n_wins, w.n_wins_base, w.n_draws, w.n_total]).toEqual([want.n_wins, want.n_wins_base, want.n_draws, want.n_total]);
      close(r.metrics.win_rate, want.win_rate, 1e-9, 'metrics.win_rate');
      close(r.standard_errors!.win_rate, want.standard_error, 1e-9, 'standard_errors.win_rate');
      close(r.intervals.win_rate![0], want.win_rate - 1.959963984540054 * want.standard_error, 1e-9, 'interval');
      close(r.metrics.length_bias, want.length_bias, 1e-9, 'length_bias');
      close(r.judge!.length_bias!.interval![1], want.length_interval[1], 1e-9, 'length_bias interval');
      expect(r.groups!.groups.map((g) => g.value)).toEqual(['toy-7b']);
    });
  }

  it('a preference outside [1, 2] or of the wrong type is left out, with its line', () => {
    const records = JSON.parse(readFileSync(DISCRETE, 'utf8')).slice(0, 6);
    records[1].preference = 2.5;
    records[2].preference = 'B';
    delete records[3].generator_2;
    records[4].preference = 0;
    const dir = mkdtempSync(join(tmpdir(), 'alpaca-'));
    const path = join(dir, 'annotations.json');
    writeFileSync(path, JSON.stringify(records, null, 2));
    const r = scoreFile(path);
    expect(r.n).toBe(3);
    expect(r.judge!.invalid).toBe(1);
    expect(r.skipped).toBe(2);
    expect(r.problems.some((p) => /"preference" holds "B"/.test(p.message))).toBe(true);
    expect(r.problems.some((p) => /"generator_2" is missing/.test(p.message))).toBe(true);
    // 0 is a draw, counted half (the first record is one already).
    expect(records[0].preference).toBe(0);
    expect(r.judge!.win_rates![0].n_draws).toBe(2);
    expect(r.judge!.invalid_lines).toEqual([14]);
  });

  it.skipIf(!HAVE_PYTHON)('compare A B: the paired difference of win rates over the instructions both were judged on', () => {
    const a = reference('alpaca', DISCRETE)['toy-7b'].scores as Record<string, number>;
    const b = reference('alpaca', OTHER)['toy-13b'].scores as Record<string, number>;
    const shared = Object.keys(a).filter((k) => k in b);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const wa = 100 * mean(shared.map((k) => a[k]));
    const wb = 100 * mean(shared.map((k) => b[k]));
    const c = comparePaths([DISCRETE, OTHER], { bootstrap: 500, seed: 3 });
    expect(c.kind).toBe('scores');
    expect(c.aligned).toBe(shared.length);
    const m = c.metrics.win_rate!;
    close(m.values[0], wa, 1e-9, 'baseline win rate on shared instructions');
    close(m.values[1], wb, 1e-9, 'candidate win rate on shared instructions');
    close(m.deltas[1], wb - wa, 1e-9, 'paired difference');
    const [lo, hi] = m.intervals[1]!;
    expect(lo).toBeLessThan(wb - wa);
    expect(hi).toBeGreaterThan(wb - wa);
    expect(m.test).toBe('bootstrap');
    expect(m.p_values[1]).toBeGreaterThanOrEqual(0);
    // The same seed, the same interval.
    expect(comparePaths([DISCRETE, OTHER], { bootstrap: 500, seed: 3 }).metrics.win_rate!.intervals[1]).toEqual([lo, hi]);
  });

  it('compare says when the two were judged against different baselines or by different judges', () => {
    const other = JSON.parse(readFileSync(OTHER, 'utf8')).map((x: Record<string, unknown>) => ({ ...x, generator_1: 'text_davinci_003' }));
    const dir = mkdtempSync(join(tmpdir(), 'alpaca-'));
    const path = join(dir, 'annotations.json');
    writeFileSync(path, JSON.stringify(other));
    const c = comparePaths([DISCRETE, path], { bootstrap: 50 });
    expect(c.problems.some((p) => p.path === path && /Judged against text_davinci_003, and the baseline .* against gpt4_1106_preview/.test(p.message))).toBe(true);
    const w = comparePaths([DISCRETE, WEIGHTED], { bootstrap: 50 });
    expect(w.problems.some((p) => /Judged by weighted_alpaca_eval_gpt4_turbo, and the baseline .* by alpaca_eval_gpt4/.test(p.message))).toBe(true);
    expect(comparePaths([DISCRETE, OTHER], { bootstrap: 50 }).problems.filter((p) => /^Judged/.test(p.message))).toEqual([]);
  });

  it('compare on the command line', async () => {
    const out = await runCli(['compare', '--json', DISCRETE, OTHER]);
    expect(out.code).toBe(0);
    const c = JSON.parse(out.stdout).comparison;
    expect(c.metrics.win_rate.deltas[1]).toEqual(expect.any(Number));
  });

  // The real check: AlpacaEval's own annotations and the leaderboard's row for them. They are
  // CC BY-NC (not copied): put results/<model>/<annotator>/annotations.json of tatsu-lab/alpaca_eval
  // (cd543a149df89434d8a54582c0151c0b945c3d20) in ../shared/data/alpacaeval/<model>/<annotator>/, and
  // the annotator's leaderboard (src/alpaca_eval/leaderboards/data_AlpacaEval*/<annotator>_leaderboard.csv)
  // in ../shared/data/alpacaeval/. Checked: alpaca-7b (alpaca_eval_gpt4: 26.4596, SE 1.5357) and
  // FuseChat-Llama-3.2-1B-Instruct (weighted_alpaca_eval_gpt4_turbo, fractional: 29.9219, SE 1.3935).
  const realDir = sharedOnly('alpacaeval', 'AlpacaEval against its leaderboard');
  const real = realDir ? readdirSync(realDir, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((m) =>
    readdirSync(join(realDir, m.name)).map((annotator) => ({ model: m.name, annotator, path: join(realDir, m.name, annotator, 'annotations.json'), board: join(realDir, `${annotator}_leaderboard.csv`) })))
    .filter((x) => existsSync(x.path) && existsSync(x.board)) : [];
  it.skipIf(!real.length)('real annotations files give their leaderboard rows: win_rate, standard_error, discrete_win_rate and the counts', () => {
    for (const x of real) {
      const table = parseCsv(readFileSync(x.board, 'utf8'));
      const row = table.records.find((r) => r.fields[0] === x.model)!;
      const col = (name: string) => Number(row.fields[table.header.indexOf(name)]);
      const w = scoreFile(x.path).judge!.win_rates![0];
      close(w.win_rate, col('win_rate'), 1e-6, `${x.model} win_rate`);
      close(w.standard_error, col('standard_error'), 1e-6, `${x.model} standard_error`);
      close(w.discrete_win_rate, col('discrete_win_rate'), 1e-6, `${x.model} discrete_win_rate`);
      expect([w.n_wins, w.n_wins_base, w.n_draws, w.n_total]).toEqual([col('n_wins'), col('n_wins_base'), col('n_draws'), col('n_total')]);
    }
  });
});
