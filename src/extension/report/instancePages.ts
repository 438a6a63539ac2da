// The per-instance columns of a report travel after the 'reports' message, page by page: a few MB
// at a time keeps the extension host's event loop and memory calm, and a newer view (or the
// webview going away) stops the run between two pages.
import type * as vscode from 'vscode';
import type { HostToWebview, InstancePage } from '../../protocol';

/** The instance pages wait this long at most for the first chart to be painted. */
const PAGES_WAIT_MS = 3000;
/** ...and then this long at most for what must go first (the report's intervals: see post()). */
const AHEAD_WAIT_MS = 4000;

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
   * passed): the bulk transfer never delays the first chart. Then, given `ahead`, until it settles
   * (or AHEAD_WAIT_MS passed): the report's intervals pass, which on two cores would otherwise share
   * them with the table's transfer and build and come ~1-2 s later for a million rows, while the
   * table comes about when it would have (issue 28.11). Resolves with what was posted, or
   * undefined when the run was stopped.
   */
  async post(token: number, send: (m: HostToWebview) => Thenable<boolean>, current: () => boolean, ahead?: Promise<unknown>): Promise<{ pages: number; bytes: number; ms: number } | undefined> {
    const run = ++this.run;
    await this.renderedOrTimeout(token, PAGES_WAIT_MS);
    if (ahead) await settledOrTimeout(ahead, AHEAD_WAIT_MS);
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

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
function settledOrTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => { clearTimeout(timer); resolve(); };
    promise.then(done, done);
  });
}
