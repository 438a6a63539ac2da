// Two classes are binary (issue 26): a table with one probability column per class and two classes is
// a binary set whose score is P(the class coded 1), told by the prediction column that follows the
// argmax (pred_label is 1 exactly where p_approve is the larger), else the second class in sorted
// order. Every binary figure of docs/metrics.md follows (AUC, the ROC, Brier, log loss, ECE of the
// score against the label); each is checked against scikit-learn / numpy on the raw file
// (test/reference/generic_tables_reference.py).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { runCli } from '../../../src/cli/main';

const DIR = resolve(__dirname, '../../fixtures/generic-tables');
const ref = JSON.parse(execFileSync('/usr/bin/python3', [resolve(__dirname, '../../reference/generic_tables_reference.py')], { encoding: 'utf8', maxBuffer: 1 << 24 }));
const close = (a: number | null | undefined, b: number) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(1e-6);

describe('y_true, p_approve, p_reject, pred_label: binary with P(y = 1) = p_approve', () => {
  const path = join(DIR, 'loan_decisions.csv');
  const r = scoreFile(path, { bootstrap: 0 });

  it('is binary, not a 2-class multiclass', () => {
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('binary');
    expect(r.n).toBe(ref.loans.n);
    expect(r.classStats).toBeNull();
  });

  it('every binary figure as scikit-learn computes it on p_approve against y_true', () => {
    for (const m of ['accuracy', 'auc', 'brier', 'log_loss', 'ece', 'tpr', 'fpr', 'precision', 'balanced_accuracy'] as const) close(r.metrics[m], ref.loans[m]);
    // The Brier of a binary score is half the two-class multiclass one (which sums both classes' terms).
    close(2 * (r.metrics.brier as number), ref.loans.brier_two_class_multiclass);
  });

  it('has a ROC curve and reliability bins of the score', () => {
    expect(r.roc).not.toBeNull();
    expect(r.roc!.fpr[0]).toBe(0);
    expect(r.roc!.tpr[r.roc!.tpr.length - 1]).toBe(1);
    expect(r.bins!.equalWidth.reduce((s, b) => s + b.count, 0)).toBe(ref.loans.n);
  });

  it('the CLI prints AUC and no macro-F1', async () => {
    const out = await runCli(['score', path]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/generic · binary/);
    expect(out.stdout).toMatch(new RegExp(`auc\\s+${ref.loans.auc.toFixed(4)}`));
    expect(out.stdout).not.toMatch(/macro_f1/);
  });
});

describe('the positive class comes from the labels, not from the names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'two-classes-'));
  const rows = readFileSync(join(DIR, 'loan_decisions.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));

  it('gold written as class names, no prediction column: the second class in sorted order ("reject") is 1', () => {
    const path = join(dir, 'names.csv');
    writeFileSync(path, `label,p_approve,p_reject\n${rows.map((r) => `${r[0] === '1' ? 'approve' : 'reject'},${r[1]},${r[2]}`).join('\n')}\n`);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.kind).toBe('binary');
    // Named otherwise, the column of class names is proposed as the gold, and that reading scores.
    const other = join(dir, 'decision.csv');
    writeFileSync(other, readFileSync(path, 'utf8').replace(/^label,/, 'decision,'));
    expect(scoreFile(other).fatal).toContain('To score it, write: --map label=decision');
    close(scoreFile(other, { mapping: { label: 'decision' }, bootstrap: 0 }).metrics.auc, ref.loans_names.auc);
    for (const m of ['auc', 'brier', 'ece', 'tpr', 'fpr', 'precision'] as const) close(r.metrics[m], ref.loans_names[m]);
  });

  it('a prediction column coded the other way round (0 = approve) makes p_reject the score', () => {
    // y and the prediction both coded 1 = reject: the prediction follows the argmax, so 1 is reject.
    const path = join(dir, 'flipped.csv');
    writeFileSync(path, `y_true,p_approve,p_reject,pred_label\n${rows.map((r) => `${1 - Number(r[0])},${r[1]},${r[2]},${1 - Number(r[3])}`).join('\n')}\n`);
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.kind).toBe('binary');
    close(r.metrics.auc, ref.loans_names.auc);
    close(r.metrics.ece, ref.loans_names.ece);
  });

  it('JSON Lines read the same', () => {
    const path = join(dir, 'loans.jsonl');
    writeFileSync(path, rows.map((r) => JSON.stringify({ y_true: Number(r[0]), p_approve: Number(r[1]), p_reject: Number(r[2]), pred_label: Number(r[3]) })).join('\n'));
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.kind).toBe('binary');
    close(r.metrics.auc, ref.loans.auc);
    close(r.metrics.ece, ref.loans.ece);
  });

  it('three classes stay multiclass', () => {
    const path = join(dir, 'three.csv');
    writeFileSync(path, 'label,p_a,p_b,p_c\na,0.7,0.2,0.1\nb,0.1,0.8,0.1\nc,0.3,0.3,0.4\n');
    expect(scoreFile(path, { bootstrap: 0 }).kind).toBe('multiclass');
  });
});
