// One side of a sample: its facts (ID, line, model, verdict, answer, gold), then its input, choices,
// references, conversation or output, scores, metadata and usage. Drawn by the sample page (one
// side, or two runs side by side) and by the report page's sample peek (webview/report/samplePeek.ts),
// so both show a sample the same way. Every text from the file goes in through textContent.
import type { SampleSide } from '../../src/protocol';
import { el } from '../common/dom';
import { formatMetric } from '../common/format';
import { baseName } from '../../src/common/paths';
import { conversationSection, outputSection } from './conversation';
import { choicesSection, inputSection, metadataSection, referencesSection, scoresSection, usageSection, type LinkHandler } from './parts';

/** Parquet tables and .eval logs have no text lines to reveal. */
export function hasTextLines(path: string): boolean {
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

export interface SideViewOptions {
  /** A link in an explanation, clicked: the host opens it. */
  onLink: LinkHandler;
  /** "Reveal in file" (shown when the file has text lines). */
  onReveal: () => void;
  /** The side's own heading (its run's name); the peek names the sample in its own header instead. */
  heading?: string;
  /** Makes the ids of the side's controls unique on its page. */
  idPrefix?: string;
}

/** The name of the sample a side shows (its header says "Sample <id>"). */
export function sampleIdOf(side: SampleSide | undefined): string {
  return side?.record?.sample_id ?? side?.row.id ?? String(side?.row.line ?? '');
}

/** The messages a side shows (a benchmark's and a test's count). */
export function messageCount(side: SampleSide): number {
  return side.record?.messages?.length ?? 0;
}

export function sideView(side: SampleSide, k: number, options: SideViewOptions): HTMLElement {
  const r = side.record;
  const box = el('section', { className: 'sample-side', attrs: { 'aria-label': side.label }, data: { side: k, path: baseName(side.path) } });
  const reveal = hasTextLines(side.path) ? el('button', {
    className: 'button secondary', text: 'Reveal in file', title: `${side.path}, line ${side.row.line}`,
    attrs: { type: 'button', id: `${options.idPrefix ?? ''}reveal-${k}` }, onClick: options.onReveal,
  }) : null;
  if (options.heading !== undefined || reveal) {
    box.append(el('div', { className: 'sample-side-head' }, [options.heading !== undefined ? el('h2', { text: options.heading }) : null, reveal]));
  }
  box.append(facts(side));
  if (side.error) {
    box.append(el('p', { className: 'sample-error', attrs: { role: 'alert' }, text: `This sample could not be read: ${side.error}.` }));
    return box;
  }
  if (!r) return box;
  if (side.from === 'texts') box.append(el('p', { className: 'muted caption', text: 'This file keeps no more of a sample than the report shows: its texts, labels and verdict are gathered here.' }));
  if (r.error) box.append(el('p', { className: 'sample-error', text: `The sample stopped early: ${r.error}.` }));
  for (const part of [inputSection(r), choicesSection(r), referencesSection(r), conversationSection(r), outputSection(r), scoresSection(r, options.onLink), metadataSection(r), usageSection(r)]) {
    if (part) box.append(part);
  }
  return box;
}
