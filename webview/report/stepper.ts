// The misclassified-example stepper (multiclass reports): one wrong prediction at a time, its text
// fields in full, gold and predicted class, confidence and its position ("7 of 23"). Driven by the
// buttons, by j/k and the arrow keys (main.ts), and by the host's 'step' messages (the "Next/Previous
// Misclassified Example" commands). Every text is set with textContent: RAFT texts are tweets and
// web pages and may hold markup.
import type { Report } from '../../src/core/types';
import { instanceText, misclassifiedIndices } from './data';
import { clear, el } from '../shared/dom';
import { formatCount, formatMetric } from '../shared/format';
import { className } from './tableModel';

export interface StepperOptions {
  index: number;
  onStep: (index: number, total: number) => void;
  /** `instance`: the instance's index (binary files, whose rows have no text line, show it in the table). */
  onReveal: (path: string, line: number, instance: number) => void;
}

/** Clamps a step: wraps around at either end so "next" on the last example goes to the first. */
export function stepIndex(index: number, direction: 1 | -1, total: number): number {
  if (total <= 0) return 0;
  return (((index + direction) % total) + total) % total;
}

export class Stepper {
  readonly element: HTMLElement;
  private readonly indices: Uint32Array;
  private readonly body: HTMLElement;
  private readonly position: HTMLElement;
  private readonly prevButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  private index: number;

  constructor(private readonly report: Report, private readonly options: StepperOptions) {
    this.indices = report.instances ? misclassifiedIndices(report.instances) : new Uint32Array(0);
    this.index = Math.max(0, Math.min(options.index, this.indices.length - 1));
    this.position = el('span', { className: 'stepper-position', attrs: { id: 'stepper-position', 'aria-live': 'polite' } });
    this.prevButton = el('button', { className: 'button secondary', text: '‹ Previous', title: 'Previous misclassified example (k, ←)', attrs: { type: 'button', id: 'stepper-prev' }, onClick: () => this.step(-1) });
    this.nextButton = el('button', { className: 'button', text: 'Next ›', title: 'Next misclassified example (j, →)', attrs: { type: 'button', id: 'stepper-next' }, onClick: () => this.step(1) });
    this.body = el('div', { className: 'stepper-body' });
    this.element = el('section', { className: 'section stepper', attrs: { id: 'stepper', tabindex: '-1' } }, [
      el('div', { className: 'stepper-bar' }, [
        el('h2', { text: 'Misclassified examples' }),
        this.position,
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
      this.body.appendChild(el('p', { className: 'muted', text: 'No misclassified examples: every prediction matches its gold label.' }));
      this.options.onStep(0, 0);
      return;
    }
    const i = this.indices[this.index];
    const report = this.report;
    const inst = report.instances!;
    this.position.textContent = `${formatCount(this.index + 1)} of ${formatCount(total)}`;
    this.element.dataset.index = String(this.index);
    this.element.dataset.instance = String(i);

    const line = inst.lines[i];
    const dataLine = report.dataLines?.[i];
    const facts = el('dl', { className: 'stepper-facts' }, [
      ...fact('Gold', className(report, inst.gold[i]), 'gold'),
      ...fact('Predicted', className(report, inst.pred[i]), 'pred'),
      ...fact('Confidence', formatMetric(inst.confidence[i]), 'confidence'),
      ...(inst.ids?.[i] !== undefined ? fact('ID', inst.ids[i], 'id') : []),
      ...fact(hasTextLines(report.path) ? 'Line' : 'Row', String(line), 'line'),
    ]);
    const reveal = el('div', { className: 'stepper-actions' }, [
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

    const texts = report.texts;
    if (texts && texts.fields.length) {
      texts.fields.forEach((field, f) => {
        const value = instanceText(texts, i, f);
        this.body.appendChild(el('div', { className: 'text-field' }, [
          el('div', { className: 'text-field-name', text: field }),
          el('div', { className: 'text-field-value', text: value, data: { field } }),
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

function fact(name: string, value: string, key: string): HTMLElement[] {
  return [el('dt', { text: name }), el('dd', { text: value, data: { fact: key } })];
}
