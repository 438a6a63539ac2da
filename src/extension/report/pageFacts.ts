// What the report panel knows of its page: when it said 'ready', painted a report, received every
// instance, stepped; the facts tests and benchmarks read, and the promises they wait on (events
// from the page, never sleeps).
import * as vscode from 'vscode';
import type { PanelState, WebviewToHost } from '../../protocol';
import { nextEvent } from './nextEvent';
import { isPanelState, type PanelInfo } from './panelModel';

type Rendered = NonNullable<PanelInfo['rendered']>;
type InstancesReady = NonNullable<PanelInfo['instancesReady']>;

export class PageFacts implements vscode.Disposable {
  readonly info: PanelInfo;
  private readonly renderedEmitter = new vscode.EventEmitter<Rendered>();
  /** Fires when the webview has painted the first chart of a report. */
  readonly onDidRender = this.renderedEmitter.event;
  private readonly instancesEmitter = new vscode.EventEmitter<InstancesReady>();
  /** Fires when the webview has all of the selected report's instances and built its table. */
  readonly onDidReceiveInstances = this.instancesEmitter.event;

  constructor(path: string, state?: PanelState) {
    this.info = {
      path, lastPosted: undefined, ready: false, stepPosition: undefined, rendered: undefined, renders: 0, instancesReady: undefined,
      pagesPosted: undefined, lastRevealed: undefined, state, createdAt: Date.now(), readyAt: undefined, reportsPostedAt: undefined,
    };
  }

  /**
   * Takes in what the page reports of itself ('ready', 'state', 'stepped', 'rendered',
   * 'instancesReady'). True when `message` was one of those.
   */
  note(message: WebviewToHost): boolean {
    const info = this.info;
    switch (message.type) {
      case 'ready':
        info.ready = true;
        info.readyAt = Date.now();
        if (isPanelState(message.state) && message.state.path === info.path) info.state = message.state;
        return true;
      case 'state':
        if (isPanelState(message.state)) info.state = message.state;
        return true;
      case 'stepped':
        if (Number.isInteger(message.index) && Number.isInteger(message.total)) info.stepPosition = { index: message.index, total: message.total };
        return true;
      case 'rendered':
        if (typeof message.ms === 'number') {
          info.rendered = { path: String(message.path), selected: Number(message.selected) || 0, ms: message.ms, at: Date.now() };
          info.renders++;
          this.renderedEmitter.fire(info.rendered);
        }
        return true;
      case 'instancesReady':
        if (typeof message.ms === 'number') {
          info.instancesReady = { path: String(message.path), selected: Number(message.selected) || 0, ms: message.ms, rows: Number(message.rows) || 0, at: Date.now() };
          this.instancesEmitter.fire(info.instancesReady);
        }
        return true;
      default:
        return false;
    }
  }

  /** Resolves with the next 'rendered' report (or the current one if `path` is already rendered and `showing`). */
  whenRendered(path: string | undefined, timeoutMs: number, showing: boolean): Promise<Rendered> {
    const done = this.info.rendered;
    if (done && (!path || done.path === path) && showing) return Promise.resolve(done);
    return nextEvent(this.onDidRender, (r) => !path || r.path === path, timeoutMs, 'report not rendered');
  }

  /** Resolves when the webview has every instance of the report in view (of `path`, if given). */
  whenInstancesReady(path: string | undefined, timeoutMs: number, showing: boolean): Promise<InstancesReady> {
    const done = this.info.instancesReady;
    if (done && (!path || done.path === path) && showing && done.at >= (this.info.rendered?.at ?? 0)) return Promise.resolve(done);
    return nextEvent(this.onDidReceiveInstances, (r) => !path || r.path === path, timeoutMs, 'instances not received');
  }

  dispose(): void {
    this.renderedEmitter.dispose();
    this.instancesEmitter.dispose();
  }
}
