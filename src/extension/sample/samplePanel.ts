// The sample view's host side (issue 29): one panel beside the report (reused, like a preview), on
// one sample (the report page's sample peek, "Open in its own tab") or on one sample of two runs
// side by side (the compare page). A row's click shows its sample in the report page itself
// (webview/report/samplePeek.ts): a new panel's webview takes most of a second to boot. The sample is read from its file when it
// is asked for, in the scoring worker (src/core/samples/readSample.ts), never at the report's load.
// The page renders what it is sent with textContent only; a link in a message or an explanation is
// opened here, on a click, and only when it is http, https or mailto.
import * as vscode from 'vscode';
import { SAMPLE_VIEW_TYPE, type SampleHostToWebview, type SampleSide, type SampleWebviewToHost } from '../../protocol';
import { readSides, type SampleReader, type SampleTarget } from './sampleSides';
import { makeNonce, panelHtml } from '../report/panelHtml';
import { reportWebviewOptions } from '../report/reportWebview';
import { revealLine } from '../report/revealLine';
import { baseName } from '../../common/paths';

export type { SampleReader, SampleTarget } from './sampleSides';

/** What the page said it showed (tests and benchmarks wait on it). */
export interface SampleShown {
  token: number;
  /** From the request (the click's message arriving at the host) to the page's 'shown'. */
  requestToShownMs: number;
  /** On the page: from the 'samples' message arriving to the messages drawn. */
  pageMs: number;
  messages: number;
  /** The worker's time reading the samples. */
  readMs: number;
}

interface SavedState {
  targets: SampleTarget[];
}

function isSavedState(v: unknown): v is SavedState {
  return !!v && typeof v === 'object' && Array.isArray((v as SavedState).targets)
    && (v as SavedState).targets.every((t) => t && typeof t.path === 'string' && typeof t.format === 'string' && t.row && Number.isInteger(t.row.line));
}

export class SamplePanel {
  static current: SamplePanel | undefined;
  static log: ((line: string) => void) | undefined;
  private static reader: SampleReader | undefined;
  private static tokens = 0;

  private readonly disposables: vscode.Disposable[] = [];
  private readonly shownEmitter = new vscode.EventEmitter<SampleShown>();
  private ready = false;
  private view: SampleHostToWebview | undefined;
  private targets: SampleTarget[] = [];
  private sides: SampleSide[] = [];
  private token = 0;
  private requestedAt = 0;
  private readMs = 0;
  /** The last samples the page drew. */
  lastShown: SampleShown | undefined;
  /** The last link the page asked to open (tests). */
  lastLink: string | undefined;

  private constructor(context: vscode.ExtensionContext, readonly panel: vscode.WebviewPanel) {
    panel.webview.options = reportWebviewOptions(context.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'eval-lens.svg');
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
    panel.webview.html = panelHtml({
      cspSource: panel.webview.cspSource,
      nonce: makeNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'sample.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'sample.css')).toString(),
      title: 'Eval Lens sample',
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => { if (!panel.visible) this.ready = false; }),
      panel.onDidDispose(() => this.dispose()),
      this.shownEmitter,
    );
  }

