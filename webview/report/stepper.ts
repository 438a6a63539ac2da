// The misclassified-example stepper (multiclass reports): one wrong prediction at a time, its text
// fields in full, gold and predicted class, confidence and its position ("7 of 23"). Driven by the
// buttons, by j/k and the arrow keys (main.ts), and by the host's 'step' messages (the "Next/Previous
// Misclassified Example" commands). Every text is set with textContent: RAFT texts are tweets and
// web pages and may hold markup.
import type { Report } from '../../src/core/types';
import { instanceText, misclassifiedInOrder, type StepOrder } from './data';
import { clear, el } from '../common/dom';
import { formatCount, formatMetric } from '../common/format';
import { className } from './tableModel';
import { AGENT_FIELDS } from '../../src/common/sampleView';
import { instanceId } from '../../src/common/instanceIds';

export interface StepperOptions {
  index: number;
  /** File order, or the most confident mistakes first (the default of a binary report). */
  order: StepOrder;
  onOrder: (order: StepOrder) => void;
  onStep: (index: number, total: number) => void;
  /** `instance`: the instance's index (binary files, whose rows have no text line, show it in the table). */
  onReveal: (path: string, line: number, instance: number) => void;
  /** The sample view (issue 29) on this example, when the report has one. */
  onOpenSample?: (instance: number) => void;
}

/** Clamps a step: wraps around at either end so "next" on the last example goes to the first. */
export function stepIndex(index: number, direction: 1 | -1, total: number): number {
  if (total <= 0) return 0;
  return (((index + direction) % total) + total) % total;
}

export class Stepper {
  readonly element: HTMLElement;
  /** Every misclassified row in the chosen order, and those the instance table's filters keep. */
  private readonly all: Uint32Array;
  private indices: Uint32Array;
  private following = false;
  private readonly body: HTMLElement;
  private readonly position: HTMLElement;
  private readonly prevButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  private index: number;

  constructor(private readonly report: Report, private readonly options: StepperOptions) {
    this.all = misclassifiedInOrder(report, options.order);
    this.indices = this.all;
    this.index = Math.max(0, Math.min(options.index, this.indices.length - 1));
    this.position = el('span', { className: 'stepper-position', attrs: { id: 'stepper-position', 'aria-live': 'polite' } });
    this.prevButton = el('button', { className: 'button secondary', text: '‹ Previous', title: 'Previous misclassified example (k, ←)', attrs: { type: 'button', id: 'stepper-prev' }, onClick: () => this.step(-1) });
    this.nextButton = el('button', { className: 'button', text: 'Next ›', title: 'Next misclassified example (j, →)', attrs: { type: 'button', id: 'stepper-next' }, onClick: () => this.step(1) });
    this.body = el('div', { className: 'stepper-body' });
    const order = el('select', { attrs: { id: 'stepper-order', 'aria-label': 'Order of the misclassified examples' } }, [
      el('option', { text: 'most confident first', attrs: { value: 'confident' } }),
      el('option', { text: 'file order', attrs: { value: 'file' } }),
    ]);
    order.value = options.order;
    order.addEventListener('change', () => options.onOrder(order.value === 'file' ? 'file' : 'confident'));
    const binary = report.kind === 'binary';
    this.element = el('section', { className: 'section stepper', attrs: { id: 'stepper', tabindex: '-1' }, data: { order: options.order } }, [
      el('div', { className: 'stepper-bar' }, [
        el('h2', { text: 'Misclassified examples' }),
        this.position,
        binary ? el('span', { className: 'muted', text: `rows on the wrong side of the threshold ${formatMetric(report.options.threshold, 4)}` }) : null,
        el('label', { className: 'control' }, [el('span', { text: 'Order' }), order]),
        el('span', { className: 'spacer' }),
        el('span', { className: 'hint', text: 'j / k or ← / → to step' }),
        this.prevButton,
        this.nextButton,
      ]),
      this.body,
    ]);
    this.render();
  }

  get total(): number {
    return this.indices.length;
  }

  get current(): number {
    return this.index;
  }

  /**
   * Steps only through the mistakes among `rows` (the instance table's rows under its search and
   * filters), or through all of them again with null.
   */
  follow(rows: Uint32Array | null): void {
    if (!rows && !this.following) return;
    this.following = !!rows;
    if (rows) {
      const keep = new Uint8Array(this.report.instances?.lines.length ?? 0);
      for (let k = 0; k < rows.length; k++) keep[rows[k]] = 1;
      this.indices = this.all.filter((i) => keep[i] === 1);
    } else {
      this.indices = this.all;
    }
    this.index = 0;
    this.render();
  }

  step(direction: 1 | -1): void {
    if (!this.indices.length) return;
    this.index = stepIndex(this.index, direction, this.indices.length);
    this.render();
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
      this.body.appendChild(el('p', { className: 'muted', text: this.following && this.all.length ? 'No misclassified example among the rows the instance table shows (its search and filters).' : 'No misclassified examples: every prediction matches its gold label.' }));
      this.options.onStep(0, 0);
      return;
    }
    const i = this.indices[this.index];
    const report = this.report;
    const inst = report.instances!;
    this.position.textContent = `${formatCount(this.index + 1)} of ${formatCount(total)}${this.following ? ` (of ${formatCount(this.all.length)}, as the table filters)` : ''}`;
    this.element.dataset.index = String(this.index);
    this.element.dataset.instance = String(i);

