// A tiny element builder. Every text goes in through textContent and every attribute through the
// DOM API: text from a prediction file (RAFT tweets, web pages) is never parsed as markup.

export interface ElementOptions {
  className?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
  /** data-* attributes (tests read bin counts and positions from them). */
  data?: Record<string, string | number>;
  onClick?: (event: MouseEvent) => void;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K, options: ElementOptions = {}, children: (Node | null | undefined | false)[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  if (options.title !== undefined) node.title = options.title;
  if (options.attrs) for (const [k, v] of Object.entries(options.attrs)) node.setAttribute(k, v);
  if (options.data) for (const [k, v] of Object.entries(options.data)) node.dataset[k] = String(v);
  if (options.onClick) node.addEventListener('click', options.onClick as EventListener);
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

/** Removes every child of `node`. */
export function clear(node: Element): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}
