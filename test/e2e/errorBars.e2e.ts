// End-to-end: error bars in the report panel (issue 18). evalLens.intervalMethod 't' makes the
// cards' intervals mean ± t·SE at once; "Cluster by" (beside "Group by") clusters them by the
// passage column: the cards say how much wider, the Error bars section lists SE, clustered SE and
// design effects; a file of 5 attempts per item shows its repeats (pass@k, pass^k), says its
// intervals are rough (24 items) and steps through its flaky items. The figures are those of
// test/reference/error_bars_reference.py. Screenshot: test-results/e2e/report-clusters-dark.png.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import expected from '../reference/error_bars_expected.json';
import { startWorkbench, type Workbench } from './workbench';
import { boardPaths } from '../../src/core/boardFiles';

const FIX = join(PROJECT_ROOT, 'test', 'fixtures', 'error-bars');
const f3 = (v: number) => v.toFixed(3);

const RESAMPLES = 300;

async function pick(wb: Workbench, label: RegExp): Promise<void> {
  const text = label.source.replace(/^\^|\$$/g, '').replace(/\\(.)/g, '$1');
  await wb.page.locator('.quick-input-widget .quick-input-box input').fill(text);
  await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: label }) }).first().click({ timeout: 20_000 });
}

describe('Error bars in the report panel', () => {
  let wb: Workbench;
  let boardFolder: string;

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-error-bars-'));
    for (const name of ['passages.csv', 'passages-candidate.csv', 'attempts.csv']) copyFileSync(join(FIX, name), join(workspace, name));
    boardFolder = join(workspace, 'board');
    mkdirSync(boardFolder);
    for (const run of ['alpha', 'beta', 'gamma', 'delta']) copyFileSync(join(FIX, 'board', `${run}.csv`), join(boardFolder, `${run}.csv`));
    wb = await startWorkbench({
      workspace, theme: 'dark', viewport: { width: 1400, height: 1100 },
      settings: { 'evalLens.intervalMethod': 't', 'evalLens.bootstrap': RESAMPLES },
    });
  });

  afterAll(async () => {
    await wb?.close();
  });

  async function openReport(file: string) {
    await wb.openFile(file);
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 90_000 });
    return view;
  }

  it('t intervals from the setting; Cluster by passage widens them and says by how much', async () => {
    const want = expected.passages;
    const view = await openReport('passages.csv');
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) {
      await wb.runCommand(title, { timeoutMs: 10_000 }).catch(() => undefined);
    }
    await wb.page.locator('.tab', { hasText: 'Eval Lens: passages' }).first().click();
    const accuracyCard = view.locator('.card', { has: view.locator('.card-value[data-metric="accuracy"]') });
    // The setting: t intervals with no bootstrap at all.
    await expect.poll(() => accuracyCard.locator('.card-interval').textContent(), { timeout: 60_000 })
      .toBe(`95% CI [${f3(want.t.accuracy[0])}, ${f3(want.t.accuracy[1])}]`);
    await expect(view.locator('#interval-method').textContent()).resolves.toContain('mean ± t·SE with 226 degrees of freedom');

    // "Cluster by" beside "Group by", the same columns.
    const select = view.locator('#cluster-by');
    await expect.poll(() => select.locator('option').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['No clustering', 'passage']));
    expect((await view.locator('#group-by option').allTextContents()).slice(1)).toEqual((await select.locator('option').allTextContents()).slice(1));
    await select.selectOption('p:passage');
    await select.press('Enter');
    const widened = accuracyCard.locator('.card-cluster');
    await expect.poll(() => widened.textContent().catch(() => null), { timeout: 90_000 })
      .toBe(`clustered by passage: SE ×${Math.sqrt(want.design_effect.accuracy).toFixed(2)}`);
    await expect(accuracyCard.locator('.card-interval').textContent()).resolves
      .toBe(`95% CI [${f3(want.t_clustered.accuracy[0])}, ${f3(want.t_clustered.accuracy[1])}]`);
    await expect(view.locator('#cluster-by').inputValue()).resolves.toBe('p:passage');
    // The Error bars section: SE, clustered SE, design effect, interval width.
    const rows = await view.locator('#standard-errors tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    const acc = rows.find((r) => r[0] === 'accuracy')!;
    expect(acc).toEqual([
      // Standard errors to three significant figures (issue 28, point 12).
      'accuracy', want.standard_errors.accuracy.toPrecision(3), want.clustered.accuracy.toPrecision(3), f3(want.design_effect.accuracy),
      `×${Math.sqrt(want.design_effect.accuracy).toFixed(2)}`,
    ]);
    // The design effect in plain words (issue 28.5): n / deff rows' worth of information.
    await expect(view.locator('#design-effect-words').textContent()).resolves.toMatch(/carry as much information as about [\d,]+ independent rows/);
    await expect(view.locator('#interval-method').textContent()).resolves.toContain(`${want.clusters - 1} degrees of freedom`);
    // The intervals pass (a bootstrap of whole passages for the metrics that are not means) keeps the t intervals of the means.
    await expect.poll(() => view.locator('#interval-method').textContent(), { timeout: 90_000 }).toContain(`a bootstrap of ${RESAMPLES} resamples for the rest`);
    await expect.poll(() => view.locator('.card', { has: view.locator('.card-value[data-metric="ece"]') }).locator('.card-interval').count()).toBe(1);
    await expect(accuracyCard.locator('.card-interval').textContent()).resolves
      .toBe(`95% CI [${f3(want.t_clustered.accuracy[0])}, ${f3(want.t_clustered.accuracy[1])}]`);
    await view.locator('#section-error-bars').scrollIntoViewIfNeeded();
    const shot = await wb.screenshot('report-clusters-dark');
    if (process.env.EVAL_LENS_UPDATE_SCREENSHOTS === '1') copyFileSync(shot, join(PROJECT_ROOT, 'docs', 'screenshots', 'report-clusters-dark.png'));
    await view.locator('#metric-cards').scrollIntoViewIfNeeded();
    await wb.screenshot('report-clusters-cards-dark');

    // The choice is remembered for the file: the report opened again is still clustered.
    await wb.runCommand('View: Close All Editors');
    const again = await openReport('passages.csv');
    await expect.poll(() => again.locator('#cluster-by').inputValue(), { timeout: 60_000 }).toBe('p:passage');
    await expect.poll(() => again.locator('.card-cluster[data-cluster="accuracy"]').count(), { timeout: 60_000 }).toBe(1);
  });

  it('compare: what the comparison could detect, in words; leaderboard: rank, rank interval and tier', async () => {
    const want = expected.power;
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('passages.csv');
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await pick(wb, /passages-candidate/);
    const view = wb.webview();
    await view.locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    for (const [m, w] of Object.entries(want)) {
      const cell = view.locator(`#metric-table tr[data-metric="${m}"] td.power`);
      await expect(cell.textContent(), m).resolves.toBe(`could detect ±${f3(w.mde)}; ${w.n_needed} items would make this Δ significant`);
      expect(Number(await cell.getAttribute('data-mde'))).toBeCloseTo(w.mde, 12);
    }
    await expect(view.locator('#metric-table tr[data-metric="auc"] td.power').textContent()).resolves.toBe('—');
    await view.locator('#metric-table').scrollIntoViewIfNeeded();
    await wb.screenshot('compare-power-dark');

    // The leaderboard of four runs on the same 150 items: rank, rank interval and tier as the core
    // computes them with the panel's options (evalLens.bootstrap resamples, seed 0).
    const { board } = boardPaths([boardFolder], { bootstrap: RESAMPLES, instances: false });
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Eval Lens: Show Leaderboard');
    await pick(wb, /^board$/);
    const bview = wb.webview();
    await bview.locator('body[data-rendered="board"]').waitFor({ state: 'attached', timeout: 90_000 });
    const shown = await bview.locator('#board-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      run: (tr as HTMLElement).dataset.run,
      rank: tr.querySelector('td.rank')?.textContent,
      interval: tr.querySelector('td.rank-interval')?.textContent,
      tier: tr.querySelector('td.tier')?.textContent,
    })));
    const words = (ri: [number, number] | null | undefined) => (!ri ? '—' : ri[0] === ri[1] ? `${ri[0]}` : `${ri[0]}–${ri[1]}`);
    expect(board.rows.every((r) => r.rank_interval && r.tier)).toBe(true);
    expect(shown).toEqual(board.rows.map((r) => ({ run: r.run, rank: String(r.rank), interval: words(r.rank_interval), tier: `tier ${r.tier}` })));
    await expect(bview.locator('#board-table thead').textContent()).resolves.toMatch(/rank.*rank 95%.*tier/);
    await wb.screenshot('leaderboard-ranks-dark');
  });

  it('repeats: pass@k and pass^k, rough intervals, and a stepper over the flaky items', async () => {
    const want = expected.attempts.repeats;
    await wb.runCommand('View: Close All Editors');
    const view = await openReport('attempts.csv');
    const table = view.locator('#pass-at-k tbody tr');
    await expect.poll(() => table.count(), { timeout: 60_000 }).toBe(Object.keys(want.pass_at_k).length);
    const rows = await table.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows).toEqual(Object.keys(want.pass_at_k).map((k) => [k, f3(want.pass_at_k[k as '1']), f3(want.pass_hat_k[k as '1'])]));
    await expect(view.locator('#repeats').textContent()).resolves.toContain(`${want.flaky_items} flaky`);
    // 24 items: the cards say the intervals are rough.
    await expect(view.locator('#rough-intervals').textContent()).resolves.toContain('Intervals are rough (24 clusters < 30)');
    // The flaky items, one at a time, each with its attempts.
    const position = view.locator('#flaky-position');
    await expect.poll(() => position.textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^flaky item 1 of ${want.flaky_items}: `));
    // Before the rows arrive the stepper says so; once they are here it shows the attempts by itself.
    await expect.poll(() => view.locator('#flaky-body').textContent(), { timeout: 90_000 }).toMatch(/\d of \d attempts right\./);
    await view.locator('#flaky-next').click();
    await expect(position.textContent()).resolves.toMatch(new RegExp(`^flaky item 2 of ${want.flaky_items}: `));
    await expect.poll(() => view.locator('#flaky-body').textContent(), { timeout: 30_000 }).toMatch(/\d of \d attempts right\./);
    const attempts = await view.locator('#flaky-body .flaky-attempts li').allTextContents();
    expect(attempts.some((t) => t.includes('✓ right'))).toBe(true);
    expect(attempts.some((t) => t.includes('✗ wrong'))).toBe(true);
    await view.locator('#flaky-prev').click();
    await view.locator('#flaky-prev').click();
    await expect(position.textContent()).resolves.toMatch(new RegExp(`^flaky item ${want.flaky_items} of ${want.flaky_items}: `));
    await view.locator('#repeats').scrollIntoViewIfNeeded();
    await wb.screenshot('report-repeats-dark');
  });
});
