// Keyboard focus across re-renders. The pages rebuild parts of their DOM (a filter, a sort, a
// stepper, a whole report): the focused control is replaced and focus would fall to the body, where
// the next key does nothing. A control is found again by its id or its data-focus-key.
let pending: { container: Element; selector: string; fallback?: string } | null = null;

// Another focus by the user (or a restore) drops what was remembered.
let lastFocused: HTMLElement | null = null;
document.addEventListener('focusin', (event) => {
  pending = null;
  if (event.target instanceof HTMLElement && event.target !== document.body) lastFocused = event.target;
});

// The webview loses focus to a save dialog or a quick pick and gets it back afterwards, on its
// body: the control the user left (the Export menu) takes it again.
window.addEventListener('focus', () => {
  const back = () => {
    if ((document.activeElement === document.body || !document.activeElement) && lastFocused?.isConnected) lastFocused.focus({ preventScroll: true });
  };
  back();
  requestAnimationFrame(back);
});

function selectorOf(node: Element): string | null {
  if (node.id) return `#${CSS.escape(node.id)}`;
  const key = (node as HTMLElement).dataset?.focusKey;
  return key ? `[data-focus-key="${CSS.escape(key)}"]` : null;
}

/** Remembers the focused control when it is inside `container` (before `container` is rebuilt). */
export function rememberFocus(container: Element, fallback?: string): void {
  const active = document.activeElement;
  if (!active || active === document.body || !container.contains(active)) return;
  const selector = selectorOf(active);
  if (selector) pending = { container, selector, fallback };
}

/** Focuses the remembered control (or the fallback) if it is back; keeps waiting otherwise. */
export function restoreFocus(): void {
  if (!pending) return;
  const { container, selector, fallback } = pending;
  const target = container.querySelector<HTMLElement>(selector) ?? (fallback ? container.querySelector<HTMLElement>(fallback) : null);
  if (!target) return;
  pending = null;
  target.focus({ preventScroll: true });
}

/** Runs `render`, which rebuilds (part of) `container`, and puts focus back on the same control. */
export function keepFocus(container: Element, render: () => void, fallback?: string): void {
  rememberFocus(container, fallback);
  render();
  restoreFocus();
}
