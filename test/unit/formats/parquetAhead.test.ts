// Compare and the leaderboard on Parquet runs (found by the journey suite, issue 28): both parse
// their runs synchronously, and hyparquet reads only asynchronously, so every Parquet run was "not
// read" (the CLI said so, VS Code's compare page said "Could not compare"). The runs are now read
// ahead (src/core/formats/parquetAhead.ts): the same rows as Parquet and as CSV give the same
// comparison, slices over the table's own columns and board.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { parseFile } from '../../../src/core/score';
import { PARQUET_NEEDS_ASYNC } from '../../../src/core/formats/parquet';
import { parquetAhead, withParquetAhead } from '../../../src/core/formats/parquetAhead';
import { writeBankChurn } from '../slices/bankChurnFixture';

const root = mkdtempSync(join(tmpdir(), 'pq-ahead-'));
const made = writeBankChurn(root, 1200);
const runs = { csv: join(root, 'csv'), parquet: join(root, 'parquet') };
for (const [kind, source] of [['csv', made.csv], ['parquet', made.parquet]] as const) {
  for (const run of ['run-a', 'run-b']) {
    mkdirSync(join(runs[kind], run), { recursive: true });
    copyFileSync(source, join(runs[kind], run, `bank_churn.${kind}`));
  }
}

/** JSON output with the files' own names and folders taken out. */
async function json(...args: string[]): Promise<unknown> {
  const out = await runCli(args);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout.split(root).join('<root>').replace(/<root>\/(csv|parquet)\//g, '<runs>/').replace(/bank_churn\.(csv|parquet)/g, 'bank_churn'));
}

describe('compare and board read Parquet runs', () => {
  it('compare of two Parquet runs equals that of the same rows as CSV, slices over its own columns too', async () => {
    const args = (kind: 'csv' | 'parquet') => ['compare', '--json', '--bootstrap', '200', '--slices', 'auto', join(runs[kind], 'run-a', `bank_churn.${kind}`), join(runs[kind], 'run-b', `bank_churn.${kind}`)];
    const csv = await json(...args('csv')) as { comparison: { aligned: number; slices?: { column: string }[] } };
    const pq = await json(...args('parquet'));
    expect(csv.comparison.aligned).toBe(1200);
    expect(csv.comparison.slices?.map((s) => s.column)).toEqual(expect.arrayContaining(['geography', 'gender']));
    expect(pq).toEqual(csv);
  });

  it('the leaderboard of a folder of Parquet runs equals that of the same rows as CSV', async () => {
    const csv = await json('board', '--json', '--bootstrap', '200', runs.csv) as { board: { rows: { run: string }[] } };
    const pq = await json('board', '--json', '--bootstrap', '200', runs.parquet);
    expect(csv.board.rows.map((r) => r.run).sort()).toEqual(['run-a', 'run-b']);
    expect(pq).toEqual(csv);
  });

  it('reads ahead only for the job: after it, the synchronous parse says Parquet needs the asynchronous reader', async () => {
    const path = join(runs.parquet, 'run-a', 'bank_churn.parquet');
    const during = await withParquetAhead([runs.parquet], {}, () => {
      expect(parquetAhead(path)).toBeDefined();
      return parseFile(path);
    });
    expect(during.fatal).toBeUndefined();
    expect(during.set?.n).toBe(1200);
    expect(parquetAhead(path)).toBeUndefined();
    expect(parseFile(path).fatal).toBe(PARQUET_NEEDS_ASYNC);
  });
});
