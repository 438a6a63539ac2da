// A Markdown tree (markdownTree.ts) drawn with the page's element builder: text through textContent
// only, a link as a button that asks the host to open it (nothing is followed without a click, and
// the host opens web and mail links only), an image as its alt text and address, never loaded.
import { el } from '../common/dom';
import { markdownTree, type MdNode } from './markdownTree';

/** Where a link's host is shown beside its text (a link that reads "docs" may go anywhere). */
function hostOf(href: string): string {
  try {
    const url = new URL(href);
    return url.protocol === 'mailto:' ? url.pathname : url.host;
  } catch {
    return href;
  }
}

function draw(node: MdNode, onLink: (href: string) => void): Node {
  switch (node.kind) {
    case 'text': return document.createTextNode(node.text);
    case 'image':
      return el('span', { className: 'md-image', text: `[image: ${node.alt || 'no description'}] ${node.src}`, title: 'An image in the text: not loaded' });
    case 'link': {
      const host = hostOf(node.href);
      const button = el('button', {
        className: 'link-button md-link', title: `Open ${node.href}`,
        attrs: { type: 'button', 'data-href': node.href },
        onClick: () => onLink(node.href),
      }, node.children.map((c) => draw(c, onLink)));
      return el('span', { className: 'md-link-wrap' }, [button, el('span', { className: 'muted md-link-host', text: ` (${host})` })]);
    }
    case 'element': {
      const children = node.children.map((c) => draw(c, onLink));
      if (node.tag === 'heading') return el('p', { className: `md-heading md-h${node.level ?? 1}` }, [el('strong', {}, children)]);
      return el(node.tag, {}, children);
    }
  }
}

/** `text` read as Markdown, in a box of class md. */
export function renderMarkdown(text: string, onLink: (href: string) => void): HTMLElement {
  return el('div', { className: 'md' }, markdownTree(text).map((n) => draw(n, onLink)));
}
