// The per-instance columns of a report travel after the 'reports' message, page by page: a few MB
// at a time keeps the extension host's event loop and memory calm, and a newer view (or the
// webview going away) stops the run between two pages.
import type * as vscode from 'vscode';
import type { HostToWebview, InstancePage } from '../../protocol';

/** The instance pages wait this long at most for the first chart to be painted. */
const PAGES_WAIT_MS = 3000;

export class InstancePages {
  private pages: { report: number; page: InstancePage }[] = [];
  /** Bumped to stop a posting run (a new view, the webview went away). */
  private run = 0;
  /** Token of the last report the webview said it painted. */
  private renderedToken: number | undefined;

  constructor(private readonly onDidRender: vscode.Event<unknown>) {}

  get count(): number { return this.pages.length; }

  /** The pages of the report in view (posted again after every 'ready'). */
  set(pages: { report: number; page: InstancePage }[]): void {
    this.pages = pages;
  }

  /** Stops a run in progress. */
  stop(): void {
    this.run++;
  }

  /** The webview painted the report of `token`. */
  rendered(token: number): void {
    this.renderedToken = token;
  }

  /**
   * Posts the pages one after another, each once the previous one was delivered, while `current()`
   * holds. The first waits until the webview painted the charts of `token` (or PAGES_WAIT_MS
   * passed): the bulk transfer never delays the first chart. Resolves with what was posted, or
   * undefined when the run was stopped.
   */
  async post(token: number, send: (m: HostToWebview) => Thenable<boolean>, current: () => boolean): Promise<{ pages: number; bytes: number; ms: number } | undefined> {
    const run = ++this.run;
    await this.renderedOrTimeout(token, PAGES_WAIT_MS);
    const t0 = Date.now();
    let bytes = 0;
    for (const { report, page } of this.pages) {
      if (run !== this.run || !current()) return undefined;
      for (const a of Object.values(page.data)) bytes += a?.byteLength ?? 0;
      const delivered = await send({ type: 'instances', token, report, page }).then((ok) => ok, () => false);
      if (!delivered) return undefined;
    }
    return run === this.run ? { pages: this.pages.length, bytes, ms: Date.now() - t0 } : undefined;
  }

  private renderedOrTimeout(token: number, ms: number): Promise<void> {
    if (this.renderedToken === token) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const sub = this.onDidRender(() => {
        if (this.renderedToken === token) done();
      });
    });
  }
}
