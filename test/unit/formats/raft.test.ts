// RAFT predictions against the real task data: the five sets copied into test/fixtures/real/raft,
// plus the six we may not copy when ../shared/data/raft is beside the clone (see ../realData.ts).
// Oracles are independent of our CSV reader: pandas and Python's csv module
// read train.csv, sklearn computes macro-F1 from the prediction files we generate.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRaftPredictions, loadRaftTask, parseRaft, RAFT_TASK_NAMES } from '../../../src/core/formats/raft';
import { joinPath } from '../../../src/common/paths';
import { discoverPredictionFiles } from '../../../src/core/score';
import { fileInput, textInput, type CompanionReader, type FormatContext } from '../../../src/core/formats/context';
import { DEFAULT_OPTIONS, type MulticlassSet, type ParseResult } from '../../../src/core/types';
import { macroF1 } from '../../../src/core/metrics/classification';
import { COPIED_RAFT_TASKS, REAL, sharedOnly } from '../realData';

const SHARED_RAFT = sharedOnly('raft', 'RAFT tests on ade_corpus_v2, overruling, semiconductor_org_types, terms_of_service, tweet_eval_hate and twitter_complaints');
const COPIED: readonly string[] = COPIED_RAFT_TASKS;
/** The tasks at hand: the copied five, and all eleven when the shared data is there. */
const TASKS: string[] = SHARED_RAFT ? [...RAFT_TASK_NAMES] : [...COPIED];
// One --raft-data folder holding every task at hand (links to the copies and the shared sets).
const DATA = mkdtempSync(join(tmpdir(), 'eval-lens-raft-data-'));
for (const t of TASKS) symlinkSync(COPIED.includes(t) ? join(REAL, 'raft', t) : join(SHARED_RAFT!, t), join(DATA, t), 'dir');
const PY = '/usr/bin/python3';
const hasSklearn = spawnSync(PY, ['-c', 'import sklearn, pandas'], { stdio: 'ignore' }).status === 0;

/** The RAFT predictions files the core's folder walk finds (what the CLI and a folder report score), sorted. */
function raftFilesIn(dir: string): string[] {
  return discoverPredictionFiles(dir).filter((f) => f.format === 'raft').map((f) => f.path).sort();
}

const io: CompanionReader = {
  readText: (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } },
  list: (p) => { try { return readdirSync(p); } catch { return undefined; } },
};
const ctx = (raftData?: string): FormatContext => ({ options: { ...DEFAULT_OPTIONS, raftData }, io });
const parseFile = (path: string, raftData?: string): ParseResult => parseRaft(fileInput(path, readFileSync(path)), ctx(raftData));
const parseText = (path: string, text: string, raftData?: string): ParseResult => parseRaft(textInput(path, text), ctx(raftData));
const multiclass = (r: ParseResult): MulticlassSet => {
  expect(r.set?.kind).toBe('multiclass');
  return r.set as MulticlassSet;
};

let tmp: string;
beforeAll(() => { tmp = mkdtempSync(join(tmpdir(), 'eval-lens-raft-')); });
afterAll(() => { rmSync(tmp, { recursive: true, force: true }); rmSync(DATA, { recursive: true, force: true }); });
let dirCount = 0;
const freshDir = (name: string) => { const d = join(tmp, `${name}-${dirCount++}`); mkdirSync(d, { recursive: true }); return d; };

