// The stepper over the verdicts a user doubts (issue 27): the lowest grades, a model's losses, the
// pairs whose verdict flips with the order, the battles the lower-rated model won. For each: the
// question, the answer (a pair's two answers side by side), the verdict, and the judge's
// explanation read as Markdown without HTML (webview/sample/markdown.ts: raw HTML, scripts and
// images stay text; a link is a button that asks the host to open it). The row's texts are the
// ones the page holds, cut at 4,000 characters; when one of them was cut, the whole record is read
// from the file (`readRecord`) and the row drawn again. Same controls as the misclassified-example
// stepper (ids stepper, stepper-position, stepper-prev, stepper-next; j / k and the arrows, the
// host's step commands), so the keyboard and the tests drive both alike.
import type { Report } from '../../src/core/types';
import { clear, el } from '../common/dom';
import { formatCount } from '../common/format';
import { renderMarkdown } from '../sample/markdown';
import { hasTextLines, stepIndex } from '../report/stepper';
import { promptParts, type ConversationTurn, type PromptParts } from './promptParts';
import { doubtChoices, orderWords, verdictRows, verdictWords, type DoubtChoice, type VerdictRows } from './verdictRows';

/** Texts longer than this were cut by the reader (src/core/samples/toParse.ts, MAX_TEXT) and end in '…'. */
const CLIPPED_AT = 4000;

export interface JudgeStepperOptions {
  index: number;
  /** The list shown (DoubtChoice.key); the first when absent or unknown. */
  doubt?: string;
  onDoubt: (key: string) => void;
  onStep: (index: number, total: number) => void;
  onReveal: (path: string, line: number, instance: number) => void;
  /** A link in an explanation was clicked: the host opens it. */
  onLink: (href: string) => void;
  /** The row's whole record from the file, by its fields' names (null: could not be read). */
  readRecord?: (instance: number) => Promise<Record<string, string> | null>;
  onOpenSample?: (instance: number) => void;
}

/** Why a judge report has no stepper (null: it has one). */
export function noJudgeStepperReason(report: Report): string | null {
  if (!report.judge) return 'This is not a judge file.';
  if (!report.texts?.fields.length) return 'No stepper of verdicts: this judge file carries no texts of its rows (question, answers, explanation) to show.';
  if (!verdictRows(report)) return `No stepper of verdicts: the rows of this judge file (fields ${report.texts.fields.join(', ')}) are of no layout the stepper knows (MT-Bench single or pair judgments, AlpacaEval annotations, arena battles).`;
  return null;
}

function wasClipped(text: string): boolean {
  return text.length > CLIPPED_AT && text.endsWith('…');
}

function fact(name: string, value: string, key: string): HTMLElement[] {
  return [el('dt', { text: name }), el('dd', { text: value, data: { fact: key } })];
}

/** A text of the file, shown as text (never markup), in a named scrolling box. */
function textBlock(name: string, value: string, key: string): HTMLElement {
  return el('div', { className: 'text-field' }, [
    el('div', { className: 'text-field-name', text: name }),
    el('div', { className: 'text-field-value', text: value, data: { field: key }, attrs: { tabindex: '0', role: 'region', 'aria-label': name } }),
  ]);
}

/**
 * An Arena-Hard-Auto record's fields for one of its games: the game's prompt (v0.1's user_prompt,
 * v2.0's prompt: a list of messages whose user message is the prompt) and judgment, by the names
 * the page's texts give them.
 */
