// Scoring a report's file behind a cancellable progress notification.
import * as vscode from 'vscode';
import { baseName } from '../../common/paths';
import type { PanelScoreFunction, PanelScoreResult } from './panelModel';

/** Runs `score` on `path`, reporting its progress; cancelling the notification cancels `source`. */
export function scoreWithProgress(score: PanelScoreFunction, path: string, source: vscode.CancellationTokenSource): Thenable<PanelScoreResult> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Eval Lens: scoring ${baseName(path)}`, cancellable: true },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => source.cancel());
      let reported = 0;
      try {
        return await score(path, source.token, (fraction) => {
          const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
          if (percent > reported) {
            progress.report({ increment: percent - reported });
            reported = percent;
          }
        });
      } finally {
        sub.dispose();
      }
    },
  );
}
