// The compare page's search over aligned instances: texts, named columns, slices; unknown columns said.
import { describe, expect, it } from 'vitest';
import { searchPairs } from '../../../src/common/pairSearch';
import type { PairTable } from '../../../src/common/compareProtocol';

const table: PairTable = {
  candidate: 1, counts: { both_right: 1, baseline_only: 1, candidate_only: 1, both_wrong: 0 }, cap: 2000, paths: ['a', 'b'],
  textFields: ['Query'], sliceColumns: ['sex'],
  rows: [
    { id: 'r1', cell: 'both_right', lines: [2, 2], gold: 'card_arrival', preds: ['card_arrival', 'card_arrival'], values: [0.9, 0.8], texts: ['Where is my CARD?'], slices: ['Female'] },
    { id: 'r2', cell: 'baseline_only', lines: [3, 3], gold: 'refund', preds: ['refund', 'card_arrival'], values: [0.7, 0.6], texts: ['refund please'], slices: ['Male'] },
    { id: 'r3', cell: 'candidate_only', lines: [4, 4], gold: 'refund', preds: ['exchange_rate', 'refund'], values: [0.4, 0.9], texts: ['my money back'], slices: ['Female'] },
  ],
};

const ids = (q: string) => {
  const r = searchPairs(table, q);
  if ('error' in r) throw new Error(r.error);
  return table.rows.filter((x) => r.keep.has(x)).map((x) => x.id);
};

describe('searchPairs', () => {
  it('matches texts, predictions, agreement and slices', () => {
    expect(ids('card')).toEqual(['r1', 'r2']); // r2 by the candidate's prediction
    expect(ids('candidate = card_arrival AND baseline != card_arrival')).toEqual(['r2']);
    expect(ids('agreement = "candidate only"')).toEqual(['r3']);
    expect(ids('sex = Female AND Query ~ /money/')).toEqual(['r3']);
    expect(ids('/^R\\d$/i')).toEqual(['r1', 'r2', 'r3']);
  });
  it('says which columns there are when one is unknown', () => {
    expect(searchPairs(table, 'age > 3')).toEqual({ error: 'no column "age" here; the aligned instances have "id", "gold", "baseline", "candidate", "agreement", "Query", "sex"' });
  });
});
