import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompanionReader, FormatContext } from '../../../src/core/formats/context';
import { fileInput, textInput } from '../../../src/core/formats/context';
import {
  parseFolktexts, parseFolktextsRows, readReportedResults,
} from '../../../src/core/formats/folktexts';
import { DEFAULT_OPTIONS, type BinarySet } from '../../../src/core/types';
import { REAL } from '../realData';
import { MAX_PROBLEMS } from '../../../src/core/problemCap';
import { detectFormat } from '../../../src/core/formats/detect';
import { parsePythonJson } from '../../../src/core/formats/pythonJson';

const DATA = REAL;
const RESULTS_JSON = join(DATA, 'folktexts/results.minimal-example.Mistral-7B-Instruct-v0.2.ACSIncome.json');

const fsReader: CompanionReader = {
  readText: (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } },
  list: (d) => { try { return readdirSync(d); } catch { return undefined; } },
};
const noFiles: CompanionReader = { readText: () => undefined, list: () => undefined };
const ctx = (io: CompanionReader = noFiles): FormatContext => ({ options: DEFAULT_OPTIONS, io });

const parseText = (text: string, path = '/data/m.test_predictions.csv') => parseFolktexts(textInput(path, text), ctx());
const binary = (r: ReturnType<typeof parseText>) => r.set as BinarySet;

const temps: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'eval-lens-folktexts-'));
  temps.push(d);
  return d;
};
afterAll(() => { for (const d of temps) rmSync(d, { recursive: true, force: true }); });

