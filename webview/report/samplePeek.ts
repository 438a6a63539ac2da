// The sample peek (issue 29): a row's click (or Enter on it) and the stepper's "Open sample" show
// that row's sample in this page, below the table or the stepper that asked, drawn by the sample
// view's own code (webview/sample/sideView.ts). The page is already loaded, so the sample is on it as
// soon as the host has read it; a tab of its own would first create and boot a webview (most of a
// second on a first click). "Open in its own tab" opens that tab; Close or Escape closes the peek
// and gives focus back to what opened it. Text from the file goes in as text only.
import type { Report, SampleRow } from '../../src/core/types';
import type { HostToWebview, SampleSide } from '../../src/protocol';
import { clear, el } from '../common/dom';
import { formatCount } from '../common/format';
import { post } from '../common/vscodeApi';
import { messageCount, sampleIdOf, sideView } from '../sample/sideView';
import { sampleRowOf } from './sampleLinks';

export interface PeekRequest {
  report: Report;
  /** The report's index in the page (what the host's messages name it by). */
  reportIndex: number;
  instance: number;
  /** The part of the page that asked (the table's section, the stepper): the peek goes right after it. */
  after: HTMLElement;
  /** Where focus goes back when the peek closes (the table's active row, the stepper's button). */
  returnFocus: () => void;
}

interface OpenPeek {
  request: number;
  row: SampleRow;
  reportIndex: number;
  element: HTMLElement;
  title: HTMLElement;
  status: HTMLElement;
  body: HTMLElement;
  returnFocus: () => void;
  after: HTMLElement | null;
}

let requests = 0;
let open: OpenPeek | null = null;
let warmed = false;

/** A made-up sample with each part the peek draws: drawn once, off screen, to warm the drawing code. */
const WARM_SIDE: SampleSide = {
  label: 'warm-up', path: 'warm-up.json', format: 'inspect', row: { line: 1, id: '0' }, from: 'file',
  record: {
    line: 1, sample_id: '0', model_id: 'm', evaluation_name: 't', interaction_type: 'agentic',
    input: { raw: 'q', reference: ['a'], choices: ['a', 'b'] }, choiceProbs: [0.6, 0.4], goldIndex: 0, predIndex: 0,
    messages: [
      { role: 'system', content: 's' }, { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', reasoning_trace: 'r', tool_calls: [{ id: 'c', name: 'bash', arguments: '{}' }] },
      { role: 'tool', content: 'out', tool_call_id: 'c', tool_name: 'bash' },
    ],
    scores: [{ name: 's', value: 'C', numeric: 1, answer: 'a', explanation: '**b** [l](https://example.org) `c`' }],
    metadata: { k: 'v' }, token_usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 }, timing: { total_seconds: 1 },
  },
};

/**
 * While the page is idle after its table of samples is built: the warm-up sample is drawn off
 * screen (hidden, inert, removed at once), so that the first click's sample is drawn by compiled
 * code with its styles computed once (the first drawing took 40 to 128 ms, the next ones 14 to 37).
 */
export function warmSamplePeek(): void {
  if (warmed) return;
  warmed = true;
  const draw = () => {
    const box = el('div', { className: 'section sample-peek', attrs: { 'aria-hidden': 'true', inert: '' } }, [
      sideView(WARM_SIDE, 0, { onLink: () => undefined, onReveal: () => undefined, idPrefix: 'warm-' }),
    ]);
    box.style.cssText = 'position:absolute;left:-10000px;top:0;width:800px;visibility:hidden';
    document.body.append(box);
    void box.offsetHeight; // styles and layout, once
    box.remove();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(draw, { timeout: 3000 });
  else setTimeout(draw, 500);
}

function rowName(row: SampleRow): string {
  return row.id ?? String(row.line);
}

function build(returnFocus: () => void): OpenPeek {
  const title = el('h2', { attrs: { id: 'sample-peek-title' } });
  const status = el('span', { className: 'sr-only', attrs: { role: 'status', id: 'sample-peek-status' } });
  const body = el('div', { className: 'sample-peek-body' });
  const element = el('section', {
    className: 'section sample-peek',
    attrs: { id: 'sample-peek', 'aria-labelledby': 'sample-peek-title', tabindex: '-1' },
  }, [
    el('div', { className: 'sample-peek-head' }, [
      title,
      el('div', { className: 'sample-peek-actions' }, [
        el('button', {
          className: 'button secondary', text: 'Open in its own tab', title: 'The sample in a tab of its own, beside the report',
          attrs: { type: 'button', id: 'sample-peek-tab' }, onClick: () => { if (open) post({ type: 'openSample', report: open.reportIndex, row: open.row }); },
        }),
        el('button', {
          className: 'button secondary', text: 'Close', title: 'Close the sample (Escape)',
          attrs: { type: 'button', id: 'sample-peek-close' }, onClick: () => closeSamplePeek(),
        }),
      ]),
    ]),
    status,
    body,
  ]);
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    event.stopPropagation();
    closeSamplePeek();
  });
  return { request: 0, row: { line: 0 }, reportIndex: 0, element, title, status, body, returnFocus, after: null };
}

