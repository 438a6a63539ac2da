// The sample view's pure parts (issue 29): Markdown with HTML off (a hostile explanation stays
// text: no script, no remote image, no raw HTML element), the word diff of two outputs (checked
// against an independent longest-common-subsequence count), the search with conversations, and
// the instance table's agent columns.
import { describe, expect, it } from 'vitest';
import { markdownTree, treeText, type MdNode } from '../../../webview/sample/markdownTree';
import { wordDiff } from '../../../src/common/wordDiff';
import { searchWithConversations } from '../../../src/common/conversationMask';
import { searchIndex } from '../../../src/common/instanceSearch';
import { cellText, sortKeys, tableColumns } from '../../../webview/report/tableModel';
import { multiclassReport } from './fixtures';

function tags(nodes: MdNode[]): string[] {
  return nodes.flatMap((n) => (n.kind === 'element' ? [n.tag, ...tags(n.children)] : n.kind === 'link' ? ['link', ...tags(n.children)] : n.kind === 'image' ? ['image'] : []));
}

function links(nodes: MdNode[]): string[] {
  return nodes.flatMap((n) => (n.kind === 'link' ? [n.href, ...links(n.children)] : n.kind === 'element' ? links(n.children) : []));
}

describe('Markdown without HTML', () => {
  const HOSTILE = [
    '**Verdict**: the answer is <b>wrong</b>.',
    '',
    '<script>alert("x")</script>',
    '',
    '<img src="http://evil.example/x.png" onerror="alert(1)">',
    '',
    '![tracker](http://evil.example/pixel.gif)',
    '',
    '[the docs](https://example.org/docs) and [bad](javascript:alert(1))',
    '',
    '<div onclick="alert(2)">raw block</div>',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | <i>2</i> |',
  ].join('\n');

  it('keeps every HTML tag of the text as text, and draws only its own elements', () => {
    const tree = markdownTree(HOSTILE);
    const text = treeText(tree);
    for (const raw of ['<b>wrong</b>', '<script>alert("x")</script>', '<img src="http://evil.example/x.png" onerror="alert(1)">', '<div onclick="alert(2)">raw block</div>', '<i>2</i>']) {
      expect(text).toContain(raw);
    }
    const used = new Set(tags(tree));
    for (const tag of used) expect(['p', 'strong', 'link', 'image', 'table', 'thead', 'tbody', 'tr', 'th', 'td']).toContain(tag);
    expect(used.has('strong')).toBe(true);
    expect(used.has('table')).toBe(true);
  });

  it('an image is its alt text and address, never an element that loads it; a link is a node, javascript: is text', () => {
    const tree = markdownTree(HOSTILE);
    expect(treeText(tree)).toContain('[image: tracker] http://evil.example/pixel.gif');
    expect(links(tree)).toEqual(['https://example.org/docs']);
    expect(treeText(tree)).toContain('[bad](javascript:alert(1))');
  });

  it('headings, lists, code blocks and quotes', () => {
    const tree = markdownTree('# Title\n\n- one\n- two\n\n```\ncode <x>\n```\n\n> quoted');
    expect(tags(tree)).toEqual(['heading', 'ul', 'li', 'p', 'li', 'p', 'pre', 'code', 'blockquote', 'p']);
    expect(treeText(tree)).toContain('code <x>');
  });
});

describe('word diff', () => {
  /** Longest common subsequence of two word lists, by dynamic programming (independent of Myers). */
  function lcs(a: string[], b: string[]): number {
    const L = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) L[i][j] = a[i - 1] === b[j - 1] ? L[i - 1][j - 1] + 1 : Math.max(L[i - 1][j], L[i][j - 1]);
    return L[a.length][b.length];
  }

  it('keeps the longest common run of words and gives back both texts (1,000 random pairs)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const W = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (let t = 0; t < 1000; t++) {
      const a = Array.from({ length: Math.floor(rnd() * 14) }, () => W[Math.floor(rnd() * 6)]);
      const b = Array.from({ length: Math.floor(rnd() * 14) }, () => W[Math.floor(rnd() * 6)]);
      const d = wordDiff(a.join(' '), b.join('  '));
      const side = (skip: string) => d.parts.filter((p) => p.op !== skip).map((p) => p.text).join('').split(/\s+/).filter(Boolean);
      expect(side('added')).toEqual(a);
      expect(side('removed')).toEqual(b);
      expect(d.same).toBe(lcs(a, b));
      expect(d.removed).toBe(a.length - d.same);
      expect(d.added).toBe(b.length - d.same);
    }
  });

  it('marks the changed words of two final outputs', () => {
    const d = wordDiff('ANSWER: C', 'ANSWER: B');
    expect(d.parts).toEqual([{ op: 'same', text: 'ANSWER: ' }, { op: 'removed', text: 'C ' }, { op: 'added', text: 'B' }]);
  });
});

describe('the search with conversations', () => {
  it('a text term may hold in the row\'s texts or its conversation; a column term in its column', () => {
    const report = multiclassReport(4);
    report.classes = ['yes', 'no', 'maybe'];
    report.texts = { fields: ['input', 'tool_calls'], values: [['alpha', '3'], ['beta', '1'], ['gamma', '5'], ['alpha beta', '0']] };
    const index = searchIndex(report)!;
    const lines = report.instances!.lines;
    // The conversation of row 2 holds "beta"; of row 0, /pyth.n/.
    const matches = [{ line: lines[2], terms: 0b01 }, { line: lines[0], terms: 0b10 }];
    const one = searchWithConversations(index, lines, 'beta', [{ line: lines[2], terms: 1 }]);
    expect('mask' in one && Array.from(one.mask)).toEqual([0, 1, 1, 1]);
    expect('mask' in one && one.fromConversations).toBe(1);
    const both = searchWithConversations(index, lines, 'beta AND /pyth.n/', matches);
    expect('mask' in both && Array.from(both.mask)).toEqual([0, 0, 0, 0]);
    const withColumn = searchWithConversations(index, lines, 'alpha AND tool_calls > 2', []);
    expect('mask' in withColumn && Array.from(withColumn.mask)).toEqual([1, 0, 0, 0]);
  });
});

describe('agent columns in the instance table', () => {
  it('turns, tool calls and tokens are numeric columns, sorted as numbers', () => {
    const report = multiclassReport(3);
    report.texts = { fields: ['input', 'turns', 'tool_calls', 'tokens', 'tools'], values: [['a', '2', '10', '', 'bash'], ['b', '12', '9', '300', ''], ['c', '3', '1', '45', 'bash, python']] };
    const keys = tableColumns(report).map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['field:turns', 'field:tool_calls', 'field:tokens']));
    expect(keys).not.toContain('field:tools');
    expect(Array.from(sortKeys(report, 'field:tool_calls', 'equalWidth')!)).toEqual([10, 9, 1]);
    expect(Array.from(sortKeys(report, 'field:tokens', 'equalWidth')!)).toEqual([NaN, 300, 45]);
    expect(cellText(report, 'field:tokens', 0, 'equalWidth')).toBe('—');
    expect(cellText(report, 'field:turns', 1, 'equalWidth')).toBe('12');
  });
});