export function gameFields(fields: Record<string, string>, game: number): Record<string, string> {
  let games: unknown;
  try {
    games = JSON.parse(fields.games ?? '');
  } catch {
    return fields;
  }
  const g = Array.isArray(games) ? games[game - 1] : undefined;
  if (!g || typeof g !== 'object') return fields;
  const { user_prompt: userPrompt, prompt, judgment } = g as { user_prompt?: unknown; prompt?: unknown; judgment?: unknown };
  const messages = Array.isArray(prompt) ? prompt : [];
  const user = messages.filter((m) => m && typeof m === 'object' && (m as { role?: unknown }).role === 'user').map((m) => String((m as { content?: unknown }).content ?? '')).pop();
  const text = typeof userPrompt === 'string' ? userPrompt : typeof prompt === 'string' ? prompt : user;
  const out: Record<string, string> = { ...fields };
  if (text !== undefined) out.user_prompt = text;
  if (typeof judgment === 'string') out.judgment = judgment;
  else if (judgment && typeof judgment === 'object') out.judgment = JSON.stringify(judgment, null, 1);
  return out;
}

/** A long, secondary text (a reference answer), closed until asked for. */
function folded(name: string, block: HTMLElement): HTMLElement {
  const chars = block.querySelector('.text-field-value')?.textContent?.length ?? 0;
  return el('details', { className: 'text-field judge-folded' }, [el('summary', { className: 'text-field-name', text: `${name} (${formatCount(chars)} characters)` }), block]);
}

function conversationBlock(name: string, turns: readonly ConversationTurn[], key: string): HTMLElement {
  const text = turns.map((t, k) => `— Turn ${k + 1}, user:\n${t.user}\n\n— Turn ${k + 1}, answer:\n${t.answer}`).join('\n\n');
  return textBlock(name, text, key);
}

export class JudgeStepper {
  readonly element: HTMLElement;
  private readonly view: VerdictRows;
  private readonly choices: DoubtChoice[];
  private choice: DoubtChoice;
  private indices: Uint32Array;
  private following: Uint32Array | null = null;
  private index: number;
  private readonly body: HTMLElement;
  private readonly position: HTMLElement;
  private readonly prevButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  /** Whole records read from the file, by instance. */
  private readonly full = new Map<number, Record<string, string>>();
  private readonly asked = new Set<number>();
  /** Rows whose record could not be read (said under the texts). */
  private readonly unread = new Set<number>();

  constructor(private readonly report: Report, private readonly options: JudgeStepperOptions) {
    const view = verdictRows(report);
    if (!view) throw new Error('JudgeStepper: the report has no judge rows (see noJudgeStepperReason)');
    this.view = view;
    this.choices = doubtChoices(view, report);
    this.choice = this.choices.find((c) => c.key === options.doubt) ?? this.choices[0];
    this.indices = this.choice?.rows ?? new Uint32Array(0);
    this.index = Math.max(0, Math.min(options.index, this.indices.length - 1));
    this.position = el('span', { className: 'stepper-position', attrs: { id: 'stepper-position', 'aria-live': 'polite' } });
    this.prevButton = el('button', { className: 'button secondary', text: '‹ Previous', title: 'Previous verdict (k, ←)', attrs: { type: 'button', id: 'stepper-prev' }, onClick: () => this.step(-1) });
    this.nextButton = el('button', { className: 'button', text: 'Next ›', title: 'Next verdict (j, →)', attrs: { type: 'button', id: 'stepper-next' }, onClick: () => this.step(1) });
    this.body = el('div', { className: 'stepper-body' });
    const select = el('select', { attrs: { id: 'judge-doubt', 'aria-label': 'Which verdicts to step through' } }, this.choices.map((c) => el('option', { text: `${c.label} (${formatCount(c.rows.length)})`, attrs: { value: c.key } })));
    if (this.choice) select.value = this.choice.key;
    select.addEventListener('change', () => {
      const next = this.choices.find((c) => c.key === select.value);
      if (!next) return;
      this.choice = next;
      this.index = 0;
      this.apply();
      options.onDoubt(next.key);
    });
    this.element = el('section', { className: 'section stepper judge-stepper', attrs: { id: 'stepper', tabindex: '-1' }, data: { doubt: this.choice?.key ?? '' } }, [
      el('div', { className: 'stepper-bar' }, [
        el('h2', { text: 'Verdicts to check' }),
        this.position,
        el('label', { className: 'control' }, [el('span', { text: 'Show' }), select]),
        el('span', { className: 'spacer' }),
        el('span', { className: 'hint', text: 'j / k or ← / → to step' }),
        this.prevButton,
        this.nextButton,
      ]),
      this.body,
    ]);
    this.apply();
  }

