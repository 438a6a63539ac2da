// The sample view (issue 29): one sample of a report, or one sample of two runs side by side (the
// compare page), as the host read it from the file when it was asked for. It never reads files and
// draws every text from a file through textContent; Markdown is drawn from markdown-it's tokens
// with HTML off (markdown.ts). Links are followed only on a click, by the host.
import '../common/styles.css';
import type { SampleHostToWebview, SampleSide } from '../../src/protocol';
import { clear, el } from '../common/dom';
import { formatMetric } from '../common/format';
import { post, sampleApi } from './host';
import { conversationSection, outputSection } from './conversation';
import { choicesSection, inputSection, metadataSection, referencesSection, scoresSection, usageSection } from './parts';
import { diffSection, finalText } from './diffView';
import { baseName } from '../../src/common/paths';

const root = document.getElementById('root') ?? document.body.appendChild(el('main', { attrs: { id: 'root' } }));

const openLink = (url: string) => post({ type: 'openLink', url });

/** Parquet tables and .eval logs have no text lines to reveal. */
function hasTextLines(path: string): boolean {
  return !/\.(parquet|eval)$/i.test(path);
}

function verdictOf(side: SampleSide): string | undefined {
  const r = side.record;
  const correct = r?.evaluation?.is_correct ?? side.row.correct;
  if (correct === undefined) return r?.evaluation?.score !== undefined ? `score ${formatMetric(r.evaluation.score, 4)}` : undefined;
  return correct ? '✓ correct' : '✗ incorrect';
}

/** A fact is a line: a long answer (a whole normalised output) is cut here; its score shows it whole. */
function cut(text: string | undefined): string | undefined {
  return text !== undefined && text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

function facts(side: SampleSide): HTMLElement {
  const r = side.record;
  const items: [string, string | undefined, string][] = [
    ['ID', r?.sample_id ?? side.row.id, 'id'],
    [hasTextLines(side.path) ? 'Line' : 'Position', String(side.row.line), 'line'],
    ['Model', r?.model_id, 'model'],
    ['Task', r?.evaluation_name, 'task'],
    ['Verdict', verdictOf(side), 'verdict'],
    ['Answer', cut(r?.answer ?? side.row.pred), 'answer'],
    ['Gold', cut(r?.input?.reference?.length ? r.input.reference.join(' | ') : side.row.gold), 'gold'],
    ['Interaction', r?.interaction_type?.replace('_', '-'), 'interaction'],
  ];
  return el('dl', { className: 'sample-facts' }, items.filter(([, v]) => v !== undefined && v !== '').flatMap(([k, v, key]) => [
    el('dt', { text: k }), el('dd', { text: v!, data: { fact: key } }),
  ]));
}

function sideView(side: SampleSide, k: number, count: number): HTMLElement {
  const r = side.record;
  const box = el('section', { className: 'sample-side', attrs: { 'aria-label': side.label }, data: { side: k, path: baseName(side.path) } });
  box.append(el('div', { className: 'sample-side-head' }, [
    el('h2', { text: count > 1 ? `${k === 0 ? 'Baseline' : 'Candidate'}: ${side.label}` : side.label }),
    hasTextLines(side.path) ? el('button', {
      className: 'button secondary', text: 'Reveal in file', title: `${side.path}, line ${side.row.line}`,
      attrs: { type: 'button', id: `reveal-${k}` }, onClick: () => post({ type: 'reveal', side: k }),
    }) : null,
  ]));
  box.append(facts(side));
  if (side.error) {
    box.append(el('p', { className: 'sample-error', attrs: { role: 'alert' }, text: `This sample could not be read: ${side.error}.` }));
    return box;
  }
  if (!r) return box;
  if (side.from === 'texts') box.append(el('p', { className: 'muted caption', text: 'This file keeps no more of a sample than the report shows: its texts, labels and verdict are gathered here.' }));
  if (r.error) box.append(el('p', { className: 'sample-error', text: `The sample stopped early: ${r.error}.` }));
  for (const part of [inputSection(r), choicesSection(r), referencesSection(r), conversationSection(r), outputSection(r), scoresSection(r, openLink), metadataSection(r), usageSection(r)]) {
    if (part) box.append(part);
  }
  return box;
}

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
  const id = sides[0]?.record?.sample_id ?? sides[0]?.row.id ?? String(sides[0]?.row.line ?? '');
  root.append(el('header', { className: 'sample-header' }, [
    el('h1', { text: `Sample ${id}` }),
    el('p', { className: 'muted', text: sides.length > 1 ? `${sides.map((s) => s.label).join(' and ')}, side by side` : sides[0]?.path ?? '' }),
  ]));
  if (sides.length === 2) {
    const before = finalText(sides[0].record);
    const after = finalText(sides[1].record);
    if (before !== undefined && after !== undefined) root.append(diffSection([sides[0].label, sides[1].label], before, after));
  }
  const grid = el('div', { className: `sample-sides${sides.length > 1 ? ' two' : ''}` }, sides.map((s, k) => sideView(s, k, sides.length)));
  root.append(grid);
  const messages = sides.reduce((n, s) => n + (s.record?.messages?.length ?? 0), 0);
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

post({ type: 'ready' });
