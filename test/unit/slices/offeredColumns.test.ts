// What the report's Group by and Cluster by offer (issue 28, point 12): not the columns the set is
// read from (score, label, prediction, ID) and not free text; the columns worth grouping or
// clustering by stay, and a column left out can still be asked for by name.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreFile } from '../../../src/core/score';
import { isFreeText } from '../../../src/core/slices/offeredColumns';
import { REAL } from '../realData';

const ROOT = join(__dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-offered-'));

/** UCI Adult's real test rows as a generic predictions table: id, score, label, sex, workclass, a free-text note. */
function adultTable(): string {
  const rows = readFileSync(join(REAL, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => /^\d/.test(l)).slice(0, 500);
  const out = ['id,score,label,sex,workclass,note'];
  rows.forEach((line, k) => {
    const f = line.split(',').map((x) => x.trim());
    const z = -8 + 0.04 * Number(f[0]) + 0.35 * Number(f[4]) + 0.03 * Number(f[12]);
    out.push(`r${k},${(1 / (1 + Math.exp(-z))).toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0},${f[9]},${f[1]},"${f[6]} aged ${f[0]}, ${f[12]} hours a week, row ${k}"`);
  });
  const path = join(dir, 'adult_predictions.csv');
  writeFileSync(path, out.join('\n') + '\n');
  return path;
}

describe('Group by and Cluster by offer', () => {
  it('a table\'s own columns but its ID, score, label and free text', () => {
    const path = adultTable();
    const r = scoreFile(path, { listColumns: {} });
    expect(r.kind).toBe('binary');
    expect(r.groupColumns!.predictions).toEqual(['sex', 'workclass']);
    // Left out of the list, still a column to group by when named; then the list shows it.
    const g = scoreFile(path, { groupBy: { column: 'label' }, listColumns: {} });
    expect(g.groups!.groups.map((s) => s.value)).toEqual(['0', '1']);
    expect(g.groupColumns!.predictions).toEqual(['sex', 'workclass', 'label']);
  });

  it('a folktexts file: nothing of its own (index, risk_score, label), the data file\'s columns', () => {
    const preds = join(ROOT, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
    const ids = readFileSync(preds, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]);
    const data = join(dir, 'acs.csv');
    writeFileSync(data, ',SEX,AGEP,OCCP_TEXT\n' + ids.map((id, k) => `${id},${1 + (k % 2)},${20 + (k % 50)},job title number ${k}`).join('\n') + '\n');
    const r = scoreFile(preds, { listColumns: { dataPath: data } });
    expect(r.groupColumns!.predictions).toEqual([]);
    // The data file's free text (a distinct title per row) is not offered; its codes and numbers are.
    expect(r.groupColumns!.data).toEqual(['SEX', 'AGEP']);
  });

  it('a RAFT run on banking_77\'s real training rows: neither the query text nor the label nor the ID', () => {
    // Predictions: the gold labels, every fifth one replaced by another row's.
    const train = readFileSync(join(REAL, 'raft', 'banking_77', 'train.csv'), 'utf8');
    const labels = [...train.matchAll(/,([a-z_]+),(\d+)\r?$/gm)].map((m) => [m[2], m[1]] as const);
    expect(labels.length).toBeGreaterThan(45);
    const run = join(dir, 'raft-run', 'banking_77');
    mkdirSync(run, { recursive: true });
    writeFileSync(join(run, 'predictions.csv'), 'ID,Label\n' + labels.map(([id, l], k) => `${id},${k % 5 ? l : labels[(k + 1) % labels.length][1]}`).join('\n') + '\n');
    const r = scoreFile(join(run, 'predictions.csv'), { format: 'raft', raftData: join(REAL, 'raft'), listColumns: {} });
    expect(r.kind).toBe('multiclass');
    expect(r.texts!.fields).toContain('Query');
    const offered = r.groupColumns!.predictions;
    for (const never of ['Query', 'Label', 'ID']) expect(offered, offered.join(', ')).not.toContain(never);
  });

  it('a column shared by several rows (passages, for clustering) stays', () => {
    const r = scoreFile(join(ROOT, 'test', 'fixtures', 'error-bars', 'passages.csv'), { listColumns: {} });
    expect(r.groupColumns!.predictions).toEqual(['passage']);
  });

  it('free text: nearly every value a different text; numbers never', () => {
    const texts = Array.from({ length: 40 }, (_, i) => `answer ${i}`);
    expect(isFreeText(texts)).toBe(true);
    expect(isFreeText(texts.map((t, i) => (i % 4 ? t : 'same')))).toBe(false);
    expect(isFreeText(Array.from({ length: 40 }, (_, i) => String(i * 1.5)))).toBe(false);
    // Too few values to tell.
    expect(isFreeText(texts.slice(0, 10))).toBe(false);
  });

  it('a few rows of questions or passages are free text (a 3-row Ragas table offered its questions to Group by)', () => {
    expect(isFreeText(['What are the most common models used for predicting Bid-Ask spread conditional distributions?', 'How does the model handle insider trading?', 'What is the Heston model used for?'])).toBe(true);
    expect(isFreeText(['line one\nline two', 'x'])).toBe(true);
    // Short names stay groups however few; long names that repeat stay groups too.
    expect(isFreeText(['north', 'south', 'east'])).toBe(false);
    const fields = ['Machine learning and artificial intelligence research', 'Molecular biology and biochemistry research'];
    expect(isFreeText(Array.from({ length: 40 }, (_, i) => fields[i % 2]))).toBe(false);
  });
});
