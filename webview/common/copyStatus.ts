// "Copy as Markdown" says that it copied (issue 28, point 12): the host answers a copy to the
// clipboard with 'copied', and the words appear beside the button in a status region (read out by
// screen readers), then go after a few seconds.
import { el } from './dom';

/** How long the words stay (ms). */
const SHOWN_MS = 4000;
let hide: ReturnType<typeof setTimeout> | undefined;

/** The button with its status region after it (empty until a copy is confirmed). */
export function withCopyStatus(button: HTMLElement): HTMLElement {
  return el('span', { className: 'copy-markdown-wrap' }, [
    button,
    el('span', { className: 'copy-status', attrs: { id: 'copy-status', role: 'status', 'aria-live': 'polite' } }),
  ]);
}

/** The host put the Markdown on the clipboard: say so beside the button. */
export function showCopied(): void {
  const status = document.getElementById('copy-status');
  if (!status) return;
  status.textContent = '✓ Copied to the clipboard';
  clearTimeout(hide);
  hide = setTimeout(() => { status.textContent = ''; }, SHOWN_MS);
}