describe('parseFolktexts: rows', () => {
  it('reads the pandas index=True layout', () => {
    const r = parseText(',risk_score,label\n17,0.25,0\n3,0.75,1\n42,1.0,1\n');
    expect(r.format).toBe('folktexts');
    expect(r.fatal).toBeUndefined();
    expect(r.problems).toEqual([]);
    expect(r.skipped).toBe(0);
    expect(binary(r).kind).toBe('binary');
    expect(Array.from(binary(r).score)).toEqual([0.25, 0.75, 1]);
    expect(Array.from(binary(r).label)).toEqual([0, 1, 1]);
    expect(Array.from(binary(r).lines)).toEqual([2, 3, 4]);
  });

  it('accepts index=False files, reordered columns, CRLF and a BOM', () => {
    const r = parseText('\ufefflabel,risk_score\r\n1,0.9\r\n0,0.1');
    expect(Array.from(binary(r).score)).toEqual([0.9, 0.1]);
    expect(Array.from(binary(r).label)).toEqual([1, 0]);
  });

  it('accepts 0.0/1.0 and True/False labels', () => {
    const r = parseText(',risk_score,label\n1,0.2,0.0\n2,0.8,1.0\n3,0.6,True\n4,0.4,False\n');
    expect(Array.from(binary(r).label)).toEqual([0, 1, 1, 0]);
    expect(r.problems).toEqual([]);
  });

  it('reports every bad row with line, column, code; skips it; scores the rest', () => {
    const text = [
      ',risk_score,label', // 1
      '1,0.5,1', //           2 ok
      '2,abc,0', //           3 not a number
      '3,NaN,1', //           4 not finite
      '4,inf,1', //           5 not finite
      '5,1.5,0', //           6 out of range
      '6,73%,1', //           7 percentage
      '7,0.5,2', //           8 bad label
      '8,0.5', //             9 column count
      '9,0.5,1,x', //        10 column count
      '10,,1', //            11 missing score
      '11,0.5,', //          12 missing label
      '1,0.25,1', //         13 duplicate ID (scored)
      ',0.75,0', //          14 empty ID (scored)
      '12,-0.2,1', //        15 out of range
    ].join('\n');
    const r = parseText(text);
    expect(r.problems.map((p) => [p.line, p.column, p.code, p.severity])).toEqual([
      [3, 3, 'not-a-number', 'error'],
      [4, 3, 'not-finite', 'error'],
      [5, 3, 'not-finite', 'error'],
      [6, 3, 'out-of-range', 'error'],
      [7, 3, 'percent-probability', 'error'],
      [8, 7, 'bad-label', 'error'],
      [9, 1, 'column-count', 'error'],
      [10, 1, 'column-count', 'error'],
      [11, 4, 'missing-field', 'error'],
      [12, 8, 'missing-field', 'error'],
      [13, 1, 'duplicate-id', 'warning'],
      [14, 1, 'missing-field', 'warning'],
      [15, 4, 'out-of-range', 'error'],
    ]);
    expect(r.skipped).toBe(11);
    expect(Array.from(binary(r).lines)).toEqual([2, 13, 14]);
    const msg = (line: number) => r.problems.find((p) => p.line === line)!.message;
    expect(msg(3)).toBe('risk_score "abc" is not a number; the row is skipped.');
    expect(msg(7)).toBe('risk_score "73%" is a percentage; a probability in [0, 1] is expected (0.73?); the row is skipped.');
    expect(r.problems.find((p) => p.line === 7)!.endColumn).toBe(6);
    expect(msg(8)).toBe('label "2" is not a binary label (0/1 or True/False); the row is skipped.');
    expect(msg(9)).toBe('The row has 2 fields where the header has 3; the row is skipped.');
    expect(msg(11)).toBe('risk_score is empty; the row is skipped.');
    expect(msg(13)).toBe('Index "1" already appeared on line 2; the row is still scored, as folktexts and sklearn would score it.');
  });

  it('is fatal on an empty file, a header alone, and a file where nothing scores', () => {
    for (const text of ['', '   \n\n']) {
      const r = parseText(text);
      expect(r.set).toBeNull();
      expect(r.fatal).toBe('The file is empty.');
      expect(r.problems).toEqual([{ line: 1, column: 1, severity: 'error', code: 'empty-file', message: 'The file is empty.' }]);
    }
    const headerOnly = parseText(',risk_score,label\n');
    expect(headerOnly.fatal).toBe('The file has a header but no data rows.');
    expect(headerOnly.problems[0].code).toBe('empty-file');
    const allBad = parseText(',risk_score,label\n1,73%,1\n2,x,0\n');
    expect(allBad.set).toBeNull();
    expect(allBad.skipped).toBe(2);
    expect(allBad.fatal).toBe('None of the 2 data rows could be scored (first problem, line 2: risk_score "73%" is a percentage; a probability in [0, 1] is expected (0.73?); the row is skipped).');
  });

  it('is fatal, naming the columns, when risk_score or label is missing', () => {
    const r = parseText(',score,y\n1,0.5,1\n');
    expect(r.set).toBeNull();
    expect(r.fatal).toBe('The header ("", "score", "y") has no risk_score and label column, which a folktexts predictions file needs.');
  });

  it('reports an unterminated quote and scores the rows before it', () => {
    const r = parseText(',risk_score,label\n1,0.5,1\n2,"0.5,1\n3,0.2,0\n');
    expect(r.problems.map((p) => [p.line, p.column, p.code])).toEqual([[3, 1, 'column-count'], [3, 3, 'unterminated-quote']]);
    expect(binary(r).n).toBe(1);
  });

  it('reads quoted fields (the general path) the same as bare ones', () => {
    const quoted = parseText(',risk_score,label\n"1","0.5","1"\n2,0.25,0\n');
    const bare = parseText(',risk_score,label\n1,0.5,1\n2,0.25,0\n');
    expect(quoted).toEqual(bare);
  });

  it('keeps problems of later rows beyond the cap out of memory, with a summary', () => {
    const rows = Array.from({ length: MAX_PROBLEMS + 50 }, (_, i) => `${i},${i % 100}%,1`).join('\n');
    const r = parseText(`,risk_score,label\n${rows}\n9999999,0.5,1\n`);
    expect(r.skipped).toBe(MAX_PROBLEMS + 50);
    expect(r.problems.length).toBe(MAX_PROBLEMS + 1);
    expect(r.problems[MAX_PROBLEMS]).toMatchObject({ code: 'more-problems', omitted: 50, message: `50 more problems are not listed (the first ${MAX_PROBLEMS} are).` });
    expect(binary(r).n).toBe(1);
  });

  it('takes the task from the dataset name in the file name', () => {
    expect(parseText(',risk_score,label\n1,0.5,1\n', '/r/ACSIncome_subsampled-0.01_seed-42_hash-4175979538.test_predictions.csv').task).toBe('ACSIncome');
  });
});

