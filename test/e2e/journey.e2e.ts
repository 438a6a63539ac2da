// The journey suite (issue 28): one user's walk through the workbench, on every input kind the
// project reads. Per kind: open the file's report; cards with intervals; Group by and Cluster by a
// column of its own and one of a joined data file; search by ID and by a column; the stepper; export
// the filtered table as CSV and read it back; Map Columns… from the palette and from the title bar;
// Compare with… a second run (with "Where it differs" over the joined file); the leaderboard of its
// folder. A step that does not apply must be explained on the page (an element with data-na, a
// notification, or the page's own words): "n/a" is recorded with the page's reason, and a step that
// is silently absent fails. The suite prints one line per cell: `<kind> | <step> | pass`,
// `… | n/a: <reason>` or `… | fail: <what>`, and fails on any "fail".
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrameLocator } from 'playwright-core';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { scoreFileAsync } from '../../src/core/scoreAsync';
import { parseCsv } from '../../src/core/formats/csv';
import { chooseExport, saveDialog, startWorkbench, type Workbench } from './workbench';
import { JOURNEY_KINDS, type JourneyKind } from './journeyKinds';

const STEPS = ['open', 'cards', 'group', 'search', 'stepper', 'export', 'map', 'compare', 'board'] as const;
type Step = (typeof STEPS)[number];
type Outcome = { status: 'pass' } | { status: 'n/a'; reason: string } | { status: 'fail'; what: string };

/** A step that does not apply, with the words the page (or VS Code) gave for it. */
class NotApplicable extends Error {}

const DATA_COLUMN = 'journey_region';
const REGIONS = ['north', 'south', 'east'];
const BOOTSTRAP = 100;

/** The IDs of a file's scored rows, as the core reads them (the joined data file is keyed by them; Parquet is read asynchronously). */
async function idsOf(path: string, options: Record<string, unknown>): Promise<string[]> {
  const report = await scoreFileAsync(path, options);
  const inst = report.instances;
  if (!inst) return [];
  if (inst.ids) return [...inst.ids];
  if (inst.idNumbers) return Array.from(inst.idNumbers, (v) => String(v));
  return [];
}

interface Placed extends JourneyKind {
  /** Absolute paths in the workspace. */
  a: string;
  b?: string;
  folder: string;
  raftData?: string;
  dataFile?: string;
  ids: string[];
}

async function placeKinds(workspace: string): Promise<Placed[]> {
  const out: Placed[] = [];
  for (const kind of SELECTED) {
    const folder = join(workspace, `k-${kind.name}`);
    mkdirSync(folder, { recursive: true });
    const placed = kind.place(folder);
    const options = placed.raftData ? { raftData: join(workspace, placed.raftData) } : {};
    const ids = [...new Set(await idsOf(placed.a, options))];
    let dataFile: string | undefined;
    if (ids.length) {
      dataFile = join(workspace, 'data', `${kind.name}.csv`);
      mkdirSync(dirname(dataFile), { recursive: true });
      writeFileSync(dataFile, ['id,' + DATA_COLUMN, ...ids.map((id, k) => `${csvField(id)},${REGIONS[k % REGIONS.length]}`)].join('\n') + '\n');
    }
    out.push({ ...kind, ...placed, folder, dataFile, ids });
  }
  return out;
}

