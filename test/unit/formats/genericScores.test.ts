// Per-sample scores without labels (issue 26): a Ragas-style table (faithfulness, answer_relevancy,
// context_precision, context_recall per row beside question/answer/contexts/ground_truth text) is
// the scores kind: each numeric column is a per-sample metric, n counts every row, and a NaN or an
// empty field is left out of its own column's mean only. CSV, JSON Lines, a JSON array and Parquet
// alike. A real Ragas output (test/fixtures/real/ragas, MIT) and a table made in Ragas' shape
// (test/fixtures/generic-tables/make_fixtures.py) are checked against pandas' means
// (test/reference/generic_tables_reference.py).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { scoreFileAsync } from '../../../src/core/scoreAsync';
import { detectFormat } from '../../../src/core/formats/detect';
import { runCli } from '../../../src/cli/main';
import type { Report } from '../../../src/core/types';

const DIR = resolve(__dirname, '../../fixtures/generic-tables');
const REAL = resolve(__dirname, '../../fixtures/real/ragas/ragas_evaluation_results.csv');
const ref = JSON.parse(execFileSync('/usr/bin/python3', [resolve(__dirname, '../../reference/generic_tables_reference.py')], { encoding: 'utf8', maxBuffer: 1 << 24 }));
const close = (a: number | null | undefined, b: number) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(1e-6);

/** Each task metric's mean and n as pandas gives them. */
function expectMeans(r: Report, want: { n: number; metrics: Record<string, { mean: number | null; n: number }> }): void {
  expect(r.fatal).toBeUndefined();
  expect(r.kind).toBe('scores');
  expect(r.n).toBe(want.n);
  expect(r.taskMetrics!.map((t) => t.name)).toEqual(Object.keys(want.metrics));
  for (const t of r.taskMetrics!) {
    const w = want.metrics[t.name];
    expect(t.n).toBe(w.n);
    if (w.mean === null) expect(t.mean).toBeNull();
    else close(t.mean, w.mean);
  }
}

