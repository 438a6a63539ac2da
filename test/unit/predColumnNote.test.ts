// A binary table's own prediction column (pred, y_pred, Pred_<model> beside Prob_<model>), found by
// its name and not mapped, does not decide accuracy (score >= threshold does: docs/metrics.md), but
// where it disagrees an info note says on how many rows, what accuracy the column would give and how
// to make it decide. Figures are python3's (csv module) on the same text, or counted by hand.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../src/core/score';
import { parseGeneric } from '../../src/core/formats/generic';
import { fileInput, type FormatContext } from '../../src/core/formats/context';
import { DEFAULT_OPTIONS, type RowProblem, type ScoreOptions } from '../../src/core/types';
import { runCli } from '../../src/cli/main';

const MODELS = resolve(__dirname, '../fixtures/generic-field/models.csv');
const dir = mkdtempSync(join(tmpdir(), 'pred-column-'));
const write = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };

// Rows: score 0.7/0.2/0.4/0.6 -> 1,0,0,1 at 0.5; pred 0,0,1,0: they differ on rows 1, 3 and 4.
const HAND = 'id,label,score,pred\n1,1,0.7,0\n2,0,0.2,0\n3,1,0.4,1\n4,0,0.6,0\n';

/** python3's count of rows where `pred` != (score >= t), and accuracy of `pred` against `label`, from a CSV. */
function pyFigures(path: string, label: string, score: string, pred: string, t = 0.5): { differ: number; n: number; accuracy: number } {
  const code = `import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
l, s, p, t = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
differ = sum(int(r[p]) != int(float(r[s]) >= t) for r in rows)
acc = sum(int(r[p]) == int(r[l]) for r in rows) / len(rows)
print(json.dumps({'differ': differ, 'n': len(rows), 'accuracy': acc}))`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', code, path, label, score, pred, String(t)], { encoding: 'utf8' }));
}

const notes = (problems: RowProblem[]) => problems.filter((p) => p.code === 'reported-mismatch' && p.severity === 'info');

/** The figures a note states: rows that differ, rows, the column's accuracy (4 decimals). */
function stated(p: RowProblem): { differ: number; n: number; accuracy: number } {
  const m = /on (\d+) of (\d+) rows.*accuracy would be (\d+\.\d+)/.exec(p.message);
  expect(m, p.message).not.toBeNull();
  return { differ: Number(m![1]), n: Number(m![2]), accuracy: Number(m![3]) };
}

function parse(path: string, how: 'auto' | 'general' | 'rows', options: Partial<ScoreOptions> = {}) {
  const ctx: FormatContext = { options: { ...DEFAULT_OPTIONS, ...options }, io: { readText: () => undefined, list: () => undefined } };
  return parseGeneric(fileInput(path, new Uint8Array(readFileSync(path))), ctx, { path: how });
}

