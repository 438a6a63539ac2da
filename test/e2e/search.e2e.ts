// End-to-end: the instance table's search box (issue 20.1) on a RAFT report in the real workbench:
// the rows a query keeps are the rows the search engine keeps in Node on the same file, the kept
// rows' figures stand beside the whole file's, a query that means nothing is said (and keeps the
// rows), "Clear filters" empties it, and the state survives in the page. Screenshot looked at.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { scorePath } from '../../src/core/score';
import { searchIndex, searchRows } from '../../src/common/instanceSearch';
import { subsetFigures } from '../../src/common/subsetMetrics';
import { startWorkbench, type Workbench } from './workbench';
import { comparePaths } from '../../src/core/compareFiles';
import { REAL } from '../unit/realData';

/** A screenshot to test-results/e2e/, and to docs/screenshots/ with EVAL_LENS_UPDATE_SCREENSHOTS=1. */
async function docsShot(wb: Workbench, name: string): Promise<void> {
  const path = await wb.screenshot(name, wb.page.locator('iframe.webview.ready >> visible=true').first());
  if (process.env.EVAL_LENS_UPDATE_SCREENSHOTS === '1') copyFileSync(path, join(PROJECT_ROOT, 'docs', 'screenshots', `${name}.png`));
}

/** Two runs of UCI Adult's real test rows: the candidate over-scores women, nobody else. */
function writeRuns(dir: string): [string, string] {
  const rows = readFileSync(join(REAL, 'adult', 'adult-test.csv'), 'utf8').split('\n').filter((l) => /^\d/.test(l)).slice(0, 3000);
  return (['baseline_adult.csv', 'candidate_adult.csv'] as const).map((name, c) => {
    const out = ['id,score,label,sex,workclass'];
    rows.forEach((line, k) => {
      const f = line.split(',').map((x) => x.trim());
      const z = -8 + 0.04 * Number(f[0]) + 0.35 * Number(f[4]) + 0.03 * Number(f[12]) + (c && f[9] === 'Female' ? 3 : 0);
      out.push(`r${k},${(1 / (1 + Math.exp(-z))).toFixed(6)},${f[14].startsWith('>50K') ? 1 : 0},${f[9]},${f[1]}`);
    });
    writeFileSync(join(dir, name), out.join('\n') + '\n');
    return join(dir, name);
  }) as [string, string];
}