  get total(): number {
    return this.indices.length;
  }

  get current(): number {
    return this.index;
  }

  /** Steps only through the rows the instance table shows (its search and filters), or all again with null. */
  follow(rows: Uint32Array | null): void {
    if (!rows && !this.following) return;
    this.following = rows;
    this.index = 0;
    this.apply();
  }

  step(direction: 1 | -1): void {
    if (!this.indices.length) return;
    this.index = stepIndex(this.index, direction, this.indices.length);
    this.render();
  }

  /** The chosen list, kept to the rows the table shows when it filters. */
  private apply(): void {
    const all = this.choice?.rows ?? new Uint32Array(0);
    if (this.following) {
      const keep = new Uint8Array(this.view.n);
      for (let k = 0; k < this.following.length; k++) keep[this.following[k]] = 1;
      this.indices = all.filter((i) => keep[i] === 1);
    } else {
      this.indices = all;
    }
    this.element.dataset.doubt = this.choice?.key ?? '';
    this.render();
  }

  /** Row i's field, whole when the record was read from the file. */
  private value(i: number, name: string): string {
    return this.full.get(i)?.[name] ?? this.view.text(i, name);
  }

  private render(): void {
    const total = this.indices.length;
    clear(this.body);
    this.element.dataset.total = String(total);
    this.prevButton.disabled = total <= 1;
    this.nextButton.disabled = total <= 1;
    if (!total) {
      this.position.textContent = '';
      this.element.dataset.index = '-1';
      const none = this.following && this.choice?.rows.length
        ? 'None of these verdicts is among the rows the instance table shows (its search and filters).'
        : `Nothing to step through: ${this.choice ? this.choice.label.toLowerCase() : 'no list'} holds no verdict in this file.`;
      this.body.appendChild(el('p', { className: 'muted', text: none }));
      this.options.onStep(0, 0);
      return;
    }
    const i = this.indices[this.index];
    this.position.textContent = `${formatCount(this.index + 1)} of ${formatCount(total)}${this.following ? ` (of ${formatCount(this.choice.rows.length)}, as the table filters)` : ''}`;
    this.element.dataset.index = String(this.index);
    this.element.dataset.instance = String(i);
    this.body.append(...this.rowView(i));
    this.readWhole(i);
    this.options.onStep(this.index, total);
  }

  /** When a text the row shows was cut, the whole record is read from the file, then drawn again. */
  private readWhole(i: number): void {
    const read = this.options.readRecord;
    if (this.unread.has(i)) {
      this.body.appendChild(el('p', { className: 'muted judge-reading', text: 'The whole record could not be read from the file: the texts above are cut at 4,000 characters. Reveal the line to read the rest.' }));
      return;
    }
    if (!read || this.full.has(i) || this.asked.has(i)) return;
    const cut = this.report.texts?.fields.some((f) => wasClipped(this.view.text(i, f)));
    if (!cut) return;
    this.asked.add(i);
    this.body.appendChild(el('p', { className: 'muted judge-reading', text: 'Some of these texts were cut at 4,000 characters: reading the whole record from the file…', attrs: { role: 'status' } }));
    const done = (fields: Record<string, string> | null) => {
      if (fields) this.full.set(i, this.view.kind === 'games' ? gameFields(fields, Number(this.view.text(i, 'game'))) : fields);
      else this.unread.add(i);
      if (this.indices[this.index] === i) this.render();
    };
    void read(i).then(done, () => done(null));
  }

