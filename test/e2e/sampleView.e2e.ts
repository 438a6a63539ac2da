// End-to-end (issue 29): the sample view in a real workbench, shown in the report page itself (the
// sample peek) from the instance table and the stepper, in a tab of its own from the peek's "Open in
// its own tab" and from the compare page, on real logs: Inspect .json (a browsing agent's tool calls, 2025)
// and .eval (a v3 log with five bash calls; Inspect 0.3.41 of 2024; a multiple-choice question),
// lm-eval samples with choices and log-likelihoods, Every Eval Ever instance files (single-turn and
// agentic). Every message, tool call and score of the file is on the page as text, read back from
// the file here; a hostile sample's HTML, scripts and remote images stay text and a link is
// followed only on a click. An agent run's columns sort and its conversations are searched. Two runs
// side by side get a word diff. Screenshots (looked at) go to test-results/e2e/ (sample-*).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../vscode/codeserver.mjs';
import { startWorkbench, type Workbench } from './workbench';
import { clickInExplorer, clickRow, expectMessages, inspectMessages, samplePeek, squash, viewWith } from './sampleHelpers';

const REAL = join(PROJECT_ROOT, 'test/fixtures/real');
const DOCS = join(PROJECT_ROOT, 'docs', 'screenshots');

/** A screenshot with the side bar closed; with EVAL_LENS_UPDATE_SCREENSHOTS=1 also copied to docs/screenshots/. */
async function docsShot(wb: Workbench, name: string): Promise<void> {
  await wb.runCommand('View: Close Primary Side Bar', { timeoutMs: 10_000 }).catch(() => undefined);
  const path = await wb.screenshot(name);
  if (process.env.EVAL_LENS_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(path, join(DOCS, `${name}.png`));
  }
}

async function closeAll(wb: Workbench): Promise<void> {
  await wb.runCommand('View: Close All Editors', { timeoutMs: 10_000 }).catch(() => undefined);
  await wb.runCommand('View: Single Column Editor Layout', { timeoutMs: 10_000 }).catch(() => undefined);
}

/**
 * The report of `rel` with its instances, in a fresh single editor group: an .eval (a zip) clicked
 * in the explorer opens in the Eval Lens Report editor; a text file through Quick Open and Open Report.
 */
async function openReport(wb: Workbench, rel: string): Promise<FrameLocator> {
  await closeAll(wb);
  if (rel.endsWith('.eval')) {
    await clickInExplorer(wb, rel);
  } else {
    await wb.openFile(rel);
    await wb.runCommand('Eval Lens: Open Report');
  }
  const view = await viewWith(wb, 'body[data-rendered][data-instances] #instances');
  return view;
}

/** The sample view's tab showing sample `id` (its header says "Sample <id>"), once its messages are drawn. */
async function sampleView(wb: Workbench, id: string): Promise<FrameLocator> {
  const view = await viewWith(wb, `body[data-sample-token] h1`);
  await expect.poll(() => view.locator('.sample-header h1').textContent(), { timeout: 30_000 }).toBe(`Sample ${id}`);
  return view;
}