    const line = inst.lines[i];
    const dataLine = report.dataLines?.[i];
    const texts = report.texts;
    const textOf = (name: string) => {
      const f = texts?.fields.indexOf(name) ?? -1;
      return f >= 0 ? instanceText(texts, i, f) : '';
    };
    const predicted = className(report, inst.pred[i]);
    const answer = shownAnswer(predicted, textOf('output'));
    const facts = el('dl', { className: 'stepper-facts' }, [
      ...fact(report.kind === 'binary' ? 'Label' : 'Gold', className(report, inst.gold[i]), 'gold'),
      ...fact('Predicted', answer.text, 'pred', answer.full),
      ...(report.kind === 'binary' ? fact('Score', String(inst.value[i]), 'score') : []),
      ...(Number.isFinite(inst.confidence[i]) ? fact('Confidence', formatMetric(inst.confidence[i]), 'confidence') : []),
      ...(instanceId(inst, i) !== undefined ? fact('ID', instanceId(inst, i)!, 'id') : []),
      ...agentFacts(texts, i),
      ...fact(hasTextLines(report.path) ? 'Line' : 'Row', String(line), 'line'),
    ]);
    const reveal = el('div', { className: 'stepper-actions' }, [
      this.options.onOpenSample ? el('button', {
        className: 'button', text: 'Open sample', title: 'The whole conversation, choices, scores and metadata, below the stepper',
        attrs: { type: 'button', id: 'stepper-sample' }, onClick: () => this.options.onOpenSample!(i),
      }) : null,
      el('button', {
        className: 'button secondary', text: hasTextLines(report.path) ? 'Reveal in predictions file' : 'Show row in table', title: report.path,
        attrs: { type: 'button', id: 'stepper-reveal' }, onClick: () => this.options.onReveal(report.path, line, i),
      }),
      report.dataPath && dataLine
        ? el('button', {
          className: 'button secondary', text: 'Reveal in data file', title: report.dataPath,
          attrs: { type: 'button', id: 'stepper-reveal-data' }, onClick: () => this.options.onReveal(report.dataPath!, dataLine, i),
        })
        : null,
    ]);
    this.body.appendChild(el('div', { className: 'stepper-head' }, [facts, reveal]));

    if (texts && texts.fields.length) {
      texts.fields.forEach((field, f) => {
        // An agent run's counts (issue 29) are facts above, not text boxes.
        if ((AGENT_FIELDS as readonly string[]).includes(field)) return;
        const value = instanceText(texts, i, f);
        // An empty field (Inspect's choices of a question without any) is left out, not an empty box.
        if (value.trim() === '') return;
        // A scorer's explanation (often the whole chain of thought again) is folded away.
        if (field === 'explanation') {
          this.body.appendChild(el('details', { className: 'text-field', data: { fold: field } }, [
            el('summary', { className: 'text-field-name', text: `${field} (${formatCount(value.length)} characters)` }),
            el('div', { className: 'text-field-value', text: value, data: { field } }),
          ]));
          return;
        }
        this.body.appendChild(el('div', { className: 'text-field' }, [
          el('div', { className: 'text-field-name', text: field }),
          el('div', { className: 'text-field-value', text: value, data: { field }, attrs: { tabindex: '0', role: 'region', 'aria-label': field } }),
        ]));
      });
    } else {
      this.body.appendChild(el('p', { className: 'muted', text: 'This file carries no text fields for its instances; reveal the row to read it.' }));
    }
    this.options.onStep(this.index, total);
  }
}

/** Parquet tables and Inspect .eval logs are binary: their rows have no line of text to reveal. */
export function hasTextLines(path: string): boolean {
  return !/\.(parquet|eval)$/i.test(path);
}

/** An agent run's turns, tool calls and tokens (issue 29), as facts. */
function agentFacts(texts: Report['texts'], i: number): HTMLElement[] {
  const names: Record<string, string> = { turns: 'Turns', tool_calls: 'Tool calls', tokens: 'Tokens' };
  return Object.entries(names).flatMap(([field, name]) => {
    const f = texts?.fields.indexOf(field) ?? -1;
    const value = f >= 0 ? instanceText(texts, i, f) : '';
    return value ? fact(name, value, field) : [];
  });
}

function fact(name: string, value: string, key: string, title?: string): HTMLElement[] {
  return [el('dt', { text: name }), el('dd', { text: value, title, data: { fact: key } })];
}

/** Longer than this, a predicted "class" is a whole output, not an answer. */
const ANSWER_CHARS = 80;

/**
 * What "Predicted" shows: the class as it is when it is short; when it is a whole generated output
 * (a scorer that kept no extracted answer), the answer it ends on (Inspect's "ANSWER: …" line), else
 * its first line, cut. `full` (the tooltip) keeps the whole text, which the output field shows too.
 */
export function shownAnswer(predicted: string, output: string): { text: string; full?: string } {
  if (predicted.length <= ANSWER_CHARS && !predicted.includes('\n')) return { text: predicted };
  const source = predicted.length >= output.length ? predicted : output;
  const marked = [...source.matchAll(/^\s*\**ANSWER\**\s*:\s*\**(.+?)\**\s*$/gim)].pop()?.[1]?.trim();
  if (marked) return { text: marked, full: predicted };
  const first = predicted.trim().split('\n')[0];
  return { text: first.length > ANSWER_CHARS ? `${first.slice(0, ANSWER_CHARS - 1)}…` : `${first}…`, full: predicted };
}