describe('search in the instance table', () => {
  let wb: Workbench;
  let workspace: string;
  let runs: [string, string];

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'eval-lens-search-'));
    cpSync(join(PROJECT_ROOT, 'examples', 'raft', 'data'), join(workspace, 'data'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'examples', 'raft', 'run-1'), join(workspace, 'run-1'), { recursive: true });
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'evalLens.raftDataFolder': 'data', 'evalLens.bootstrap': 0 }));
    runs = writeRuns(workspace);
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
    await docsShot(wb, 'search-dark');

    // A query that means nothing is said, and the rows stay as they were.
    await box.fill('Query ~ /(/');
    await box.press('Enter');
    await expect.poll(() => view.locator('#instance-search-message').textContent()).toMatch(/^Not searched: "Query ~ \/\(\/": /);
    await expect(box.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(found.count));

    // The stepper follows the search: it walks the mistakes among the rows kept.
    const cards = searchRows(index, 'Query ~ /card/i');
    if ('error' in cards) throw new Error(cards.error);
    const wrongCards = report.instances!.correct.filter((c, i) => c === 0 && cards.mask[i] === 1).length;
    const allWrong = report.instances!.correct.filter((c) => c === 0).length;
    expect(wrongCards).toBeGreaterThan(0);
    expect(wrongCards).toBeLessThan(allWrong);
    await box.fill('Query ~ /card/i');
    await box.press('Enter');
    await expect.poll(() => view.locator('#stepper').getAttribute('data-total')).toBe(String(wrongCards));
    await expect(view.locator('#stepper-position').textContent()).resolves.toBe(`1 of ${wrongCards} (of ${allWrong}, as the table filters)`);

    // Clear filters empties the search: every row again, and every mistake in the stepper.
    await view.locator('#clear-filters').click();
    await expect.poll(() => view.locator('#stepper').getAttribute('data-total')).toBe(String(allWrong));
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(report.n));
    await expect(box.inputValue()).resolves.toBe('');

    // An error group filters the table to its pair: as many rows as the group counts, all wrong.
    const first = report.errorGroups![0];
    const button = view.locator('#error-groups button').first();
    await expect(button.getAttribute('data-count')).resolves.toBe(String(first.count));
    await button.click();
    await expect.poll(() => count.getAttribute('data-rows')).toBe(String(first.count));
    const pairs = await view.locator('.vtable-rows .vtable-row').evaluateAll((rows) => rows.filter((r) => !(r as HTMLElement).hidden).map((r) => r.textContent ?? ''));
    expect(pairs.length).toBeGreaterThan(0);
    for (const text of pairs) {
      expect(text).toContain(first.gold!);
      expect(text).toContain(first.predicted);
    }
  });

  it('"Where it differs" on the compare page: the slice the candidate got worse on, in words, and its instances', async () => {
    const expected = comparePaths(runs, { bootstrap: 0, slices: { columns: 'auto' } }).slices!;
    const women = expected.find((x) => x.value === 'Female')!;
    expect(women.p_holm!).toBeLessThan(0.05);
    await wb.openFile('baseline_adult.csv');
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await wb.page.locator('.quick-input-widget .quick-input-box input').fill('candidate_adult');
    await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'candidate_adult' }).first().click({ timeout: 20_000 });
    const view = wb.webview();
    await view.locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    const summary = view.locator('#where-it-differs-summary');
    const worse = expected.filter((x) => x.p_holm !== null && x.p_holm < 0.05 && x.delta! < 0);
    const better = expected.filter((x) => x.p_holm !== null && x.p_holm < 0.05 && x.delta! > 0);
    expect(worse[0].value).toBe('Female'); // the planted regression leads
    await expect(summary.textContent()).resolves.toBe(`Accuracy: ${worse.length} slice${worse.length === 1 ? '' : 's'} where the candidate is worse and ${better.length} where it is better beyond chance (exact McNemar per slice, Holm over ${expected.length} slices, α 0.05).`);
    const row = view.locator('#slices-significant tbody tr').first();
    await expect(row.getAttribute('data-value')).resolves.toBe('Female');
    await expect(row.locator('td').last().textContent()).resolves.toBe('✱ candidate worse');
    // The same figures as the CLI's comparison.
    await expect(row.locator('td').nth(0).textContent()).resolves.toBe(String(women.n));
    await row.locator('button.slice-show').click();
    await expect.poll(() => view.locator('#pair-table-count').textContent()).toMatch(/^sex = Female, all cells: \d+/);
    const shown = Number(await view.locator('#pair-table').getAttribute('data-rows'));
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(women.n);
    // The compare page's search composes with the slice: women the baseline got right and the candidate wrong.
    const [b, c] = runs.map((p) => readFileSync(p, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')));
    const lost = b.filter((r, k) => r[3] === 'Female' && (Number(r[1]) >= 0.5 ? 1 : 0) === Number(r[2]) && (Number(c[k][1]) >= 0.5 ? 1 : 0) !== Number(c[k][2])).length;
    expect(lost).toBeGreaterThan(0);
    await view.locator('#pair-search').fill('agreement = "baseline only"');
    await view.locator('#pair-search').press('Enter');
    await expect.poll(() => view.locator('#pair-table').getAttribute('data-rows')).toBe(String(lost));
    await view.locator('#where-it-differs').scrollIntoViewIfNeeded();
    await docsShot(wb, 'where-it-differs-dark');
  });
});
