// Hints that work (issue 26): a --map hint is printed only when scoring the file with it scores a row
// (parseGeneric and tableRoles.ts try each proposed mapping before they say it). When none can, the
// message says what the file holds and what Eval Lens would need. Checked over every file under
// test/fixtures and examples that is refused, alone and in its folder's scan, and on the shapes the
// issue met: correct_answer / extracted_answer / three confidence columns, and Ragas given
// --map label=reference.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { scoreFileAsync, scorePathAsync } from '../../../src/core/scoreAsync';
import { walkFiles } from '../../../src/core/io';
import { isDataFile } from '../../../src/core/unscored';
import { hintMapping } from '../../../src/core/formats/generic';
import { tableRolesOfText } from '../../../src/core/tableRoles';
import type { Report } from '../../../src/core/types';

const ROOT = resolve(__dirname, '../../..');
const DIR = join(ROOT, 'test', 'fixtures', 'generic-tables');
const ref = JSON.parse(execFileSync('/usr/bin/python3', [join(ROOT, 'test', 'reference', 'generic_tables_reference.py')], { encoding: 'utf8', maxBuffer: 1 << 24 }));
const close = (a: number | null | undefined, b: number) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(1e-6);

/** Every concrete --map hint in a message (not the placeholders FIELD=COLUMN, label=COLUMN). */
function hintsIn(message: string | undefined): string[] {
  if (!message) return [];
  return [...message.matchAll(/--map \w+=(?:'(?:[^']|'\\'')*'|[^\s.,;)]+)(?: --map \w+=(?:'(?:[^']|'\\'')*'|[^\s.,;)]+))*/g)]
    .map((m) => m[0])
    .filter((h) => !/=(COLUMN|COL)\b/.test(h));
}