describe('a real Ragas output (evaluate(...).to_pandas().to_csv)', () => {
  it('is read without --map: n = 3 rows, each metric\'s mean as pandas gives it, answer_relevancy all NaN', () => {
    const r = scoreFile(REAL, { bootstrap: 0 });
    expectMeans(r, ref.ragas_real);
    expect(r.format).toBe('generic');
    expect(r.taskMetrics!.find((t) => t.name === 'answer_relevancy')).toMatchObject({ n: 0, mean: null });
  });

  it('is detected in a folder (its names say so) and keeps its texts for the stepper and search', () => {
    expect(detectFormat(REAL, readFileSync(REAL, 'utf8').slice(0, 16384))).toBe('generic');
    const r = scoreFile(REAL, { bootstrap: 0 });
    const scores = ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall'];
    // The texts, then each row's scores as fields (the instance table's columns, its search and CSV).
    expect(r.texts?.fields).toEqual(['user_input', 'retrieved_contexts', 'response', 'reference', ...scores]);
    expect(r.texts!.values[2][0]).toBe('What is the Heston model used for?');
    const py = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
print(json.dumps([[float(r[c]) if r[c] not in ('', 'nan', 'NaN') else None for c in sys.argv[2:]] for r in rows]))`, REAL, ...scores], { encoding: 'utf8' })) as (number | null)[][];
    expect(r.texts!.values.map((row) => row.slice(4).map((v) => (v === '' ? null : Number(v))))).toEqual(py);
  });

  it('has no ID column: its columns on offer say that no data file can be joined to its rows (the page says why)', () => {
    const r = scoreFile(REAL, { bootstrap: 0, listColumns: { dataPath: join(DIR, 'ragas_scores.csv') } });
    expect(r.groupColumns?.unjoinable).toBe(true);
    expect(r.groupColumns?.data).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'scores-ids-'));
    writeFileSync(join(dir, 'scores.csv'), 'id,question,faithfulness\nq1,a,0.5\nq2,b,0.75\nq3,c,1\n');
    const withIds = scoreFile(join(dir, 'scores.csv'), { bootstrap: 0, listColumns: {} });
    expect(withIds.kind).toBe('scores');
    expect(withIds.groupColumns?.unjoinable).toBeUndefined();
  });

  it('--map label=reference: the reference is free text; said so, with no --map hint (none could score), exit 2', async () => {
    const out = await runCli(['score', REAL, '--map', 'label=reference']);
    expect(out.code).toBe(2);
    expect(out.stdout).toMatch(/reference holds free text/);
    expect(out.stdout).toMatch(/without --map, Eval Lens shows each one's mean/);
    expect(out.stdout).not.toMatch(/To score it, write/);
  });
});

describe('a table in Ragas\' shape with NaNs, in every container', () => {
  for (const file of ['ragas_scores.csv', 'ragas_scores.jsonl', 'ragas_scores.json', 'ragas_scores.parquet']) {
    it(`${file}: n counts every row; a NaN is left out of its own column's mean only`, async () => {
      expectMeans(await scoreFileAsync(join(DIR, file), { bootstrap: 0 }), ref.ragas_synthetic);
    });
  }

  it('with --bootstrap, each mean gets a percentile interval around it (CLI table and --json)', async () => {
    const out = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--bootstrap', '200', '--json']);
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout).results[0];
    expect(r.kind).toBe('scores');
    expect(r.n).toBe(40);
    for (const t of r.taskMetrics) {
      close(t.mean, ref.ragas_synthetic.metrics[t.name].mean);
      expect(t.interval[0]).toBeLessThanOrEqual(t.mean);
      expect(t.interval[1]).toBeGreaterThanOrEqual(t.mean);
    }
    const table = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--bootstrap', '200']);
    expect(table.stdout).toMatch(/generic · scores\s+n=40/);
    expect(table.stdout).toMatch(new RegExp(`faithfulness\\s+${ref.ragas_synthetic.metrics.faithfulness.mean.toFixed(4)}\\s+\\[`));
  });

  it('Markdown and CSV documents carry the means', async () => {
    const md = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--markdown']);
    expect(md.stdout).toContain(`| \`context_recall\` | ${ref.ragas_synthetic.metrics.context_recall.n} | ${ref.ragas_synthetic.metrics.context_recall.mean.toFixed(4)} |`);
    const csv = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--csv']);
    expect(csv.stdout).toMatch(/,scores,.*task:faithfulness,0\.7/);
  });

  it('--group-by evolution_type: each group\'s means (terminal, Markdown, JSON)', async () => {
    const r = scoreFile(join(DIR, 'ragas_scores.csv'), { bootstrap: 0, groupBy: { column: 'evolution_type' } });
    const groups = r.groups!.groups;
    expect(groups.map((g) => g.value).sort()).toEqual(Object.keys(ref.ragas_synthetic.by_evolution_type).sort());
    for (const g of groups) for (const t of g.taskMetrics!) close(t.mean, ref.ragas_synthetic.by_evolution_type[g.value][t.name]);
    const md = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--group-by', 'evolution_type', '--markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(`| reasoning | 13 | ${ref.ragas_synthetic.by_evolution_type.reasoning.faithfulness.toFixed(4)} |`);
    const text = await runCli(['score', join(DIR, 'ragas_scores.parquet'), '--group-by', 'evolution_type']);
    expect(text.stdout).toMatch(new RegExp(`simple\\s+14\\s+${ref.ragas_synthetic.by_evolution_type.simple.faithfulness.toFixed(4)}`));
  });

  it('--where filters the rows, and the means are of the rows kept', async () => {
    const out = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--where', 'evolution_type=simple', '--json']);
    const r = JSON.parse(out.stdout).results[0];
    expect(r.n).toBe(14);
    close(r.taskMetrics.find((t: { name: string }) => t.name === 'faithfulness').mean, ref.ragas_synthetic.by_evolution_type.simple.faithfulness);
  });

  it('compare of two score tables says they are not comparable, and how to see them side by side', async () => {
    const out = await runCli(['compare', join(DIR, 'ragas_scores.csv'), join(DIR, 'ragas_scores.jsonl')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/tables of per-sample scores without gold labels \(faithfulness, answer_relevancy, context_precision, context_recall\), which are not comparable here/);
    expect(out.stderr).toMatch(/eval-lens score /);
  });

  it('board and --slices do not fail on them', async () => {
    const board = await runCli(['board', DIR]);
    expect(board.code).toBe(0);
    expect(board.stdout).toMatch(/ragas_scores/);
    const slices = await runCli(['score', join(DIR, 'ragas_scores.csv'), '--slices', 'evolution_type']);
    expect(slices.code).toBe(0);
    expect(slices.stdout).toMatch(/a table of per-sample scores has none/);
  });
});

describe('what stays refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scores-refused-'));

  it('a predictions table without a gold column that has a score column: refused, with a working hint or none', async () => {
    const path = join(dir, 'preds.csv');
    writeFileSync(path, 'id,question,score,churned\n1,q1,0.81,1\n2,q2,0.12,0\n3,q3,0.66,1\n4,q4,0.30,0\n');
    const r = scoreFile(path);
    expect(r.fatal).toBeDefined();
    expect(r.kind).not.toBe('scores');
    const hint = /To score it, write: (.*)$/.exec(r.fatal!)?.[1];
    expect(hint).toBe('--map label=churned --map score=score');
    const mapped = scoreFile(path, { mapping: { label: 'churned', score: 'score' } });
    expect(mapped.n).toBe(4);
    // Without any 0/1 column, no --map can score it: what it holds and what is needed.
    const bare = join(dir, 'bare.csv');
    writeFileSync(bare, 'id,question,probability\n1,q1,0.81\n2,q2,0.12\n');
    expect(scoreFile(bare).fatal).toMatch(/No column holds the gold label/);
  });

  it('a row whose metric is text is a warning and the row still counts', () => {
    const path = join(dir, 'ragas_bad.csv');
    writeFileSync(path, 'question,faithfulness,context_recall\nq1,0.5,1\nq2,oops,0\nq3,1.0,\n');
    const r = scoreFile(path, { bootstrap: 0 });
    expect(r.n).toBe(3);
    expect(r.taskMetrics).toEqual([
      { name: 'faithfulness', n: 2, mean: 0.75 },
      { name: 'context_recall', n: 2, mean: 0.5 },
    ]);
    expect(r.problems).toContainEqual(expect.objectContaining({ line: 3, severity: 'warning', code: 'not-a-number' }));
  });
});
