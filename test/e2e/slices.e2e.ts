// End-to-end: the report's slices in a real workbench. A folktexts-style predictions file made from
// the real Adult rows, with evalLens.dataFiles joining a data file (sex, race) on ID; "Group by" a
// column of the data file; the group table (forest plot, worst group in words), the fairness card,
// the overlaid per-group reliability diagrams, and a group's row filtering the instance table.
// The screenshot goes to test-results/e2e/ and, with EVAL_LENS_UPDATE_SCREENSHOTS=1, docs/screenshots/.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { scoreFile } from '../../src/core/score';
import { parseCsv } from '../../src/core/formats/csv';
import { writeAdultFiles, type AdultFiles } from '../unit/slices/adultFixture';
import { parseSvg, strokedPaths } from '../support/svg';
import { chooseExport, saveDialog, startWorkbench, svgShot, type Workbench } from './workbench';

describe('Group by in the report panel', () => {
  let wb: Workbench;
  let files: AdultFiles;

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-slices-'));
    files = writeAdultFiles(workspace);
    wb = await startWorkbench({
      workspace, theme: 'dark', viewport: { width: 1400, height: 1100 },
      settings: { 'evalLens.dataFiles': { '**/*.test_predictions.csv': files.data }, 'evalLens.bootstrap': 200 },
    });
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('groups by a column of the joined data file, marks the worst group and filters the table', async () => {
    const expected = scoreFile(files.predictions, { groupBy: { column: 'race', dataPath: files.data } }).groups!;
    await wb.openFile('ACSIncome_adult.test_predictions.csv');
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 90_000 });
    // The report alone in the window (for the screenshot): one editor group, its tab in front.
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) {
      await wb.runCommand(title, { timeoutMs: 10_000 }).catch(() => undefined);
    }
    await wb.page.locator('.tab', { hasText: 'Eval Lens: ACSIncome_adult' }).first().click();
    await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 90_000 });

    // The data file's columns are offered beside the file's own.
    const select = view.locator('#group-by');
    await expect.poll(() => select.locator('option').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['sex', 'race']));
    // The score is no grouping (issue 28.12): it is what the groups are scored on.
    expect(await select.locator('option').allTextContents()).not.toContain('risk_score');
    await select.selectOption('d:race');
    const rows = view.locator('#group-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 90_000 }).toBe(expected.groups.length);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [(tr as HTMLElement).dataset.value, Number((tr as HTMLElement).dataset.n)]));
    expect(shown).toEqual(expected.groups.map((g) => [g.value, g.n]));
    // The worst group by accuracy is named in words, and only one is.
    const worst = expected.groups.reduce((a, b) => ((b.metrics.accuracy ?? 1) < (a.metrics.accuracy ?? 1) ? b : a));
    await expect(view.locator('#group-table tr.worst').getAttribute('data-value')).resolves.toBe(worst.value);
    await expect(view.locator('#group-table tr.worst .worst-note').textContent()).resolves.toBe('worst accuracy');
    // Fairness figures as the core computes them.
    const eo = await view.locator('#fairness dd[data-key="equalized_odds_ratio"]').getAttribute('data-value');
    expect(Number(eo)).toBeCloseTo(expected.fairness.equalized_odds_ratio, 12);
    // The bootstrap pass fills in the groups' interval bars.
    await expect.poll(() => view.locator('#group-table .forest-ci').count(), { timeout: 90_000 }).toBe(expected.groups.length);
    // The overlaid reliability diagrams are drawn.
    const ink = await view.locator('#chart-group-reliability').evaluate((node) => {
      const c = node as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length && seen.size < 200; i += 4 * 5) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    });
    expect(ink).toBeGreaterThan(8);

    // The overlaid diagrams as SVG, through the Export menu and the save dialog: each group named in
    // the legend as text, each drawn with its own marker shape (paths, not one colour's dots).
    const svgPath = join(mkdtempSync(join(tmpdir(), 'eval-lens-groups-svg-')), 'groups.svg');
    await chooseExport(view, /^SVG: Reliability diagram by race…$/);
    await saveDialog(wb, svgPath);
    await expect.poll(() => existsSync(svgPath) && statSync(svgPath).size, { timeout: 20_000 }).toBeGreaterThan(0);
    const svg = parseSvg(svgPath);
    const legend = svg.texts.join(' | ');
    for (const g of expected.groups) expect(legend, `group ${g.value} in the legend`).toContain(g.value);
    expect(strokedPaths(svg).length).toBeGreaterThan(4 * expected.groups.length);
    await svgShot(wb, readFileSync(svgPath), 'report-groups-export');

    // "Copy as Markdown" with Group by active: the groups and the fairness figures the page shows
    // (issue 21, point 4), and no "(0 errors among those listed)".
    await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: wb.origin });
    await wb.page.evaluate(() => navigator.clipboard.writeText(''));
    await view.locator('#copy-markdown').click();
    await expect.poll(() => wb.page.evaluate(() => navigator.clipboard.readText()), { timeout: 20_000 }).toMatch(/Groups by `race`/);
    const markdown = await wb.page.evaluate(() => navigator.clipboard.readText());
    const pageRows = await rows.evaluateAll((trs) => trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
      return { value: (tr as HTMLElement).dataset.value ?? '', n: Number((tr as HTMLElement).dataset.n), metric: Number(cells[2].split(' ')[0]), worst: tr.classList.contains('worst') };
    }));
    for (const row of pageRows) {
      const line = markdown.split('\n').find((l) => l.startsWith(`| ${row.value} |`));
      expect(line, `group ${row.value} in the Markdown`).toBeDefined();
      const cells = line!.split(' | ');
      expect(Number(cells[1])).toBe(row.n);
      expect(Math.abs(Number(cells[2]) - row.metric)).toBeLessThanOrEqual(0.00051);
      expect(line!.includes('worst')).toBe(row.worst);
    }
    const fairness = await view.locator('#fairness dd[data-key]').evaluateAll((dds) => dds.map((dd) => [(dd as HTMLElement).dataset.key!, Number((dd as HTMLElement).dataset.value)] as const));
    expect(fairness.length).toBeGreaterThan(0);
    for (const [key, value] of fairness) expect(markdown).toContain(`| \`${key}\` | ${value.toFixed(4)} |`);
    expect(markdown).not.toMatch(/\(0 errors among those listed\)/);

    await view.locator('#section-groups').evaluate((node) => node.scrollIntoView({ block: 'start' }));
    const shot = await wb.screenshot('report-groups-dark');
    if (process.env.EVAL_LENS_UPDATE_SCREENSHOTS === '1') {
      mkdirSync(join(PROJECT_ROOT, 'docs', 'screenshots'), { recursive: true });
      copyFileSync(shot, join(PROJECT_ROOT, 'docs', 'screenshots', 'report-groups-dark.png'));
    }

    // A click on a group's row: the instance table shows that group's rows only.
    const k = expected.groups.findIndex((g) => g.value === 'Black');
    await view.locator(`#group-table tbody tr[data-group="${k}"]`).click();
    await expect.poll(() => view.locator('.table-count').getAttribute('data-rows'), { timeout: 60_000 }).toBe(String(expected.groups[k].n));

    // Its CSV ("CSV of the instance table, as filtered") holds those rows, the ones the table shows,
    // read back with a CSV parser: the group's lines in file order, scores as in the file.
    const whole = scoreFile(files.predictions, { groupBy: { column: 'race', dataPath: files.data } });
    const groupLines = Array.from(whole.instances!.lines).filter((_, i) => whole.groups!.rowGroup![i] === k);
    const fileScores = new Map(readFileSync(files.predictions, 'utf8').trim().split('\n').slice(1).map((l, j) => [j + 2, l.split(',')[1]]));
    const shownLines = await view.locator('.vtable-rows .vtable-row:not([hidden])').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).children[1].textContent)));
    const csvPath = join(mkdtempSync(join(tmpdir(), 'eval-lens-groups-csv-')), 'black.csv');
    await chooseExport(view, /^CSV of the instance table, as filtered/);
    await saveDialog(wb, csvPath);
    await expect.poll(() => existsSync(csvPath) && statSync(csvPath).size, { timeout: 20_000 }).toBeGreaterThan(0);
    const csv = parseCsv(readFileSync(csvPath, 'utf8'));
    const col = (name: string) => csv.records.map((r) => r.fields[csv.header.indexOf(name)]);
    expect(csv.header).toEqual(['row', 'line', 'id', 'score', 'label', 'pred', 'confidence', 'correct', 'bin', 'brier']);
    expect(col('id')).toEqual(Array.from(whole.instances!.ids!).filter((_, i) => whole.groups!.rowGroup![i] === k));
    expect(csv.records).toHaveLength(expected.groups[k].n);
    expect(col('line').map(Number)).toEqual(groupLines);
    expect(col('line').slice(0, shownLines.length).map(Number)).toEqual(shownLines);
    expect(col('score').map((v, j) => Number(v) === Number(fileScores.get(groupLines[j])))).not.toContain(false);
    expect(new Set(col('correct'))).toEqual(new Set(['0', '1']));
  });
});