describe('every refused file under test/fixtures and examples: each printed hint scores a row', () => {
  const files = [join(ROOT, 'test', 'fixtures'), join(ROOT, 'examples')].flatMap((root) => [...walkFiles(root)]).filter(isDataFile);

  it('alone', async () => {
    const checked: string[] = [];
    let refused = 0;
    for (const path of files) {
      const r = await scoreFileAsync(path, { bootstrap: 0 });
      if (!r.fatal) continue;
      refused++;
      for (const hint of hintsIn(r.fatal)) {
        const again = await scoreFileAsync(path, { bootstrap: 0, mapping: hintMapping(hint) });
        expect({ path, hint, fatal: again.fatal, scored: again.n > 0 }).toEqual({ path, hint, fatal: undefined, scored: true });
        checked.push(`${path}: ${hint}`);
      }
    }
    // Refused files exist among the fixtures, and some of them get a hint.
    expect(refused).toBeGreaterThan(5);
    expect(checked.length).toBeGreaterThan(0);
  }, 300_000);

  it('in their folder\'s scan (the not-scored reasons)', async () => {
    const dirs = [...new Set(files.map((f) => dirname(f)))];
    let checked = 0;
    for (const dir of dirs) {
      const { reports } = await scorePathAsync(dir, { bootstrap: 0 });
      for (const r of reports.filter((x: Report) => x.fatal && dirname(x.path) === dir)) {
        for (const hint of hintsIn(r.fatal)) {
          const again = await scoreFileAsync(r.path, { bootstrap: 0, mapping: hintMapping(hint) });
          expect({ path: r.path, hint, fatal: again.fatal, scored: again.n > 0 }).toEqual({ path: r.path, hint, fatal: undefined, scored: true });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  }, 300_000);
});

describe('the shapes the issue met', () => {
  const mmlu = join(DIR, 'mmlu_pro_eval_all.csv');

  it('correct_answer, extracted_answer and three confidence columns: read without --map, as numpy and sklearn read them', () => {
    const r = scoreFile(mmlu, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('multiclass');
    expect(r.n).toBe(ref.mmlu_pro.n);
    close(r.metrics.accuracy, ref.mmlu_pro.accuracy);
    close(r.metrics.macro_f1, ref.mmlu_pro.macro_f1);
    close(r.metrics.ece, ref.mmlu_pro.ece);
    expect(r.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/Several columns hold a confidence \(verbal_numerical_confidence, logit_perplexity_confidence, verbal_linguistic_confidence\); verbal_numerical_confidence is used/));
    // Another confidence, named.
    close(scoreFile(mmlu, { bootstrap: 0, mapping: { confidence: 'logit_perplexity_confidence' } }).metrics.ece, ref.mmlu_pro.ece_logit_perplexity);
  });

  it('the same table with its columns named otherwise: the hint is label + pred + confidence, and it scores every row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hints-'));
    const path = join(dir, 'renamed.csv');
    writeFileSync(path, readFileSync(mmlu, 'utf8').replace('correct_answer,extracted_answer,verbal_numerical_confidence', 'key,answer_letter,verbal_numerical'));
    const r = scoreFile(path);
    expect(r.fatal).toBeDefined();
    const hint = /To score it, write: (.*)$/.exec(r.fatal!)![1];
    expect(hint).toMatch(/^--map label=key --map pred=answer_letter --map confidence=/);
    const again = scoreFile(path, { mapping: hintMapping(hint), bootstrap: 0 });
    expect(again.n).toBe(ref.mmlu_pro.n);
    close(again.metrics.accuracy, ref.mmlu_pro.accuracy);
    // A score against A-J letters scores nothing: it is never proposed.
    expect(r.fatal).not.toMatch(/--map score=/);
  });

  it('--map label=correct_answer alone still reads the prediction and the confidence by name', () => {
    const r = scoreFile(mmlu, { mapping: { label: 'correct_answer' }, bootstrap: 0 });
    close(r.metrics.accuracy, ref.mmlu_pro.accuracy);
    close(r.metrics.ece, ref.mmlu_pro.ece);
  });

  it('a mapped score against labels that are not 0/1 says so, instead of scoring something else', () => {
    const r = scoreFile(mmlu, { mapping: { label: 'correct_answer', score: 'verbal_numerical_confidence' } });
    expect(r.fatal).toMatch(/"correct_answer" holds .*, not 0\/1 labels/);
    expect(hintsIn(r.fatal)).toEqual([]);
  });

  it('Ragas with --map label=reference: no hint that scores nothing', () => {
    const real = join(ROOT, 'test', 'fixtures', 'real', 'ragas', 'ragas_evaluation_results.csv');
    const r = scoreFile(real, { mapping: { label: 'reference' } });
    expect(r.fatal).toMatch(/reference holds free text/);
    for (const hint of hintsIn(r.fatal)) expect(scoreFile(real, { mapping: hintMapping(hint) }).n).toBeGreaterThan(0);
  });

  it('the editor\'s pick proposes the hint that scores, and only that', () => {
    const text = readFileSync(join(DIR, 'churn_decisions.csv'), 'utf8');
    const t = tableRolesOfText(join(DIR, 'churn_decisions.csv'), text);
    expect(t.hint).toBe('--map label=churned --map score=churn_probability');
    expect(t.choices.find((c) => c.field === 'label')!.proposed).toBe('churned');
    expect(t.message).toContain(`To score it, write: ${t.hint}`);
  });

  it('a prediction found by name and a column of its values: that column is proposed as the gold, and scores', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hints-qa-'));
    const path = join(dir, 'qa.csv');
    writeFileSync(path, 'question,answer,model_answer\nq1,A,A\nq2,B,C\nq3,C,C\nq4,D,A\n');
    const r = scoreFile(path);
    expect(hintsIn(r.fatal)).toEqual(['--map label=answer']);
    // By hand: rows 1 and 3 agree.
    expect(scoreFile(path, { mapping: { label: 'answer' } }).metrics.accuracy).toBe(0.5);
  });

  it('no mapping can work: what the file holds and what Eval Lens needs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hints-none-'));
    const path = join(dir, 'features.csv');
    writeFileSync(path, 'age,income,city\n34,51000,Lyon\n51,72000,Paris\n28,39000,Lyon\n');
    const r = scoreFile(path);
    expect(hintsIn(r.fatal)).toEqual([]);
    expect(r.fatal).toMatch(/It holds other columns \(age, income, city\)\. Eval Lens needs one row per prediction with its gold label/);
  });
});

describe('a column of one value is no gold label to propose', () => {
  it('predictions beside a constant index column get no --map label=<that column> (HELM display_predictions.json had --map label=train_trial_index)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hint-const-'));
    const path = join(dir, 'preds.json');
    writeFileSync(path, JSON.stringify(['B', 'A', 'C', 'B'].map((t, i) => ({ instance_id: `id${i}`, train_trial_index: 0, predicted_text: t })), null, 2));
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.fatal).toBeDefined();
    expect(r.fatal).not.toMatch(/label=train_trial_index/);
    expect(hintsIn(r.fatal)).toEqual([]);
    // The same column with two values is still offered, and that hint scores.
    writeFileSync(path, JSON.stringify(['B', 'A', 'C', 'B'].map((t, i) => ({ instance_id: `id${i}`, flag: i % 2, predicted_text: t })), null, 2));
    expect(scoreFile(path, { bootstrap: 0 }).fatal).toMatch(/--map label=flag/);
  });
});