function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
function csvText(rows: string[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

function macroF1Local(gold: ArrayLike<number>, pred: ArrayLike<number>, k: number): number {
  const tp = new Array(k).fill(0), fp = new Array(k).fill(0), fn = new Array(k).fill(0);
  for (let i = 0; i < gold.length; i++) {
    if (gold[i] === pred[i]) tp[gold[i]]++;
    else { fp[pred[i]]++; fn[gold[i]]++; }
  }
  let sum = 0;
  for (let c = 0; c < k; c++) { const d = 2 * tp[c] + fp[c] + fn[c]; sum += d === 0 ? 0 : (2 * tp[c]) / d; }
  return sum / k;
}

interface OracleTask { columns: string[]; rows: Record<string, string>[]; starts: number[]; classes: string[]; dataColumns: string[] }

// pandas for the values, csv.reader's line_num for where each record starts (physical lines).
const ORACLE_PY = String.raw`
import sys, json, csv, os, pandas as pd
out = {}
root = sys.argv[1]
for t in sorted(os.listdir(root)):
    d = os.path.join(root, t)
    if not os.path.exists(os.path.join(d, 'train.csv')): continue
    df = pd.read_csv(os.path.join(d, 'train.csv'), dtype=str, keep_default_na=False)
    with open(os.path.join(d, 'train.csv'), newline='', encoding='utf-8') as f:
        r = csv.reader(f); next(r); starts = []; prev = r.line_num
        for rec in r:
            starts.append(prev + 1); prev = r.line_num
    tj = json.load(open(os.path.join(d, 'task.json')))
    out[t] = {'columns': list(df.columns), 'rows': df.to_dict('records'), 'starts': starts,
              'classes': tj['label_columns']['Label'], 'dataColumns': tj['data_columns']}
print(json.dumps(out))
`;

// sklearn's macro-F1 straight from the files: predictions.csv merged with train.csv on ID.
const SKLEARN_PY = String.raw`
import sys, json, pandas as pd
from sklearn.metrics import f1_score
run, data = sys.argv[1], sys.argv[2]
out = {}
for t in sys.argv[3:]:
    classes = json.load(open(f'{data}/{t}/task.json'))['label_columns']['Label']
    def name(v):
        v = str(v).strip()
        return classes[int(v) - 1] if v.isdigit() and v not in classes else v
    p = pd.read_csv(f'{run}/{t}/predictions.csv', dtype=str, keep_default_na=False)
    g = pd.read_csv(f'{data}/{t}/train.csv', dtype=str, keep_default_na=False)[['ID', 'Label']]
    m = p.merge(g, on='ID', suffixes=('_pred', '_gold'))
    out[t] = {'n': len(m), 'f1': f1_score([name(v) for v in m.Label_gold], [name(v) for v in m.Label_pred], labels=classes, average='macro', zero_division=0)}
print(json.dumps(out))
`;

/** A deterministic "model": right on exactly 35 of the 50 training IDs, else a different class. */
function modelPrediction(id: number, gold: number, k: number, taskIndex: number): number {
  const right = (id * 7 + taskIndex * 3) % 10 < 7;
  return right ? gold : (gold + 1 + (id % (k - 1))) % k;
}

describe('real RAFT task data', () => {
  const oracle: Record<string, OracleTask> = hasSklearn ? JSON.parse(execFileSync(PY, ['-c', ORACLE_PY, DATA], { maxBuffer: 64 << 20 }).toString('utf8')) : {};

  it('has the five copied tasks in test/fixtures/real/raft', () => {
    expect(readdirSync(join(REAL, 'raft')).sort()).toEqual([...COPIED].sort());
    expect(COPIED.every((t) => RAFT_TASK_NAMES.includes(t))).toBe(true);
  });

  it.skipIf(!SHARED_RAFT)('has all 11 tasks in the shared data', () => {
    expect(readdirSync(SHARED_RAFT!).sort()).toEqual([...RAFT_TASK_NAMES].sort());
  });

  it.each(TASKS)('%s: task.json and train.csv load with 50 labelled rows and no problems', (task) => {
    const t = loadRaftTask(join(DATA, task), io)!;
    expect(t).toBeDefined();
    expect(t.error).toBeUndefined();
    expect(t.problems).toEqual([]);
    expect(t.name).toBe(task);
    expect(t.train!.ids).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
    expect(Array.from(t.train!.labels).every((l) => l >= 0 && l < t.classes.length)).toBe(true);
    expect(t.train!.texts).toHaveLength(50);
    expect(t.train!.texts.every((r) => r.length === t.dataColumns.length)).toBe(true);
    expect(t.dataColumns).not.toContain('ID');
    expect(t.dataColumns).not.toContain('Label');
    // The HF integer encoding relies on the list being sorted (by code point: "Refund_..." < "activate_...").
    expect(t.classes).toEqual([...t.classes].sort());
  });

  it.skipIf(!hasSklearn).each(TASKS)('%s: texts, labels and record lines equal pandas / csv.reader', (task) => {
    const t = loadRaftTask(join(DATA, task), io)!;
    const o = oracle[task];
    expect(o.rows).toHaveLength(50);
    expect(t.classes).toEqual(o.classes);
    expect(t.dataColumns).toEqual(o.dataColumns.filter((c) => c !== 'ID'));
    o.rows.forEach((row, i) => {
      expect(t.train!.ids[i]).toBe(row.ID);
      expect(t.classes[t.train!.labels[i]]).toBe(row.Label);
      expect(t.train!.texts[i]).toEqual(t.dataColumns.map((c) => row[c]));
    });
    expect(Array.from(t.train!.lines)).toEqual(o.starts);
  });

  it('keeps embedded newlines, commas and (doubled) quotes intact', () => {
    const ose = loadRaftTask(join(DATA, 'one_stop_english'), io)!;
    expect(ose.train!.texts.every(([article]) => article.includes('\n'))).toBe(true);
    expect(ose.train!.texts[0][0].startsWith('For 85 years, it was just a grey blob on classroom maps')).toBe(true);
    // Records span many lines, so the record of ID 1 starts well after line 3.
    expect(ose.train!.lines[0]).toBe(2);
    expect(ose.train!.lines[1]).toBeGreaterThan(3);
    const tai = loadRaftTask(join(DATA, 'tai_safety_research'), io)!;
    expect(tai.dataColumns).toHaveLength(7);
    expect(tai.train!.texts.some((r) => r.includes(''))).toBe(true); // empty text fields are data, not problems
  });

  it.skipIf(!SHARED_RAFT)('keeps doubled quotes and commas of the shared sets intact', () => {
    // The overruling source text itself holds doubled quotes (the file has """" for them).
    const over = loadRaftTask(join(DATA, 'overruling'), io)!;
    expect(over.train!.texts.some(([s]) => s.includes('evidence to the contrary."").'))).toBe(true);
    const semi = loadRaftTask(join(DATA, 'semiconductor_org_types'), io)!;
    expect(semi.dataColumns).toEqual(['Paper title', 'Organization name']);
    expect(semi.train!.texts[0]).toEqual(['3Gb/s AC-coupled chip-to-chip communication using a low-swing pulse receiver', 'North Carolina State Univ.,Raleigh,NC,USA']);
  });

  it.skipIf(!SHARED_RAFT)('reads the real example_predictions.csv: all IDs are in the hidden test split', () => {
    const r = parseFile(join(DATA, 'ade_corpus_v2', 'example_predictions.csv'));
    expect(r.format).toBe('raft');
    expect(r.task).toBe('ade_corpus_v2');
    expect(r.set).toBeNull();
    expect(r.unlabeled).toBe(10);
    expect(r.skipped).toBe(0);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 2, column: 1, severity: 'info', code: 'no-gold' });
    expect(r.problems[0].message).toContain('10 predictions have no gold label (IDs 50–59; train.csv labels IDs 0–49)');
    expect(r.fatal).toMatch(/^All 10 predictions are for IDs without a gold label \(IDs 50–59, RAFT's hidden test split/);
    expect(r.fatal).toContain('nothing can be scored');
  });
});

describe('generated runs over every task at hand', () => {
  // run/<task>/predictions.csv; IDs 0–49 in reverse order between hidden-split IDs 50–59.
  let run: string;
  let besideRun: string;
  const expected: Record<string, { ids: string[]; pred: number[]; gold: number[] }> = {};

  beforeAll(() => {
    run = freshDir('run');
    besideRun = freshDir('beside');
    for (const task of TASKS) {
      const ti = RAFT_TASK_NAMES.indexOf(task);
      const t = loadRaftTask(join(DATA, task), io)!;
      const k = t.classes.length;
      const asInt = ti % 2 === 1; // every other task uses the HF integer encoding
      const rows: string[][] = [['ID', 'Label']];
      const label = (c: number, id: number) => (asInt || (task === 'banking_77' && id % 3 === 0) ? String(c + 1) : t.classes[c]);
      for (let id = 50; id < 55; id++) rows.push([String(id), label(id % k, id)]);
      const exp = { ids: [] as string[], pred: [] as number[], gold: [] as number[] };
      for (let id = 49; id >= 0; id--) {
        const gold = t.train!.labels[id];
        const p = modelPrediction(id, gold, k, ti);
        rows.push([String(id), label(p, id)]);
        exp.ids.push(String(id)); exp.pred.push(p); exp.gold.push(gold);
      }
      for (let id = 55; id < 60; id++) rows.push([String(id), label((id * 5) % k, id)]);
      expected[task] = exp;
      for (const dir of [join(run, task), join(besideRun, task)]) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'predictions.csv'), csvText(rows));
      }
      // Beside-the-predictions lookup: the task's own files next to predictions.csv.
      copyFileSync(join(DATA, task, 'task.json'), join(besideRun, task, 'task.json'));
      copyFileSync(join(DATA, task, 'train.csv'), join(besideRun, task, 'train.csv'));
    }
  });

  it('finds the predictions file of every task of a run', () => {
    expect(raftFilesIn(run)).toEqual(TASKS.map((t) => joinPath(join(run, t), 'predictions.csv')).sort());
  });

  it.each(TASKS)('%s: scores IDs 0–49 with --raft-data and beside the predictions', (task) => {
    const viaData = parseFile(join(run, task, 'predictions.csv'), DATA);
    const beside = parseFile(join(besideRun, task, 'predictions.csv'));
    const t = loadRaftTask(join(DATA, task), io)!;
    for (const r of [viaData, beside]) {
      expect(r.fatal).toBeUndefined();
      expect(r.task).toBe(task);
      expect(r.skipped).toBe(0);
      expect(r.unlabeled).toBe(10);
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatchObject({ line: 2, column: 1, severity: 'info', code: 'no-gold' });
      expect(r.problems[0].message).toContain('10 predictions have no gold label (IDs 50–59');
      const s = multiclass(r);
      expect(s.n).toBe(50);
      expect(s.classes).toEqual(t.classes);
      expect(s.classesKnown).toBe(true);
      expect(s.ids).toEqual(expected[task].ids);
      expect(Array.from(s.gold)).toEqual(expected[task].gold);
      expect(Array.from(s.pred)).toEqual(expected[task].pred);
      expect(Array.from(s.lines)).toEqual(Array.from({ length: 50 }, (_, i) => 7 + i));
      expect(s.texts!.fields).toEqual(t.dataColumns);
      expect(s.texts!.values).toEqual(expected[task].ids.map((id) => t.train!.texts[Number(id)]));
      expect(Array.from(s.dataLines!)).toEqual(expected[task].ids.map((id) => t.train!.lines[Number(id)]));
      expect(Array.from(s.gold).filter((g, i) => g === s.pred[i])).toHaveLength(35);
    }
    expect(multiclass(viaData).dataPath).toBe(join(DATA, task, 'train.csv'));
    expect(multiclass(beside).dataPath).toBe(join(besideRun, task, 'train.csv'));
  });

  it.skipIf(!hasSklearn)('macro-F1 over all task classes equals sklearn on the same files', () => {
    const sk: Record<string, { n: number; f1: number }> = JSON.parse(execFileSync(PY, ['-c', SKLEARN_PY, run, DATA, ...TASKS]).toString('utf8'));
    for (const task of TASKS) {
      const s = multiclass(parseFile(join(run, task, 'predictions.csv'), DATA));
      expect(sk[task].n).toBe(s.n);
      // Both the metric core and a from-scratch count in this test must agree with sklearn.
      expect(macroF1(s.gold, s.pred, s.classes.length)).toBeCloseTo(sk[task].f1, 12);
      expect(macroF1Local(s.gold, s.pred, s.classes.length)).toBeCloseTo(sk[task].f1, 12);
    }
    // banking_77: 77 classes, only 37 in train, so macro-F1 over all classes stays far below accuracy.
    expect(sk.banking_77.f1).toBeLessThan(0.5);
  });
});

