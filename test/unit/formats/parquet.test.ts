// Parquet tables: each fixture of test/fixtures/parquet (made by scripts/make-parquet-fixtures.mjs)
// holds the same rows as a text file the existing readers score: the generic CSV beside it, the real
// lm-eval samples JSONL, the ALMANACS example. The text path is the reference: every metric and the
// per-instance columns must be the same, problems must name the row, and a corrupt footer must be a
// clear error. The 1M-row timing lives in bench/parquet.bench.mjs, not here.
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetToText } from '../../../src/core/formats/parquet';
import { detectFormat, scoreFile, scoreFileAsync, scorePathAsync, ScoreCancelledError, type Report } from '../../../src/core';

const ROOT = resolve(__dirname, '../../..');
const PQ = join(ROOT, 'test/fixtures/parquet');
const LM_DIR = join(ROOT, 'test/fixtures/real/lm-eval/Qwen__Qwen3-8B');
const LM_JSONL = join(LM_DIR, readdirSync(LM_DIR).find((f) => f.startsWith('samples_negotiationtom_belief_'))!);
const LM_PARQUET = join(PQ, readdirSync(PQ).find((f) => f.startsWith('samples_negotiationtom_belief_'))!);

/** The same rows scored from text and from Parquet agree on every number. */
function expectSameScores(pq: Report, text: Report) {
  expect(pq.fatal).toBeUndefined();
  expect(pq.format).toBe(text.format);
  expect(pq.kind).toBe(text.kind);
  expect(pq.n).toBe(text.n);
  expect(pq.skipped).toBe(text.skipped);
  expect(Object.keys(pq.metrics).sort()).toEqual(Object.keys(text.metrics).sort());
  for (const [k, v] of Object.entries(text.metrics)) expect(pq.metrics[k as keyof typeof pq.metrics]).toBe(v);
  expect(Array.from(pq.instances!.value)).toEqual(Array.from(text.instances!.value));
  expect(Array.from(pq.instances!.target)).toEqual(Array.from(text.instances!.target));
  expect(pq.instances!.ids).toEqual(text.instances!.ids);
}

describe('Parquet against the same rows as text', () => {
  it('generic predictions: the CSV twin, 4 row groups, one row with a null score', async () => {
    const pq = await scoreFileAsync(join(PQ, 'generic_predictions.parquet'));
    const csv = scoreFile(join(PQ, 'generic_predictions.csv'));
    expectSameScores(pq, csv);
    expect(pq.format).toBe('generic');
    expect(pq.n).toBe(999);
    // Lines of the JSON Lines text are rows: the instance of row k says k (the report's Reveal uses it).
    expect(Array.from(pq.instances!.lines.slice(0, 8))).toEqual([1, 2, 3, 4, 5, 6, 8, 9]);
    // The CSV says line 8 (header + row 7); the Parquet problem sits on line 1 and names row 7.
    expect(csv.problems.map((p) => p.line)).toEqual([8]);
    expect(pq.problems).toHaveLength(1);
    expect(pq.problems[0]).toMatchObject({ line: 1, code: 'missing-field', severity: 'error' });
    expect(pq.problems[0].message).toMatch(/^row 7: score /);
    expect(pq.problems[0].column).toBeUndefined();
  });

  it('lm-eval samples with nested doc / arguments structs and resps lists: the real JSONL file', async () => {
    const pq = await scoreFileAsync(LM_PARQUET);
    const jsonl = scoreFile(LM_JSONL);
    expect(pq.task).toBe('negotiationtom_belief');
    expectSameScores(pq, { ...jsonl, metrics: jsonl.metrics });
    expect(pq.classes).toEqual(jsonl.classes);
    expect(pq.texts).toEqual(jsonl.texts);
    expect(Array.from(pq.instances!.gold)).toEqual(Array.from(jsonl.instances!.gold));
    expect(Array.from(pq.instances!.pred)).toEqual(Array.from(jsonl.instances!.pred));
  });

  it('ALMANACS rows: the example JSONL', async () => {
    const pq = await scoreFileAsync(join(PQ, 'moral_dilemmas.predictions.parquet'));
    const jsonl = scoreFile(join(ROOT, 'examples/almanacs/moral_dilemmas.predictions.jsonl'));
    expect(pq.format).toBe('almanacs');
    expect(pq.n).toBe(jsonl.n);
    for (const [k, v] of Object.entries(jsonl.metrics)) expect(pq.metrics[k as keyof typeof pq.metrics]).toBeCloseTo(v as number, 14);
  });

  it('a folder walk finds Parquet files and settles their format from their rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquet-'));
    copyFileSync(LM_PARQUET, join(dir, 'samples_x_2025-01-01T00-00-00.parquet'));
    copyFileSync(join(PQ, 'generic_predictions.parquet'), join(dir, 'preds.parquet'));
    const { reports } = await scorePathAsync(dir);
    expect(reports.map((r) => [r.path.slice(dir.length + 1), r.format])).toEqual([['preds.parquet', 'generic'], ['samples_x_2025-01-01T00-00-00.parquet', 'lm-eval']]);
  });
});