  /** Registers the reader and the serializer that restores the panel after a window reload. */
  static register(context: vscode.ExtensionContext, reader: SampleReader): vscode.Disposable {
    SamplePanel.reader = reader;
    return vscode.window.registerWebviewPanelSerializer(SAMPLE_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        SamplePanel.current?.panel.dispose();
        const restored = new SamplePanel(context, panel);
        SamplePanel.current = restored;
        if (isSavedState(state) && state.targets.length) void restored.load(state.targets);
        else panel.dispose();
      },
    });
  }

  /** Shows `targets` (one sample, or two runs' same sample) in the sample panel, beside the caller. */
  static show(context: vscode.ExtensionContext, targets: SampleTarget[]): SamplePanel {
    let target = SamplePanel.current;
    if (target) {
      target.panel.reveal(target.panel.viewColumn, false);
    } else {
      const panel = vscode.window.createWebviewPanel(
        SAMPLE_VIEW_TYPE, 'Sample',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        { ...reportWebviewOptions(context.extensionUri), retainContextWhenHidden: false, enableFindWidget: true },
      );
      target = new SamplePanel(context, panel);
      SamplePanel.current = target;
    }
    void target.load(targets);
    return target;
  }

  /** Fires when the page has drawn a sample. */
  get onDidShow(): vscode.Event<SampleShown> {
    return this.shownEmitter.event;
  }

  /** Resolves when the page has drawn the samples asked for last (or the ones on it, if drawn). */
  whenShown(timeoutMs = 30_000): Promise<SampleShown> {
    if (this.lastShown && this.lastShown.token === this.token) return Promise.resolve(this.lastShown);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { sub.dispose(); reject(new Error(`sample not shown within ${timeoutMs} ms`)); }, timeoutMs);
      const sub = this.shownEmitter.event((shown) => {
        if (shown.token !== this.token) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(shown);
      });
    });
  }

  /** The sides in view, with their records (tests read what the page was sent). */
  get shownSides(): readonly SampleSide[] {
    return this.sides;
  }

  private async load(targets: SampleTarget[]): Promise<void> {
    const token = ++SamplePanel.tokens;
    this.token = token;
    this.targets = targets;
    this.requestedAt = performance.now();
    this.panel.title = targets.length > 1 ? `Sample ${targets[0].row.id ?? targets[0].row.line}: ${targets.map((t) => t.label).join(' vs ')}` : `Sample ${targets[0]?.row.id ?? targets[0]?.row.line ?? ''} · ${targets[0] ? baseName(targets[0].path) : ''}`;
    this.setView({ type: 'loading', labels: targets.map((t) => t.label) });
    const sides = await readSides(SamplePanel.reader, targets);
    if (token !== this.token) return; // another sample was asked for meanwhile
    this.readMs = performance.now() - this.requestedAt;
    this.sides = sides;
    this.setView({ type: 'samples', token, sides: this.sides });
  }

  private setView(message: SampleHostToWebview): void {
    this.view = message;
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') return;
    const message = raw as SampleWebviewToHost;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.view) void this.panel.webview.postMessage(this.view);
        break;
      case 'shown': {
        if (message.token !== this.token) return;
        const shown: SampleShown = {
          token: message.token, requestToShownMs: performance.now() - this.requestedAt, pageMs: Number(message.ms) || 0,
          messages: Number(message.messages) || 0, readMs: this.readMs,
        };
        this.lastShown = shown;
        SamplePanel.log?.(`sample view: ${shown.messages} messages on the page ${shown.requestToShownMs.toFixed(0)} ms after the request (worker read ${shown.readMs.toFixed(0)} ms, page ${shown.pageMs.toFixed(0)} ms)`);
        this.shownEmitter.fire(shown);
        break;
      }
      case 'openLink':
        void this.openLink(message.url);
        break;
      case 'reveal': {
        const side = this.targets[message.side];
        if (side && Number.isInteger(side.row.line) && side.row.line >= 1) void revealLine(side.path, side.row.line, this.panel.viewColumn);
        break;
      }
    }
  }

  /** A link from the file, clicked: opened when it is a web or mail link (VS Code asks before opening an untrusted domain). */
  private async openLink(url: unknown): Promise<void> {
    if (typeof url !== 'string' || url.length > 4096) return;
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(url, true);
    } catch {
      return;
    }
    if (!['http', 'https', 'mailto'].includes(uri.scheme)) {
      void vscode.window.showWarningMessage(`Eval Lens: a link to ${uri.scheme}: is not opened from a sample (only http, https and mailto links are).`);
      return;
    }
    this.lastLink = uri.toString();
    await vscode.env.openExternal(uri);
  }

  private dispose(): void {
    if (SamplePanel.current === this) SamplePanel.current = undefined;
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}
