// The search and --where grammar: what each term means, how terms combine, and what is refused.
import { describe, expect, it } from 'vitest';
import { parseWhere, rowHolds, termColumns, type WhereTerm } from '../../../src/common/whereTerms';

function terms(...q: string[]): WhereTerm[] {
  const parsed = parseWhere(...q);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.terms;
}

const rows = [
  { id: 'a', SEX: '2', AGEP: '34', Query: 'My Card was declined', texts: ['My Card was declined', 'card_declined'] },
  { id: 'b', SEX: '1', AGEP: '61.5', Query: 'where is my refund?', texts: ['where is my refund?', 'refund_status'] },
  { id: 'c', SEX: '2.0', AGEP: 'n/a', Query: 'card arrived <script>', texts: ['card arrived <script>', 'card_arrival'] },
  { id: 'd', texts: ['no columns here'] },
] as Record<string, string | string[] | undefined>[];

function ids(...q: string[]): string[] {
  const t = terms(...q);
  return rows.filter((r) => rowHolds(t, (c) => r[c] as string | undefined, () => r.texts as string[])).map((r) => r.id as string);
}

describe('where terms', () => {
  it('plain text is a case-insensitive substring over every text field', () => {
    expect(ids('CARD')).toEqual(['a', 'c']);
    expect(ids('refund_')).toEqual(['b']);
    expect(ids('"<script>"')).toEqual(['c']);
  });

  it('/regex/flags over the texts', () => {
    expect(ids('/^card/i')).toEqual(['a', 'c']); // "card_declined", "card arrived"
    expect(ids('/^Card/')).toEqual([]);
    expect(ids('/My Card/')).toEqual(['a']);
  });

  it('column terms: = and != compare numbers as numbers, ~ is a regex, > needs numbers', () => {
    expect(ids('SEX=2')).toEqual(['a', 'c']); // 2.0 = 2
    expect(ids('SEX == 2')).toEqual(['a', 'c']);
    expect(ids('SEX != 2')).toEqual(['b', 'd']); // a row without the column is "not 2"
    expect(ids('Query~/card/i')).toEqual(['a', 'c']);
    expect(ids('Query ~ card')).toEqual(['c']);
    expect(ids('AGEP > 40')).toEqual(['b']); // n/a and missing never compare
    expect(ids('AGEP <= 34')).toEqual(['a']);
    expect(ids('id = "b"')).toEqual(['b']);
  });

  it('terms combine with AND, and repeated --where parts AND together', () => {
    expect(ids('SEX=2 AND card')).toEqual(['a', 'c']);
    expect(ids('SEX=2 AND /declined/')).toEqual(['a']);
    expect(ids('SEX=2', 'AGEP<40')).toEqual(['a']);
    expect(ids('card && Query~arrived')).toEqual(['c']);
    // AND inside quotes or a regex is text, not a separator.
    expect(terms('Query ~ /A AND B/').length).toBe(1);
    expect(terms('"rock AND roll"').length).toBe(1);
  });

  it('names the columns it needs, dotted and quoted names included', () => {
    expect(termColumns(terms('doc.subject = law AND "my col" ~ x AND metadata.passage_id != 3 AND text'))).toEqual(['doc.subject', 'my col', 'metadata.passage_id']);
  });

  it('refuses what cannot mean anything, with a sentence', () => {
    expect(parseWhere('AGEP > old')).toEqual({ error: '"AGEP > old": > compares numbers, and "old" is not one' });
    expect(parseWhere('SEX =')).toEqual({ error: '"SEX =": = needs a value after it' });
    expect('error' in parseWhere('Query ~ /(/')).toBe(true);
    expect(parseWhere('/x/g')).toEqual({ error: '"/x/g": the flags /g are not allowed (use i, m, s or u)' });
  });
});
