// Column roles (issue 17, points 1, 5 and 8): what each column of a table means, from its name and
// its content, on tables in the shapes met in the field (test/fixtures/roles, written by
// make_fixtures.py and make_parquet.mjs; expected.json is scikit-learn's, computed independently).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { scoreFileAsync } from '../../../src/core/scoreAsync';
import { detectFormat } from '../../../src/core/formats/detect';
import { columnRoles } from '../../../src/core/formats/roles';
import { tableRolesOfFile, tableRolesOfText } from '../../../src/core/tableRoles';
import type { BinarySet } from '../../../src/core/types';
import { parseInput, resolveOptions } from '../../../src/core';
import { fileInput } from '../../../src/core/formats/context';

const DIR = resolve(__dirname, '../../fixtures/roles');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
const close = (a: number | null | undefined, b: number) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(1e-9);

describe('the gold is actual_churn, never the prediction (point 1)', () => {
  for (const file of ['churn.csv', 'churn.parquet']) {
    it(`${file}: scored against actual_churn, AUC as sklearn's (not 1.0 against its own predictions)`, async () => {
      const r = await scoreFileAsync(join(DIR, file), { bootstrap: 0 });
      expect(r.fatal).toBeUndefined();
      expect(r.kind).toBe('binary');
      expect(r.n).toBe(expected.churn.n);
      close(r.metrics.auc, expected.churn.auc);
      close(r.metrics.accuracy, expected.churn.accuracy);
      close(r.metrics.brier, expected.churn.brier);
      expect(expected.churn.auc_against_own_predictions).toBe(1);
    });
  }

  it('churn as JSON Lines: the same roles, the same AUC', () => {
    const lines = readFileSync(join(DIR, 'churn.csv'), 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    const dir = mkdtempSync(join(tmpdir(), 'roles-churn-'));
    const path = join(dir, 'churn.jsonl');
    writeFileSync(path, lines.slice(1).map((l) => JSON.stringify(Object.fromEntries(l.split(',').map((v, i) => [header[i], i < 1 ? v : Number(v)])))).join('\n'));
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    close(r.metrics.auc, expected.churn.auc);
    // A folder scan takes it too (detection by its names).
    expect(detectFormat(path, readFileSync(path, 'utf8'))).toBe('generic');
    expect(detectFormat(join(DIR, 'churn.csv'), readFileSync(join(DIR, 'churn.csv'), 'utf8'))).toBe('generic');
  });

  it('the roles say which column is what, and a pick never offers the prediction as the gold', async () => {
    const t = await tableRolesOfFile(join(DIR, 'churn.parquet'));
    expect(t.roles.mapping).toMatchObject({ gold: 'actual_churn', pred: 'predicted_class', score: 'churn_probability' });
    expect(t.message).toBeUndefined();
    const label = t.choices.find((c) => c.field === 'label')!;
    expect(label.proposed).toBe('actual_churn');
    expect(label.columns).not.toContain('predicted_class');
    expect(label.columns).not.toContain('churn_probability');
  });

  for (const file of ['ludwig.csv', 'ludwig.parquet']) {
    it(`${file}: no gold column is said in so many words, with the columns, and no mapping proposes a prediction as the gold`, async () => {
      const r = await scoreFileAsync(join(DIR, file), { bootstrap: 0 });
      expect(r.fatal).toMatch(/^No column holds the gold label/);
      expect(r.fatal).toContain('review_content, recommended_predictions, recommended_probabilities_False, recommended_probabilities_True, recommended_probability');
      expect(r.fatal).not.toMatch(/--map label=recommended/);
      const t = await tableRolesOfFile(join(DIR, file));
      expect(t.roles.mapping.gold).toBeUndefined();
      expect(t.roles.mapHint).toBeUndefined();
      expect(t.roles.columns.find((c) => c.column === 'recommended_predictions')!.role).toBe('pred');
    });
  }

  it('customer_id, a value of its own on every row, is the ID: the rows are named by it (search, export, a joined file); a repeated *_id is not', async () => {
    const rows = readFileSync(join(DIR, 'churn.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]);
    for (const file of ['churn.csv', 'churn.parquet']) {
      const r = await scoreFileAsync(join(DIR, file), { bootstrap: 0 });
      expect(r.instances?.ids).toEqual(rows);
    }
    const t = await tableRolesOfFile(join(DIR, 'churn.csv'));
    expect(t.roles.mapping.id).toBe('customer_id');
    // A passage_id shared by several questions is a cluster, not the rows' ID.
    const roles = columnRoles(['passage_id', 'label', 'prob'], (name) => (name === 'passage_id' ? ['p1', 'p1', 'p2', 'p2'] : name === 'label' ? [1, 0, 1, 0] : [0.9, 0.2, 0.7, 0.4]));
    expect(roles.mapping.id).toBeUndefined();
  });

  it('a one-row metrics summary is not predictions, with the reason, and gets no mapping', () => {
    // The roles' reading (a summary adapter, where there is one, shows its figures; scoring it as predictions never happens).
    const t = tableRolesOfText(join(DIR, 'metrics_summary.csv'), readFileSync(join(DIR, 'metrics_summary.csv'), 'utf8'));
    expect(t.roles.notPredictions).toMatch(/summary of results, not predictions: 1 row whose columns are metrics \(accuracy, f1, roc_auc, n_samples\)/);
    expect(t.message).not.toMatch(/--map/);
    expect(t.roles.mapHints).toBeUndefined();
  });

  it('an ambiguous table still gets the --map that scores it, with a 0/1 column that is no prediction as the gold', () => {
    const t = tableRolesOfText('/x/odd.jsonl', readFileSync(join(DIR, 'odd_names.jsonl'), 'utf8'));
    expect(t.roles.mapHint).toBe('--map label=Diagnosis --map score=Risk');
  });
});

describe('p_<class> columns are the classes of one model, not models (point 5)', () => {
  const path = join(DIR, 'loans.csv');
  const r = scoreFile(path, { bootstrap: 0 });

  it('y_pred, the argmax of p_approve/p_reject, tells which code is which class; two classes are binary (issue 26)', () => {
    expect(r.models).toBeUndefined();
    expect(r.kind).toBe('binary');
    expect(r.n).toBe(expected.loans.n);
    close(r.metrics.accuracy, expected.loans.accuracy);
    close(r.metrics.log_loss, expected.loans.log_loss);
    // The binary Brier is half the two-class multiclass one (the sum over both classes).
    close(r.metrics.brier, expected.loans.brier / 2);
    expect(r.metrics.auc).not.toBeNull();
  });

  it('y_true = 1 is approve, read from the codes y_pred follows: the score is p_approve', () => {
    const parsed = parseInput(fileInput(path, readFileSync(path)), resolveOptions({}));
    const set = parsed.set as BinarySet;
    const firstRow = readFileSync(path, 'utf8').split('\n')[1].split(',');
    expect(firstRow[1]).toBe('0');
    expect(set.label[0]).toBe(0);
    expect(set.score[0]).toBe(Number(firstRow[3]));
  });

  it('class names in a label column make classes too, whatever the probabilities sum to', () => {
    const roles = columnRoles(['label', 'p_cat', 'p_dog'], (n) => ({ label: ['cat', 'dog', 'cat'], p_cat: [0.7, 0.2, 0.4], p_dog: [0.5, 0.9, 0.3] } as Record<string, unknown[]>)[n]);
    expect(roles.classProbs?.map((c) => c.name)).toEqual(['cat', 'dog']);
    expect(roles.models).toBeUndefined();
  });
});

describe('content beats the file name (point 8)', () => {
  for (const file of ['x.test_predictions.csv', 'x.test_predictions.parquet']) {
    it(`${file} with label, pred, score is a generic table, scored as sklearn scores it`, async () => {
      const r = await scoreFileAsync(join(DIR, file), { bootstrap: 0 });
      expect(r.format).toBe('generic');
      expect(r.fatal).toBeUndefined();
      expect(r.n).toBe(expected.test_predictions.n);
      close(r.metrics.auc, expected.test_predictions.auc);
      close(r.metrics.accuracy, expected.test_predictions.accuracy);
    });
  }

  it('a folktexts file (its risk_score column) is still folktexts', () => {
    expect(detectFormat('/r/ACSIncome.test_predictions.csv', ',risk_score,label\n0,0.3,1\n')).toBe('folktexts');
    expect(detectFormat('/r/ACSIncome.test_predictions.csv', 'id,risk_score,label,group\n0,0.3,1,a\n')).toBe('folktexts');
  });
});

describe('the column mapping is honoured by every table reader', () => {
  const rows = readFileSync(join(DIR, 'odd_names.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const dir = mkdtempSync(join(tmpdir(), 'roles-map-'));
  const csv = 'Patient,Diagnosis,Risk\n' + rows.map((x) => `${x.Patient},${x.Diagnosis},${x.Risk}`).join('\n') + '\n';
  writeFileSync(join(dir, 'odd.csv'), csv);
  writeFileSync(join(dir, 'odd.tsv'), csv.replace(/,/g, '\t'));
  writeFileSync(join(dir, 'odd.json'), JSON.stringify(rows));
  // A name folktexts claims: the mapping names columns of a table, so the table reader reads it.
  writeFileSync(join(dir, 'odd.test_predictions.csv'), csv);
  const mapping = { label: 'Diagnosis', score: 'Risk' };
  for (const file of [join(DIR, 'odd_names.jsonl'), join(dir, 'odd.csv'), join(dir, 'odd.tsv'), join(dir, 'odd.json'), join(dir, 'odd.test_predictions.csv')]) {
    it(`${file.split('/').pop()}: --map label=Diagnosis --map score=Risk gives sklearn's AUC`, () => {
      const r = scoreFile(file, { mapping, bootstrap: 0 });
      expect(r.fatal).toBeUndefined();
      expect(r.n).toBe(expected.odd_names.n);
      close(r.metrics.auc, expected.odd_names.auc);
    });
  }
});

describe('more layouts from the field (prediction CSVs as projects document them)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'roles-field-'));
  const score = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return scoreFile(join(dir, name), { bootstrap: 0 });
  };

  it('customer_id, actual_churn, predicted_churn, churn_probability with Yes/No: binary against actual_churn (Yes = 1)', () => {
    const r = score('churn_yes_no.csv', 'customer_id,actual_churn,predicted_churn,churn_probability\nC040,No,Yes,0.6344\nC037,No,No,0.069\nC012,Yes,Yes,0.81\nC007,Yes,No,0.42\n');
    expect(r.fatal).toBeUndefined();
    expect(r.kind).toBe('binary');
    // By hand: positives 0.81, 0.42; negatives 0.6344, 0.069: pairs ranked right 3 of 4.
    expect(r.metrics.auc).toBe(0.75);
    // Without an ID column (the byte scanner's path) the same.
    const noId = score('churn_yes_no_noid.csv', 'actual_churn,churn_probability\nNo,0.6344\nNo,0.069\nYes,0.81\nYes,0.42\n');
    expect(noId.fatal).toBeUndefined();
    expect(noId.metrics.auc).toBe(0.75);
  });

  it('sample_index, y_true, y_pred, prob_class_0, prob_class_1, correct: classes 0 and 1 of one model, binary with P(y = 1) = prob_class_1', () => {
    const r = score('rf.csv', 'sample_index,y_true,y_pred,prob_class_0,prob_class_1,correct\n0,0,0,0.8,0.2,1\n1,1,0,0.6,0.4,0\n2,1,1,0.3,0.7,1\n3,0,1,0.45,0.55,0\n');
    expect(r.models).toBeUndefined();
    expect(r.kind).toBe('binary');
    expect(r.metrics.accuracy).toBe(0.5);
    // By hand: positives 0.4, 0.7; negatives 0.2, 0.55: 3 of 4 pairs ranked right.
    expect(r.metrics.auc).toBe(0.75);
  });

  it('id, y_true, y_pred, prob_class_cat, prob_class_dog, prob_class_bird: the classes are cat, dog, bird', () => {
    const r = score('pets.csv', 'id,y_true,y_pred,prob_class_cat,prob_class_dog,prob_class_bird\nS001,cat,cat,0.92,0.05,0.03\nS002,bird,dog,0.10,0.62,0.28\nS003,bird,bird,0.05,0.15,0.80\n');
    expect(r.fatal).toBeUndefined();
    expect(r.classes).toEqual(['cat', 'dog', 'bird']);
    expect(r.metrics.accuracy).toBeCloseTo(2 / 3, 15);
  });
});

describe('compare and board split a file into models only when its columns are models', () => {
  it('loans.csv (p_approve, p_reject: classes) is one run; models.csv (Prob_LogReg, Prob_SVM) is two', async () => {
    const { modelsOf } = await import('../../../src/core/compareFiles');
    expect(modelsOf(join(DIR, 'loans.csv'))).toEqual([]);
    expect(modelsOf(resolve(__dirname, '../../fixtures/generic-field/models.csv')).map((m) => m.model)).toEqual(['LogReg', 'SVM']);
  });
});

describe('a per-sample table that logs metrics per row is still predictions', () => {
  it('label, pred, acc, f1 on 20 rows: scored, not a summary', () => {
    const rows = Array.from({ length: 20 }, (_, i) => `${i % 2},${i % 3 === 0 ? 1 - (i % 2) : i % 2},${i % 3 === 0 ? 0 : 1},${i % 3 === 0 ? 0 : 1}`);
    const roles = columnRoles(['label', 'pred', 'acc', 'f1'], (n) => rows.map((r) => r.split(',')[['label', 'pred', 'acc', 'f1'].indexOf(n)]));
    expect(roles.notPredictions).toBeUndefined();
    expect(roles.mapping).toMatchObject({ gold: 'label', pred: 'pred' });
  });
});
