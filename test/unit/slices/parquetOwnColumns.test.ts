// Issue 28 point 1 (and issue 26's "--group-by geography on a Parquet table"): a Parquet table's own
// columns group, cluster, filter and slice exactly as the same rows do as CSV, and the lists of
// columns on offer (VS Code's Group by and Cluster by, `listColumns`) are the same. Before the fix,
// the typed-column path of a flat Parquet table said the file had no columns at all.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scoreFileAsync } from '../../../src/core';
import { GEOGRAPHY, writeBankChurn } from './bankChurnFixture';
import { searchIndex, searchRows, unknownColumns } from '../../../src/common/instanceSearch';

const dir = mkdtempSync(join(tmpdir(), 'pq-own-columns-'));
const { csv: csvPath, parquet: parquetPath } = writeBankChurn(dir, 2000);

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

  it('reads one column for each instance (the report page\'s search by a column), as the CSV does', async () => {
    const csvRows = readFileSync(csvPath, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    for (const column of ['geography', 'age']) {
      const k = ['customer_id', 'geography', 'gender', 'age'].indexOf(column);
      const pq = await scoreFileAsync(parquetPath, { bootstrap: 0, readColumn: { column } });
      const csv = await scoreFileAsync(csvPath, { bootstrap: 0, readColumn: { column } });
      expect(pq.columnRead).toEqual({ column, values: csvRows.map((r) => r[k]) });
      expect(csv.columnRead).toEqual(pq.columnRead);
    }
    const missing = await scoreFileAsync(parquetPath, { bootstrap: 0, readColumn: { column: 'region' } });
    expect(missing.columnRead).toEqual({ column: 'region', error: 'The file has no column "region".' });
    // A data file joined on ID: its column, in the instances' order.
    const data = join(dir, 'customers.csv');
    writeFileSync(data, 'id,segment\n' + csvRows.slice().reverse().map((r) => `${r[0]},seg-${r[3]}`).join('\n') + '\n');
    const joined = await scoreFileAsync(parquetPath, { bootstrap: 0, mapping: { id: 'customer_id' }, readColumn: { column: 'segment', dataPath: data } });
    expect(joined.columnRead?.error).toBeUndefined();
    expect(joined.columnRead?.values).toEqual(csvRows.map((r) => `seg-${r[3]}`));
  });

  it('the search finds a Parquet table\'s own column once it is read for it, and keeps the rows a direct reading keeps', async () => {
    const report = await scoreFileAsync(parquetPath, { bootstrap: 0, listColumns: {} });
    const index = searchIndex(report)!;
    const query = 'geography = Spain AND score > 0.5';
    // Before: the page does not hold the column, so the query names an unknown one...
    expect(unknownColumns(index, query)).toEqual(['geography']);
    expect(report.groupColumns?.predictions).toContain('geography');
    expect('error' in searchRows(index, query)).toBe(true);
    // ...which the host reads for it (options.readColumn), in the instances' order.
    const read = (await scoreFileAsync(parquetPath, { bootstrap: 0, instances: false, readColumn: { column: 'geography' } })).columnRead!;
    index.addColumn('geography', read.values!);
    expect(unknownColumns(index, query)).toEqual([]);
    const found = searchRows(index, query);
    if ('error' in found) throw new Error(found.error);
    const rows = readFileSync(csvPath, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const want = rows.map((r) => (r[1] === 'Spain' && Number(r[5]) > 0.5 ? 1 : 0));
    expect(Array.from(found.mask)).toEqual(want);
    expect(found.count).toBeGreaterThan(0);
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
