// Markdown as a tree of a few safe node kinds (issue 29: a score's explanation is Markdown). The
// text is parsed by markdown-it with HTML off (`html: false`: a tag in the text stays text), and the
// tree is built from its tokens, never from its HTML output: only the elements listed here exist,
// a link is a node the page draws as a button (followed on a click, through the host), an image is
// its alt text and address as plain text (nothing remote is loaded). Pure: no DOM, unit-tested.
import MarkdownIt, { type Token } from 'markdown-it';

export type MdTag = 'p' | 'heading' | 'ul' | 'ol' | 'li' | 'blockquote' | 'pre' | 'code' | 'em' | 'strong' | 's' | 'hr' | 'br'
  | 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td';

export type MdNode =
  | { kind: 'text'; text: string }
  | { kind: 'element'; tag: MdTag; level?: number; children: MdNode[] }
  | { kind: 'link'; href: string; children: MdNode[] }
  | { kind: 'image'; src: string; alt: string };

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** markdown-it's token tags to ours (anything else is not drawn as an element). */
const TAGS: Record<string, MdTag> = {
  p: 'p', ul: 'ul', ol: 'ol', li: 'li', blockquote: 'blockquote', em: 'em', strong: 'strong', s: 's',
  table: 'table', thead: 'thead', tbody: 'tbody', tr: 'tr', th: 'th', td: 'td',
};

function element(tag: MdTag, level?: number): Extract<MdNode, { kind: 'element' }> {
  return level === undefined ? { kind: 'element', tag, children: [] } : { kind: 'element', tag, level, children: [] };
}

/** Children of a container node (elements and links). */
type Container = Extract<MdNode, { kind: 'element' | 'link' }>;

function inline(tokens: Token[], into: Container): void {
  const stack: Container[] = [into];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    switch (t.type) {
      case 'text': top().children.push({ kind: 'text', text: t.content }); break;
      case 'code_inline': top().children.push({ ...element('code'), children: [{ kind: 'text', text: t.content }] }); break;
      case 'softbreak': top().children.push({ kind: 'text', text: '\n' }); break;
      case 'hardbreak': top().children.push(element('br')); break;
      case 'image': top().children.push({ kind: 'image', src: t.attrGet('src') ?? '', alt: t.children ? t.children.map((c) => c.content).join('') : t.content }); break;
      case 'link_open': {
        const link: Container = { kind: 'link', href: t.attrGet('href') ?? '', children: [] };
        top().children.push(link);
        stack.push(link);
        break;
      }
      default:
        if (t.nesting === 1 && TAGS[t.tag]) {
          const node = element(TAGS[t.tag]);
          top().children.push(node);
          stack.push(node);
        } else if (t.nesting === -1 && stack.length > 1) {
          stack.pop();
        } else if (t.content) {
          // html_inline cannot occur with html off; anything unknown is shown as its text.
          top().children.push({ kind: 'text', text: t.content });
        }
    }
  }
}

/** The tree of `text` read as Markdown (CommonMark, tables and strikethrough; no HTML). */
export function markdownTree(text: string): MdNode[] {
  const root: Container = { kind: 'element', tag: 'p', children: [] };
  const stack: Container[] = [root];
  const top = () => stack[stack.length - 1];
  for (const t of md.parse(text, {})) {
    if (t.type === 'inline') { inline(t.children ?? [], top()); continue; }
    if (t.type === 'fence' || t.type === 'code_block') {
      top().children.push({ ...element('pre'), children: [{ ...element('code'), children: [{ kind: 'text', text: t.content.replace(/\n$/, '') }] }] });
      continue;
    }
    if (t.type === 'hr') { top().children.push(element('hr')); continue; }
    if (t.type === 'html_block') { top().children.push({ ...element('p'), children: [{ kind: 'text', text: t.content }] }); continue; }
    if (t.nesting === 1) {
      const heading = /^h([1-6])$/.exec(t.tag);
      const node = heading ? element('heading', Number(heading[1])) : element(TAGS[t.tag] ?? 'p');
      top().children.push(node);
      stack.push(node);
    } else if (t.nesting === -1 && stack.length > 1) {
      stack.pop();
    }
  }
  return root.children;
}

/** Every text of a tree, as a reader would hear it (tests; a link keeps its text, an image its alt). */
export function treeText(nodes: MdNode[]): string {
  return nodes.map((n) => (n.kind === 'text' ? n.text : n.kind === 'image' ? `[image: ${n.alt}] ${n.src}` : treeText(n.children))).join('');
}
