// What the sample view's end-to-end tests share (issue 29): a sample's messages read from the file
// by Python (independently of the code under test), the page's messages checked against them, and
// the ways to a report's rows (the explorer, the instance table).
import { execFileSync } from 'node:child_process';
import type { FrameLocator, Locator } from 'playwright-core';
import { expect } from 'vitest';
import type { Workbench } from './workbench';

/** Every message of an Inspect sample as Python's json/zipfile read it: role, text, tool calls (name, arguments as a dict). */
export function inspectMessages(path: string, id: string): { role: string; content: string; calls: [string, Record<string, unknown>][] }[] {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys, zipfile
path, sid = sys.argv[1], sys.argv[2]
if path.endswith('.eval'):
    z = zipfile.ZipFile(path)
    s = json.loads(z.read([n for n in z.namelist() if n.startswith('samples/' + sid + '_epoch_')][0]))
else:
    s = [x for x in json.load(open(path))['samples'] if str(x['id']) == sid][0]
text = lambda c: c if isinstance(c, str) else '\\n'.join(p['text'] for p in c if p.get('type') == 'text')
print(json.dumps([{'role': m['role'], 'content': text(m['content']), 'calls': [[t['function'], t['arguments']] for t in (m.get('tool_calls') or [])]} for m in s['messages']]))`, path, id], { encoding: 'utf8' }));
}

/** A page's text with runs of space made one (the page keeps a text's spaces; textContent joins blocks). */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The visible webview holding `selector` (the report and the sample view sit side by side). */
export async function viewWith(wb: Workbench, selector: string, timeoutMs = 90_000): Promise<FrameLocator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (let i = 0; i < 3; i++) {
      const view = wb.webview({ index: i });
      if ((await view.locator(selector).count().catch(() => 0)) > 0) return view;
    }
    if (Date.now() > deadline) throw new Error(`no visible webview holds ${selector} after ${timeoutMs} ms`);
    await wb.page.waitForTimeout(250); // polling the frames: no event says which frame a webview's content went to
  }
}

/** Clicks `rel` in the explorer (a folder row, then the file's), as a user opens a file. */
export async function clickInExplorer(wb: Workbench, rel: string): Promise<void> {
  await wb.runCommand('View: Show Explorer', { timeoutMs: 10_000 }).catch(() => undefined);
  const rows = wb.page.locator('.explorer-folders-view .monaco-list-row');
  const parts = rel.split('/');
  for (const [k, name] of parts.entries()) {
    const row = rows.filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
    await row.waitFor({ timeout: 30_000 });
    // A folder opens on a click; a click on an open folder would close it.
    if (k < parts.length - 1 && (await row.getAttribute('aria-expanded')) === 'true') continue;
    await row.click();
  }
}

/** Clicks the table row of instance ID `id` (the third column: #, line, id). */
export async function clickRow(report: FrameLocator, id: string): Promise<void> {
  const rows = report.locator('.vtable-rows .vtable-row:not([hidden])');
  const ids = await rows.evaluateAll((r) => r.map((x) => x.children[2]?.textContent ?? ''));
  const k = ids.indexOf(id);
  if (k < 0) throw new Error(`no row with ID ${id} in view (IDs: ${ids.slice(0, 10).join(', ')})`);
  await rows.nth(k).click();
}

/** Each message article's text, and the page checked against the file: every message, every tool call. */
export async function expectMessages(view: FrameLocator | Locator, want: ReturnType<typeof inspectMessages>): Promise<void> {
  const articles = view.locator('.conversation article.message');
  await expect.poll(() => articles.count()).toBe(want.length);
  const roles = await articles.evaluateAll((a) => a.map((x) => (x as HTMLElement).dataset.role));
  expect(roles).toEqual(want.map((m) => m.role));
  for (let k = 0; k < want.length; k++) {
    // The text as read on screen (the screen reader's "[extracted answer:]" marks aside).
    const text = squash(await articles.nth(k).locator('.message-text').evaluateAll((nodes) => nodes.map((n) => {
      const copy = n.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.sr-only, .show-all').forEach((x) => x.remove());
      return copy.textContent ?? '';
    }).join(' ')));
    expect(text.slice(0, 3000), `message ${k + 1}`).toBe(squash(want[k].content).slice(0, 3000));
    const calls = await articles.nth(k).locator('.tool-call').evaluateAll((c) => c.map((x) => [(x as HTMLElement).dataset.tool, x.querySelector('.tool-arguments')?.textContent ?? '']));
    expect(calls.map(([name, args]) => [name, JSON.parse(args as string)]), `tool calls of message ${k + 1}`).toEqual(want[k].calls);
  }
}

/**
 * The report page's sample peek (a row's click, the stepper's "Open sample") once it shows sample
 * `id` with its messages drawn (its data-shown-at is set a frame after they are).
 */
export async function samplePeek(report: FrameLocator, id: string): Promise<Locator> {
  const peek = report.locator('#sample-peek');
  await expect.poll(() => peek.locator('#sample-peek-title').textContent(), { timeout: 30_000 }).toBe(`Sample ${id}`);
  await report.locator('#sample-peek[data-shown-at]').waitFor({ state: 'attached', timeout: 30_000 });
  return peek;
}