describe('detection and discovery', () => {
  it('recognises an ID,Label header by file name, task folder or companion files', () => {
    expect(isRaftPredictions('/x/run/anything/predictions.csv', 'ID,Label\n50,a\n')).toBe(true);
    expect(isRaftPredictions('/x/run/anything/predictions.csv', '\uFEFF "id" , LABEL \r\n50,a')).toBe(true);
    expect(isRaftPredictions('/x/ade_corpus_v2/example_predictions.csv', 'ID,Label\n')).toBe(true);
    expect(isRaftPredictions(join(DATA, 'banking_77', 'example_predictions.csv'), 'ID,Label\n', ctx())).toBe(true);
    // Any name: a CSV of only ID,Label can only be predictions (raftIdLabelAnyName.test.ts).
    expect(isRaftPredictions('/x/run/anything/preds.csv', 'ID,Label\n')).toBe(true);
    expect(isRaftPredictions('/x/run/predictions.csv', 'ID,Label,score\n')).toBe(false);
    expect(isRaftPredictions('/x/run/predictions.csv', ',risk_score,label\n')).toBe(false);
    expect(isRaftPredictions('/x/run/predictions.csv', 'ID;Label\n')).toBe(false);
  });

  it('recognises a renamed file in a task folder, with or without the RAFT data folder', () => {
    const d = freshDir('detect');
    mkdirSync(join(d, 'my_task'));
    mkdirSync(join(d, 'data', 'my_task'), { recursive: true });
    writeFileSync(join(d, 'data', 'my_task', 'task.json'), '{}');
    const p = join(d, 'my_task', 'preds.csv');
    expect(isRaftPredictions(p, 'ID,Label\n', ctx())).toBe(true);
    expect(isRaftPredictions(p, 'ID,Label\n', ctx(join(d, 'data')))).toBe(true);
  });

  it('finds predictions in the submission-template layout and ignores other folders', () => {
    const d = freshDir('layout');
    for (const t of ['overruling', 'banking_77']) {
      mkdirSync(join(d, 'data', t), { recursive: true });
      writeFileSync(join(d, 'data', t, 'predictions.csv'), 'ID,Label\n');
    }
    mkdirSync(join(d, 'notes'));
    writeFileSync(join(d, 'notes', 'readme.txt'), 'x');
    writeFileSync(join(d, 'README.md'), 'x');
    expect(raftFilesIn(d)).toEqual([join(d, 'data', 'banking_77', 'predictions.csv'), join(d, 'data', 'overruling', 'predictions.csv')]);
    expect(raftFilesIn(join(d, 'data', 'overruling'))).toEqual([join(d, 'data', 'overruling', 'predictions.csv')]);
    expect(raftFilesIn(join(d, 'missing'))).toEqual([]);
  });

  it('joins paths with the separator the folder uses', () => {
    expect(joinPath('C:\\runs\\r1', 'task.json')).toBe('C:\\runs\\r1\\task.json');
    expect(joinPath('/runs/r1/', 'task.json')).toBe('/runs/r1/task.json');
    expect(joinPath('', 'task.json')).toBe('task.json');
  });
});

