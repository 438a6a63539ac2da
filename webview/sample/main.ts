// The sample view (issue 29): one sample of a report, or one sample of two runs side by side (the
// compare page), as the host read it from the file when it was asked for. It never reads files and
// draws every text from a file through textContent; Markdown is drawn from markdown-it's tokens
// with HTML off (markdown.ts). Links are followed only on a click, by the host.
import '../common/styles.css';
import type { SampleHostToWebview } from '../../src/protocol';
import { clear, el } from '../common/dom';
import { post, sampleApi } from './host';
import { diffSection, finalText } from './diffView';
import { messageCount, sampleIdOf, sideView } from './sideView';

const root = document.getElementById('root') ?? document.body.appendChild(el('main', { attrs: { id: 'root' } }));

const openLink = (url: string) => post({ type: 'openLink', url });

function showLoading(labels: string[]): void {
  delete document.body.dataset.shownAt;
  clear(root);
  root.append(el('div', { className: 'status loading', attrs: { role: 'status' } }, [
    el('div', { className: 'spinner', attrs: { 'aria-hidden': 'true' } }),
    el('span', { text: `Reading the sample${labels.length > 1 ? 's' : ''} from ${labels.join(' and ')}…` }),
  ]));
}

function showSamples(message: Extract<SampleHostToWebview, { type: 'samples' }>, arrived: number): void {
  const sides = message.sides;
  delete document.body.dataset.shownAt;
  sampleApi().setState({ targets: sides.map((s) => ({ label: s.label, path: s.path, format: s.format, row: s.row })) });
  clear(root);
  const id = sampleIdOf(sides[0]);
  root.append(el('header', { className: 'sample-header' }, [
    el('h1', { text: `Sample ${id}` }),
    el('p', { className: 'muted', text: sides.length > 1 ? `${sides.map((s) => s.label).join(' and ')}, side by side` : sides[0]?.path ?? '' }),
  ]));
  if (sides.length === 2) {
    const before = finalText(sides[0].record);
    const after = finalText(sides[1].record);
    if (before !== undefined && after !== undefined) root.append(diffSection([sides[0].label, sides[1].label], before, after));
  }
  const grid = el('div', { className: `sample-sides${sides.length > 1 ? ' two' : ''}` }, sides.map((s, k) => sideView(s, k, {
    heading: sides.length > 1 ? `${k === 0 ? 'Baseline' : 'Candidate'}: ${s.label}` : s.label,
    onLink: openLink,
    onReveal: () => post({ type: 'reveal', side: k }),
  })));
  root.append(grid);
  const messages = sides.reduce((n, s) => n + messageCount(s), 0);
  document.body.dataset.sampleToken = String(message.token);
  // Said once the page has painted the messages (the next frame).
  requestAnimationFrame(() => {
    // For tests and benchmarks: when the messages were on the page (wall clock, comparable with a click's).
    document.body.dataset.shownAt = String(Date.now());
    post({ type: 'shown', token: message.token, ms: performance.now() - arrived, messages });
  });
}

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as SampleHostToWebview;
  if (!message || typeof message !== 'object' || typeof (message as { type?: unknown }).type !== 'string') return;
  if (message.type === 'loading') showLoading(message.labels);
  else if (message.type === 'samples') showSamples(message, performance.now());
});

document.body.dataset.bootAt = String(Math.round(performance.timeOrigin));
document.body.dataset.scriptAt = String(Date.now());
post({ type: 'ready' });
