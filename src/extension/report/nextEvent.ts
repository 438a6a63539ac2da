// Waiting for a panel's event (tests and exports wait on the page's messages, never on sleeps).
import type * as vscode from 'vscode';

/** Resolves with the next event that `accept` takes; rejects with `what` after `timeoutMs`. */
export function nextEvent<T>(event: vscode.Event<T>, accept: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { sub.dispose(); reject(new Error(`${what} within ${timeoutMs} ms`)); }, timeoutMs);
    const sub = event((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(value);
    });
  });
}