describe('a detected prediction column that disagrees with score >= threshold', () => {
  it('a hand-made CSV: the note says 3 of 4 rows and the column\'s accuracy (python3); score >= 0.5 still decides', () => {
    const path = write('hand.csv', HAND);
    const py = pyFigures(path, 'label', 'score', 'pred');
    expect(py).toEqual({ differ: 3, n: 4, accuracy: 0.75 }); // by hand: rows 1, 3, 4 differ; pred right on rows 2, 3, 4
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.metrics.accuracy).toBe(0.5); // 1,0,0,1 against 1,0,1,0
    const got = notes(r.problems);
    expect(got).toHaveLength(1);
    expect(stated(got[0])).toEqual({ differ: py.differ, n: py.n, accuracy: py.accuracy });
    expect(got[0].message).toContain('--map pred=pred');
    expect(got[0].message).toContain('Map Columns');
  });

  it('the byte scanner, the RFC 4180 reader, the row builder and JSON Lines (flat and not) give the same note', () => {
    const csv = write('paths.csv', HAND);
    const quoted = write('quoted.csv', HAND.replace('\n1,', '\n"1",')); // a quote sends the scanner to the general path
    const lines = HAND.trim().split('\n').slice(1).map((l) => { const [id, label, score, pred] = l.split(','); return `{"id":"${id}","label":${label},"score":${score},"pred":${pred}}`; });
    const flat = write('flat.jsonl', lines.join('\n') + '\n');
    const nested = write('nested.jsonl', lines.map((l) => l.replace('}', ',"meta":{"k":1}}')).join('\n') + '\n');
    const messages = [
      ...(['auto', 'general', 'rows'] as const).map((how) => parse(csv, how)),
      parse(quoted, 'auto'), parse(flat, 'auto'), parse(flat, 'rows'), parse(nested, 'auto'),
    ].map((p) => { expect(p.fatal).toBeUndefined(); return notes(p.problems).map((x) => x.message); });
    expect(messages[0]).toHaveLength(1);
    for (const m of messages) expect(m).toEqual(messages[0]);
  });

  it('models.csv --model SVM: Pred_SVM differs from Prob_SVM >= 0.5 on 1 row of 30; the note\'s accuracy is python3\'s and what its --map gives', () => {
    const py = pyFigures(MODELS, 'Actual', 'Prob_SVM', 'Pred_SVM');
    expect(py.differ).toBe(1);
    const r = scoreFile(MODELS, { model: 'SVM', bootstrap: 0 });
    expect(r.model).toBe('SVM');
    expect(Math.abs(r.metrics.accuracy! - 14 / 30)).toBeLessThan(1e-12); // Prob_SVM >= 0.5 still decides
    const got = notes(r.problems);
    expect(got).toHaveLength(1);
    const s = stated(got[0]);
    expect([s.differ, s.n]).toEqual([py.differ, py.n]);
    expect(Math.abs(s.accuracy - py.accuracy)).toBeLessThan(5e-5);
    // The --map the note proposes makes the column decide: the accuracy it announced, and no note.
    expect(got[0].message).toContain('--map score=Prob_SVM --map pred=Pred_SVM');
    const mapped = scoreFile(MODELS, { mapping: { score: 'Prob_SVM', pred: 'Pred_SVM' }, bootstrap: 0 });
    expect(Math.abs(mapped.metrics.accuracy! - py.accuracy)).toBeLessThan(1e-12);
    expect(notes(mapped.problems)).toEqual([]);
  });

  it('models.csv --model LogReg: Pred_LogReg agrees with Prob_LogReg >= 0.5 on every row, so no note', () => {
    expect(pyFigures(MODELS, 'Actual', 'Prob_LogReg', 'Pred_LogReg').differ).toBe(0);
    const r = scoreFile(MODELS, { model: 'LogReg', bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(notes(r.problems)).toEqual([]);
  });

  it('no note when the user mapped pred (the column decides), nor when the column agrees', () => {
    const path = write('mapped.csv', HAND);
    const r = scoreFile(path, { mapping: { pred: 'pred' }, bootstrap: 0 });
    expect(r.metrics.accuracy).toBe(0.75);
    expect(notes(r.problems)).toEqual([]);
    const agrees = write('agrees.csv', 'label,score,y_pred\n1,0.7,1\n0,0.2,0\n1,0.4,0\n0,0.6,1\n');
    expect(notes(scoreFile(agrees, { bootstrap: 0 }).problems)).toEqual([]);
  });

  it('the threshold counts: at 0.65 the column differs on 2 rows of 4 (python3), not 3', () => {
    const path = write('threshold.csv', HAND);
    const py = pyFigures(path, 'label', 'score', 'pred', 0.65);
    expect(py.differ).toBe(2);
    const got = notes(scoreFile(path, { threshold: 0.65, bootstrap: 0 }).problems);
    expect(got).toHaveLength(1);
    expect(stated(got[0]).differ).toBe(2);
    expect(got[0].message).toContain('>= 0.65');
  });

  it('a row without a prediction is left out of the count and the column\'s accuracy, and the note says of how many rows', () => {
    // Row 4's pred is empty: rows 1 and 3 of the other 3 differ; pred is right on rows 2 and 3 (by hand).
    const path = write('blank.csv', 'id,label,score,pred\n1,1,0.7,0\n2,0,0.2,0\n3,1,0.4,1\n4,0,0.6,\n');
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.n).toBe(4); // the row is still scored by its score
    const got = notes(r.problems);
    expect(got).toHaveLength(1);
    expect(got[0].message).toContain('on 2 of the 3 rows where it holds one of the two classes (4 scored)');
    expect(got[0].message).toContain(`accuracy would be ${(2 / 3).toFixed(4)}`);
  });

  it('the CLI prints the note, and --json carries it in the report\'s problems', async () => {
    const path = write('cli.csv', 'id,label,score,y_pred\n1,1,0.7,0\n2,0,0.2,0\n3,1,0.4,1\n4,0,0.6,0\n');
    const text = await runCli(['score', path]);
    expect(text.stdout).toMatch(/info\s+reported-mismatch: "y_pred" .*on 3 of 4 rows.*accuracy would be 0\.7500/);
    const json = JSON.parse((await runCli(['score', path, '--json'])).stdout);
    const listed = notes(json.results[0].problems);
    expect(listed).toHaveLength(1);
    expect(listed[0].message).toContain('--map pred=y_pred');
  });
});
