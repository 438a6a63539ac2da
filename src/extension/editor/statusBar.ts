// A status bar item with the active predictions file's headline; clicking opens the report. Also
// keeps the `evalLens.activeEvalFile` context key that menus and keybindings use.
import * as vscode from 'vscode';
import type { EvalFiles } from '../discovery/evalFiles';
import { countText, headlineText, summaryLine } from './headline';
import { activeTabUri } from '../report/reportEditor';

export class HeadlineStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('evalLens.headline', vscode.StatusBarAlignment.Right, 100);
  private active: boolean | undefined;

  constructor(private readonly files: EvalFiles) {
    this.item.name = 'Eval Lens';
    this.item.command = 'evalLens.openReport';
  }

  update(): void {
    // The active tab's file, also when it is the report editor or the large-file notice (no TextEditor).
    const uri = vscode.window.activeTextEditor?.document.uri ?? activeTabUri();
    const entry = uri && this.files.get(uri);
    this.setActive(!!entry);
    if (!entry) {
      this.item.hide();
      return;
    }
    const report = entry.result?.reports[0];
    // `$(` would start an icon: file-derived text never reaches the text, only metric names do.
    if (entry.error) {
      this.item.text = '$(graph) Eval Lens: not scored';
      this.item.tooltip = entry.error;
    } else if (!report) {
      this.item.text = '$(loading~spin) Eval Lens';
      this.item.tooltip = 'Scoring…';
    } else {
      this.item.text = `$(graph) ${headlineText(report)} · ${countText(report)}`;
      this.item.tooltip = `Eval Lens · ${summaryLine(report)}\nClick to open the report.`;
    }
    this.item.show();
  }

  private setActive(active: boolean): void {
    if (active === this.active) return;
    this.active = active;
    void vscode.commands.executeCommand('setContext', 'evalLens.activeEvalFile', active);
  }

  dispose(): void {
    this.item.dispose();
  }
}
