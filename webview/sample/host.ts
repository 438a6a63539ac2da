// The sample page's handle on the host: its own messages (SampleWebviewToHost) and the state VS
// Code keeps for it across a reload (what to read again).
import type { SampleSide, SampleWebviewToHost } from '../../src/protocol';

export interface SampleState {
  targets: Pick<SampleSide, 'label' | 'path' | 'format' | 'row'>[];
}

interface SampleApi {
  postMessage(message: SampleWebviewToHost): void;
  getState(): SampleState | undefined;
  setState(state: SampleState): void;
}

declare function acquireVsCodeApi(): SampleApi;

let api: SampleApi | undefined;

export function sampleApi(): SampleApi {
  api ??= typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined }; // outside a webview
  return api;
}

export function post(message: SampleWebviewToHost): void {
  sampleApi().postMessage(message);
}
