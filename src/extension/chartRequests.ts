// A chart as PNG or SVG from a panel's command (Export Report / Export Comparison): the host asks
// the webview ('exportChart'), which draws the chart and answers with the file ('export') or with the
// charts it has ('chartMissing'). One request at a time per panel; the answer settles it.
import * as vscode from 'vscode';
import type { ChartImageFormat, ChartMissingMessage, ExportChartMessage } from '../common/exportProtocol';

type Saved = vscode.Uri | undefined;

interface Pending {
  chart: string;
  target?: vscode.Uri;
  resolve: (answer: { saved: Saved } | ChartMissingMessage) => void;
}

const ANSWER_MS = 30_000;

export class ChartRequests {
  private pending: Pending | undefined;

  /**
   * The chart `chart` as `format`, saved to `target` or where the save dialog says. Without a chart
   * id (the palette), a quick pick of the charts the page shows. Undefined when cancelled.
   */
  async export(post: (m: ExportChartMessage) => Thenable<boolean>, chart: string | undefined, format: ChartImageFormat, target?: vscode.Uri): Promise<Saved> {
    let answer = await this.ask(post, chart ?? '', format, target);
    if ('type' in answer && chart === undefined) {
      if (!answer.available.length) throw new Error('Eval Lens: the page shows no chart to export.');
      const pick = await vscode.window.showQuickPick(
        answer.available.map((c) => ({ label: c.title, description: c.id, id: c.id })),
        { placeHolder: `Export which chart as ${format.toUpperCase()}?` },
      );
      if (!pick) return undefined;
      answer = await this.ask(post, pick.id, format, target);
    }
    if ('type' in answer) {
      throw new Error(`Eval Lens: no chart "${answer.chart}" on the page; it shows ${answer.available.map((c) => c.id).join(', ') || 'none'}.`);
    }
    return answer.saved;
  }

  /** Called with a chart file the webview sent: the target a request is waiting for it with, if any. */
  take(): { target?: vscode.Uri; settle: (saved: Saved) => void } | undefined {
    const p = this.pending;
    if (!p) return undefined;
    this.pending = undefined;
    return { target: p.target, settle: (saved) => p.resolve({ saved }) };
  }

  /** The webview has no such chart. */
  missing(message: ChartMissingMessage): void {
    const p = this.pending;
    if (!p || !Array.isArray(message.available)) return;
    this.pending = undefined;
    p.resolve({ type: 'chartMissing', chart: String(message.chart), available: message.available.filter((c) => c && typeof c.id === 'string').map((c) => ({ id: c.id, title: String(c.title) })) });
  }

  private ask(post: (m: ExportChartMessage) => Thenable<boolean>, chart: string, format: ChartImageFormat, target?: vscode.Uri): Promise<{ saved: Saved } | ChartMissingMessage> {
    if (this.pending) return Promise.reject(new Error('Eval Lens: a chart export is already under way.'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        reject(new Error(`Eval Lens: the panel did not answer the chart export within ${ANSWER_MS / 1000} s (is it open?).`));
      }, ANSWER_MS);
      this.pending = { chart, target, resolve: (a) => { clearTimeout(timer); resolve(a); } };
      void post({ type: 'exportChart', chart, format });
    });
  }
}