describe('the sample view in the workbench', () => {
  let wb: Workbench;
  let dir: string;
  const requests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-sample-'));
    for (const sub of ['inspect', 'lm-eval', 'eee', 'compare']) mkdirSync(join(dir, sub));
    const inspect = join(REAL, 'inspect-ai');
    for (const f of ['2025-05-12T20-27-36-04-00_browser.json', 'log_message_deduplication.eval', 'log_formats.eval', 'mmlu-summary-choices.eval', '2025-05-12T20-28-26-04-00_security-guide.json']) {
      copyFileSync(join(inspect, f), join(dir, 'inspect', f));
    }
    const lm = join(REAL, 'lm-eval/meta-llama__Meta-Llama-3-8B');
    for (const f of ['samples_bias_classification_2024-06-17T16-06-39.458097.json', 'results_2024-06-17T16-06-39.458097.json']) copyFileSync(join(lm, f), join(dir, 'lm-eval', f));
    copyFileSync(join(PROJECT_ROOT, 'test/fixtures/eee/guess_number_samples.jsonl'), join(dir, 'eee', 'guess_number_samples.jsonl'));
    // The schema repository's single-turn example, as an instance file of its own.
    writeFileSync(join(dir, 'eee', 'demo_samples.jsonl'), `${JSON.stringify({
      schema_version: '0.3.0', evaluation_id: 'demo-source/demo-org_demo-model/1750000000', model_id: 'demo-org/demo-model', evaluation_name: 'demo-source.demo_bench',
      evaluation_result_id: 'demo-source.demo_bench', sample_id: 'demo_0001', interaction_type: 'single_turn',
      input: { raw: 'What is 2 + 2?', formatted: 'Q: What is 2 + 2?\nA:', reference: ['4'] }, output: { raw: ['The answer is 4.'] },
      answer_attribution: [{ turn_idx: 0, source: 'output.raw', extracted_value: '4', extraction_method: 'match', is_terminal: true }],
      evaluation: { score: 1.0, is_correct: true }, token_usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 }, metadata: { subject: 'arithmetic' },
    })}\n`);
    // A hostile sample: a real log whose first sample's output, explanation and metadata hold markup.
    const log = JSON.parse(readFileSync(join(inspect, '2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'));
    const s = log.samples[0];
    const hostile = 'Yes <script>window.__owned = 1</script> <img src="http://127.0.0.1:9/out.png" onerror="window.__owned = 2"> <b>bold?</b>';
    s.messages[s.messages.length - 1].content = hostile;
    s.output.choices[0].message.content = hostile;
    s.output.completion = hostile;
    s.scores.match.explanation = [
      '**Verdict**: right, although <b>raw HTML</b> is here.',
      '',
      '<script>window.__owned = 3</script>',
      '',
      '![pixel](http://127.0.0.1:9/pixel.gif)',
      '',
      'See [the docs](https://example.org/docs).',
      '',
      '<div onclick="window.__owned = 4">a raw block</div>',
    ].join('\n');
    s.metadata = { ...s.metadata, note: '<iframe src="http://127.0.0.1:9/frame"></iframe>' };
    writeFileSync(join(dir, 'inspect', '2025-05-12T20-28-13-04-00_hostile.json'), JSON.stringify(log));
    // Two runs of the same samples for the compare page: the second answers sample 2 in other words.
    writeFileSync(join(dir, 'compare', '2025-05-12T20-28-13-04-00_popularity.json'), readFileSync(join(inspect, '2025-05-12T20-28-13-04-00_popularity.json')));
    const other = JSON.parse(readFileSync(join(inspect, '2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'));
    for (const x of other.samples) {
      const text = x.id === other.samples[0].id ? 'No, I would never say that.' : x.output.completion;
      x.messages[x.messages.length - 1].content = text;
      x.output.choices[0].message.content = text;
      x.output.completion = text;
      if (x.id === other.samples[0].id) x.scores.match = { value: 'I', answer: 'No', explanation: text };
    }
    other.eval.model = 'openai/other-model';
    writeFileSync(join(dir, 'compare', '2025-05-12T20-29-00-04-00_popularity.json'), JSON.stringify(other));

    wb = await startWorkbench({ workspace: dir, theme: 'dark', viewport: { width: 1500, height: 1000 }, settings: { 'evalLens.bootstrap': 0 } });
    wb.page.on('request', (r) => requests.push(r.url()));
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('Inspect .json (2025): a browsing agent\'s every message, tool call and result, from a row of the table', async () => {
    const rel = 'inspect/2025-05-12T20-27-36-04-00_browser.json';
    const report = await openReport(wb, rel);
    await clickRow(report, '1');
    const view = await samplePeek(report, '1');
    await expectMessages(view, inspectMessages(join(dir, rel), '1'));
    // The tool results are named by their tool; the score, tokens and time are there.
    expect(await view.locator('article.message[data-role="tool"] .message-role').allTextContents()).toEqual(['Tool result: web_browser_go', 'Tool result: web_browser_click', 'Tool result: web_browser_click', 'Tool result: web_browser_click']);
    expect(await view.locator('.score .score-name').allTextContents()).toEqual(['includes']);
    expect(await view.locator('.score .score-value').textContent()).toBe('C (correct)');
    expect(await view.locator('.usage-table tbody tr').count()).toBe(1);
    expect(await view.locator('.timing dd').first().textContent()).toMatch(/^18(\.\d)? s$/);
    await wb.screenshot('sample-agent-json-dark');
    // "Open in its own tab": the same sample in the sample view's tab, beside the report.
    await view.locator('#sample-peek-tab').click();
    const tab = await sampleView(wb, '1');
    await expectMessages(tab, inspectMessages(join(dir, rel), '1'));
  });

  it('Inspect .eval (v3, a message pool): five bash calls and their results, read from the one entry; the columns of an agent run', async () => {
    const rel = 'inspect/log_message_deduplication.eval';
    const report = await openReport(wb, rel);
    // The agent columns: turns, tool calls, tokens, sortable.
    const heads = await report.locator('.vtable-headcell').allTextContents();
    expect(heads).toEqual(expect.arrayContaining(['turns', 'tool calls', 'tokens']));
    const cells = await report.locator('.vtable-rows .vtable-row:not([hidden]) .vtable-cell').allTextContents();
    expect(cells).toEqual(expect.arrayContaining(['6', '5']));
    await report.locator('[data-column="field:tool_calls"]').click();
    await expect.poll(() => report.locator('[data-column="field:tool_calls"]').getAttribute('data-sort')).toBe('asc');
    // The search reaches inside the conversation: "lib64" is only in the tool's output.
    await report.locator('#instance-search').fill('lib64');
    await report.locator('#instance-search').press('Enter');
    await expect.poll(() => report.locator('.table-search').getAttribute('data-conversations'), { timeout: 30_000 }).toBe('1');
    expect(await report.locator('#instance-search-message').textContent()).toBe('1 match, 1 of them inside the conversations');
    expect(await report.locator('.table-count').getAttribute('data-rows')).toBe('1');
    // A row opens its sample (Enter on the focused row, as a click does).
    await report.locator('.vtable-rows .vtable-row[tabindex="0"]').focus();
    await wb.page.keyboard.press('Enter');
    const view = await samplePeek(report, '0');
    await expectMessages(view, inspectMessages(join(dir, rel), '0'));
    expect(await view.locator('.tool-call[data-tool="bash"]').count()).toBe(5);
    expect(await view.locator('.score-name').allTextContents()).toEqual(['closeness_log']);
    await docsShot(wb, 'sample-agent-eval-dark');
  });

  it('Inspect .eval of 0.3.41 (2024): the system message the stepper never showed', async () => {
    const rel = 'inspect/log_formats.eval';
    const report = await openReport(wb, rel);
    const id = (await report.locator('.vtable-rows .vtable-row:not([hidden]) .vtable-cell').nth(2).textContent())!;
    await clickRow(report, id);
    const view = await samplePeek(report, id);
    const want = inspectMessages(join(dir, rel), id);
    expect(want[0].role).toBe('system');
    await expectMessages(view, want);
  });

  it('a multiple-choice question from the stepper: the choices, gold and pick, the answer marked where it stands', async () => {
    const report = await openReport(wb, 'inspect/mmlu-summary-choices.eval');
    await report.locator('#stepper-sample').click();
    const view = await samplePeek(report, '1');
    expect(await view.locator('.choices-table tbody th').allTextContents()).toEqual(['A', 'B', 'C', 'D']);
    expect(await view.locator('.choices-table .choice-text').allTextContents()).toEqual(['6.0 e', '6.8 eV', '12.2 eV', '13.6 eV']);
    expect(await view.locator('.choices-table tr.gold .choice-marks').textContent()).toBe('gold');
    expect(await view.locator('.choices-table tr.picked .choice-marks').textContent()).toBe("model's answer");
    expect(await view.locator('mark.answer-mark').textContent()).toBe('C');
    expect(squash((await view.locator('article.message[data-role="assistant"] .message-text').textContent())!)).toBe('ANSWER: [extracted answer:] C [end of answer]');
    expect(await view.locator('.metadata-table').textContent()).toContain('college_physics');
  });

  it("a model-graded score: the explanation as Markdown, the grader's exchange folded", async () => {
    const report = await openReport(wb, 'inspect/2025-05-12T20-28-26-04-00_security-guide.json');
    await clickRow(report, '1');
    const view = await samplePeek(report, '1');
    const explanation = view.locator('.score-explanation .md');
    expect(await explanation.locator('strong').first().textContent()).toBe("Expert's Answer Content:");
    const grader = view.locator('details.grader');
    expect(await grader.getAttribute('open')).toBeNull();
    await grader.locator('summary').click();
    expect(await grader.locator('article.message').count()).toBe(2);
    expect(await grader.locator('article.message').first().textContent()).toContain('[BEGIN DATA]');
  });

  it('lm-eval: each choice with its probability (the softmax of its log-likelihood)', async () => {
    const rel = 'lm-eval/samples_bias_classification_2024-06-17T16-06-39.458097.json';
    const report = await openReport(wb, rel);
    await clickRow(report, '1');
    const view = await samplePeek(report, '1');
    const rec = JSON.parse(readFileSync(join(dir, rel), 'utf8').split('\n')[1]);
    const ll = rec.filtered_resps.map((r: [string, string]) => Number(r[0]));
    const max = Math.max(...ll);
    const e = ll.map((x: number) => Math.exp(x - max));
    const p = e.map((x: number) => x / e.reduce((a: number, b: number) => a + b, 0));
    expect(await view.locator('.choices-table .choice-prob').allTextContents()).toEqual(p.map((x: number) => x.toFixed(4)));
    expect(await view.locator('.choices-table tr.gold th').textContent()).toBe('A');
    expect(await view.locator('.choices-table tr.picked th').textContent()).toBe('B');
    await wb.screenshot('sample-lm-eval-dark');
  });

  it('Every Eval Ever: a single-turn line (the answer marked in the output) and an agentic one (every message and tool call)', async () => {
    let report = await openReport(wb, 'eee/demo_samples.jsonl');
    await clickRow(report, 'demo_0001');
    let view = await samplePeek(report, 'demo_0001');
    expect(squash((await view.locator('.output-text').textContent())!)).toBe('The answer is [extracted answer:] 4 [end of answer].');
    expect(await view.locator('details.prompt summary').textContent()).toMatch(/^The prompt as the model saw it/);
    expect(await view.locator('.usage-table').textContent()).toContain('17');
    report = await openReport(wb, 'eee/guess_number_samples.jsonl');
    await clickRow(report, '0');
    view = await samplePeek(report, '0');
    const rec = JSON.parse(readFileSync(join(dir, 'eee/guess_number_samples.jsonl'), 'utf8').split('\n')[0]);
    await expectMessages(view, rec.messages.map((m: { role: string; content: string; tool_calls: { name: string; arguments: Record<string, string> }[] }) => ({
      role: m.role, content: m.content, calls: m.tool_calls.map((c) => [c.name, c.arguments]),
    })));
  });

  it('a hostile sample: its HTML, scripts and remote images stay text, and a link waits for a click', async () => {
    const report = await openReport(wb, 'inspect/2025-05-12T20-28-13-04-00_hostile.json');
    const id = (await report.locator('.vtable-rows .vtable-row:not([hidden]) .vtable-cell').nth(2).textContent())!;
    await clickRow(report, id);
    const view = await samplePeek(report, id);
    const page = await report.locator('body').evaluate(() => ({
      scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src') ?? `inline: ${s.textContent}`),
      nonces: [...document.querySelectorAll('script')].map((s) => s.nonce ?? ''),
      images: document.querySelectorAll('img, iframe, object, embed').length,
      bold: document.querySelectorAll('b, div[onclick]').length,
      owned: (window as unknown as { __owned?: number }).__owned ?? null,
      text: document.body.textContent ?? '',
    }));
    expect(page.scripts.filter((x) => x.includes('__owned'))).toEqual([]);
    // VS Code's webview host puts its acquireVsCodeApi shim first (no nonce); the one other script is
    // the page's own (loaded from dist/webview.js, or put in the page by panelHtml.ts) with the CSP's nonce.
    const own = page.scripts.map((x, k) => ({ x, nonce: page.nonces[k] })).filter((sc) => !sc.x.includes('globalThis.acquireVsCodeApi'));
    expect(own.map((sc) => sc.nonce.length)).toEqual([32]);
    expect(own[0].x.startsWith('inline: ') || /\/dist\/webview\.js$/.test(own[0].x)).toBe(true);
    expect([page.images, page.bold, page.owned]).toEqual([0, 0, null]);
    for (const raw of ['<script>window.__owned = 1</script>', '<img src="http://127.0.0.1:9/out.png" onerror="window.__owned = 2">', '<b>raw HTML</b>', '<script>window.__owned = 3</script>', '<div onclick="window.__owned = 4">a raw block</div>', '[image: pixel] http://127.0.0.1:9/pixel.gif', '<iframe src="http://127.0.0.1:9/frame"></iframe>']) {
      expect(page.text).toContain(raw);
    }
    expect(requests.filter((u) => u.includes('127.0.0.1:9'))).toEqual([]);
    // The link is a button: nothing opens until it is clicked, then VS Code asks before leaving.
    const link = view.locator('.md-link');
    expect(await link.getAttribute('data-href')).toBe('https://example.org/docs');
    expect(await wb.page.locator('.monaco-dialog-box').count()).toBe(0);
    await wb.screenshot('sample-hostile-dark');
    await link.click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await dialog.textContent()).toContain('https://example.org/docs');
    await wb.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('the compare page: one sample of two runs side by side, with a word diff of their final outputs', async () => {
    await closeAll(wb);
    await wb.openFile('compare/2025-05-12T20-28-13-04-00_popularity.json');
    await wb.runCommand('Eval Lens: Compare with…', { timeoutMs: 60_000 });
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('20-29-00');
    const candidate = wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: '20-29-00' }).first();
    try {
      await candidate.click({ timeout: 20_000 });
    } catch (error) {
      const listed = await wb.page.locator('.quick-input-widget .monaco-list-row').allTextContents();
      await wb.screenshot('sample-compare-pick-failed');
      throw new Error(`no candidate run in the pick (listed: ${JSON.stringify(listed)}): ${String(error)}`);
    }
    const compare = await viewWith(wb, 'body[data-rendered="comparison"] #pair-table');
    // The sample the candidate answers in other words.
    const id = String(JSON.parse(readFileSync(join(dir, 'compare/2025-05-12T20-29-00-04-00_popularity.json'), 'utf8')).samples[0].id);
    await compare.locator(`#pair-table tbody tr[data-id="${id}"] button.row-samples`).click();
    const view = await sampleView(wb, id);
    expect(await view.locator('.sample-side').count()).toBe(2);
    expect(await view.locator('.sample-side h2').allTextContents()).toEqual([expect.stringMatching(/^Baseline: /), expect.stringMatching(/^Candidate: /)]);
    const diff = view.locator('#word-diff');
    const removed = await diff.locator('del').allTextContents();
    const added = await diff.locator('ins').allTextContents();
    expect(squash(added.join(' '))).toContain('No, I would never say that.');
    expect(removed.join(' ')).toContain('[removed: ');
    expect(await view.locator('#word-diff-summary').textContent()).toMatch(/\d+ words? removed \(struck through\), \d+ added \(underlined\)/);
    await docsShot(wb, 'sample-side-by-side-dark');
  });
});
