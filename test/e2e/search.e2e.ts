// End-to-end: the instance table's search box (issue 20.1) on a RAFT report in the real workbench:
// the rows a query keeps are the rows the search engine keeps in Node on the same file, the kept
// rows' figures stand beside the whole file's, a query that means nothing is said (and keeps the
// rows), "Clear filters" empties it, and the state survives in the page. Screenshot looked at.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { scorePath } from '../../src/core/score';
import { searchIndex, searchRows } from '../../src/common/instanceSearch';
import { subsetFigures } from '../../src/common/subsetMetrics';
import { startWorkbench, type Workbench } from './workbench';

describe('search in the instance table', () => {
  let wb: Workbench;
  let workspace: string;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'eval-lens-search-'));
    cpSync(join(PROJECT_ROOT, 'examples', 'raft', 'data'), join(workspace, 'data'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'examples', 'raft', 'run-1'), join(workspace, 'run-1'), { recursive: true });
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'evalLens.raftDataFolder': 'data', 'evalLens.bootstrap': 0 }));
    wb = await startWorkbench({ workspace, theme: 'dark', viewport: { width: 1400, height: 1000 } });
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('keeps the rows the query matches, shows their figures beside the whole file\'s, and says what it cannot search', async () => {
    const file = join(workspace, 'run-1', 'bank_intents', 'predictions.csv');
    const report = scorePath(file, { raftData: join(workspace, 'data') }).reports[0];
    const index = searchIndex(report)!;
    const found = searchRows(index, 'card AND correct = 1');
    if ('error' in found) throw new Error(found.error);
    expect(found.count).toBeGreaterThan(0);
    expect(found.count).toBeLessThan(report.n);

    await wb.openFile('run-1/bank_intents/predictions.csv');
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator('body[data-instances]').waitFor({ state: 'attached', timeout: 90_000 });
    const box = view.locator('#instance-search');
    await box.fill('card AND correct = 1');
    await box.press('Enter');
    const count = view.locator('.table-count');
    await expect.poll(() => count.getAttribute('data-rows'), { timeout: 20_000 }).toBe(String(found.count));
    await expect(view.locator('#instance-search-message').textContent()).resolves.toBe(`${found.count} ${found.count === 1 ? 'match' : 'matches'}`);
    // The kept rows' accuracy (all right here) beside the whole file's, with its interval.
    const whole = subsetFigures(report.kind, report.instances!, null)[0].value!;
    const figures = await view.locator('#instance-search-figures').textContent();
    expect(figures).toMatch(new RegExp(`^${found.count} of ${report.n} rows: accuracy 1\\.000 \\[0\\.\\d{3}, 1\\.000\\], ${whole.toFixed(3)} overall`));
    // The table's own filters compose with it: "incorrect only" leaves nothing.
    await view.locator('#filter-correctness').selectOption('incorrect');
    await expect.poll(() => count.getAttribute('data-rows')).toBe('0');
    await view.locator('#filter-correctness').selectOption('all');
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(found.count));
    await view.locator('#instances').scrollIntoViewIfNeeded();
    await wb.screenshot('search-dark', wb.page.locator('iframe.webview.ready >> visible=true').first());

    // A query that means nothing is said, and the rows stay as they were.
    await box.fill('Query ~ /(/');
    await box.press('Enter');
    await expect.poll(() => view.locator('#instance-search-message').textContent()).toMatch(/^Not searched: "Query ~ \/\(\/": /);
    await expect(box.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(found.count));

    // Clear filters empties the search: every row again.
    await box.fill('card');
    await box.press('Enter');
    await view.locator('#clear-filters').click();
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(report.n));
    await expect(box.inputValue()).resolves.toBe('');

    // An error group filters the table to its pair: as many rows as the group counts, all wrong.
    const first = report.errorGroups![0];
    const button = view.locator('#error-groups button').first();
    await expect(button.getAttribute('data-count')).resolves.toBe(String(first.count));
    await button.click();
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(first.count));
    const pairs = await view.locator('.vtable-rows .vtable-row').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
    expect(pairs.length).toBeGreaterThan(0);
    for (const text of pairs) {
      expect(text).toContain(first.gold!);
      expect(text).toContain(first.predicted);
    }
  });
});
