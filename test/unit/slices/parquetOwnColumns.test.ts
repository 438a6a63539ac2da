// Issue 28 point 1 (and issue 26's "--group-by geography on a Parquet table"): a Parquet table's own
// columns group, cluster, filter and slice exactly as the same rows do as CSV, and the lists of
// columns on offer (VS Code's Group by and Cluster by, `listColumns`) are the same. Before the fix,
// the typed-column path of a flat Parquet table said the file had no columns at all.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { runCli } from '../../../src/cli/main';
import { scoreFileAsync } from '../../../src/core';
import { mulberry32 as rng } from '../../../src/core/metrics/bootstrap';

const dir = mkdtempSync(join(tmpdir(), 'pq-own-columns-'));
const csvPath = join(dir, 'bank_churn.csv');
const parquetPath = join(dir, 'bank_churn.parquet');
const GEOGRAPHY = ['France', 'Spain', 'Germany'];

/** A bank-churn-shaped table: an ID, two categorical columns, a numeric one, the label and P(exited). */
function makeTable(n: number): void {
  const random = rng(28);
  const rows = Array.from({ length: n }, (_, i) => {
    const geography = GEOGRAPHY[Math.floor(random() * 3)];
    const gender = random() < 0.5 ? 'Female' : 'Male';
    const age = 18 + Math.floor(random() * 60);
    const exited = random() < (geography === 'Germany' ? 0.35 : 0.18) ? 1 : 0;
    const p = Number(Math.min(1, Math.max(0, (exited ? 0.62 : 0.3) + (random() - 0.5) * 0.7)).toFixed(4));
    return { id: `C${String(i).padStart(5, '0')}`, geography, gender, age, exited, p };
  });
  writeFileSync(csvPath, 'customer_id,geography,gender,age,actual_churn,churn_probability\n' + rows.map((r) => `${r.id},${r.geography},${r.gender},${r.age},${r.exited},${r.p}`).join('\n') + '\n');
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'customer_id', data: rows.map((r) => r.id), type: 'STRING' },
      { name: 'geography', data: rows.map((r) => r.geography), type: 'STRING' },
      { name: 'gender', data: rows.map((r) => r.gender), type: 'STRING' },
      { name: 'age', data: rows.map((r) => r.age), type: 'INT32' },
      { name: 'actual_churn', data: rows.map((r) => r.exited), type: 'INT32' },
      { name: 'churn_probability', data: rows.map((r) => r.p), type: 'DOUBLE' },
    ],
    rowGroupSize: 700,
  });
  writeFileSync(parquetPath, new Uint8Array(buf));
}

type Result = Record<string, unknown> & { path: string; problems: { code: string; message: string }[] };

async function scoreJson(...args: string[]): Promise<Result> {
  const out = await runCli(['score', '--json', '--bootstrap', '0', ...args]);
  const json = JSON.parse(out.stdout) as { results: Result[] };
  expect(json.results).toHaveLength(1);
  return json.results[0];
}

/** A result without what names the file itself. */
function comparable(r: Result): Record<string, unknown> {
  const { path: _path, timing: _timing, ...rest } = r as Result & { timing?: unknown };
  return rest;
}

beforeAll(() => makeTable(2000));

describe('a Parquet table\'s own columns, as the same rows as CSV', () => {
  it('--group-by of a text column gives the CSV\'s groups (the same values, counts and figures)', async () => {
    const csv = await scoreJson(csvPath, '--group-by', 'geography');
    const pq = await scoreJson(parquetPath, '--group-by', 'geography');
    expect(pq.problems.filter((p) => p.code === 'group-column')).toEqual([]);
    const groups = (pq.groups as { groups: { value: string; n: number }[] }).groups;
    expect(groups.map((g) => g.value).sort()).toEqual([...GEOGRAPHY].sort());
    expect(groups.reduce((s, g) => s + g.n, 0)).toBe(2000);
    expect(comparable(pq)).toEqual(comparable(csv));
  });

  it('--group-by of a numeric column gives the same quantile groups', async () => {
    const csv = await scoreJson(csvPath, '--group-by', 'age');
    const pq = await scoreJson(parquetPath, '--group-by', 'age');
    expect((pq.groups as { groups: unknown[] }).groups.length).toBe(4);
    expect(comparable(pq)).toEqual(comparable(csv));
  });

  it('--cluster, --where and --slices read the same values', async () => {
    for (const args of [['--cluster', 'geography'], ['--where', 'geography = Spain'], ['--where', 'age >= 40 AND gender = Female'], ['--slices', 'geography,gender']]) {
      const csv = await scoreJson(csvPath, ...args);
      const pq = await scoreJson(parquetPath, ...args);
      expect(comparable(pq), args.join(' ')).toEqual(comparable(csv));
    }
  });

  it('lists the same columns for Group by and Cluster by (listColumns), with or without grouping', async () => {
    for (const extra of [{}, { groupBy: { column: 'gender' } }]) {
      const csv = await scoreFileAsync(csvPath, { listColumns: {}, bootstrap: 0, ...extra });
      const pq = await scoreFileAsync(parquetPath, { listColumns: {}, bootstrap: 0, ...extra });
      // Not the ID, the label nor the score the set is read from (issue 28, point 12).
      expect(pq.groupColumns?.predictions).toEqual(['geography', 'gender', 'age']);
      expect(pq.groupColumns).toEqual(csv.groupColumns);
    }
  });
});
