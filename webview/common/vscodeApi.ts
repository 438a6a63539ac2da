// The webview's handle on the host. acquireVsCodeApi() may be called once per page; every message
// is typed by src/protocol.ts.
import type { PanelState, WebviewToHost } from '../../src/protocol';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): PanelState | undefined;
  setState(state: PanelState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;

export function vscodeApi(): VsCodeApi {
  if (!api) {
    api = typeof acquireVsCodeApi === 'function'
      ? acquireVsCodeApi()
      : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined }; // outside a webview
  }
  return api;
}

export function post(message: WebviewToHost): void {
  vscodeApi().postMessage(message);
}
