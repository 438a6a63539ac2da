// Free-text error groups are keyed case-folded but shown as the model wrote them: an API error
// message or a proper name in lower case is text the file never held (sweep 12, defect 12).
import { describe, expect, it } from 'vitest';
import { multiclassErrorGroups, normalizedAnswer } from '../../../src/core/metrics/errorGroups';

const FREE = { reason: 'model-graded', keepAccuracy: true } as const;

describe('free-text error groups: the text as written', () => {
  it('shows the most frequent spelling of a group, spaces collapsed, case kept', () => {
    const classes = ['new york', 'New York', '  New   York ', 'NEW YORK', 'Boston', 'right'];
    const gold = Int32Array.from([5, 5, 5, 5, 5, 5, 5]);
    const pred = Int32Array.from([0, 1, 2, 3, 4, 5, 1]); // "New York" written three times (twice as is, once spaced), the others once
    expect(multiclassErrorGroups({ classes, gold, pred, freeText: FREE })).toEqual([
      { gold: null, predicted: 'New York', count: 5 },
      { gold: null, predicted: 'Boston', count: 1 },
    ]);
  });

  it('an error message keeps its capitals, on one line, and still normalises to its group', () => {
    const message = 'Error: No candidates returned in API response.\n\nGot response: {"error":{"code":404,"status":"NOT_FOUND"}}';
    const groups = multiclassErrorGroups({ classes: [message, 'ok'], gold: Int32Array.from([1, 1]), pred: Int32Array.from([0, 0]), freeText: FREE });
    expect(groups).toEqual([{ gold: null, predicted: 'Error: No candidates returned in API response. Got response: {"error":{"code":404,"status":"NOT_FOUND"}}', count: 2 }]);
    expect(normalizedAnswer(groups[0].predicted)).toBe(normalizedAnswer(message));
  });
});
