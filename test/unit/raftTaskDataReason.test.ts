// RAFT's task.json names the task's classes and describes it; the gold labels are in train.csv.
// The reason given for not scoring task.json said it held "gold labels", which it does not.
import { describe, expect, it } from 'vitest';
import { unscoredReason } from '../../src/core/unscored';

describe('why RAFT task data is not scored', () => {
  it('does not say task.json holds gold labels', () => {
    const taskJson = '{"name": "one_stop_english", "description": "", "data_columns": ["Article", "ID"], "label_columns": {"Label": ["advanced", "elementary", "intermediate"]}}';
    const reason = unscoredReason('/x/one_stop_english/task.json', taskJson);
    expect(reason).toMatch(/task\.json: the task description and its class names/);
    expect(reason).toMatch(/train\.csv: the labelled examples/);
    expect(reason).not.toMatch(/\(gold labels, task description\)/);
  });
});
