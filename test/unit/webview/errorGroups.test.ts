// An error group of free-text answers filters the table by a search that finds exactly the rows
// whose answer normalises to the group's (trimmed, spaces collapsed, case-folded) and are wrong.
import { describe, expect, it } from 'vitest';
import { answerQuery } from '../../../webview/report/errorGroups';
import { parseWhere, rowHolds } from '../../../src/common/whereTerms';
import { normalizedAnswer } from '../../../src/core/metrics/errorGroups';

describe('answerQuery', () => {
  it('keeps the wrong rows whose answer normalises to the group, and no other', () => {
    const answers = ['New York', '  new   york ', 'NEW YORK', 'new yorker', 'york new', 'New (York)', 'a.b*c', 'a-b c'];
    for (const group of ['new york', 'new (york)', 'a.b*c']) {
      const parsed = parseWhere(answerQuery(group));
      if ('error' in parsed) throw new Error(parsed.error);
      for (const answer of answers) {
        for (const correct of ['0', '1']) {
          const kept = rowHolds(parsed.terms, (c) => (c === 'pred' ? answer : c === 'correct' ? correct : undefined), () => []);
          expect(kept, `${group} / ${JSON.stringify(answer)} / ${correct}`).toBe(correct === '0' && normalizedAnswer(answer) === group);
        }
      }
    }
  });
});