  private rowView(i: number): HTMLElement[] {
    const view = this.view;
    const report = this.report;
    const line = report.instances?.lines[i] ?? 0;
    const [first, second] = view.models(i);
    const turn = view.turn(i);
    const facts: HTMLElement[] = [];
    switch (view.kind) {
      case 'judged':
        facts.push(...fact('Model', first, 'model'));
        break;
      case 'preference':
        facts.push(...fact('Model', first, 'model'), ...fact('Baseline', second, 'baseline'));
        break;
      case 'orders':
        facts.push(...fact('A (model_1)', first, 'model-a'), ...fact('B (model_2)', second, 'model-b'));
        break;
      case 'battle':
        facts.push(...fact('A (model_a)', first, 'model-a'), ...fact('B (model_b)', second, 'model-b'));
        break;
      case 'games':
        facts.push(...fact('Model', first, 'model'), ...fact('Baseline', second, 'baseline'), ...fact('Game', view.text(i, 'game'), 'game'));
        if (view.text(i, 'category')) facts.push(...fact('Category', view.text(i, 'category'), 'category'));
        break;
    }
    if (view.kind !== 'preference' && view.question(i)) facts.push(...fact('Question', view.question(i), 'question'));
    if (view.kind === 'preference' && view.text(i, 'dataset')) facts.push(...fact('Dataset', view.text(i, 'dataset'), 'dataset'));
    if (turn) facts.push(...fact('Turn', String(turn), 'turn'));
    facts.push(...fact('Verdict', verdictWords(view, i), 'verdict'));
    if (view.kind === 'battle' && view.text(i, 'judge')) facts.push(...fact('Judge', view.text(i, 'judge'), 'judge'));
    facts.push(...fact(hasTextLines(report.path) ? 'Line' : 'Row', String(line), 'line'));
    const actions = el('div', { className: 'stepper-actions' }, [
      this.options.onOpenSample ? el('button', { className: 'button', text: 'Open sample', title: 'Every field of this row, below the stepper', attrs: { type: 'button', id: 'stepper-sample' }, onClick: () => this.options.onOpenSample!(i) }) : null,
      el('button', { className: 'button secondary', text: hasTextLines(report.path) ? 'Reveal in judge file' : 'Show row in table', title: report.path, attrs: { type: 'button', id: 'stepper-reveal' }, onClick: () => this.options.onReveal(report.path, line, i) }),
    ]);
    return [el('div', { className: 'stepper-head' }, [el('dl', { className: 'stepper-facts' }, facts), actions]), ...this.texts(i)];
  }

  /** The question, the answer(s) and the explanation(s) of row i. */
  private texts(i: number): HTMLElement[] {
    const view = this.view;
    const [first, second] = view.models(i);
    const out: HTMLElement[] = [];
    switch (view.kind) {
      case 'judged': {
        const prompt = this.value(i, 'user_prompt');
        const parts = promptParts(prompt);
        out.push(...this.questionAndAnswers(parts, [first]));
        out.push(this.explanation('The judge\'s explanation', this.value(i, 'judgment'), 'judgment'));
        if (prompt) out.push(this.wholePrompt(prompt));
        break;
      }
      case 'orders': {
        const prompt = this.value(i, 'g1_user_prompt');
        const parts = promptParts(prompt);
        out.push(...this.questionAndAnswers(parts, [`${first} (A: shown first in order 1)`, `${second} (B: shown second in order 1)`]));
        const [w1, w2] = orderWords(view, i);
        // The judge names the answers A and B by position: in order 2, its "Assistant A" is model_2.
        out.push(el('div', { className: 'judge-explanations' }, [
          this.explanation(`Order 1 (its Assistant A is ${first}, B is ${second}): ${w1}`, this.value(i, 'g1_judgment'), 'g1_judgment'),
          this.explanation(`Order 2, swapped (its Assistant A is ${second}, B is ${first}): ${w2}`, this.value(i, 'g2_judgment'), 'g2_judgment'),
        ]));
        if (prompt) out.push(this.wholePrompt(prompt));
        break;
      }
      case 'games': {
        const prompt = this.value(i, 'user_prompt');
        const parts = promptParts(prompt);
        // Game 1 shows the baseline as Assistant A; game 2 swaps them.
        const names = view.text(i, 'game') === '2' ? [`${first} (Assistant A)`, `${second}, the baseline (Assistant B)`] : [`${second}, the baseline (Assistant A)`, `${first} (Assistant B)`];
        out.push(...this.questionAndAnswers(parts, names));
        out.push(this.explanation('The judge\'s explanation', this.value(i, 'judgment'), 'judgment'));
        if (prompt) out.push(this.wholePrompt(prompt));
        break;
      }
      case 'preference': {
        const instruction = this.value(i, 'instruction');
        if (instruction) out.push(textBlock('Instruction', instruction, 'instruction'));
        out.push(this.sideBySide([
          textBlock(`${second} (the baseline, output_1)`, this.value(i, 'output_1'), 'output_1'),
          textBlock(`${first} (output_2)`, this.value(i, 'output_2'), 'output_2'),
        ]));
        out.push(this.noExplanation('AlpacaEval\'s annotations keep the preference only'));
        break;
      }
      case 'battle': {
        out.push(this.sideBySide([
          textBlock(`${first} (model_a)`, this.value(i, 'conversation_a') || '(the file carries no conversation)', 'conversation_a'),
          textBlock(`${second} (model_b)`, this.value(i, 'conversation_b') || '(the file carries no conversation)', 'conversation_b'),
        ]));
        out.push(this.noExplanation('a battle records the winner a voter picked'));
        break;
      }
    }
    return out;
  }