describe('parseFolktexts: results.bench-*.json', () => {
  it('reads the real folktexts results beside the predictions', () => {
    const dir = tempDir();
    copyFileSync(RESULTS_JSON, join(dir, 'results.bench-3002019411.json'));
    const rows = Array.from({ length: 1665 }, (_, i) => `${i},${(i % 97) / 96},${i % 3 === 0 ? 1 : 0}`).join('\n');
    const path = join(dir, 'ACSIncome_subsampled-0.01_seed-42_hash-4175979538.test_predictions.csv');
    writeFileSync(path, `,risk_score,label\n${rows}\n`);
    const r = parseFolktexts(fileInput(path, readFileSync(path)), ctx(fsReader));
    expect(r.reportedPath).toBe(join(dir, 'results.bench-3002019411.json'));
    expect(r.reported).toEqual({
      accuracy: 0.6804804804804805,
      auc: 0.8150732886324653,
      brier: 0.19788954954954951,
      log_loss: 0.5800311695412786,
      ece: 0.1637657657657665,
      ece_quantile: null,
      // The rates at the threshold and the fairness figures (RAC1P groups): --group-by recomputes them.
      accuracy_diff: 0.10720447379380094,
      accuracy_ratio: 0.8606341840680588,
      balanced_accuracy: 0.7185482613441447,
      balanced_accuracy_diff: 0.07612318751952207,
      balanced_accuracy_ratio: 0.9022154478717292,
      equalized_odds_diff: 0.21750000000000003,
      equalized_odds_ratio: 0.26785714285714285,
      fnr: 0.14214876033057852,
      fnr_diff: 0.1673469387755102,
      fnr_ratio: 0.26785714285714285,
      fpr: 0.4207547169811321,
      fpr_diff: 0.21750000000000003,
      fpr_ratio: 0.53475935828877,
      ppr: 0.5795795795795796,
      ppr_diff: 0.27008110936682367,
      ppr_ratio: 0.5807696212813483,
      precision: 0.5378238341968912,
      precision_diff: 0.19565807327001355,
      precision_ratio: 0.7150197628458498,
      tnr: 0.5792452830188679,
      tnr_diff: 0.21750000000000003,
      tnr_ratio: 0.71,
      tpr: 0.8578512396694215,
      tpr_diff: 0.1673469387755102,
      tpr_ratio: 0.8217391304347826,
    });
    expect(r.task).toBe('ACSIncome');
    // n_samples (1665) matches the file's rows, threshold 0.5 matches: nothing to say.
    expect(r.problems).toEqual([]);
  });

  it('turns bare NaN and Infinity into null, leaves strings alone, and checks n_samples', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'results.bench-1.json'), '{"ece": NaN, "roc_auc": Infinity, "log_loss": -Infinity, "accuracy": 0.5, "note": "NaN stays", "n_samples": 5, "threshold": 0.4}');
    const path = join(dir, 'x.test_predictions.csv');
    writeFileSync(path, ',risk_score,label\n1,0.5,1\n2,0.5,0\n');
    const r = parseFolktexts(fileInput(path, readFileSync(path)), ctx(fsReader));
    expect(r.reported).toEqual({ ece: NaN, auc: Infinity, log_loss: -Infinity, accuracy: 0.5 });
    expect(r.problems.map((p) => [p.code, p.severity, p.path])).toEqual([
      ['reported-mismatch', 'info', join(dir, 'results.bench-1.json')], // threshold 0.4
      ['reported-mismatch', 'warning', join(dir, 'results.bench-1.json')], // n_samples 5 vs 2 rows
    ]);
    expect(parsePythonJson('{"a": "NaN", "b": [NaN, -Infinity], "c": "x\\"NaN"}')).toEqual({ a: 'NaN', b: [NaN, -Infinity], c: 'x"NaN' });
  });

  it('prefers the results file whose predictions_path names this file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'results.bench-1.json'), JSON.stringify({ ece: 0.1, predictions_path: '/elsewhere/other.test_predictions.csv' }));
    writeFileSync(join(dir, 'results.bench-2.json'), JSON.stringify({ ece: 0.2, predictions_path: '/cluster/res/mine.test_predictions.csv' }));
    const got = readReportedResults(join(dir, 'mine.test_predictions.csv'), ctx(fsReader));
    expect(got?.reported).toEqual({ ece: 0.2 });
    expect(got?.problems).toEqual([]);
  });

  it('warns about a results file that does not parse', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'results.bench-9.json'), '{"ece": 0.1,');
    const got = readReportedResults(join(dir, 'a.test_predictions.csv'), ctx(fsReader));
    expect(got?.reported).toEqual({});
    expect(got?.problems[0]).toMatchObject({ code: 'json-parse', severity: 'warning', path: join(dir, 'results.bench-9.json') });
  });

  it('has no reported figures without a results file or a folder', () => {
    const r = parseText(',risk_score,label\n1,0.5,1\n', 'untitled.test_predictions.csv');
    expect(r.reported).toBeUndefined();
    expect(r.reportedPath).toBeUndefined();
  });
});