describe('bad rows', () => {
  // tai_safety_research (copied): classes "TAI safety research" (1 in the HF encoding) and "not TAI safety research" (2).
  const tai = (name: string) => { const d = join(freshDir(name), 'tai_safety_research'); mkdirSync(d); return join(d, 'predictions.csv'); };
  const TAI = 'TAI safety research', NOT_TAI = 'not TAI safety research';

  it('reports each kind of bad row at its line and column and skips it', () => {
    const lines = [
      'ID,Label', //                       1
      `0,${NOT_TAI}`, //                   2 ok
      `1,${TAI},extra`, //                 3 too many fields
      '2', //                              4 too few
      `,${TAI}`, //                        5 empty ID
      '3,', //                             6 empty Label
      '4,Not TAI safety research', //      7 wrong case
      '5,7', //                            8 integer beyond the 2 classes
      '6,0', //                            9 HF 0 = Unlabeled
      '7,Unlabeled', //                   10
      `0,${TAI}`, //                      11 duplicate, different label
      `0,${NOT_TAI}`, //                  12 duplicate, same label
      `"8","${TAI}"`, //                  13 ok, quoted
      '9,2', //                           14 ok: HF 2 = "not TAI safety research"
      `050,${TAI}`, //                    15 ID 50: hidden test split
      '"10","has ""quote"", comma"', //   16 unknown class with quotes and a comma
      '11,banana', //                     17 unknown class
    ];
    const r = parseText(tai('bad'), lines.join('\n') + '\n', DATA);
    const s = multiclass(r);
    expect(s.ids).toEqual(['0', '8', '9']);
    expect(Array.from(s.lines)).toEqual([2, 13, 14]);
    expect(Array.from(s.pred)).toEqual([1, 0, 1]);
    expect(Array.from(s.gold)).toEqual([0, 1, 1]); // train.csv: ID 0 TAI safety research; 8, 9 not
    expect(r.skipped).toBe(12);
    expect(r.unlabeled).toBe(1);
    const byLine = Object.fromEntries(r.problems.map((p) => [p.line, p]));
    expect(r.problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17]);
    expect(r.problems.every((p) => p.path === undefined)).toBe(true);
    expect(byLine[3]).toMatchObject({ column: lines[2].indexOf('extra') + 1, severity: 'error', code: 'column-count' });
    expect(byLine[3].message).toContain('extra field "extra"');
    expect(byLine[4]).toMatchObject({ column: 2, severity: 'error', code: 'column-count' });
    expect(byLine[4].message).toContain('the Label field is missing');
    expect(byLine[5]).toMatchObject({ column: 1, severity: 'error', code: 'missing-field' });
    expect(byLine[5].message).toMatch(/^ID field is empty/);
    expect(byLine[6]).toMatchObject({ column: 3, severity: 'error', code: 'missing-field' });
    expect(byLine[6].message).toBe('Label field of ID "3" is empty; the row is skipped.');
    expect(byLine[7]).toMatchObject({ column: 3, endColumn: lines[6].length + 1, severity: 'error', code: 'unknown-class' });
    expect(byLine[7].message).toContain('"Not TAI safety research" is not a class of tai_safety_research');
    expect(byLine[7].message).toContain(`did you mean "${NOT_TAI}"?`);
    expect(byLine[8]).toMatchObject({ column: 3, code: 'unknown-class' });
    expect(byLine[8].message).toContain('7 is beyond tai_safety_research\'s 2 classes');
    expect(byLine[9].message).toContain('0 (= "Unlabeled" in the HF encoding) is the placeholder');
    expect(byLine[10].message).toContain('"Unlabeled" is the placeholder');
    expect(byLine[11]).toMatchObject({ column: 1, severity: 'warning', code: 'duplicate-id' });
    expect(byLine[11].message).toContain('ID "0" appears again (first on line 2, with a different Label');
    expect(byLine[11].message).toContain('the first is kept');
    expect(byLine[12].message).toContain('with the same Label');
    expect(byLine[15]).toMatchObject({ column: 1, severity: 'info', code: 'no-gold' });
    expect(byLine[15].message).toContain('1 prediction has no gold label (ID 50;');
    expect(byLine[16]).toMatchObject({ column: 6, code: 'unknown-class' });
    expect(byLine[16].endColumn).toBeUndefined();
    expect(byLine[16].message).toContain('"has \\"quote\\", comma" is not a class');
    expect(byLine[17].message).toContain(`Label of ID "11": "banana" is not a class of tai_safety_research ("${TAI}", "${NOT_TAI}")`);
  });

  it('lets a corrected repeat of a rejected row count, and keeps the first of two valid rows', () => {
    const r = parseText(tai('repeat'), `ID,Label\n12,banana\n12,${TAI}\n12,${NOT_TAI}\n`, DATA);
    const s = multiclass(r);
    expect(s.ids).toEqual(['12']);
    expect(Array.from(s.lines)).toEqual([3]);
    expect(r.problems.map((p) => [p.line, p.code])).toEqual([[2, 'unknown-class'], [4, 'duplicate-id']]);
    expect(r.problems[1].message).toContain('first on line 3');
    expect(r.skipped).toBe(2);
  });

  it('reads CRLF line endings, a BOM and surrounding spaces', () => {
    const r = parseText(tai('crlf'), `\uFEFFID,Label\r\n0, ${NOT_TAI} \r\n 1 ,${TAI}\r\n`, DATA);
    const s = multiclass(r);
    expect(r.problems).toEqual([]);
    expect(s.ids).toEqual(['0', '1']);
    expect(Array.from(s.lines)).toEqual([2, 3]);
    expect(Array.from(s.pred)).toEqual([1, 0]);
  });

  it('lists 100 problems of one kind, then summarises the rest', () => {
    const rows = ['ID,Label'];
    for (let i = 0; i < 350; i++) rows.push(`${i},maybe`);
    const r = parseText(tai('many'), rows.join('\n'), DATA);
    expect(r.set).toBeNull();
    expect(r.skipped).toBe(350);
    expect(r.problems).toHaveLength(101);
    expect(r.problems[100]).toMatchObject({ line: 102, severity: 'error', code: 'unknown-class' });
    expect(r.problems[100].message).toMatch(/^250 more 'unknown-class' problems like the 100 above \(from line 102 on\)/);
    expect(r.fatal).toBe('None of the 350 prediction rows could be scored: each has a problem listed in Problems.');
  });

  it('is fatal for an empty file, a header without rows, and a header without ID/Label', () => {
    const empty = parseText(tai('empty'), '', DATA);
    expect(empty.set).toBeNull();
    expect(empty.problems).toEqual([expect.objectContaining({ line: 1, severity: 'error', code: 'empty-file' })]);
    expect(empty.fatal).toMatch(/empty/);
    const headerOnly = parseText(tai('hdr'), 'ID,Label\n', DATA);
    expect(headerOnly.problems[0].code).toBe('empty-file');
    expect(headerOnly.fatal).toContain('no prediction rows');
    const wrong = parseText(tai('wrong'), 'id,prediction\n0,x\n', DATA);
    expect(wrong.problems[0]).toMatchObject({ line: 1, code: 'missing-field' });
    expect(wrong.fatal).toContain('no Label column');
  });

  it('counts a mix of unlabeled and bad rows without scoring anything', () => {
    const r = parseText(tai('mix'), `ID,Label\n60,${TAI}\n61,nope\n`, DATA);
    expect(r.set).toBeNull();
    expect(r.unlabeled).toBe(1);
    expect(r.skipped).toBe(1);
    expect(r.fatal).toContain('1 prediction has no gold label (hidden test split) and the other row has problems');
  });
});

