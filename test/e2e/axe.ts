// axe-core (a dev dependency) run inside a webview's document, two iframes deep in the workbench.
// The script is injected through the DevTools protocol (Playwright's evaluate), which the webview's
// Content-Security-Policy does not govern, so the page ships nothing for it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0 and 2.1 A and AA rules (the issue's bar). */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** The content frame of the visible webview (the document the extension's page lives in). */
export async function webviewFrame(page: Page, index = 0): Promise<Frame> {
  const outer = await page.locator('iframe.webview.ready >> visible=true').nth(index).elementHandle();
  const outerFrame = await outer!.contentFrame();
  const inner = await outerFrame!.waitForSelector('iframe#active-frame');
  const frame = await inner.contentFrame();
  if (!frame) throw new Error('webviewFrame: no content frame in iframe#active-frame');
  return frame;
}

/** Runs axe on the frame's document: every WCAG 2.x A/AA violation, with its impact. */
export async function axeViolations(frame: Frame): Promise<AxeFinding[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  // Two frames: whatever the last change (a theme, a redraw) scheduled is painted.
  await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return frame.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary.replace(/\s+/g, ' ').slice(0, 200) })),
    }));
  }, WCAG_AA_TAGS);
}

/** The serious and critical ones, one line each (rule, impact, node count, first targets). */
export function seriousLines(findings: AxeFinding[]): string[] {
  return findings
    .filter((f) => f.impact === 'serious' || f.impact === 'critical')
    .map((f) => `${f.id} (${f.impact}) ×${f.nodes.length}: ${f.nodes.slice(0, 3).map((n) => `${n.target} — ${n.summary}`).join(' | ')}`);
}
