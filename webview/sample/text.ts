// Long texts on the sample page: a message or a tool result of hundreds of kilobytes is drawn in
// part, with a button for the rest (the page stays quick; nothing scrolls inside a box, so no
// region needs a tab stop of its own), and the extracted answer marked where it stands.
import { el } from '../common/dom';
import { formatCount } from '../common/format';

/** Characters drawn before "Show all". */
export const SHOWN_CHARS = 20_000;

/** A block of text kept as written (spaces and line breaks), cut at SHOWN_CHARS with a button for the rest. */
export function textBlock(text: string, className: string, mark?: { start: number; end: number }): HTMLElement {
  const box = el('div', { className: `sample-text ${className}` });
  const fill = (upTo: number) => {
    box.textContent = '';
    const shown = text.slice(0, upTo);
    if (mark && mark.end <= shown.length && mark.start < mark.end) {
      box.append(
        document.createTextNode(shown.slice(0, mark.start)),
        el('span', { className: 'sr-only', text: '[extracted answer:] ' }),
        el('mark', { className: 'answer-mark', text: shown.slice(mark.start, mark.end), title: 'The answer the scorer extracted', data: { answer: '1' } }),
        el('span', { className: 'sr-only', text: ' [end of answer]' }),
        document.createTextNode(shown.slice(mark.end)),
      );
    } else {
      box.append(document.createTextNode(shown));
    }
    if (upTo < text.length) {
      box.append(el('button', {
        className: 'link-button show-all', text: `… show all ${formatCount(text.length)} characters`,
        attrs: { type: 'button' }, onClick: () => fill(text.length),
      }));
    }
  };
  fill(Math.min(text.length, mark && mark.end > SHOWN_CHARS ? mark.end + 200 : SHOWN_CHARS));
  return box;
}

/** A folded block: its summary says what and how long; collapsed until opened. */
export function folded(summary: string, body: HTMLElement, className = '', data?: Record<string, string>): HTMLElement {
  return el('details', { className: `sample-fold ${className}`, data }, [el('summary', { text: summary }), body]);
}