describe('gold data lookup and companion problems', () => {
  it('explains where it looked when no gold data is found', () => {
    const d = freshDir('nogold');
    mkdirSync(join(d, 'run', 'ade_corpus_v2'), { recursive: true });
    const p = join(d, 'run', 'ade_corpus_v2', 'predictions.csv');
    writeFileSync(p, 'ID,Label\n0,not ADE-related\n1,ADE-related\n1,ADE-related\n');
    const r = parseFile(p);
    expect(r.set).toBeNull();
    expect(r.task).toBe('ade_corpus_v2');
    expect(r.unlabeled).toBe(2);
    expect(r.skipped).toBe(1); // the duplicate is still reported without gold data
    expect(r.fatal).toContain(`no RAFT task data (task.json and train.csv) was found in ${join(d, 'run', 'ade_corpus_v2')}`);
    expect(r.fatal).toContain('--raft-data DIR');
    expect(r.problems[0]).toMatchObject({ line: 1, column: 1, severity: 'error', code: 'missing-gold-data', message: r.fatal });
    const withData = parseFile(p, join(d, 'empty-data'));
    expect(withData.fatal).toContain(`${join(d, 'empty-data', 'ade_corpus_v2')} and ${join(d, 'empty-data', 'data', 'ade_corpus_v2')} and ${join(d, 'run', 'ade_corpus_v2')}`);
  });

  it('checks classes with task.json alone, but needs train.csv to score', () => {
    const d = freshDir('taskonly');
    const dir = join(d, 'tai_safety_research');
    mkdirSync(dir);
    copyFileSync(join(DATA, 'tai_safety_research', 'task.json'), join(dir, 'task.json'));
    writeFileSync(join(dir, 'predictions.csv'), 'ID,Label\n0,TAI safety research\n1,2\n2,maybe\n');
    const r = parseFile(join(dir, 'predictions.csv'));
    expect(r.set).toBeNull();
    expect(r.unlabeled).toBe(2);
    expect(r.skipped).toBe(1);
    expect(r.problems.map((p) => p.code)).toEqual(['missing-gold-data', 'unknown-class']);
    expect(r.fatal).toContain(`${join(dir, 'train.csv')} is missing or unreadable`);
  });

  it('prefers the --raft-data folder, and uses the submission-template data/ layout there', () => {
    const d = freshDir('prefer');
    mkdirSync(join(d, 'data', 'systematic_review_inclusion'), { recursive: true });
    for (const f of ['task.json', 'train.csv']) copyFileSync(join(DATA, 'systematic_review_inclusion', f), join(d, 'data', 'systematic_review_inclusion', f));
    const dir = join(d, 'run', 'systematic_review_inclusion');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'task.json'), '{"label_columns": {"Label": ["x", "y"]}}');
    writeFileSync(join(dir, 'train.csv'), 'Tweet text,Label,ID\nhi,x,0\n');
    writeFileSync(join(dir, 'predictions.csv'), 'ID,Label\n0,not included\n');
    const r = parseFile(join(dir, 'predictions.csv'), d);
    expect(multiclass(r).dataPath).toBe(join(d, 'data', 'systematic_review_inclusion', 'train.csv'));
    expect(r.problems).toEqual([]);
  });

  it('reports problems inside train.csv and task.json with their path', () => {
    const d = freshDir('badtrain');
    const dir = join(d, 'ade_corpus_v2');
    mkdirSync(dir);
    // ade_corpus_v2's task.json, written out (the set itself is not ours to copy).
    writeFileSync(join(dir, 'task.json'), '{"name": "ade_corpus_v2", "description": "", "data_columns": ["Sentence", "ID"], "label_columns": {"Label": ["ADE-related", "not ADE-related"]}}');
    const train = join(dir, 'train.csv');
    writeFileSync(train, [
      'Sentence,Label,ID', //                          1
      '"A, multi-line', //                             2 record of ID 0 (starts here)
      'sentence",ADE-related,0', //                    3
      'too few,1', //                                  4 column count
      'x,ADE-related,', //                             5 empty ID
      'y,ADE-related,0', //                            6 duplicate ID 0
      'z,adverse,2', //                                7 unknown class
      'w,,3', //                                       8 empty label
      'v,2,4', //                                      9 HF integer: "not ADE-related"
      'u,0,5', //                                     10 HF 0: unlabeled, no problem
    ].join('\n') + '\n');
    writeFileSync(join(dir, 'predictions.csv'), 'ID,Label\n0,ADE-related\n2,ADE-related\n3,ADE-related\n4,ADE-related\n5,ADE-related\n');
    const r = parseFile(join(dir, 'predictions.csv'));
    const s = multiclass(r);
    expect(s.ids).toEqual(['0', '4']);
    expect(Array.from(s.gold)).toEqual([0, 1]);
    expect(Array.from(s.dataLines!)).toEqual([2, 9]);
    expect(s.texts!.values).toEqual([['A, multi-line\nsentence'], ['v']]);
    const inTrain = r.problems.filter((p) => p.path === train);
    expect(inTrain.map((p) => [p.line, p.code, p.severity])).toEqual([
      [4, 'column-count', 'error'], [5, 'missing-field', 'error'], [6, 'duplicate-id', 'warning'], [7, 'unknown-class', 'error'], [8, 'missing-field', 'warning'],
    ]);
    expect(inTrain[3]).toMatchObject({ column: 3, endColumn: 10 });
    expect(inTrain[3].message).toContain('train.csv Label of ID "2": "adverse" is not a class of ade_corpus_v2');
    expect(inTrain[2].message).toContain('ID "0" appears again in train.csv (first on line 2); the first is kept.');
    // IDs 2 and 3 have unusable gold labels: skipped with one summary; ID 5 (HF 0) is unlabeled.
    const rest = r.problems.filter((p) => p.path === undefined);
    expect(rest.map((p) => [p.line, p.code, p.severity])).toEqual([[3, 'missing-gold-data', 'warning'], [6, 'no-gold', 'info']]);
    expect(rest[0].message).toContain('2 predictions were skipped because the gold Label in train.csv is unusable (IDs 2–3');
    expect(r.skipped).toBe(2);
    expect(r.unlabeled).toBe(1);
  });

  it('reports a task.json that does not parse, at its line, and gives up', () => {
    const d = freshDir('badjson');
    const dir = join(d, 'tai_safety_research');
    mkdirSync(dir);
    writeFileSync(join(dir, 'task.json'), '{\n  "name": "tai_safety_research",\n  "label_columns": {"Label": ["a", "b",]}\n}\n');
    copyFileSync(join(DATA, 'tai_safety_research', 'train.csv'), join(dir, 'train.csv'));
    writeFileSync(join(dir, 'predictions.csv'), 'ID,Label\n0,TAI safety research\n');
    const r = parseFile(join(dir, 'predictions.csv'));
    expect(r.set).toBeNull();
    const bad = r.problems.find((p) => p.path === join(dir, 'task.json'))!;
    expect(bad).toMatchObject({ line: 3, severity: 'error', code: 'json-parse' });
    expect(r.fatal).toContain('task.json is unusable');
    expect(r.problems.find((p) => p.code === 'missing-gold-data')!.line).toBe(1);

    writeFileSync(join(dir, 'task.json'), '{"name": "tai_safety_research", "data_columns": ["Title", "ID"]}');
    const r2 = parseFile(join(dir, 'predictions.csv'));
    expect(r2.problems.find((p) => p.path === join(dir, 'task.json'))).toMatchObject({ line: 1, code: 'missing-field' });
    expect(r2.fatal).toContain('class list is unknown');
  });

  it('reads HF integer labels in train.csv and separates test.csv IDs from unknown IDs', () => {
    const d = freshDir('hf');
    const dir = join(d, 'banking_77');
    mkdirSync(dir);
    const t = loadRaftTask(join(DATA, 'banking_77'), io)!;
    copyFileSync(join(DATA, 'banking_77', 'task.json'), join(dir, 'task.json'));
    // HF layout: ID first, integer labels; test.csv with Label 0 ("Unlabeled").
    writeFileSync(join(dir, 'train.csv'), csvText([['ID', 'Query', 'Label'], ...t.train!.ids.map((id, i) => [id, t.train!.texts[i][0], String(t.train!.labels[i] + 1)])]));
    writeFileSync(join(dir, 'test.csv'), csvText([['ID', 'Query', 'Label'], ...Array.from({ length: 10 }, (_, i) => [String(50 + i), `test query ${i}`, '0'])]));
    const preds = [['ID', 'Label'], ...t.train!.ids.map((id, i) => [id, t.classes[t.train!.labels[i]]]), ['55', 'card_arrival'], ['56', '1'], ['1000', 'card_arrival'], ['1001', '2']];
    writeFileSync(join(dir, 'predictions.csv'), csvText(preds));
    const r = parseFile(join(dir, 'predictions.csv'));
    const s = multiclass(r);
    expect(s.n).toBe(50);
    expect(Array.from(s.gold)).toEqual(Array.from(s.pred));
    expect(Array.from(s.gold)).toEqual(Array.from(t.train!.labels));
    expect(s.texts!.values.map((v) => v[0])).toEqual(t.train!.texts.map((v) => v[0]));
    expect(r.unlabeled).toBe(4);
    expect(r.problems.map((p) => [p.line, p.severity, p.code])).toEqual([[52, 'info', 'no-gold'], [54, 'warning', 'no-gold']]);
    expect(r.problems[1].message).toContain('2 predictions have IDs found in neither train.csv nor test.csv (IDs 1000–1001)');
    expect(loadRaftTask(dir, io)!.test!.ids).toHaveLength(10);
  });

  it('returns undefined for a folder that is not a RAFT task', () => {
    expect(loadRaftTask(freshDir('none'), io)).toBeUndefined();
  });
});