/**
 * The peek's start in view: where it would show little more than its header (low on the page), it
 * goes to the top. Again once the sample is drawn: the page may have been too short to scroll so far.
 */
function bringIntoView(element: HTMLElement): void {
  const top = element.getBoundingClientRect().top;
  element.scrollIntoView({ block: top > window.innerHeight * 0.4 ? 'start' : 'nearest' });
}

/** Shows row `instance`'s sample below `after`: at once the row's name and "Reading…", then the sample when the host answers. */
export function peekSample(request: PeekRequest): void {
  const row = sampleRowOf(request.report, request.instance);
  const peek = open ?? build(request.returnFocus);
  open = peek;
  peek.request = ++requests;
  peek.row = row;
  peek.reportIndex = request.reportIndex;
  peek.returnFocus = request.returnFocus;
  post({ type: 'peekSample', report: request.reportIndex, row, request: peek.request });
  const { element } = peek;
  element.dataset.request = String(peek.request);
  // For benchmarks (wall clock, to compare with data-shown-at): when the click was handled, and when
  // its input event happened (the event's own time stamp: before a busy page got to it).
  element.dataset.askedAt = String(Date.now());
  const input = window.event;
  element.dataset.inputAt = String(Math.round(input ? performance.timeOrigin + input.timeStamp : Date.now()));
  delete element.dataset.shownAt;
  delete element.dataset.messages;
  peek.title.textContent = `Sample ${rowName(row)}`;
  peek.status.textContent = `Reading sample ${rowName(row)}…`;
  clear(peek.body);
  peek.body.append(el('div', { className: 'status loading' }, [
    el('div', { className: 'spinner', attrs: { 'aria-hidden': 'true' } }),
    el('span', { text: `Reading sample ${rowName(row)} from the file…` }),
  ]));
  if (request.after.nextElementSibling !== element) request.after.after(element);
  peek.after = request.after;
  // Focus moves into the peek (Escape gives it back).
  element.focus({ preventScroll: true });
  bringIntoView(element);
}

/** The host's answer to the peek's request (main.ts routes 'samplePeek' here); an answer to an earlier row is dropped. */
export function receiveSamplePeek(message: Extract<HostToWebview, { type: 'samplePeek' }>): void {
  const arrived = performance.now();
  const peek = open;
  if (!peek || message.request !== peek.request || !message.side) return;
  const side = message.side;
  peek.title.textContent = `Sample ${sampleIdOf(side)}`;
  clear(peek.body);
  peek.body.append(el('p', { className: 'muted sample-peek-path', text: side.path }));
  peek.body.append(sideView(side, 0, {
    idPrefix: 'peek-',
    onLink: (url) => post({ type: 'openLink', url }),
    onReveal: () => post({ type: 'reveal', path: side.path, line: side.row.line }),
  }));
  if (peek.element.contains(document.activeElement)) bringIntoView(peek.element);
  const messages = messageCount(side);
  peek.status.textContent = side.error ? `Sample ${sampleIdOf(side)} could not be read.` : `Sample ${sampleIdOf(side)}: ${formatCount(messages)} messages.`;
  const request = peek.request;
  // Said once the page has painted the sample (the next frame).
  requestAnimationFrame(() => {
    if (open !== peek || peek.request !== request) return;
    // For tests and benchmarks: when the messages were on the page (wall clock, comparable with a click's).
    peek.element.dataset.shownAt = String(Date.now());
    peek.element.dataset.messages = String(messages);
    post({ type: 'samplePeekShown', request, ms: performance.now() - arrived, messages });
  });
}

/** Closes the peek; focus goes back to what opened it (unless the page is being rebuilt). */
export function closeSamplePeek(options: { returnFocus?: boolean } = {}): void {
  const peek = open;
  if (!peek) return;
  open = null;
  const hadFocus = peek.element.contains(document.activeElement);
  peek.element.remove();
  if (options.returnFocus === false) return;
  if (hadFocus) peek.returnFocus();
  // What opened it comes back into view (the table or the stepper above where the peek was).
  if (peek.after?.isConnected) peek.after.scrollIntoView({ block: 'nearest' });
}
