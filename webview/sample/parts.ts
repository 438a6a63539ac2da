// The parts of a sample around its conversation: the input (and the prompt as the model saw it),
// the choices of a multiple-choice question with each one's probability, the references, every
// score with its explanation as Markdown (HTML off) and a model grader's exchange, the metadata as
// a table, the token usage per model and the timing.
import type { SampleRecord, SampleScore } from '../../src/core/types';
import { el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';
import { renderMarkdown } from './markdown';
import { messageView } from './conversation';
import { folded, textBlock } from './text';

export type LinkHandler = (href: string) => void;

function section(title: string, className: string, children: (Node | null)[]): HTMLElement {
  return el('section', { className: `sample-part ${className}`, attrs: { 'aria-label': title } }, [el('h3', { text: title }), ...children]);
}

/** The input as the dataset gives it, and the templated prompt folded away when it differs. */
export function inputSection(record: SampleRecord): HTMLElement | null {
  const raw = record.input?.raw;
  const formatted = record.input?.formatted;
  // With a conversation, the input is its first user message: shown once, there.
  const firstUser = record.messages?.find((m) => m.role === 'user')?.content;
  const showRaw = raw !== undefined && raw.trim() !== '' && raw !== firstUser;
  if (!showRaw && !formatted) return null;
  return section('Input', 'input', [
    showRaw ? textBlock(raw, 'input-text') : null,
    formatted ? folded(`The prompt as the model saw it (${formatCount(formatted.length)} characters)`, textBlock(formatted, 'prompt-text'), 'prompt', { fold: 'prompt' }) : null,
  ]);
}

function letter(k: number): string {
  return k < 26 ? String.fromCharCode(65 + k) : String(k + 1);
}

/** A multiple-choice question's choices: gold and the model's pick named in words, each probability where the file has one. */
export function choicesSection(record: SampleRecord): HTMLElement | null {
  const choices = record.input?.choices;
  if (!choices?.length) return null;
  const probs = record.choiceProbs;
  const hasProbs = !!probs?.some((p) => Number.isFinite(p));
  const rows = choices.map((choice, k) => {
    const marks = [k === record.goldIndex ? 'gold' : '', k === record.predIndex ? "model's answer" : ''].filter(Boolean).join(', ');
    const p = probs?.[k];
    const bar = el('span', { className: 'prob-bar', attrs: { 'aria-hidden': 'true' } });
    if (p !== undefined && Number.isFinite(p)) bar.style.setProperty('--p', String(Math.max(0, Math.min(1, p))));
    return el('tr', { className: [k === record.goldIndex ? 'gold' : '', k === record.predIndex ? 'picked' : ''].filter(Boolean).join(' '), data: { choice: k } }, [
      el('th', { text: letter(k), attrs: { scope: 'row' } }),
      el('td', { className: 'choice-text', text: choice }),
      hasProbs ? el('td', { className: 'numeric choice-prob', text: p !== undefined && Number.isFinite(p) ? formatMetric(p, 4) : '—' }, [bar]) : null,
      el('td', { className: 'choice-marks', text: marks }),
    ]);
  });
  return section('Choices', 'choices', [
    el('table', { className: 'sample-table choices-table' }, [
      el('thead', {}, [el('tr', {}, [
        el('th', { text: '', attrs: { scope: 'col', 'aria-label': 'Letter' } }),
        el('th', { text: 'Choice', attrs: { scope: 'col' } }),
        hasProbs ? el('th', { className: 'numeric', text: 'Probability', attrs: { scope: 'col' } }) : null,
        el('th', { text: '', attrs: { scope: 'col', 'aria-label': 'Gold or picked' } }),
      ])]),
      el('tbody', {}, rows),
    ]),
    hasProbs ? el('p', { className: 'muted caption', text: "Probabilities: the softmax of the choices' log-likelihoods (lm-eval), or the answer token's log-probabilities (Inspect); — where the file lists none." }) : null,
  ]);
}

export function referencesSection(record: SampleRecord): HTMLElement | null {
  const refs = record.input?.reference ?? [];
  if (!refs.length) return null;
  return section(refs.length > 1 ? 'References' : 'Reference', 'references', [
    el('ul', { className: 'references-list' }, refs.map((r) => el('li', {}, [r === '' ? el('span', { className: 'muted', text: '(empty)' }) : textBlock(r, 'reference-text')]))),
  ]);
}

function keyValueTable(entries: [string, string][], caption: string, className: string): HTMLElement {
  return el('table', { className: `sample-table ${className}` }, [
    el('caption', { className: 'sr-only', text: caption }),
    el('tbody', {}, entries.map(([k, v]) => el('tr', {}, [el('th', { text: k, attrs: { scope: 'row' } }), el('td', {}, [textBlock(v, 'cell-text')])]))),
  ]);
}

function scoreView(score: SampleScore, onLink: LinkHandler): HTMLElement {
  const verdict = score.numeric === undefined ? '' : score.numeric === 1 ? 'correct' : score.numeric === 0 ? 'incorrect' : `worth ${formatMetric(score.numeric, 4)}`;
  const box = el('div', { className: 'score', data: { scorer: score.name } }, [
    el('div', { className: 'score-head' }, [
      el('h4', { className: 'score-name', text: score.name }),
      el('span', { className: `score-value${score.numeric === 1 ? ' right' : score.numeric === 0 ? ' wrong' : ''}`, text: `${score.value}${verdict && verdict !== score.value ? ` (${verdict})` : ''}` }),
    ]),
  ]);
  if (score.answer !== undefined) box.append(el('div', { className: 'score-answer' }, [el('span', { className: 'muted', text: 'Answer read: ' }), el('span', { className: 'score-answer-text', text: score.answer })]));
  if (score.explanation) {
    box.append(el('div', { className: 'score-explanation', data: { scorer: score.name } }, [
      el('div', { className: 'muted caption', text: 'Explanation' }),
      renderMarkdown(score.explanation, onLink),
    ]));
  }
  if (score.grader?.messages.length) {
    const list = el('div', { className: 'grader-messages' }, score.grader.messages.map((m, k) => messageView(m, k, score.grader!.messages.length, undefined, 'h5')));
    box.append(folded(`The grader's exchange${score.grader.model ? ` (${score.grader.model})` : ''}: ${formatCount(score.grader.messages.length)} messages`, list, 'grader', { fold: 'grader' }));
  }
  if (score.metadata && Object.keys(score.metadata).length) {
    box.append(keyValueTable(Object.entries(score.metadata), `Metadata of the score ${score.name}`, 'score-metadata'));
  }
  return box;
}

export function scoresSection(record: SampleRecord, onLink: LinkHandler): HTMLElement | null {
  const scores = record.scores ?? [];
  const judgement = record.judgement;
  if (!scores.length && !judgement) return null;
  return section(scores.length > 1 ? 'Scores' : 'Score', 'scores', [
    ...scores.map((s) => scoreView(s, onLink)),
    judgement ? scoreView({
      name: judgement.judge ? `judge ${judgement.judge}` : 'judge', value: judgement.verdict ?? String(judgement.score ?? ''),
      ...(judgement.score !== undefined ? { numeric: judgement.score } : {}), ...(judgement.explanation ? { explanation: judgement.explanation } : {}),
    }, onLink) : null,
  ]);
}

export function metadataSection(record: SampleRecord): HTMLElement | null {
  const entries = Object.entries(record.metadata ?? {});
  if (!entries.length) return null;
  return section('Metadata', 'metadata', [keyValueTable(entries, 'Metadata of the sample', 'metadata-table')]);
}

type Usage = NonNullable<SampleRecord['token_usage']>;
const USAGE_COLUMNS: [keyof Usage, string][] = [
  ['input_tokens', 'input'], ['output_tokens', 'output'], ['total_tokens', 'total'],
  ['input_tokens_cache_read', 'cache read'], ['input_tokens_cache_write', 'cache write'], ['reasoning_tokens', 'reasoning'],
];

function seconds(s: number): string {
  return s >= 100 ? `${Math.round(s)} s` : `${formatMetric(s, s < 10 ? 2 : 1)} s`;
}

/** Tokens per model (and in all) and the time the sample took. */
export function usageSection(record: SampleRecord): HTMLElement | null {
  const byModel = Object.entries(record.usage_by_model ?? {});
  const total = record.token_usage;
  const timing = record.timing;
  if (!byModel.length && !total && !timing) return null;
  const rows: [string, Usage][] = byModel.length ? [...byModel, ...(byModel.length > 1 && total ? [['all models', total] as [string, Usage]] : [])] : total ? [['tokens', total]] : [];
  const columns = USAGE_COLUMNS.filter(([key]) => rows.some(([, u]) => u[key] !== undefined));
  const table = rows.length && columns.length ? el('table', { className: 'sample-table usage-table' }, [
    el('caption', { className: 'sr-only', text: 'Token usage' }),
    el('thead', {}, [el('tr', {}, [el('th', { text: 'Model', attrs: { scope: 'col' } }), ...columns.map(([, name]) => el('th', { className: 'numeric', text: name, attrs: { scope: 'col' } }))])]),
    el('tbody', {}, rows.map(([model, u]) => el('tr', {}, [
      el('th', { text: model, attrs: { scope: 'row' } }),
      ...columns.map(([key]) => el('td', { className: 'numeric', text: u[key] === undefined ? '—' : formatCount(u[key]!) })),
    ]))),
  ]) : null;
  const times: HTMLElement[] = [];
  if (timing?.total_seconds !== undefined) times.push(el('dt', { text: 'Total time' }), el('dd', { text: seconds(timing.total_seconds) }));
  if (timing?.working_seconds !== undefined) times.push(el('dt', { text: 'Working time' }), el('dd', { text: seconds(timing.working_seconds) }));
  if (timing?.latency_seconds !== undefined) times.push(el('dt', { text: 'Latency' }), el('dd', { text: seconds(timing.latency_seconds) }));
  if (timing?.first_token_seconds !== undefined) times.push(el('dt', { text: 'First token' }), el('dd', { text: seconds(timing.first_token_seconds) }));
  return section('Tokens and time', 'usage', [table, times.length ? el('dl', { className: 'sample-facts timing' }, times) : null]);
}
