// Reading the CLI's Markdown back with a real CommonMark + GFM parser (markdown-it), for the
// score, compare and board --markdown tests: a table that parses back is a table GitHub shows.
import { createRequire } from 'node:module';

// markdown-it has no bundled types; the two calls used here are typed by hand.
export interface Token { type: string; content: string; children: Token[] | null }
export const MarkdownIt = createRequire(__filename)('markdown-it') as new () => { parse(src: string, env: object): Token[] };

/** Every GFM table in the Markdown, as rows of cell text (code spans and escapes resolved). */
export function tables(markdown: string): string[][][] {
  const out: string[][][] = [];
  let row: string[] | null = null;
  for (const t of new MarkdownIt().parse(markdown, {})) {
    if (t.type === 'table_open') out.push([]);
    else if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close') { out[out.length - 1].push(row!); row = null; }
    else if (t.type === 'inline' && row) row.push((t.children ?? []).map((c) => c.content).join(''));
  }
  return out;
}
