// End-to-end (issue 27): the judge panels in the real workbench, on an MT-Bench single file (three
// models, question.jsonl in the folder above, as FastChat lays it out), a FastChat pair file, an
// AlpacaEval annotations file, arena battles and MT-Bench human judgments. Every figure the panels
// show is checked against Report.judge computed here in Node (scorePath) with the options the page
// says it used; the stepper shows the judge's explanation as Markdown without HTML (a hostile
// explanation's <script>, <img src=http://…> and remote image stay text, nothing runs, nothing
// loads, a command: link is refused by the host), a pair's two answers side by side (the second
// read whole from the file by the host when the page's text was cut); the instance table shows the
// judge's columns and its search reaches them; axe finds no serious violation in the dark theme.
// Screenshots in test-results/e2e/judges-*.png.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { scorePath } from '../../src/core';
import type { Report } from '../../src/core/types';
import { promptParts } from '../../webview/judge/promptParts';
import { axeViolations, seriousLines, webviewFrame } from './axe';
import { SCREENSHOT_DIR, startWorkbench, type Workbench } from './workbench';

const REAL = join(PROJECT_ROOT, 'test', 'fixtures', 'real', 'mt-bench');
const MADE = join(PROJECT_ROOT, 'test', 'fixtures', 'judges');
const FILES = {
  single: 'medusa/model_judgment/gpt-4_single.jsonl',
  hostile: 'hostile/model_judgment/gpt-4_single.jsonl',
  pair: 'phi-3/gpt-4_pair.jsonl',
  alpaca: 'alpacaeval/annotations.json',
  battles: 'arena/battles.jsonl',
  humans: 'humans/human_judgments.json',
};

/** What the hostile file's judge wrote for every answer: markup, a script, a remote image, two links. */
const HOSTILE = [
  'The answer is **wrong** on two counts.',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src=http://127.0.0.1:9/pixel.png onerror="window.__pwned = \'img\'">',
  '',
  '![remote](http://127.0.0.1:9/remote.png) and [the rubric](https://example.com/rubric) and [run](command:workbench.action.quit)',
  '',
  'Rating: [[2]]',
].join('\n');

async function canvasInk(canvas: Locator): Promise<number> {
  return canvas.evaluate((node) => {
    const c = node as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < data.length && seen.size < 300; i += 4 * 7) seen.add(((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]) * 256 + data[i + 3]);
    return seen.size;
  });
}

/** The number a cell holds at full precision (data-*), or NaN. */
async function dataNumber(locator: Locator, name: string): Promise<number> {
  const v = await locator.getAttribute(`data-${name}`);
  return v === null || v === '' ? NaN : Number(v);
}

