// The judge against humans: Cohen's kappa against scikit-learn's cohen_kappa_score, its large-sample
// SE against the Fleiss-Cohen-Everitt formula in numpy, the confusion table; an MT-Bench human
// judgments file (GPT-4 and experts on the same question, pair and turn) paired as FastChat's
// compute_agreement.py pairs them; a grade with a human's grade beside it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core';
import { judgeAgreement, kappaOf } from '../../../src/core/judges/kappa';
import { isHumanJudge } from '../../../src/core/judges/humanAgreement';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import { HAVE_PYTHON, MADE, REAL_MT_BENCH, close, reference } from './reference';

const HUMAN = join(MADE, 'arena', 'human_judgments.json');

function labels(seed: number, n: number, k: number, agree: number): { a: string[]; b: string[] } {
  const rand = mulberry32(seed);
  const a: string[] = [];
  const b: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = Math.floor(rand() * k);
    a.push(`c${x}`);
    b.push(rand() < agree ? `c${x}` : `c${Math.floor(rand() * k)}`);
  }
  return { a, b };
}

describe("Cohen's kappa", () => {
  const cases = [[1, 200, 3, 0.6], [2, 57, 2, 0.8], [3, 500, 5, 0.3], [4, 31, 4, 0.95]] as const;
  const sets = cases.map(([seed, n, k, agree]) => labels(seed, n, k, agree));
  // One Python run for every case (scikit-learn takes seconds to import).
  let refs: any[] = [];
  beforeAll(() => {
    if (!HAVE_PYTHON) return;
    const dir = mkdtempSync(join(tmpdir(), 'kappa-'));
    const path = join(dir, 'labels.json');
    writeFileSync(path, JSON.stringify(sets));
    refs = reference('kappa', path);
  });
  for (const [c, [, n, k]] of cases.entries()) {
    it.skipIf(!HAVE_PYTHON)(`equals scikit-learn on ${n} samples of ${k} labels, with the FCE standard error`, () => {
      const { a, b } = sets[c];
      const ref = refs[c];
      const got = judgeAgreement(a, b, { judge: 'judge', human: 'human' });
      close(got.kappa, ref.kappa, 1e-12, 'kappa');
      close(got.kappa_se, ref.se, 1e-12, 'kappa SE');
      close(got.agreement, ref.agreement, 1e-12, 'agreement');
      close(got.kappa_interval![0], ref.kappa - 1.959963984540054 * ref.se, 1e-9, 'interval');
      // The same confusion table, labels in order of first appearance.
      expect(got.labels).toEqual(ref.labels);
      expect(got.confusion).toEqual(ref.confusion);
    });
  }

  it('is undefined (null) when both sides always give one and the same label', () => {
    expect(kappaOf([[5]]).kappa).toBeNull();
    expect(kappaOf([[3, 0], [0, 2]]).kappa).toBe(1);
  });

  it('names people as people', () => {
    for (const h of ['expert_0', 'author_3', 'human', 'arena_user_12']) expect(isHumanJudge(h)).toBe(true);
    for (const j of ['gpt-4/pair-v2', 'claude-v1', 'alpaca_eval_gpt4']) expect(isHumanJudge(j)).toBe(false);
  });

  it.skipIf(!HAVE_PYTHON)('MT-Bench human judgments: GPT-4 against the experts, paired as compute_agreement.py pairs them', () => {
    const ref = reference('agreement', HUMAN);
    const r = scoreFile(HUMAN, { bootstrap: 20 });
    const a = r.judge!.agreement![0];
    expect(a.judge).toBe('gpt-4/pair-v2');
    expect(a.n).toBe(ref.confusion.flat().reduce((s: number, x: number) => s + x, 0));
    close(a.agreement, ref.agreement, 1e-12, 'agreement');
    close(a.kappa, ref.kappa, 1e-12, 'kappa');
    close(a.kappa_se, ref.se, 1e-12, 'kappa SE');
    expect(a.labels).toEqual(['model_a', 'model_b', 'tie']);
    // The reference lists labels as first seen; ours are model_a, model_b, tie: compare cell by cell.
    for (const [i, li] of a.labels.entries()) {
      for (const [j, lj] of a.labels.entries()) expect(a.confusion[i][j]).toBe(ref.confusion[ref.labels.indexOf(li)][ref.labels.indexOf(lj)]);
    }
    close(r.metrics.kappa, ref.kappa, 1e-12, 'metrics.kappa');
    close(r.metrics.agreement, ref.agreement, 1e-12, 'metrics.agreement');
    expect(r.intervals.kappa).toEqual(a.kappa_interval);
  });

  it('a grade with a human grade beside it (human_score) gives the agreement of the two', () => {
    const lines = readFileSync(join(REAL_MT_BENCH, 'medusa', 'model_judgment', 'gpt-4_single.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 12).map((l) => JSON.parse(l));
    lines.forEach((x, i) => { if (i < 10) x.human_score = i % 3 === 0 ? x.score : 5; });
    const dir = mkdtempSync(join(tmpdir(), 'kappa-'));
    const path = join(dir, 'gpt-4_single.jsonl');
    writeFileSync(path, lines.map((x) => JSON.stringify(x)).join('\n'));
    const r = scoreFile(path);
    const a = r.judge!.agreement![0];
    expect(a.n).toBe(10);
    const same = lines.slice(0, 10).filter((x) => x.human_score === x.score).length;
    close(a.agreement, same / 10, 1e-12, 'agreement');
    const judged = judgeAgreement(lines.slice(0, 10).map((x) => String(x.score)), lines.slice(0, 10).map((x) => String(x.human_score)), { judge: '', human: '' });
    close(a.kappa, judged.kappa, 1e-12, 'kappa');
  });
});