describe('bad Parquet files', () => {
  it('a corrupt footer is a clear error naming the file, not an exception', async () => {
    const r = await scoreFileAsync(join(PQ, 'corrupt_footer.parquet'));
    expect(r.n).toBe(0);
    expect(r.fatal).toMatch(/^corrupt_footer\.parquet is not a readable Parquet file \(12\.2 KB\): parquet metadata length \d+ exceeds/);
    expect(r.problems).toEqual([{ line: 1, severity: 'error', code: 'unscorable', message: r.fatal }]);
  });

  it('a truncated file and a text file named .parquet are clear errors too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parquet-'));
    writeFileSync(join(dir, 'short.parquet'), 'PAR1');
    writeFileSync(join(dir, 'text.parquet'), 'id,score,label\n1,0.5,1\n');
    expect((await scoreFileAsync(join(dir, 'short.parquet'))).fatal).toMatch(/short\.parquet is not a readable Parquet file.*too short/);
    expect((await scoreFileAsync(join(dir, 'text.parquet'))).fatal).toMatch(/text\.parquet is not a readable Parquet file.*footer != PAR1/);
    // Detection keeps text named .parquet out of a folder walk.
    expect(detectFormat(join(dir, 'text.parquet'), 'id,score,label\n')).toBeNull();
  });

  it('the synchronous front door says in plain words that it did not read the table (no internal names, one period)', () => {
    const fatal = scoreFile(join(PQ, 'generic_predictions.parquet')).fatal!;
    expect(fatal).toMatch(/^This Parquet table was not read/);
    expect(fatal).not.toMatch(/Async|scorePath|scoreFile|\.\.$/);
  });

});

describe('the bytes hyparquet reads', () => {
  it('a view into a larger buffer (Node 24\'s readFileSync returns such) reads the file, not what follows it', async () => {
    const file = readFileSync(join(PQ, 'generic_predictions.parquet'));
    const big = Buffer.alloc(file.length + 4096, 7); // a Buffer: its slice() is a view, not a copy
    big.set(file, 100);
    const view = big.subarray(100, 100 + file.length);
    const text = await parquetToText(join(PQ, 'generic_predictions.parquet'), view, {}, 0.5);
    expect('text' in text && text.rows).toBe(1000);
  });
});

describe('progress and cancellation', () => {
  it('reports growing fractions through the row groups and the rows, ending at 1', async () => {
    const seen: number[] = [];
    await scoreFileAsync(join(PQ, 'generic_predictions.parquet'), { onProgress: (f, phase) => { if (phase === 'parse') seen.push(f); } });
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen.some((f) => f > 0 && f < 0.5)).toBe(true);
    expect(seen.at(-1)).toBe(1);
  });

  it('stops between row groups when cancelled', async () => {
    let calls = 0;
    await expect(scoreFileAsync(join(PQ, 'generic_predictions.parquet'), { shouldCancel: () => ++calls > 2 })).rejects.toBeInstanceOf(ScoreCancelledError);
  });
});
