// End-to-end: the panels in narrow and wide editor columns (issue 21, point 11). The report with
// "Group by" (the group table, its Export and Group by selects), the comparison of two runs (the
// metric table with its Δ, interval and p columns) and the leaderboard, each at a 600 px and a
// 1,400 px wide window. In every one, nothing is cut off by the page: a wide table scrolls sideways
// inside its own card, its first column stays in view while it does, and its header wraps; the
// selects fit the page. Screenshots go to test-results/e2e/narrow-*.png (looked at by hand).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { writeAdultFiles } from '../unit/slices/adultFixture';
import { startWorkbench, type Workbench } from './workbench';

const WIDTHS = [600, 1400] as const;

interface Layout {
  viewport: number;
  /** How far the page itself reaches past the viewport (0: it does not). */
  pageOverflow: number;
  /** Elements whose right edge is past the viewport. */
  clipped: string[];
  /** The outermost elements reaching past the viewport (whose parent does not): what to fix. */
  offenders: string[];
  /** Per table: whether a sideways scroll box holds it inside the page, its first column sticky, its header wrapping. */
  tables: { id: string; scroller: boolean; scrollerRight: number; stickyFirst: boolean; headerWraps: boolean; overflows: boolean }[];
}

/** Reads the layout facts above in the webview's document. */
async function layout(view: FrameLocator, tables: string[], fits: string[]): Promise<Layout> {
  return view.locator('body').evaluate((body, [tableSelectors, fitSelectors]) => {
    const doc = body.ownerDocument;
    const vw = doc.documentElement.clientWidth;
    const clipped: string[] = [];
    for (const sel of fitSelectors) {
      for (const e of doc.querySelectorAll(sel)) {
        const r = e.getBoundingClientRect();
        if (r.width && r.right > vw + 1) clipped.push(`${sel} right ${Math.round(r.right)} > ${vw}`);
      }
    }
    const tables = tableSelectors.map((sel) => {
      const table = doc.querySelector(sel) as HTMLTableElement | null;
      if (!table) return { id: sel, scroller: false, scrollerRight: NaN, stickyFirst: false, headerWraps: false, overflows: false };
      let scroller: HTMLElement | null = table.parentElement;
      while (scroller && scroller !== body && !/auto|scroll/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      const holds = !!scroller && scroller !== body;
      const first = table.querySelector('tbody tr > :first-child') as HTMLElement | null;
      const head = table.querySelector('thead th') as HTMLElement | null;
      return {
        id: sel,
        scroller: holds,
        scrollerRight: holds ? Math.round(scroller!.getBoundingClientRect().right) : NaN,
        stickyFirst: !!first && getComputedStyle(first).position === 'sticky',
        headerWraps: !!head && getComputedStyle(head).whiteSpace === 'normal',
        overflows: holds && scroller!.scrollWidth > scroller!.clientWidth,
      };
    });
    const offenders: string[] = [];
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}`;
    for (const e of doc.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      const p = e.parentElement?.getBoundingClientRect();
      // Inside a sideways scroll box is fine: that box is what the user scrolls.
      const boxed = (() => { for (let a = e.parentElement; a && a !== doc.body; a = a.parentElement) if (/auto|scroll/.test(getComputedStyle(a).overflowX)) return true; return false; })();
      if (!boxed && r.width && r.right > vw + 1 && p && (p.right <= vw + 1 || e.parentElement === doc.body) && offenders.length < 12) offenders.push(`${name(e)} in ${name(e.parentElement!)}: right ${Math.round(r.right)}, width ${Math.round(r.width)}`);
    }
    // Text that cannot wrap has no box past the window (its line box is clipped by nothing): find
    // what widens the page by hiding one element at a time, from the top down.
    const wide = doc.documentElement.scrollWidth;
    const narrowing = (parent: Element, depth: number): void => {
      for (const c of Array.from(parent.children)) {
        const h = c as HTMLElement;
        const was = h.style.display;
        h.style.display = 'none';
        const without = doc.documentElement.scrollWidth;
        h.style.display = was;
        if (without < wide && offenders.length < 12) {
          offenders.push(`${name(c)} widens the page by ${wide - without} px`);
          if (depth < 12) narrowing(c, depth + 1);
        }
      }
    };
    if (wide > vw + 1) narrowing(doc.body, 0);
    const bodyBox = doc.body.getBoundingClientRect();
    if (bodyBox.right > vw + 1) offenders.unshift(`body: right ${Math.round(bodyBox.right)}, width ${Math.round(bodyBox.width)}`);
    return { viewport: vw, pageOverflow: doc.documentElement.scrollWidth - vw, clipped, offenders, tables };
  }, [tables, fits] as const);
}

function expectFits(facts: Layout, what: string): void {
  expect(facts.pageOverflow, `${what}: the page reaches past the window (${facts.offenders.join('; ')})`).toBeLessThanOrEqual(1);
  expect(facts.clipped, `${what}: cut off`).toEqual([]);
  for (const t of facts.tables) {
    expect(t.scroller, `${what}: ${t.id} in a sideways scroll box`).toBe(true);
    expect(t.scrollerRight, `${what}: ${t.id}'s scroll box inside the page`).toBeLessThanOrEqual(facts.viewport + 1);
    expect(t.stickyFirst, `${what}: ${t.id}'s first column stays`).toBe(true);
    expect(t.headerWraps, `${what}: ${t.id}'s header wraps`).toBe(true);
  }
}

/** After scrolling a table's box to its right end, its first column is still at the box's left edge. */
async function firstColumnStays(view: FrameLocator, table: string): Promise<number> {
  return view.locator(table).evaluate((t) => {
    let s: HTMLElement | null = t.parentElement;
    while (s && !/auto|scroll/.test(getComputedStyle(s).overflowX)) s = s.parentElement;
    if (!s) return Infinity;
    s.scrollLeft = s.scrollWidth;
    const first = t.querySelector('tbody tr > :first-child') as HTMLElement;
    const gap = Math.abs(first.getBoundingClientRect().left - s.getBoundingClientRect().left);
    s.scrollLeft = 0;
    return gap;
  });
}

describe('the panels in narrow and wide editor columns', () => {
  let wb: Workbench;

  beforeAll(async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'eval-lens-narrow-'));
    const files = writeAdultFiles(workspace);
    cpSync(join(PROJECT_ROOT, 'examples', 'folktexts'), join(workspace, 'folktexts'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'examples', 'raft'), join(workspace, 'raft'), { recursive: true });
    wb = await startWorkbench({
      workspace, theme: 'dark', viewport: { width: 1400, height: 1000 },
      settings: { 'evalLens.dataFiles': { '**/ACSIncome_adult.test_predictions.csv': files.data }, 'evalLens.bootstrap': 100, 'evalLens.raftDataFolder': 'raft/data' },
    });
    for (const title of ['View: Single Column Editor Layout', 'View: Close Primary Side Bar']) await wb.runCommand(title, { timeoutMs: 10_000 }).catch(() => undefined);
  });

  afterAll(async () => {
    await wb?.close();
  });

  async function atWidths(name: string, view: FrameLocator, tables: string[], fits: string[], scrollTo?: string): Promise<void> {
    for (const width of WIDTHS) {
      await wb.page.setViewportSize({ width, height: 1000 });
      // The webview follows the window's width: wait for its document to be that narrow.
      await expect.poll(() => view.locator('body').evaluate((b) => b.ownerDocument.documentElement.clientWidth), { timeout: 20_000 })
        .toBeLessThanOrEqual(width);
      if (scrollTo) await view.locator(scrollTo).evaluate((e) => e.scrollIntoView({ block: 'start' }));
      const facts = await layout(view, tables, fits);
      await wb.screenshot(`narrow-${name}-${width}`);
      expectFits(facts, `${name} at ${width} px`);
      for (const t of facts.tables) if (t.overflows) expect(await firstColumnStays(view, t.id), `${t.id} first column after scrolling`).toBeLessThanOrEqual(2);
    }
    await wb.page.setViewportSize({ width: 1400, height: 1000 });
  }

  it('the report with Group by: the group table scrolls inside its card, the selects fit', async () => {
    await wb.openFile('ACSIncome_adult.test_predictions.csv');
    await wb.runCommand('Eval Lens: Open Report');
    const view = wb.webview();
    await view.locator('body[data-rendered]').waitFor({ state: 'attached', timeout: 90_000 });
    const select = view.locator('#group-by');
    await expect.poll(() => select.locator('option').allTextContents(), { timeout: 30_000 }).toEqual(expect.arrayContaining(['race']));
    await select.selectOption('d:race');
    await expect.poll(() => view.locator('#group-table tbody tr').count(), { timeout: 90_000 }).toBeGreaterThan(2);
    await expect.poll(() => view.locator('#group-table .forest-ci').count(), { timeout: 90_000 }).toBeGreaterThan(2);
    await atWidths('report-groups', view, ['#group-table'], ['#export-select', '#group-by', '#copy-markdown', '#join-data'], '#section-groups');
  });

  it('the comparison of two runs: the metric table keeps Δ, the interval and p within reach', async () => {
    await wb.openFile('folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    await wb.page.locator('.quick-input-widget .quick-input-box input').fill('Llama-3-8B-sim');
    await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: /Llama-3-8B-sim/ }).first().click({ timeout: 20_000 });
    const view = wb.webview();
    await view.locator('body[data-rendered="comparison"]').waitFor({ state: 'attached', timeout: 90_000 });
    await atWidths('compare', view, ['#metric-table table'], ['#export-select', '#copy-markdown']);
  });

  it('the leaderboard: its table scrolls inside its card, the run names stay', async () => {
    await wb.runCommand('Eval Lens: Show Leaderboard');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('raft');
    await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: /^raft$/ }) }).first().click({ timeout: 20_000 });
    const view = wb.webview();
    await view.locator('body[data-rendered="board"]').waitFor({ state: 'attached', timeout: 90_000 });
    await atWidths('leaderboard', view, ['#board-table'], ['#export-select', '#copy-markdown', '#board-compare']);
  });
});