describe('parseFolktexts on real data', () => {
  it('reads a file in the layout of folktexts\' tests/acs_income_10rows.csv', () => {
    // The real pandas index=True file: unnamed first column, the original index as IDs.
    const text = readFileSync(join(DATA, 'folktexts/acs_income_10rows.csv'), 'utf8');
    const header = text.split('\n')[0];
    expect(header.startsWith(',AGEP,')).toBe(true);
    // Turn it into predictions: the same index, a score from WKHP (hours), the real target as label.
    const rows = text.trim().split('\n').slice(1).map((line) => line.split(','));
    const preds = rows.map((f) => `${f[0]},${Math.min(1, Number(f[8]) / 60)},${f[11]}`);
    const r = parseText(`,risk_score,label\n${preds.join('\n')}\n`);
    expect(r.problems).toEqual([]);
    expect(binary(r).n).toBe(10);
    expect(Array.from(binary(r).label)).toEqual(rows.map((f) => Number(f[11])));
  });

  it('scores a folktexts-style file built from the UCI Adult test set', () => {
    const adult = readFileSync(join(DATA, 'adult/adult-test.csv'), 'utf8').split('\n').filter((l) => l.trim());
    const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
    let positives = 0;
    const lines = adult.map((row, i) => {
      const f = row.split(',').map((s) => s.trim());
      const [age, eduNum, hours] = [Number(f[0]), Number(f[4]), Number(f[12])];
      const risk = sigmoid(0.04 * (age - 40) + 0.45 * (eduNum - 10) + 0.04 * (hours - 40) - 1.2);
      const label = f[14].includes('>50K') ? 1 : 0;
      positives += label;
      return `${i},${risk},${label}`;
    });
    // Three bad rows, as a hand-edited file might have.
    lines[100] = lines[100].replace(/,[^,]*,/, ',NaN,');
    lines[200] = lines[200].replace(/,[^,]*,/, ',73%,');
    lines[300] = lines[300].replace(/,(\d)$/, ',yes');
    const dir = tempDir();
    const path = join(dir, 'Adult_test.test_predictions.csv');
    writeFileSync(path, `,risk_score,label\n${lines.join('\n')}\n`);
    const r = parseFolktexts(fileInput(path, readFileSync(path)), ctx(fsReader));
    expect(adult.length).toBe(16281);
    expect(r.skipped).toBe(3);
    expect(r.problems.map((p) => [p.line, p.code])).toEqual([[102, 'not-finite'], [202, 'percent-probability'], [302, 'bad-label']]);
    const set = binary(r);
    expect(set.n).toBe(16278);
    const scoredPositives = Array.from(set.label).reduce((a, b) => a + b, 0);
    expect(Math.abs(scoredPositives - positives)).toBeLessThanOrEqual(3);
    expect(positives).toBe(3846); // the known count of ">50K." in adult.test
    // Full-precision scores (as pandas writes float64) come back bit-exact.
    expect(set.score[0]).toBe(Number(lines[0].split(',')[1]));
    // And the general path agrees.
    expect(parseFolktextsRows(fileInput(path, readFileSync(path)), { path: 'general' })).toEqual(parseFolktextsRows(fileInput(path, readFileSync(path))));
  });
});

describe('detecting a folktexts file', () => {
  it('knows the file name and the pandas header', () => {
    expect(detectFormat('/r/ACSIncome.test_predictions.csv', ',risk_score,label\n')).toBe('folktexts');
    expect(detectFormat('/r/preds.csv', '\ufeff,risk_score,label\r\n1,0.5,1')).toBe('folktexts');
    expect(detectFormat('/r/preds.csv', 'score,label\n')).not.toBe('folktexts');
  });
});