function csvField(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Runs `command` and, in the quick pick it opens, types `filter` and clicks the row whose label, or
 * else whose text (its detail: a path), matches. A pick closed before it could be used (a webview
 * taking the focus as it settles closes it) is asked for again, up to three times; each miss is
 * named in the error if all fail.
 */
async function pick(wb: Workbench, command: string, label: RegExp, filter: string, byText = false): Promise<void> {
  const box = wb.page.locator('.quick-input-widget .quick-input-box input');
  const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
  const misses: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    await wb.runCommand(command, { timeoutMs: 60_000 });
    if (!(await box.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) {
      misses.push(`attempt ${attempt}: no pick`);
      continue;
    }
    try {
      await box.fill(filter, { timeout: 5_000 });
      await (byText ? rows.filter({ hasText: label }) : rows.filter({ has: wb.page.locator('.label-name', { hasText: label }) })).first().click({ timeout: 30_000 });
      return;
    } catch (e) {
      const listed = await rows.allTextContents().catch(() => []);
      misses.push(`attempt ${attempt}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]} (listed: ${JSON.stringify(listed.slice(0, 5))})`);
    }
  }
  throw new Error(`${command}: ${misses.join('; ')}`);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The visible webview whose body carries data-rendered (a report: its file's path; else 'comparison' / 'board'). */
async function renderedView(wb: Workbench, rendered: string | RegExp, timeoutMs = 120_000): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (let i = 0; i < 3; i++) {
      const view = wb.webview({ index: i });
      const value = await view.locator('body').getAttribute('data-rendered', { timeout: 1_000 }).catch(() => null);
      if (value !== null && (typeof rendered === 'string' ? value === rendered : rendered.test(value))) return view;
    }
    if (Date.now() > deadline) throw new Error(`no webview rendered ${String(rendered)} after ${timeoutMs} ms`);
    await wb.page.waitForTimeout(250); // the frames are polled: no event says a webview's content arrived
  }
}

/** The page's own words for a feature that does not apply (data-na), or null. */
async function pageSays(view: FrameLocator, feature: string): Promise<string | null> {
  // A summary says once that the per-sample features do not apply (data-na="samples").
  const note = view.locator(`[data-na="${feature}"], [data-na="samples"]`).first();
  return (await note.count()) ? (await note.textContent())?.trim() ?? null : null;
}

async function choose(view: FrameLocator, selector: string, value: string): Promise<void> {
  const select = view.locator(selector);
  await select.selectOption(value);
  await select.press('Enter');
}

const results: { kind: string; step: Step; outcome: Outcome; ms: number }[] = [];
const line = (r: (typeof results)[number]) => `${r.kind} | ${r.step} | ${r.outcome.status === 'pass' ? 'pass' : r.outcome.status === 'n/a' ? `n/a: ${r.outcome.reason}` : `fail: ${r.outcome.what}`}`;
/**
 * Part of `npm test` (the e2e stage): every kind is walked. EVAL_LENS_JOURNEY=folktexts,raft walks
 * those kinds only (while working on one), EVAL_LENS_JOURNEY=none none (the other e2e files alone).
 */
const WANTED = process.env.EVAL_LENS_JOURNEY ?? 'all';
const SELECTED = WANTED === 'all' ? JOURNEY_KINDS : JOURNEY_KINDS.filter((k) => WANTED.split(',').includes(k.name));
if (!SELECTED.length) console.log(`[skipped] journey suite: EVAL_LENS_JOURNEY=${WANTED} names no kind (kinds: ${JOURNEY_KINDS.map((k) => k.name).join(', ')})`);

describe.skipIf(!SELECTED.length)('the journey suite: every feature on every input kind, as a user clicks it', () => {
  let wb: Workbench;
  let kinds: Placed[];
  let workspace: string;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'eval-lens-journey-'));
    kinds = await placeKinds(workspace);
    const dataFiles: Record<string, string> = {};
    for (const k of kinds) if (k.dataFile) dataFiles[`k-${k.name}/**`] = k.dataFile;
    const raft = kinds.find((k) => k.raftData);
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({
      'evalLens.bootstrap': BOOTSTRAP,
      'evalLens.dataFiles': dataFiles,
      ...(raft ? { 'evalLens.raftDataFolder': raft.raftData } : {}),
    }, null, 2));
    wb = await startWorkbench({ workspace, theme: 'dark', viewport: { width: 1400, height: 1000 } });
  }, 240_000);

  afterAll(async () => {
    await wb?.close();
    const lines = results.map(line);
    console.log(['journey table:', ...lines].join('\n'));
    mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
    writeFileSync(join(PROJECT_ROOT, 'test-results', 'journey.txt'), lines.join('\n') + '\n');
  });

  if (!SELECTED.length) it.skip('walks the kinds EVAL_LENS_JOURNEY names', () => {});
  for (const kind of SELECTED) {
    // One retry per kind: a walk of 22 kinds through VS Code's pickers and webviews on a busy 2-core
    // machine meets the odd lost focus; a defect fails both walks.
    it(`${kind.name}: the whole journey`, { timeout: 900_000, retry: 1 }, async () => {
      const k = kinds.find((x) => x.name === kind.name)!;
      const record = async (step: Step, run: () => Promise<void>): Promise<void> => {
        let outcome: Outcome;
        const started = Date.now();
        try {
          await run();
          outcome = { status: 'pass' };
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          outcome = e instanceof NotApplicable ? { status: 'n/a', reason: message } : { status: 'fail', what: message.split('\n')[0].slice(0, 300) };
          if (outcome.status === 'fail') await wb.screenshot(`journey-${k.name}-${step}-failed`).catch(() => undefined);
        }
        results.push({ kind: k.name, step, outcome, ms: Date.now() - started });
        // Written as it goes: a walk of every kind is long, and the table is read while it runs.
        mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
        writeFileSync(join(PROJECT_ROOT, 'test-results', 'journey.txt'), results.map(line).join('\n') + '\n');
        // Where a walk's time goes (to keep it short enough for CI): seconds per cell.
        writeFileSync(join(PROJECT_ROOT, 'test-results', 'journey-times.txt'), results.map((r) => `${r.kind} | ${r.step} | ${(r.ms / 1000).toFixed(1)} s`).join('\n') + '\n');
      };
      // A kind walked again (vitest's retry) starts from a clean slate; its first walk's
      // cells stay in the table, marked, so a retry is seen and not hidden.
      for (const r of results) if (r.kind === k.name) r.kind = `${k.name} (walk before the retry)`;
      await journey(wb, k, workspace, record);
      const failed = results.filter((r) => r.kind === k.name && r.outcome.status === 'fail');
      expect(failed.map((f) => `${f.step}: ${(f.outcome as { what: string }).what}`)).toEqual([]);
    });
  }
});

