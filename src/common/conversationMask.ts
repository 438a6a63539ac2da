// The instance search with the conversations in it (issue 29): the page holds each row's texts,
// the file holds each sample's conversation; the host says, per row (by line), which of the query's
// text terms its conversation holds (src/core/samples/conversationSearch.ts). A row is kept when
// every term holds: a column term in its column, a text or /regex/ term in its texts or in its
// conversation. Pure: the page runs it.
import type { SearchIndex } from './instanceSearch';
import { columnHolds, parseWhere, textHolds, type WhereTerm } from './whereTerms';

/** The query's plain-text and /regex/ terms in order: bit k of a row's match is term k of these. */
export function conversationTerms(terms: readonly WhereTerm[]): Extract<WhereTerm, { kind: 'text' | 'regex' }>[] {
  return terms.filter((t): t is Extract<WhereTerm, { kind: 'text' | 'regex' }> => t.kind === 'text' || t.kind === 'regex');
}

export interface ConversationSearchResult {
  mask: Uint8Array;
  count: number;
  /** Rows kept only because their conversation holds a term their texts do not. */
  fromConversations: number;
}

/**
 * The rows that satisfy `query` when a text term may hold in the row's conversation too.
 * `lines[i]`: row i's line; `matches`: lines whose conversation holds text terms (bit k: term k).
 */
export function searchWithConversations(
  index: SearchIndex, lines: ArrayLike<number>, query: string, matches: readonly { line: number; terms: number }[],
): ConversationSearchResult | { error: string } {
  const parsed = parseWhere(query);
  if ('error' in parsed) return parsed;
  const textTerms = conversationTerms(parsed.terms);
  const byLine = new Map<number, number>();
  for (const m of matches) byLine.set(m.line, (byLine.get(m.line) ?? 0) | m.terms);
  const mask = new Uint8Array(index.n);
  let count = 0;
  let fromConversations = 0;
  for (let i = 0; i < index.n; i++) {
    const bits = byLine.get(lines[i]) ?? 0;
    let ok = true;
    let usedConversation = false;
    for (const term of parsed.terms) {
      if (term.kind === 'column') {
        if (!columnHolds(term, index.column(term.column, i))) { ok = false; break; }
        continue;
      }
      const inTexts = term.kind === 'text' ? index.lower[i].includes(term.text) : textHolds(term, index.texts(i));
      if (inTexts) continue;
      if (bits & (1 << textTerms.indexOf(term))) { usedConversation = true; continue; }
      ok = false;
      break;
    }
    if (!ok) continue;
    mask[i] = 1;
    count++;
    if (usedConversation) fromConversations++;
  }
  return { mask, count, fromConversations };
}
