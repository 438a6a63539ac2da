// End-to-end: files the text editor will not show. A 1,000,000-row predictions file (about 19 MB,
// above the browser text editor's limit) clicked in the explorer shows its report in the "Eval Lens
// Report" editor, not the large-file notice; an Inspect .eval log (a zip) clicked in the explorer
// shows its report with its samples in the misclassified-example stepper. Screenshots go to
// test-results/e2e/ and, with EVAL_LENS_UPDATE_SCREENSHOTS=1, to docs/screenshots/.
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { startWorkbench, type Workbench } from './workbench';

const DOCS = join(PROJECT_ROOT, 'docs', 'screenshots');
const LARGE_NOTICE = /not displayed in the text editor because it is very large/;

async function docsShot(wb: Workbench, name: string): Promise<string> {
  const path = await wb.screenshot(name);
  if (process.env.EVAL_LENS_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(path, join(DOCS, `${name}.png`));
  }
  return path;
}

/** A folktexts file of `rows` rows (`,risk_score,label`), seeded. */
function writeFolktexts(file: string, rows: number): void {
  let a = 7;
  const random = () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const fd = openSync(file, 'w');
  let chunk = ',risk_score,label\n';
  for (let i = 0; i < rows; i++) {
    const risk = random();
    chunk += `${i},${Math.min(1, Math.max(0, risk + (random() - 0.5) * 0.3)).toFixed(7)},${random() < risk ? 1 : 0}\n`;
    if (chunk.length > 1 << 20) { writeSync(fd, chunk); chunk = ''; }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

/** Clicks a file in the explorer (a single click opens it, as a user does). */
async function clickInExplorer(wb: Workbench, name: string): Promise<void> {
  const row = wb.page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: name }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
}

describe('files the text editor will not show', () => {
  let wb: Workbench;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-e2e-large-'));
    writeFolktexts(join(dir, 'big.test_predictions.csv'), 1_000_000);
    copyFileSync(join(PROJECT_ROOT, 'test/fixtures/inspect/epochs.eval'), join(dir, 'epochs.eval'));
    wb = await startWorkbench({ workspace: dir, theme: 'light', viewport: { width: 1400, height: 900 } });
  });

  afterAll(async () => {
    await wb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a 1,000,000-row file clicked in the explorer shows its report, not the large-file notice', async () => {
    await clickInExplorer(wb, 'big.test_predictions.csv');
    const tab = wb.page.locator('.editor-group-container.active .tab.active[data-resource-name="big.test_predictions.csv"]');
    await tab.waitFor({ timeout: 30_000 });
    const view = wb.webview();
    try {
      await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 120_000 });
    } catch (error) {
      await wb.screenshot('large-file-report-editor-failed');
      throw error;
    }
    // The report is of the whole file, and the editor area shows no large-file notice.
    await expect.poll(() => view.locator('body').innerText(), { timeout: 60_000 }).toMatch(/1,000,000/);
    await expect.poll(async () => (await wb.page.locator('.editor-group-container').allInnerTexts()).join('\n'), { timeout: 10_000 }).not.toMatch(LARGE_NOTICE);
    // The status bar entry of a predictions tab is there too.
    await expect.poll(() => wb.page.locator('.statusbar-item').allInnerTexts().then((t) => t.join(' | ')), { timeout: 120_000 }).toMatch(/ECE \d\.\d{3}/);
    await docsShot(wb, 'large-file-report-editor');
  });

  it('an Inspect .eval log clicked in the explorer shows its report with its samples in the stepper', async () => {
    // Reference: the samples the first scorer did not score 1 (Python's zipfile, not our reader).
    const wrong = Number(execFileSync('/usr/bin/python3', ['-c', `
import json, math, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
n = 0
for name in z.namelist():
    if name.startswith("samples/"):
        v = json.loads(z.read(name))["scores"]["choice"]["value"]
        if not (isinstance(v, float) and math.isnan(v)) and v != "C":
            n += 1
print(n)`, join(dir, 'epochs.eval')], { encoding: 'utf8' }).trim());
    expect(wrong).toBeGreaterThan(0);
    await clickInExplorer(wb, 'epochs.eval');
    await wb.page.locator('.editor-group-container.active .tab.active[data-resource-name="epochs.eval"]').waitFor({ timeout: 30_000 });
    const view = wb.webview();
    const stepper = view.locator('#stepper[data-total]');
    await stepper.waitFor({ timeout: 60_000 });
    await expect.poll(() => stepper.getAttribute('data-total'), { timeout: 30_000 }).toBe(String(wrong));
    expect(await view.locator('#stepper .text-field-value[data-field="input"]').innerText()).toMatch(/^Question \d: which letter\?$/);
    expect(await view.locator('#stepper-position').innerText()).toBe(`1 of ${wrong}`);
    // The breakdown table: each scorer per epoch and reduced.
    expect(await view.locator('#breakdown tr[data-breakdown="choice · reduced (mean)"]').count()).toBe(1);
    await view.locator('#stepper-next').click();
    await expect.poll(() => view.locator('#stepper-position').innerText(), { timeout: 10_000 }).toBe(`2 of ${wrong}`);
    // Its Reveal shows the row in the report's table (a zip has no text lines to open).
    expect(await view.locator('#stepper-reveal').innerText()).toBe('Show row in table');
    await view.locator('#stepper').scrollIntoViewIfNeeded();
    await docsShot(wb, 'inspect-eval-report');
    // The top: accuracy and stderr beside what the log reported, and the breakdown.
    await view.locator('#metric-cards').scrollIntoViewIfNeeded();
    expect(await view.locator('#metric-cards .card-value[data-metric="stderr"]').innerText()).toMatch(/^0\.0\d+$/);
    await docsShot(wb, 'inspect-eval-summary');
  });
});
