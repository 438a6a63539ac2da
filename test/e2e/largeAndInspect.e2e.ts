// End-to-end: files the text editor will not show. A 1,000,000-row predictions file (about 19 MB,
// above the browser text editor's limit) clicked in the explorer shows its report in the "Eval Lens
// Report" editor, not the large-file notice; an Inspect .eval log (a zip) clicked in the explorer
// shows its report with its samples in the misclassified-example stepper. Screenshots go to
// test-results/e2e/ and, with EVAL_LENS_UPDATE_SCREENSHOTS=1, to docs/screenshots/.
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { parseCsv } from '../../src/core/formats/csv';
import { chooseExport, saveDialog, startWorkbench, type Workbench } from './workbench';

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

/** An Inspect log (a real one, its third sample changed): a chain of thought ending "ANSWER: pantry", scored wrong, with no extracted answer. */
function writeChainOfThoughtLog(file: string): void {
  const log = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/real/inspect-ai/2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'));
  const sample = log.samples[2];
  const cot = 'Let me think step by step. Flour is a dry good; dry goods are kept together, away from heat and damp, which in most kitchens means a cupboard or a pantry. A pantry is the more usual answer.\n\nANSWER: pantry';
  sample.output.choices[0].message.content = cot;
  sample.output.completion = cot;
  sample.target = 'cupboard';
  sample.scores = { match: { value: 'I', explanation: cot } };
  writeFileSync(file, JSON.stringify(log));
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
    writeChainOfThoughtLog(join(dir, '2025-05-12T20-28-13-04-00_cot.json'));
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

  it('the 1,000,000-row report exports its instance table as CSV: every row the table keeps, as data', async () => {
    const view = wb.webview();
    const count = view.locator('.table-count');
    await expect.poll(() => count.getAttribute('data-rows'), { timeout: 180_000 }).toBe('1000000');
    mkdirSync(join(dir, 'out'), { recursive: true });
    // Every row (the CSV that was 1,000,001 empty lines): a header and the file's million rows.
    const allPath = join(dir, 'out', 'big.all.csv');
    const allStarted = Date.now();
    await chooseExport(view, /^CSV of the instance table, as filtered/);
    await saveDialog(wb, allPath, { timeoutMs: 120_000 });
    const allRecords = () => (existsSync(allPath) ? readFileSync(allPath, 'utf8').split('\r\n').length - 2 : -1);
    await expect.poll(allRecords, { timeout: 180_000, interval: 1000 }).toBe(1_000_000);
    console.log(`[1M CSV] all 1,000,000 rows: ${(statSync(allPath).size / 1e6).toFixed(1)} MB, ${((Date.now() - allStarted) / 1000).toFixed(1)} s from the menu to the whole file (save dialog included)`);
    const all = readFileSync(allPath, 'utf8');
    // The unnamed pandas index is the id column, with the file's values (issue 28, point 7).
    expect(all.slice(0, all.indexOf('\r\n'))).toBe('row,line,id,score,label,pred,confidence,correct,bin,brier');
    const source = readFileSync(join(dir, 'big.test_predictions.csv'), 'utf8').split('\n');
    const allLines = all.split('\r\n');
    for (const k of [1, 2, 500_000, 1_000_000]) {
      const f = allLines[k].split(',');
      const [id, score, label] = source[k].split(',');
      expect([f[1], f[2], Number(f[3]), f[4]]).toEqual([String(k + 1), id, Number(score), label]);
    }
    await view.locator('#filter-correctness').selectOption('incorrect');
    await expect.poll(() => count.getAttribute('data-rows'), { timeout: 30_000 }).not.toBe('1000000');
    const kept = Number(await count.getAttribute('data-rows'));
    const shownLines = await view.locator('.vtable-rows .vtable-row:not([hidden])').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).children[1].textContent)));
    const csvPath = join(dir, 'out', 'big.incorrect.csv');
    const started = Date.now();
    await chooseExport(view, /^CSV of the instance table, as filtered/);
    await saveDialog(wb, csvPath, { timeoutMs: 120_000 });
    // The file is written after the dialog closes: wait until it holds every row.
    const records = () => (existsSync(csvPath) ? readFileSync(csvPath, 'utf8').split('\r\n').length - 2 : -1);
    await expect.poll(records, { timeout: 120_000, interval: 500 }).toBe(kept);
    const seconds = (Date.now() - started) / 1000;
    const text = readFileSync(csvPath, 'utf8');
    console.log(`[1M CSV] ${kept} rows kept (incorrect only), ${(statSync(csvPath).size / 1e6).toFixed(1)} MB, ${seconds.toFixed(1)} s from the menu to the whole file (save dialog included)`);
    const csv = parseCsv(text);
    expect(csv.problems).toEqual([]);
    expect(csv.header).toEqual(['row', 'line', 'id', 'score', 'label', 'pred', 'confidence', 'correct', 'bin', 'brier']);
    expect(csv.records).toHaveLength(kept);
    const col = (name: string) => csv.records.map((r) => r.fields[csv.header.indexOf(name)]);
    expect(col('line').slice(0, shownLines.length).map(Number)).toEqual(shownLines);
    expect(new Set(col('correct'))).toEqual(new Set(['0']));
    // Scores as in the file (full precision, not the table's 4 decimals).
    const file = readFileSync(join(dir, 'big.test_predictions.csv'), 'utf8').split('\n');
    const lines = col('line').map(Number);
    const scores = col('score');
    for (let j = 0; j < lines.length; j += 997) expect(Number(scores[j]), `line ${lines[j]}`).toBe(Number(file[lines[j] - 1].split(',')[1]));
    expect(scores.some((v) => /\.\d{5,}/.test(v))).toBe(true);
    await view.locator('#filter-correctness').selectOption('all');
  });

  it('the 1,000,000-row binary report steps through its mistakes with j / k, most confident first (issue 21, point 9)', async () => {
    const view = wb.webview();
    const stepper = view.locator('#stepper[data-total]');
    await stepper.waitFor({ timeout: 120_000 });
    const total = Number(await stepper.getAttribute('data-total'));
    expect(total).toBeGreaterThan(1000);
    expect(await stepper.getAttribute('data-order')).toBe('confident');
    // The first is the row furthest on the wrong side of the threshold: its score is the most extreme.
    const file = readFileSync(join(dir, 'big.test_predictions.csv'), 'utf8').split('\n');
    const shownLine = async () => Number(await view.locator('#stepper dd[data-fact="line"]').innerText());
    const gap = (line: number) => { const [, s, y] = file[line - 1].split(','); return Math.abs(Number(s) - Number(y)); };
    const first = await shownLine();
    expect(gap(first)).toBeGreaterThan(0.95);
    await view.locator('#report-title').click();
    await wb.page.keyboard.press('j');
    await expect.poll(() => view.locator('#stepper-position').innerText(), { timeout: 10_000 }).toBe(`2 of ${total.toLocaleString('en-US')}`);
    expect(gap(await shownLine())).toBeLessThanOrEqual(gap(first));
    await wb.page.keyboard.press('k');
    await expect.poll(() => view.locator('#stepper-position').innerText(), { timeout: 10_000 }).toBe(`1 of ${total.toLocaleString('en-US')}`);
    // File order on request.
    await view.locator('#stepper-order').selectOption('file');
    await expect.poll(() => view.locator('#stepper').getAttribute('data-order'), { timeout: 10_000 }).toBe('file');
    const firstInFile = await shownLine();
    const firstWrong = file.findIndex((l, k) => k > 0 && l !== '' && (Number(l.split(',')[1]) >= 0.5 ? 1 : 0) !== Number(l.split(',')[2])) + 1;
    expect(firstInFile).toBe(firstWrong);
    await view.locator('#stepper').scrollIntoViewIfNeeded();
    await wb.screenshot('binary-stepper-1m');
  });

  it('after a window reload, the 1,000,000-row file clicked again shows its intervals with its first chart: those of the last session, no resample made (issue 28.11)', async () => {
    const view = wb.webview();
    await expect.poll(() => view.locator('body').getAttribute('data-intervals'), { timeout: 180_000 }).toBe('200');
    const before = await view.locator('.card-interval').allInnerTexts();
    expect(before.length).toBeGreaterThan(5);
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Developer: Reload Window');
    await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
    await clickInExplorer(wb, 'big.test_predictions.csv');
    const again = wb.webview();
    await again.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 120_000 });
    // At the first chart: the intervals are there, and the page never said it was computing them
    // (200 resamples of a million rows take seconds: a pass would still be running now).
    const atFirstChart = await again.locator('body').evaluate((b) => ({ intervals: b.getAttribute('data-intervals'), computing: /Computing 95% intervals/.test((b as HTMLElement).innerText) }));
    expect(atFirstChart).toEqual({ intervals: '200', computing: false });
    expect(await again.locator('.card-interval').allInnerTexts()).toEqual(before);
  });

  it('an Inspect log whose scorer kept no answer: the stepper shows the answer, folds the explanation, hides empty fields (issue 21, point 8)', async () => {
    await clickInExplorer(wb, '2025-05-12T20-28-13-04-00_cot.json');
    await wb.page.locator('.editor-group-container.active .tab.active[data-resource-name="2025-05-12T20-28-13-04-00_cot.json"]').waitFor({ timeout: 30_000 });
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    const stepper = view.locator('#stepper[data-total="1"]');
    await stepper.waitFor({ timeout: 60_000 });
    expect(await view.locator('#stepper dd[data-fact="pred"]').innerText()).toBe('pantry');
    expect(await view.locator('#stepper dd[data-fact="gold"]').innerText()).toBe('cupboard');
    // The log's samples have no choices: no empty box for them.
    expect(await view.locator('#stepper .text-field-value[data-field="choices"]').count()).toBe(0);
    for (const text of await view.locator('#stepper .text-field-value').allTextContents()) expect(text.trim()).not.toBe('');
    // The whole output once, the explanation folded away.
    expect(await view.locator('#stepper .text-field-value[data-field="output"]').innerText()).toMatch(/^Let me think step by step\..*ANSWER: pantry$/s);
    const fold = view.locator('#stepper details[data-fold="explanation"]');
    expect(await fold.count()).toBe(1);
    expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await view.locator('#stepper').scrollIntoViewIfNeeded();
    await wb.screenshot('inspect-stepper-answer');
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
    // The top: accuracy with its interval (issue 28.6: from the reduced per-sample values), the
    // log's stderr among the figures it reported, not a card of its own, and the breakdown.
    await view.locator('#metric-cards').scrollIntoViewIfNeeded();
    const accuracy = view.locator('#metric-cards .card', { has: view.locator('.card-value[data-metric="accuracy"]') });
    await accuracy.locator('.card-interval').waitFor({ state: 'attached', timeout: 60_000 });
    expect(await view.locator('#metric-cards .card-value[data-metric="stderr"]').count()).toBe(0);
    expect(await view.locator('.reported-extra').innerText()).toMatch(/\bstderr 0\.0\d+/);
    await docsShot(wb, 'inspect-eval-summary');
  });
});
