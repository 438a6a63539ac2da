// End-to-end (issue 28, point 1): a Parquet table clicked in the explorer opens its report, whose
// Group by and Cluster by lists offer the table's own columns (before: nothing), Group by one of
// them shows the groups the CSV of the same rows gives, and the search finds rows by one of them
// (before: "no column 'geography'"), reading the column from the file when asked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreFileAsync } from '../../src/core';
import { writeBankChurn } from '../unit/slices/bankChurnFixture';
import { startWorkbench, type Workbench } from './workbench';

describe('a Parquet table\'s own columns in the report', () => {
  let wb: Workbench;
  let dir: string;
  let files: { csv: string; parquet: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-e2e-parquet-columns-'));
    files = writeBankChurn(dir, 2000);
    wb = await startWorkbench({ workspace: dir, theme: 'dark', viewport: { width: 1400, height: 1000 } });
  });

  afterAll(async () => {
    await wb?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('offers its columns to Group by and Cluster by, groups by one, and searches by one', async () => {
    const row = wb.page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'bank_churn.parquet' }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const view = wb.webview();
    await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 90_000 });

    // What the core offers for the same file (the table's own columns, not its score or label).
    const offered = (await scoreFileAsync(files.parquet, { bootstrap: 0, listColumns: {} })).groupColumns!.predictions;
    expect(offered).toEqual(expect.arrayContaining(['geography', 'gender', 'age']));
    const options = (id: string) => view.locator(`#${id} option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await expect.poll(() => options('group-by'), { timeout: 30_000 }).toEqual(expect.arrayContaining(offered.map((c) => `p:${c}`)));
    await expect.poll(() => options('cluster-by'), { timeout: 30_000 }).toEqual(expect.arrayContaining(offered.map((c) => `p:${c}`)));

    // Group by geography: the CSV's groups, row counts and all.
    const expected = (await scoreFileAsync(files.csv, { bootstrap: 0, groupBy: { column: 'geography' } })).groups!.groups;
    await view.locator('#group-by').selectOption('p:geography');
    const rows = view.locator('#group-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(expected.length);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [(tr as HTMLElement).dataset.value, Number((tr as HTMLElement).dataset.n)]));
    expect(shown).toEqual(expected.map((g) => [g.value, g.n]));

    // Search by a column of the file: read from the file on request, then the rows a direct reading keeps.
    const lines = (await import('node:fs')).readFileSync(files.csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const want = lines.filter((r) => r[1] === 'Spain' && r[2] === 'Female').length;
    const box = view.locator('#instance-search');
    await box.fill('geography = Spain AND gender = Female');
    await box.press('Enter');
    await expect.poll(() => view.locator('#instance-search-message').textContent(), { timeout: 60_000 }).toBe(`${want} matches`);
    await expect(box.getAttribute('aria-invalid')).resolves.toBeNull();
    await wb.screenshot('parquet-own-columns');
  });
});