async function journey(wb: Workbench, k: Placed, workspace: string, record: (step: Step, run: () => Promise<void>) => Promise<void>): Promise<void> {
  const rel = (p: string) => p.slice(workspace.length + 1);
  let view: FrameLocator | undefined;
  const only = process.env.EVAL_LENS_JOURNEY_STEPS?.split(',');
  const step = (name: Step, run: () => Promise<void>) => (only && !only.includes(name) && name !== 'open' ? Promise.resolve() : record(name, run));
  const report = () => {
    if (!view) throw new Error('the report did not open');
    return view;
  };
  await wb.runCommand('View: Close All Editors', { timeoutMs: 20_000 }).catch(() => undefined);

  await record('open', async () => {
    await wb.openFile(rel(k.a), { timeoutMs: 60_000 });
    // Parquet and .eval files (binary: reportEditor.ts) open in the report editor itself; a text file
    // of the journey's size opens as text and gets its report from "Open Report" (one report on
    // screen either way: two would make the frames ambiguous).
    if (!/\.(parquet|eval)$/i.test(k.a)) await wb.runCommand('Eval Lens: Open Report', { timeoutMs: 60_000 });
    view = await renderedView(wb, k.a);
    if (k.summary) {
      // A summary holds figures, not samples: its table of figures is the report.
      await view.locator('#summary-figures, [data-summary]').first().waitFor({ state: 'attached', timeout: 60_000 });
      return;
    }
    await view.locator('body[data-instances]').waitFor({ state: 'attached', timeout: 120_000 });
  });

  await step('cards', async () => {
    const v = report();
    if (k.summary) throw new NotApplicable(await mustSay(v, 'cards', 'a summary has no per-sample rows to resample'));
    // Cards (or a scores file's per-sample metric rows) get their intervals from the intervals pass.
    // A judge file of several models has no figure for the whole file, and says so (data-na="cards").
    const interval = v.locator('.card-interval, #task-metrics .interval, #task-metrics td.interval, [data-na="cards"]');
    await interval.first().waitFor({ state: 'attached', timeout: 180_000 });
    const na = await v.locator('[data-na="cards"]').count() ? await pageSays(v, 'cards') : null;
    if (na) throw new NotApplicable(na);
  });

  await step('group', async () => {
    const v = report();
    if ((await v.locator('#group-by').count()) === 0) throw new NotApplicable(await mustSay(v, 'group', 'no Group by'));
    const own = await v.locator('#group-by option[value^="p:"]').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const joined = await v.locator('#group-by option[value^="d:"]').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const wantOwn = k.ownColumn ? `p:${k.ownColumn}` : own[0];
    const problems: string[] = [];
    if (!wantOwn || !own.includes(wantOwn)) {
      const why = await pageSays(v, 'group-own');
      if (!why) problems.push(`no column of its own in Group by (listed: ${own.join(', ') || 'none'}) and no word why`);
    } else {
      await choose(v, '#group-by', wantOwn);
      await v.locator('#group-table').waitFor({ state: 'attached', timeout: 120_000 });
      await choose(v, '#cluster-by', wantOwn);
      // Clustered cards, or the page's word that clusters change no figure of this file (a judge's).
      await v.locator('.card-cluster, #section-error-bars, [data-na="cluster"]').first().waitFor({ state: 'attached', timeout: 120_000 });
      await choose(v, '#cluster-by', '');
    }
    let joinNa: string | null = null;
    if (!joined.includes(`d:${DATA_COLUMN}`)) {
      // A file without IDs has nothing to join on: the page must say so (the core has no IDs either).
      joinNa = k.ids.length ? null : await pageSays(v, 'group-joined');
      if (!joinNa) problems.push(`the joined data file's column is not offered (joined: ${joined.join(', ') || 'none'})`);
    } else {
      await choose(v, '#group-by', `d:${DATA_COLUMN}`);
      await expect.poll(() => v.locator('#group-table tbody tr').count(), { timeout: 120_000 }).toBeGreaterThanOrEqual(REGIONS.length);
      await choose(v, '#group-by', '');
      // A judge file's "none" is its own groups by model (their table stays); any other file's table goes.
      const judgeOwn = /^Model \(/.test((await v.locator('#group-by option[value=""]').textContent()) ?? '');
      if (judgeOwn) await expect.poll(() => v.locator('#group-table tbody tr').first().getAttribute('data-value'), { timeout: 120_000 }).not.toMatch(new RegExp(`^(${REGIONS.join('|')})$`));
      else await v.locator('#group-table').waitFor({ state: 'detached', timeout: 120_000 });
    }
    if (problems.length) throw new Error(problems.join('; '));
    await v.locator('body[data-instances]').waitFor({ state: 'attached', timeout: 120_000 });
    if (joinNa) throw new NotApplicable(`grouped and clustered by its own ${wantOwn}; a joined file's column: ${joinNa}`);
  });

  await step('search', async () => {
    const v = report();
    // After a regrouping the page is drawn again and its table follows: wait for it, or for its reason.
    await v.locator('#instance-search, [data-na="search"], [data-na="samples"]').first().waitFor({ state: 'attached', timeout: 120_000 }).catch(() => undefined);
    if ((await v.locator('#instance-search').count()) === 0) throw new NotApplicable(await mustSay(v, 'search', 'no instance table'));
    const box = v.locator('#instance-search');
    const count = v.locator('.table-count');
    const id = k.ids[0];
    if (id === undefined) {
      // No IDs (the core reads none): a search by a column works, and one by ID says why it cannot.
      await box.fill(k.columnQuery);
      await box.press('Enter');
      await expect.poll(() => v.locator('#instance-search-message').textContent(), { timeout: 30_000 }).toMatch(/^\d[\d,]* match/);
      await box.fill('id = 1');
      await box.press('Enter');
      await expect.poll(() => v.locator('#instance-search-message').textContent(), { timeout: 30_000 }).toMatch(/no column "id"/);
      const said = (await v.locator('#instance-search-message').textContent())!.trim();
      await box.fill('');
      await box.press('Enter');
      throw new NotApplicable(`searched by a column; by ID: ${said}`);
    }
    await box.fill(`id = ${/^[\w.-]+$/.test(id) ? id : JSON.stringify(id)}`);
    await box.press('Enter');
    await expect.poll(async () => Number(await count.getAttribute('data-rows')), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const byId = Number(await count.getAttribute('data-rows'));
    if (byId > k.ids.length) throw new Error(`id = ${id} kept ${byId} rows`);
    await box.fill(k.columnQuery);
    await box.press('Enter');
    await expect.poll(() => v.locator('#instance-search-message').textContent(), { timeout: 30_000 }).toMatch(/^\d[\d,]* match/);
    // Emptied as a user does, and every row is back.
    await box.fill('');
    await box.press('Enter');
    await expect.poll(async () => Number(await count.getAttribute('data-rows')), { timeout: 30_000 }).toBeGreaterThan(byId);
  });

  await step('stepper', async () => {
    const v = report();
    await v.locator('#stepper, [data-na="stepper"], [data-na="samples"]').first().waitFor({ state: 'attached', timeout: 60_000 }).catch(() => undefined);
    if ((await v.locator('#stepper').count()) === 0) throw new NotApplicable(await mustSay(v, 'stepper', 'no stepper'));
    const total = Number(await v.locator('#stepper').getAttribute('data-total'));
    if (!(total > 0)) throw new NotApplicable((await v.locator('#stepper').textContent())?.trim().slice(0, 200) ?? 'nothing to step through');
    if (total > 1) {
      await v.locator('#stepper-next').click();
      await expect.poll(() => v.locator('#stepper-position').textContent(), { timeout: 20_000 }).toMatch(/^2 of /);
    }
  });

  await step('export', async () => {
    const v = report();
    if ((await v.locator('#instance-search').count()) === 0) throw new NotApplicable(await mustSay(v, 'search', 'no instance table to export'));
    // A kind without a correctness filter (no gold) exports every row; the page has no option to wait for.
    const filtered = (await v.locator('#filter-correctness option[value="incorrect"]').count()) > 0;
    if (filtered) await v.locator('#filter-correctness').selectOption('incorrect');
    const shown = Number(await v.locator('.table-count').getAttribute('data-rows'));
    const out = join(workspace, 'exports', `${k.name}.csv`);
    mkdirSync(dirname(out), { recursive: true });
    await chooseExport(v, /^CSV of the instance table, as filtered/);
    await saveDialog(wb, out, { timeoutMs: 90_000 });
    await expect.poll(() => existsSync(out), { timeout: 60_000 }).toBe(true);
    // Read back with the core's RFC 4180 reader (the page wrote it; blank lines are no records).
    await expect.poll(() => parseCsv(readFileSync(out, 'utf8')).records.length, { timeout: 30_000 }).toBe(shown);
    const header = parseCsv(readFileSync(out, 'utf8')).header;
    if (k.ids.length && !header.includes('id')) throw new Error(`the export has no id column (${header.join(',')})`);
    if (filtered) await v.locator('#filter-correctness').selectOption('all');
  });

  await step('map', async () => {
    const settingsPath = join(workspace, '.vscode', 'settings.json');
    const before = readFileSync(settingsPath, 'utf8');
    const widget = wb.page.locator('.quick-input-widget');
    // What Map Columns… shows: its pick, or a message of Eval Lens (the columns are read in the
    // scoring worker first, behind an intervals pass on a busy machine).
    const answer = async (from: string): Promise<'pick' | string> => {
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (await widget.isVisible()) return 'pick';
        const toasts = await wb.page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
        const said = toasts.find((t) => /^Eval Lens: /.test(t));
        if (said) return said;
        if (Date.now() > deadline) throw new Error(`Map Columns… from ${from}: no column pick and no message in 120 s`);
        await wb.page.waitForTimeout(250); // polled: neither the pick nor a toast signals the page
      }
    };
    await wb.runCommand('Eval Lens: Map Columns…');
    const first = await answer('the palette');
    if (first !== 'pick') {
      await wb.dismiss();
      if (/has no columns to map|cannot be scored without/.test(first)) throw new NotApplicable(first);
      throw new Error(`Map Columns… said "${first}"`);
    }
    await wb.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
    // The same from the title bar of the report (VS Code passes the uri and {groupId, editorIndex}).
    await renderedView(wb, k.a);
    const button = wb.page.locator('.editor-actions .action-label[aria-label^="Map Columns"]').first();
    await button.click({ timeout: 20_000 });
    const second = await answer('the title bar');
    if (second !== 'pick') throw new Error(`Map Columns… from the title bar said "${second}"`);
    await wb.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
    expect(readFileSync(settingsPath, 'utf8')).toBe(before);
  });

  await step('compare', async () => {
    if (!k.b) throw new Error('no second run');
    await renderedView(wb, k.a);
    // The list names a run by its task or model (RAFT: 'bank_intents', run-2) with its path below: picked by the path.
    await pick(wb, 'Eval Lens: Compare with…', new RegExp(escapeRe(rel(k.b))), rel(k.b), true);
    const cv = await renderedView(wb, 'comparison', 180_000);
    const shown = await cv.locator('#metric-table, #task-table, [data-na="compare"]').first().waitFor({ state: 'attached', timeout: 60_000 }).then(() => true, () => false);
    if (!shown) throw new Error('the comparison shows no metric table and no word why');
    const na = await pageSays(cv, 'compare');
    if (na) {
      await wb.runCommand('View: Close Editor', { timeoutMs: 20_000 }).catch(() => undefined);
      throw new NotApplicable(na);
    }
    // Where it differs: slices over the joined file's column, or the page's reason for none.
    await cv.locator('#where-it-differs, #slices-note').first().waitFor({ state: 'attached', timeout: 60_000 });
    await wb.runCommand('View: Close Editor', { timeoutMs: 20_000 }).catch(() => undefined);
  });

  await step('board', async () => {
    const label = rel(k.boardFolder ? join(k.folder, k.boardFolder) : k.folder);
    await pick(wb, 'Eval Lens: Show Leaderboard', new RegExp(`^${escapeRe(label)}$`), label);
    const bv = await renderedView(wb, 'board', 180_000);
    // Two runs or more on the board, or the page's word why not (summaries are not ranked: data-na="board").
    await expect.poll(async () => (await bv.locator('[data-na="board"]').count()) > 0 || (await bv.locator('#board-table tbody tr').count()) >= 2, { timeout: 60_000 }).toBe(true);
    const na = await pageSays(bv, 'board');
    if (na) {
      const first = (await bv.locator('ul.problems li').first().textContent().catch(() => null))?.trim();
      await wb.runCommand('View: Close Editor', { timeoutMs: 20_000 }).catch(() => undefined);
      throw new NotApplicable(`${na}${first ? ` (${first})` : ''}`);
    }
    await wb.runCommand('View: Close Editor', { timeoutMs: 20_000 }).catch(() => undefined);
  });
}

/** The page's words for a feature that does not apply; a silent absence is a failure. */
async function mustSay(view: FrameLocator, feature: string, what: string): Promise<string> {
  const said = await pageSays(view, feature);
  if (!said) throw new Error(`${what}, and the page does not say why`);
  return said;
}


