// End-to-end (issue 19): the smoothed reliability diagram in a real workbench, in the report (its
// curve, band once the bootstrap pass arrives, the numbers beside it), the compare page (each run's
// curve overlaid) and the groups view (each group's curve), and the binned diagram with its error
// bars. The canvases are read for drawn pixels; screenshots of each go to test-results/e2e/
// (smooth-reliability-report, -compare, -groups).
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { writeAdultFiles, type AdultFiles } from '../unit/slices/adultFixture';
import { acrossThePlot, parseSvg, strokedPaths } from '../support/svg';
import { chooseExport, saveDialog, startWorkbench, svgShot, type Workbench } from './workbench';

const MISTRAL = 'Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv';

/** Distinct colours on a canvas: a drawn chart has many. */
async function canvasInk(canvas: Locator): Promise<number> {
  return canvas.evaluate((node) => {
    const c = node as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < data.length && seen.size < 300; i += 4 * 7) seen.add(((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]) * 256 + data[i + 3]);
    return seen.size;
  });
}

describe('calibration views (issue 19) in the workbench', () => {
  let wb: Workbench;
  let files: AdultFiles;

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-calibration-'));
    files = writeAdultFiles(workspace);
    for (const run of ['Mistral-7B-sim__ACSIncome__-1', 'Llama-3-8B-sim__ACSIncome__-1']) {
      cpSync(join(PROJECT_ROOT, 'examples', 'folktexts', run), join(workspace, run), { recursive: true });
    }
    cpSync(join(PROJECT_ROOT, 'examples', 'lm-eval', 'sim-model'), join(workspace, 'sim-model'), { recursive: true });
    wb = await startWorkbench({
      workspace, theme: 'dark', viewport: { width: 1400, height: 1200 },
      settings: { 'evalLens.dataFiles': { '**/ACSIncome_adult.test_predictions.csv': files.data }, 'evalLens.bootstrap': 200 },
    });
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('the report: the smoothed diagram with its band and numbers, the binned one with error bars', async () => {
    await wb.openFile(MISTRAL);
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 90_000 });
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) {
      await wb.runCommand(title, { timeoutMs: 10_000 }).catch(() => undefined);
    }
    const section = view.locator('#section-smooth-reliability');
    await section.waitFor({ timeout: 30_000 });
    expect(await canvasInk(view.locator('#chart-smooth-reliability'))).toBeGreaterThan(8);
    expect(await canvasInk(view.locator('#chart-reliability'))).toBeGreaterThan(8);
    // The numbers: t every 1/32 (33 rows); the band's columns once the bootstrap pass has arrived.
    const numbers = view.locator('#smooth-reliability-numbers table');
    await expect.poll(() => numbers.locator('thead th').allTextContents(), { timeout: 120_000 })
      .toEqual(['t', 'Smoothed fraction positive', '95% band low', '95% band high', 'Density']);
    expect(await numbers.locator('tbody tr').count()).toBe(33);
    // The canvas's description names the curve and the band (chartTable reads the drawn datasets).
    const description = await view.locator('#chart-desc-smooth-reliability').textContent();
    expect(description).toContain('Smoothed curve (smECE');
    expect(description).toContain('95% bootstrap band (200 resamples)');
    await section.scrollIntoViewIfNeeded();
    await wb.screenshot('smooth-reliability-report', section);
    // The error bars' numbers beside the diagram: each bin's 95% interval in the bins table.
    expect(await view.locator('#bin-table thead th').allTextContents()).toContain('95% CI');
    expect(await view.locator('#bin-table tbody td.bin-ci').first().textContent()).toMatch(/^0\.\d{3}–0\.\d{3}$/);
    await wb.screenshot('reliability-error-bars', view.locator('#section-reliability'));

    // Exported as SVG (svgcanvas replays the drawing): the legend as text, the curve, the band's
    // edges, the density and the diagonal as paths across the plot.
    const svgPath = join(mkdtempSync(join(tmpdir(), 'eval-lens-smooth-svg-')), 'smooth.svg');
    await chooseExport(view, /^SVG: Smoothed reliability…$/);
    await saveDialog(wb, svgPath);
    await expect.poll(() => existsSync(svgPath) && statSync(svgPath).size, { timeout: 20_000 }).toBeGreaterThan(0);
    const svg = parseSvg(svgPath);
    const legend = svg.texts.join(' | ');
    for (const w of ['Smoothed curve (smECE', '95% bootstrap band (200 resamples)', 'Density of scores (right axis)', 'Perfect calibration']) expect(legend).toContain(w);
    expect(acrossThePlot(svg, strokedPaths(svg)).length).toBeGreaterThanOrEqual(5);
    await svgShot(wb, readFileSync(svgPath), 'smooth-reliability-export');
  });

  it('the compare page overlays each run\'s smoothed curve', async () => {
    await wb.openFile(MISTRAL);
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await wb.page.locator('.quick-input-widget .quick-input-box input').fill('Llama-3-8B-sim');
    await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: /Llama-3-8B-sim/ }).first().click({ timeout: 30_000 });
    let view = wb.webview();
    for (let i = 0; i < 3; i++) {
      const candidate = wb.webview({ index: i });
      if ((await candidate.locator('body[data-rendered="comparison"]').count().catch(() => 0)) > 0) { view = candidate; break; }
    }
    await view.locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    const canvas = view.locator('#chart-smooth-reliability');
    await canvas.waitFor({ timeout: 30_000 });
    expect(await canvasInk(canvas)).toBeGreaterThan(8);
    expect(await canvasInk(view.locator('#chart-reliability-width'))).toBeGreaterThan(8);
    const section = view.locator('section', { has: canvas }).first();
    await section.scrollIntoViewIfNeeded();
    await wb.screenshot('smooth-reliability-compare', section);
  });

  it('a multiple-choice file: ECE per class beside its mean', async () => {
    await wb.openFile('sim-model/samples_prime_mc_2026-11-30T09-00-00.000000.jsonl');
    await wb.runCommand('Eval Lens: Open Report');
    let view = wb.webview();
    for (let i = 0; i < 3; i++) {
      const candidate = wb.webview({ index: i });
      if ((await candidate.locator('#chart-class-ece').count().catch(() => 0)) > 0) { view = candidate; break; }
    }
    const canvas = view.locator('#chart-class-ece');
    await canvas.waitFor({ timeout: 90_000 });
    expect(await canvasInk(canvas)).toBeGreaterThan(8);
    expect(await view.locator('#chart-desc-class-ece').textContent()).toContain('Mean over classes (ece_classwise');
    expect(await canvasInk(view.locator('#chart-smooth-reliability'))).toBeGreaterThan(8);
    const section = view.locator('#section-class-ece');
    await section.scrollIntoViewIfNeeded();
    await wb.screenshot('class-ece-report', section);
  });

  it('the groups view overlays each group\'s smoothed curve', async () => {
    await wb.openFile('ACSIncome_adult.test_predictions.csv');
    await wb.runCommand('Eval Lens: Open Report');
    let view = wb.webview();
    for (let i = 0; i < 3; i++) {
      const candidate = wb.webview({ index: i });
      if ((await candidate.locator('#group-by').count().catch(() => 0)) > 0) { view = candidate; break; }
    }
    const select = view.locator('#group-by');
    await expect.poll(() => select.locator('option').allTextContents(), { timeout: 60_000 }).toEqual(expect.arrayContaining(['race']));
    await select.selectOption('d:race');
    const canvas = view.locator('#chart-group-smooth-reliability');
    await canvas.waitFor({ timeout: 90_000 });
    expect(await canvasInk(canvas)).toBeGreaterThan(8);
    const section = view.locator('#section-group-smooth-reliability');
    await section.scrollIntoViewIfNeeded();
    await wb.screenshot('smooth-reliability-groups', section);
  });
});