  private questionAndAnswers(parts: PromptParts, names: string[]): HTMLElement[] {
    const out: HTMLElement[] = [];
    if (parts.conversations) {
      if (parts.referenceTurns?.length) out.push(folded('Reference answer', conversationBlock('Reference answer', parts.referenceTurns, 'reference')));
      out.push(this.sideBySide(parts.conversations.map((c, k) => conversationBlock(`Conversation of ${names[k] ?? `assistant ${k + 1}`}`, c, k ? 'answer-b' : 'answer-a'))));
      return out;
    }
    if (parts.question !== undefined) out.push(textBlock('Question', parts.question, 'question'));
    if (parts.reference !== undefined) out.push(folded('Reference answer', textBlock('Reference answer', parts.reference, 'reference')));
    if (parts.answers.length) {
      out.push(this.sideBySide(names.map((name, k) => textBlock(`Answer of ${name}`, parts.answers[k] ?? '(not in the text the page holds: the prompt was cut before it)', k ? 'answer-b' : 'answer-a'))));
    }
    return out;
  }

  private sideBySide(blocks: HTMLElement[]): HTMLElement {
    return el('div', { className: `judge-answers${blocks.length > 1 ? ' two' : ''}` }, blocks);
  }

  /** The judge's explanation, as Markdown without HTML. */
  private explanation(name: string, text: string, key: string): HTMLElement {
    return el('div', { className: 'text-field judge-explanation', data: { explanation: key } }, [
      el('div', { className: 'text-field-name', text: name }),
      text.trim()
        ? el('div', { className: 'judge-markdown', attrs: { tabindex: '0', role: 'region', 'aria-label': name } }, [renderMarkdown(text, this.options.onLink)])
        : el('p', { className: 'muted', text: 'The judge gave no explanation.' }),
    ]);
  }

  private noExplanation(why: string): HTMLElement {
    return el('p', { className: 'muted judge-no-explanation', text: `No explanation from the judge: ${why}.` });
  }

  private wholePrompt(prompt: string): HTMLElement {
    return el('details', { className: 'text-field judge-prompt' }, [
      el('summary', { className: 'text-field-name', text: `What the judge was shown (${formatCount(prompt.length)} characters)` }),
      el('div', { className: 'text-field-value', text: prompt, data: { field: 'prompt' }, attrs: { tabindex: '0', role: 'region', 'aria-label': 'What the judge was shown' } }),
    ]);
  }
}
