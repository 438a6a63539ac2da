// End-to-end (issue 26) in the report page: a summary file (lighteval's own results file) shows a
// table of its figures, named by task and metric, not "nothing scored"; and a samples file holding
// 100 of the 609 samples its results file scored shows the reported figure with that count, not as
// disagreeing. Figures: read from the files here, independently of the reader.
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { startWorkbench, type Workbench } from './workbench';

const REAL = join(PROJECT_ROOT, 'test', 'fixtures', 'real');
const LIGHTEVAL = join(REAL, 'summaries', 'lighteval', 'eee-smoke', 'results_2026-08-10T17-22-11.385681.json');
const LLAMA = join(REAL, 'lm-eval', 'meta-llama__Meta-Llama-3-8B');
const SAMPLES = 'samples_bias_classification_2024-06-17T16-06-39.458097.json';
const RESULTS = 'results_2024-06-17T16-06-39.458097.json';

describe('summaries in the report page', () => {
  let wb: Workbench;

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-summary-'));
    copyFileSync(LIGHTEVAL, join(workspace, 'results_2026-08-10T17-22-11.385681.json'));
    copyFileSync(join(LLAMA, SAMPLES), join(workspace, SAMPLES));
    copyFileSync(join(LLAMA, RESULTS), join(workspace, RESULTS));
    wb = await startWorkbench({ workspace, theme: 'dark', viewport: { width: 1400, height: 1000 } });
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

  it("lighteval's results file: a table of its figures by task and metric, no fatal, no cards", async () => {
    const doc = JSON.parse(readFileSync(LIGHTEVAL, 'utf8')) as { results: Record<string, Record<string, number>> };
    const want = Object.entries(doc.results).flatMap(([task, ms]) => Object.entries(ms).map(([metric, v]) => ({ name: `${task}/${metric}`, task, metric, v })));
    const view = await openReport('results_2026-08-10T17-22-11.385681.json');
    const table = view.locator('#summary-figures');
    await table.waitFor({ timeout: 30_000 });
    expect(await view.locator('#summary-heading').textContent()).toBe('Figures this file reports');
    expect(await table.locator('tbody tr').count()).toBe(want.length);
    for (const f of want) {
      const row = table.locator(`tr[data-figure="${f.name}"]`);
      expect(await row.locator('td').allTextContents()).toEqual([f.task, f.metric, String(f.v)]);
    }
    expect(await view.locator('#fatal').count()).toBe(0);
    expect(await view.locator('#metric-cards').count()).toBe(0);
    expect(await view.locator('[data-chip="harness"] .chip-value').textContent()).toBe('lighteval');
    expect(await view.locator('[data-chip="figures"] .chip-value').textContent()).toBe(String(want.length));
    await wb.screenshot('summary-dark', wb.page.locator('iframe.webview.ready >> visible=true').first());
  });

  it('a samples file of 100 of the 609 samples: "reported 0.511 on 609 samples", not "disagrees"', async () => {
    const results = JSON.parse(readFileSync(join(LLAMA, RESULTS), 'utf8'));
    const view = await openReport(SAMPLES);
    const card = view.locator('#metric-cards .card', { has: view.locator('[data-metric="accuracy"]') });
    await card.waitFor({ timeout: 30_000 });
    const reported = results.results.bias_classification['acc,none'] as number;
    expect(await card.locator('.card-reported').textContent()).toBe(`reported ${reported.toFixed(3)} on ${results['n-samples'].bias_classification.effective} samples`);
    expect(await card.locator('.card-reported').getAttribute('data-mismatch')).toBe('false');
    expect(await view.locator('#metric-cards .card.mismatch').count()).toBe(0);
  });
});
