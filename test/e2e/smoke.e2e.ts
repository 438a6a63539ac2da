// Smoke test for the e2e harness: a real VS Code workbench opens on a fixture folder, with the
// project loaded as the extension under development.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { startWorkbench, type Workbench } from './workbench';

describe('e2e harness', () => {
  let wb: Workbench;

  beforeAll(async () => {
    wb = await startWorkbench({ workspace: 'test/fixtures/harness', theme: 'dark' });
    console.log('[smoke] timings', JSON.stringify(wb.timings));
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('opens the fixture folder in an Extension Development Host', async () => {
    await expect.poll(() => wb.page.title(), { timeout: 30_000 }).toContain('harness');
    expect(await wb.page.title()).toContain('[Extension Development Host]');
    await expect.poll(() => wb.page.locator('.explorer-folders-view .monaco-list-row').allTextContents(), { timeout: 30_000 }).toContain('notes.txt');
  });

  it('opens a file and takes a screenshot', async () => {
    await wb.openFile('notes.txt');
    const path = await wb.screenshot('smoke-workbench');
    expect(existsSync(path)).toBe(true);
  });
});
