// The compare and leaderboard webview (dist/compare.js). Like the report webview it reads no file:
// it renders what the host posts (src/compareProtocol.ts) and asks the host to open files.
import '../common/styles.css';
import './compare.css';
import type { CompareExportRequest, CompareHostToWebview, CompareRestoreState, CompareWebviewToHost } from '../../src/common/compareProtocol';
import { clear, el } from '../common/dom';
import { watchTheme } from '../common/theme';
import { BoardTable } from '../board/board';
import { renderComparison } from './comparison';
import { answerChartRequest } from '../common/chartExport';
import { readPalette } from '../common/theme';
import { boardExportMenu, COMPARE_STEM, compareExportMenu, copyMarkdownButton } from './exportMenu';
import type { PairsView } from './pairs';
import { destroyAll, drawAll, pageCharts } from './slots';
import { showCopied } from '../common/copyStatus';

declare function acquireVsCodeApi(): { postMessage(message: CompareWebviewToHost): void; setState(state: CompareRestoreState): void };
const api = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage: () => undefined, setState: () => undefined };
const post = (m: CompareWebviewToHost) => api.postMessage(m);
const sendExport = (request: CompareExportRequest) => post({ type: 'export', request });

const root = document.getElementById('root') ?? document.body.appendChild(el('main', { attrs: { id: 'root' } }));
let pairs: PairsView | null = null;

function reset(): void {
  destroyAll();
  pairs = null;
  clear(root);
}

function announce(view: 'comparison' | 'board', receivedAt: number): void {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const ms = Math.round(performance.now() - receivedAt);
    document.body.dataset.rendered = view;
    post({ type: 'rendered', view, ms });
  }));
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as CompareHostToWebview;
  if (!message || typeof message !== 'object' || typeof (message as { type?: unknown }).type !== 'string') return;
  const receivedAt = performance.now();
  // What VS Code hands back to the host after a reload, to compute this page again.
  if ((message.type === 'comparison' || message.type === 'board') && message.restore) api.setState(message.restore);
  switch (message.type) {
    case 'copied':
      showCopied();
      break;
    case 'loading':
      reset();
      delete document.body.dataset.rendered;
      root.appendChild(el('div', { className: 'status loading', attrs: { id: 'loading', role: 'status' } }, [
        el('div', { className: 'spinner', attrs: { 'aria-hidden': 'true' } }),
        el('span', { text: `${message.title}…` }),
        el('span', { className: 'muted path', text: message.detail }),
      ]));
      break;
    case 'comparison':
      reset();
      pairs = renderComparison(root, message.view, {
        openReport: (path) => post({ type: 'openReport', path }),
        reveal: (path, line) => post({ type: 'reveal', path, line }),
        openSamples: (candidate, id) => post({ type: 'openSamples', candidate, id }),
        filtered: (cell, rows) => post({ type: 'filtered', cell, rows }),
      });
      root.querySelector('header.report-header')?.appendChild(el('div', { className: 'export-actions' }, [
        compareExportMenu(sendExport, { pairs: () => pairs, charts: pageCharts, background: () => readPalette().background }),
        copyMarkdownButton(sendExport),
      ]));
      drawAll();
      announce('comparison', receivedAt);
      break;
    case 'board':
      reset();
      root.appendChild(new BoardTable(message.view, {
        openReport: (path) => post({ type: 'openReport', path }),
        compareRows: (runs, task) => post({ type: 'compareRows', runs, task }),
      }).element);
      root.querySelector('header.report-header')?.appendChild(el('div', { className: 'export-actions' }, [
        boardExportMenu(sendExport), copyMarkdownButton(sendExport, 'board'),
      ]));
      announce('board', receivedAt);
      break;
    case 'exportChart': {
      const answer = answerChartRequest(message, pageCharts(), COMPARE_STEM, readPalette().background);
      post('type' in answer ? answer : { type: 'export', request: { format: 'file', file: answer }, answers: message.request });
      break;
    }
    case 'error':
      reset();
      // A comparison that does not apply to these files (per-sample scores without gold) says why:
      // not an error of the files, the page's answer (data-na, as every page's "does not apply").
      root.appendChild(el('div', { className: `status ${message.notApplicable ? 'not-applicable' : 'error'}`, attrs: { id: 'error', role: message.notApplicable ? 'status' : 'alert' } }, [
        el('h2', { text: message.notApplicable ? 'No comparison of these files' : 'Could not compare' }),
        el('p', { text: message.message, ...(message.notApplicable ? { attrs: { 'data-na': 'compare' } } : {}) }),
      ]));
      if (message.notApplicable) document.body.dataset.rendered = 'comparison';
      break;
  }
});

// j / k and the arrow keys step through the disagreements.
document.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !pairs) return;
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, select, textarea')) return;
  if (event.key === 'j' || event.key === 'ArrowRight') pairs.step(1);
  else if (event.key === 'k' || event.key === 'ArrowLeft') pairs.step(-1);
  else return;
  event.preventDefault();
});

watchTheme(() => drawAll());

post({ type: 'ready' });
