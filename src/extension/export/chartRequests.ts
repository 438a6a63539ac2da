// A chart as PNG or SVG from a panel's command (Export Report / Export Comparison): the host asks
// the webview ('exportChart', numbered), which draws the chart and answers with the file ('export'
// carrying that number) or with the charts it has ('chartMissing'). A file the user exports from the
// menu meanwhile carries no number and goes through the save dialog as usual.
import * as vscode from 'vscode';
import type { ChartImageFormat, ChartMissingMessage, ExportChartMessage } from '../../common/exportProtocol';

type Saved = vscode.Uri | undefined;
type Answer = { saved: Saved } | ChartMissingMessage;

interface Pending {
  target?: vscode.Uri;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  /** Runs out while the webview has not answered; stopped once it has (the save dialog may take long). */
  timer: ReturnType<typeof setTimeout>;
}

const ANSWER_MS = 30_000;

export class ChartRequests implements vscode.Disposable {
  private readonly pending = new Map<number, Pending>();
  private next = 1;

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

  /**
   * Carries out an 'export' from the webview with `save`: to the target of the command request it
   * answers (`answers`), whose caller then learns the result, or, for the menu's (no number), where
   * the save dialog says. A failure is shown to the user.
   */
  async receive(answers: unknown, save: (target?: vscode.Uri) => Promise<vscode.Uri | 'clipboard' | undefined>): Promise<void> {
    const p = typeof answers === 'number' ? this.pending.get(answers) : undefined;
    if (p) {
      clearTimeout(p.timer);
      this.pending.delete(answers as number);
    }
    try {
      const done = await save(p?.target);
      p?.resolve({ saved: done === 'clipboard' ? undefined : done });
    } catch (error) {
      p?.resolve({ saved: undefined });
      void vscode.window.showErrorMessage(`Eval Lens: export failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The webview has no such chart. */
  missing(message: ChartMissingMessage): void {
    const p = typeof message.answers === 'number' ? this.pending.get(message.answers) : undefined;
    if (!p || !Array.isArray(message.available)) return;
    clearTimeout(p.timer);
    this.pending.delete(message.answers);
    p.resolve({
      type: 'chartMissing', answers: message.answers, chart: String(message.chart),
      available: message.available.filter((c) => c && typeof c.id === 'string').map((c) => ({ id: c.id, title: String(c.title) })),
    });
  }

  /** The panel is gone: requests still waiting fail now rather than at their timeout. */
  dispose(): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error('Eval Lens: the panel was closed before it answered the chart export.'));
    }
    this.pending.clear();
  }

  private ask(post: (m: ExportChartMessage) => Thenable<boolean>, chart: string, format: ChartImageFormat, target?: vscode.Uri): Promise<Answer> {
    const request = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(request);
        reject(new Error(`Eval Lens: the panel did not answer the chart export within ${ANSWER_MS / 1000} s (is it open?).`));
      }, ANSWER_MS);
      this.pending.set(request, { target, resolve, reject, timer });
      void post({ type: 'exportChart', request, chart, format });
    });
  }
}