function close(got: number, want: number | null | undefined, what: string, tol = 1e-9): void {
  if (want === null || want === undefined) {
    expect(Number.isNaN(got), `${what}: expected none, got ${got}`).toBe(true);
    return;
  }
  expect(Math.abs(got - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(tol);
}

describe('the judge panels (issue 27) in the workbench', () => {
  let wb: Workbench;
  let workspace: string;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'eval-lens-judges-'));
    cpSync(join(REAL, 'medusa'), join(workspace, 'medusa'), { recursive: true });
    cpSync(join(REAL, 'medusa'), join(workspace, 'hostile'), { recursive: true });
    const lines = readFileSync(join(REAL, 'medusa', 'model_judgment', 'gpt-4_single.jsonl'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(workspace, FILES.hostile), lines.map((l) => JSON.stringify({ ...JSON.parse(l), judgment: HOSTILE })).join('\n') + '\n');
    mkdirSync(join(workspace, 'phi-3'));
    cpSync(join(REAL, 'phi-3-pair', 'gpt-4_pair.jsonl'), join(workspace, FILES.pair));
    mkdirSync(join(workspace, 'alpacaeval'));
    cpSync(join(MADE, 'alpacaeval', 'toy-7b', 'alpaca_eval_gpt4', 'annotations.json'), join(workspace, FILES.alpaca));
    mkdirSync(join(workspace, 'arena'));
    cpSync(join(MADE, 'arena', 'battles.jsonl'), join(workspace, FILES.battles));
    mkdirSync(join(workspace, 'humans'));
    cpSync(join(MADE, 'arena', 'human_judgments.json'), join(workspace, FILES.humans));
    wb = await startWorkbench({ workspace, theme: 'dark', viewport: { width: 1400, height: 1000 }, settings: { 'evalLens.bootstrap': 200 } });
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) await wb.runCommand(title, { timeoutMs: 20_000 }).catch(() => undefined);
  }, 240_000);

  afterAll(async () => {
    await wb?.close();
  });

  async function openReport(rel: string): Promise<FrameLocator> {
    await wb.runCommand('View: Close All Editors', { timeoutMs: 20_000 }).catch(() => undefined);
    await wb.openFile(rel).catch(async (e) => {
      await wb.screenshot(`judges-open-failed-${rel.replace(/\W+/g, '-')}`);
      throw e;
    });
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator(`body[data-rendered="${join(workspace, rel)}"][data-instances]`).waitFor({ state: 'attached', timeout: 120_000 });
    await view.locator('#stepper, [data-na="stepper"]').first().waitFor({ state: 'attached', timeout: 60_000 });
    return view;
  }

  /** Report.judge as the page's report was scored: the first pass has no --bootstrap (ratings: their own 1,000 resamples). */
  function expected(rel: string): Report {
    return scorePath(join(workspace, rel), { bootstrap: 0 }).reports[0];
  }

  /** Screenshots of the page's judge sections and stepper, each scrolled to the top of the visible webview. */
  async function shoot(view: FrameLocator, name: string): Promise<void> {
    const frame = wb.page.locator('iframe.webview.ready >> visible=true').first();
    for (const [id, part] of [['judge-panels', 'panels'], ['section-judged', 'judged'], ['section-pairwise', 'pairwise'], ['section-arena', 'arena'], ['section-judge-humans', 'humans'], ['stepper', 'stepper'], ['instances', 'table']]) {
      const target = view.locator(`#${id}`);
      if (!(await target.count())) continue;
      await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await wb.screenshot(`judges-${name}-${part}`, frame);
    }
  }

  async function noSeriousViolation(name: string): Promise<void> {
    const findings = await axeViolations(await webviewFrame(wb.page));
    mkdirSync(join(SCREENSHOT_DIR, 'axe'), { recursive: true });
    writeFileSync(join(SCREENSHOT_DIR, 'axe', `judges-${name}-dark.json`), JSON.stringify(findings, null, 1));
    expect(seriousLines(findings)).toEqual([]);
  }

  it('MT-Bench single: means per model, turn and category with their intervals, the distribution, the stepper from the lowest grade, the table\'s judge columns and search', async () => {
    const r = expected(FILES.single);
    const judged = r.judge!.judged!;
    const view = await openReport(FILES.single);
    // Means per model and turn, and per category.
    for (const m of judged.models) {
      const row = view.locator(`#judge-means-table tbody tr[data-model="${m.model}"]`);
      const all = row.locator('td[data-key="all"]');
      close(await dataNumber(all, 'mean'), m.mean, `${m.model} mean`);
      close(await dataNumber(all, 'lo'), m.interval?.[0], `${m.model} lo`);
      close(await dataNumber(all, 'hi'), m.interval?.[1], `${m.model} hi`);
      for (const t of m.turns) {
        const cell = row.locator(`td[data-key="turn-${t.turn}"]`);
        close(await dataNumber(cell, 'mean'), t.mean, `${m.model} turn ${t.turn}`);
        close(await dataNumber(cell, 'lo'), t.interval?.[0], `${m.model} turn ${t.turn} lo`);
        expect(Number(await cell.getAttribute('data-n'))).toBe(t.n);
      }
      expect(m.categories.length).toBe(8);
      for (const c of m.categories) {
        const cell = view.locator(`#judge-categories-table tbody tr[data-model="${m.model}"] td[data-key="category-${c.category}"]`);
        close(await dataNumber(cell, 'mean'), c.mean, `${m.model} ${c.category}`);
        close(await dataNumber(cell, 'hi'), c.interval?.[1], `${m.model} ${c.category} hi`);
      }
    }
    // The distribution: drawn, and its data table the shares of each model's valid grades.
    expect(await canvasInk(view.locator('#chart-judge-scores'))).toBeGreaterThan(8);
    expect(await canvasInk(view.locator('#chart-judge-means'))).toBeGreaterThan(8);
    await view.locator('#chart-data-judge-scores summary').click();
    const dataRows = view.locator('#chart-data-judge-scores tbody tr');
    await dataRows.first().waitFor();
    const table = await dataRows.evaluateAll((rows) => rows.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    for (const [k, m] of judged.models.entries()) {
      const n = m.distribution.reduce((a, d) => a + d.count, 0);
      for (const d of m.distribution) {
        const row = table.find((cells) => Number(cells[0]) === d.score)!;
        const share = (100 * d.count) / n;
        // As the data table writes a number: a whole one as is, else three decimals.
        expect(row[k + 1]).toBe(Number.isInteger(share) ? String(share) : share.toFixed(3));
      }
    }
    // No calibration, and no single figure over three models: said on the page.
    expect(await view.locator('[data-na="calibration"]').count()).toBe(1);
    expect(await view.locator('[data-na="cards"]').textContent()).toContain('3 models');
    // The stepper: every valid grade, the lowest first, with the judge's explanation.
    const stepper = view.locator('#stepper');
    expect(await stepper.getAttribute('data-total')).toBe(String(r.n));
    const lowest = Math.min(...judged.models.flatMap((m) => m.distribution.map((d) => d.score)));
    expect(await stepper.locator('[data-fact="verdict"]').textContent()).toBe(`score ${lowest}`);
    expect((await stepper.locator('[data-explanation="judgment"] .md').textContent())!.length).toBeGreaterThan(50);
    expect(await stepper.locator('[data-field="question"]').count()).toBe(1);
    await stepper.locator('#stepper-next').click();
    await expect.poll(() => stepper.locator('#stepper-position').textContent()).toBe(`2 of ${r.n}`);
    // The table: the judge's own columns, and the search reaches them.
    const heads = await view.locator('#instances .vtable-head button').allTextContents();
    expect(heads).toEqual(expect.arrayContaining(['model', 'question_id', 'turn', 'score']));
    const box = view.locator('#instance-search');
    await box.fill('model = vicuna-7b-v1.3 AND turn = 2 AND score < 5');
    await box.press('Enter');
    const texts = r.texts!;
    const at = (f: string) => texts.fields.indexOf(f);
    const want = texts.values.filter((v) => v[at('model')] === 'vicuna-7b-v1.3' && v[at('turn')] === '2' && Number(v[at('score')]) < 5).length;
    await expect.poll(async () => Number(await view.locator('.table-count').getAttribute('data-rows'))).toBe(want);
    // The stepper follows the table's search.
    await expect.poll(() => stepper.getAttribute('data-total')).toBe(String(want));
    await view.locator('#clear-filters').click();
    await shoot(view, 'mt-bench-single');
    // Group by another column: a judge's figures are per model, so each turn is split by model
    // ("model · turn"), each group with its judge score, the judge panel's mean of that model and
    // turn; Cluster by: the page says the judge's intervals are its own. Back to the judge's groups by model.
    const choose = async (selector: string, value: string) => {
      await view.locator(selector).selectOption(value);
      await view.locator(selector).press('Enter');
    };
    expect(await view.locator('#group-by option[value=""]').textContent()).toBe('Model (the judge\'s figures per model)');
    await choose('#group-by', 'p:turn');
    await expect.poll(() => view.locator('#section-groups h2').textContent(), { timeout: 120_000 }).toBe('Groups by turn');
    expect(await view.locator('[data-na="group-figures"]').count()).toBe(0);
    const turns = judged.models.flatMap((m) => m.turns.map((t) => ({ value: `${m.model} · ${t.turn}`, n: t.n, mean: t.mean })));
    expect(await view.locator('#group-table tbody tr').count()).toBe(turns.length);
    for (const t of turns) {
      const row = view.locator(`#group-table tbody tr[data-value="${t.value}"]`);
      expect(Number(await row.getAttribute('data-n')), t.value).toBe(t.n);
      close(Number((await row.locator('td').nth(2).textContent())!.split(' ')[0]), t.mean, `group ${t.value}`, 5e-4 + 1e-9); // the cell shows three decimals
    }
    await choose('#group-by', '');
    await expect.poll(() => view.locator('#section-groups h2').textContent(), { timeout: 120_000 }).toBe('Groups by model');
    await choose('#cluster-by', 'p:question_id');
    await view.locator('[data-na="cluster"]').waitFor({ timeout: 120_000 });
    await choose('#cluster-by', '');
    await view.locator('[data-na="cluster"]').waitFor({ state: 'detached', timeout: 120_000 });
    await noSeriousViolation('mt-bench-single');
  });

  it('FastChat pairs: the win table, the pair\'s bar, position and length bias with intervals; the stepper over the flips, both answers side by side', async () => {
    const r = expected(FILES.pair);
    const j = r.judge!;
    const view = await openReport(FILES.pair);
    for (const w of j.win_table!) {
      const cells = view.locator(`#judge-win-table tbody tr[data-model="${w.model}"] td`);
      expect(await cells.evaluateAll((tds) => tds.slice(0, 3).map((td) => Number((td as HTMLElement).dataset.value)))).toEqual([w.win, w.loss, w.tie]);
      close(await dataNumber(view.locator(`#judge-win-table tr[data-model="${w.model}"] td[data-field="win_rate_adjusted"]`), 'value'), w.win_rate_adjusted, 'win_rate_adjusted');
    }
    const p = j.pairs![0];
    expect(await view.locator('#judge-pairs-table tbody tr').first().locator('td').allTextContents()).toEqual([p.a, p.b, String(p.wins_a), String(p.ties), String(p.wins_b), String(p.n)]);
    expect(await canvasInk(view.locator('#chart-judge-pairs'))).toBeGreaterThan(8);
    const bias = view.locator('#judge-position-bias');
    close(await dataNumber(bias, 'rate'), j.position_bias!.rate, 'position bias');
    close(await dataNumber(bias, 'lo'), j.position_bias!.interval![0], 'position bias lo');
    close(await dataNumber(bias, 'hi'), j.position_bias!.interval![1], 'position bias hi');
    expect(await bias.textContent()).toContain(`on ${j.position_bias!.differ} of ${j.position_bias!.pairs} pairs`);
    close(await dataNumber(view.locator('#judge-length-bias'), 'correlation'), j.length_bias!.correlation, 'length bias');
    expect(await view.locator('[data-na="win-probabilities"]').count()).toBe(1);
    // The stepper: the pairs that flip with the order; both answers, the second read whole from the file.
    const stepper = view.locator('#stepper');
    expect(await stepper.getAttribute('data-doubt')).toBe('flips');
    expect(await stepper.getAttribute('data-total')).toBe(String(j.position_bias!.differ));
    const line = Number(await stepper.locator('[data-fact="line"]').textContent());
    const record = JSON.parse(readFileSync(join(workspace, FILES.pair), 'utf8').split('\n')[line - 1]);
    const whole = promptParts(record.g1_user_prompt);
    expect(record.g1_user_prompt.length).toBeGreaterThan(4000); // the page's copy was cut
    await expect.poll(() => stepper.locator('[data-field="answer-b"]').textContent(), { timeout: 30_000 }).toBe(whole.answers[1]);
    expect(await stepper.locator('[data-field="answer-a"]').textContent()).toBe(whole.answers[0]);
    expect(await stepper.locator('[data-explanation="g1_judgment"] .md').count()).toBe(1);
    expect(await stepper.locator('[data-explanation="g2_judgment"] .md').count()).toBe(1);
    // The losses of a model under the two-order rule.
    await stepper.locator('#judge-doubt').selectOption(`loss:${j.win_table![0].model}`);
    await expect.poll(() => stepper.getAttribute('data-total')).toBe(String(j.win_table![0].loss));
    await stepper.locator('#judge-doubt').selectOption('flips');
    await shoot(view, 'mt-bench-pair');
    await noSeriousViolation('mt-bench-pair');
  });

  it('AlpacaEval: the win rate with its SE, interval and counts; the stepper over the losses to the baseline, both outputs side by side', async () => {
    const r = expected(FILES.alpaca);
    const w = r.judge!.win_rates![0];
    const view = await openReport(FILES.alpaca);
    const row = view.locator(`#judge-win-rates tbody tr[data-model="${w.model}"]`);
    close(await dataNumber(row.locator('td[data-field="win_rate"]'), 'value'), w.win_rate, 'win_rate');
    close(await dataNumber(row.locator('td[data-field="standard_error"]'), 'value'), w.standard_error, 'standard_error');
    const ci = row.locator('td[data-lo]');
    close(await dataNumber(ci, 'lo'), w.interval![0], 'lo');
    close(await dataNumber(ci, 'hi'), w.interval![1], 'hi');
    expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining([String(w.n_wins), String(w.n_wins_base), String(w.n_draws), String(w.n_total)]));
    expect(await view.locator('[data-na="position-bias"]').count()).toBe(1);
    const stepper = view.locator('#stepper');
    expect(await stepper.getAttribute('data-total')).toBe(String(w.n_wins_base));
    expect(await stepper.locator('[data-field="output_1"]').count()).toBe(1);
    expect(await stepper.locator('[data-field="output_2"]').count()).toBe(1);
    expect(await stepper.locator('.judge-no-explanation').count()).toBe(1);
    await shoot(view, 'alpacaeval');
    await noSeriousViolation('alpacaeval');
  });

  it('arena battles: the ratings table (rating, interval, rank, rank interval, tier), the forest plot, the win probabilities; the stepper over the upsets', async () => {
    const view = await openReport(FILES.battles);
    const caption = (await view.locator('#section-arena > p.caption').textContent())!;
    const resamples = Number(/Intervals: ([\d,]+) bootstrap resamples/.exec(caption)![1].replace(/,/g, ''));
    const seed = Number(/\(seed (\d+)\)/.exec(caption)![1]);
    const r = scorePath(join(workspace, FILES.battles), { bootstrap: resamples === 1000 ? 0 : resamples, seed }).reports[0];
    const j = r.judge!;
    expect(j.rating_bootstrap!.resamples).toBe(resamples);
    for (const rating of j.ratings!) {
      const row = view.locator(`#judge-ratings-table tbody tr[data-model="${rating.model}"]`);
      close(await dataNumber(row.locator('td[data-field="rating"]'), 'value'), rating.rating, `${rating.model} rating`, 1e-6);
      const tds = row.locator('td');
      expect(Number(await tds.nth(0).getAttribute('data-value'))).toBe(rating.rank);
      close(await dataNumber(tds.nth(2), 'lo'), rating.interval![0], `${rating.model} lo`, 1e-6);
      close(await dataNumber(tds.nth(2), 'hi'), rating.interval![1], `${rating.model} hi`, 1e-6);
      expect([await dataNumber(tds.nth(3), 'lo'), await dataNumber(tds.nth(3), 'hi')]).toEqual(rating.rank_interval);
      expect(await dataNumber(tds.nth(4), 'value')).toBe(rating.tier);
    }
    expect(await canvasInk(view.locator('#chart-judge-ratings'))).toBeGreaterThan(8);
    const cells = await view.locator('#judge-win-probabilities tbody tr').evaluateAll((rows) => rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number((td as HTMLElement).dataset.p))));
    cells.forEach((row, i) => row.forEach((p, k) => close(p, j.win_probabilities![i][k], `P(${i} beats ${k})`, 1e-9)));
    const stepper = view.locator('#stepper');
    expect(await stepper.getAttribute('data-doubt')).toBe('upsets');
    const rating = new Map(j.ratings!.map((x) => [x.model, x.rating]));
    const texts = r.texts!;
    const f = (name: string) => texts.fields.indexOf(name);
    const upsets = texts.values.filter((v) => (v[f('winner')] === 'model_a' && rating.get(v[f('model_a')])! < rating.get(v[f('model_b')])!)
      || (v[f('winner')] === 'model_b' && rating.get(v[f('model_b')])! < rating.get(v[f('model_a')])!)).length;
    expect(await stepper.getAttribute('data-total')).toBe(String(upsets));
    await shoot(view, 'arena');
    await noSeriousViolation('arena');
  });

  it('the judge against humans: agreement, Cohen\'s kappa with its interval, the confusion table', async () => {
    const r = expected(FILES.humans);
    const a = r.judge!.agreement![0];
    const view = await openReport(FILES.humans);
    const box = view.locator('.judge-agreement').first();
    close(await dataNumber(box, 'agreement'), a.agreement, 'agreement');
    close(await dataNumber(box, 'kappa'), a.kappa, 'kappa');
    close(await dataNumber(box, 'lo'), a.kappa_interval![0], 'kappa lo');
    close(await dataNumber(box, 'hi'), a.kappa_interval![1], 'kappa hi');
    const confusion = await box.locator('tbody tr').evaluateAll((rows) => rows.map((tr) => [...tr.querySelectorAll('td[data-judge]')].map((td) => Number((td as HTMLElement).dataset.value))));
    expect(confusion).toEqual(a.confusion);
    await shoot(view, 'humans');
    await noSeriousViolation('humans');
  });
  it('a hostile explanation: Markdown without HTML, its script and images shown as text, nothing runs or loads; a command: link is refused by the host', async () => {
    const view = await openReport(FILES.hostile);
    const md = view.locator('#stepper [data-explanation="judgment"] .md');
    await md.waitFor();
    const text = (await md.textContent())!;
    expect(text).toContain('<script>window.__pwned = "script"</script>');
    expect(text).toContain('<img src=http://127.0.0.1:9/pixel.png');
    expect(text).toContain('[image: remote] http://127.0.0.1:9/remote.png');
    expect(await md.locator('strong').textContent()).toBe('wrong');
    expect(await md.locator('script, img, iframe, a[href]').count()).toBe(0);
    const frame = await webviewFrame(wb.page);
    expect(await frame.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    const links = md.locator('button.md-link');
    expect(await links.evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.href))).toEqual(['https://example.com/rubric', 'command:workbench.action.quit']);
    await links.nth(1).click();
    await expect.poll(async () => (await wb.notifications()).join('\n'), { timeout: 20_000 }).toContain('a link to command: is not opened');
    await shoot(view, 'hostile');
    for (const title of ['Notifications: Clear All Notifications', 'Notifications: Hide Notifications']) await wb.runCommand(title, { timeoutMs: 10_000 }).catch(() => undefined);
  });
});
