// The text table of a summary's figures (score on stats.json, a leaderboard CSV, ...): values stay
// in one column when a figure's name is longer than the name column, and a whole 0 or 1 of a score
// reads 1.0000 beside 0.8750 (HELM stats.json's sst_claude_score printed "1" before), while counts
// (num_prompt_tokens 15) stay whole, their units under the decimals' units.
import { describe, expect, it } from 'vitest';
import { summaryLines, summaryValueText } from '../../../src/documents/summaryLines';
import type { Report, SummaryFigure } from '../../../src/core/types';

const reportOf = (figures: SummaryFigure[]) => ({ summary: { source: 'HELM stats.json', figures } }) as unknown as Report;

/** Column where the units digit of a value line sits (the digit before '.', or the last digit of a whole number). */
function unitsColumn(line: string): number {
  const m = /(\d)(?:\.\d{4})?\s*(?: {2}on .*)?$/.exec(line);
  return m ? m.index : -1;
}

describe('summary figures as text', () => {
  it('keeps the values in one column when a name passes the name column', () => {
    const long = 'acsincome_classification.csv/some_really_long_metric_name_for_the_test_x';
    expect(long.length).toBeGreaterThan(64);
    const lines = summaryLines(reportOf([
      { name: 'test/sst_score', metric: 'sst_score', value: 0.875, n: 2 },
      { name: long, metric: 'some_really_long_metric_name_for_the_test_x', value: 0.25, n: 2 },
      { name: 'test/sst_gpt_score', metric: 'sst_gpt_score', value: 0.75, n: 2 },
    ])).slice(1);
    const valueLines = lines.filter((l) => /\d\.\d{4}/.test(l));
    expect(valueLines).toHaveLength(3);
    const cols = valueLines.map(unitsColumn);
    expect(new Set(cols).size).toBe(1);
    // The long name is printed whole, on its own line.
    expect(lines).toContain(`    ${long}`);
  });

  it('prints a whole score as 1.0000 and a count whole, units aligned', () => {
    expect(summaryValueText(1, 'sst_claude_score')).toBe('1.0000');
    expect(summaryValueText(0, 'finish_reason_length')).toBe('0.0000');
    expect(summaryValueText(15, 'num_prompt_tokens')).toBe('15');
    expect(summaryValueText(1, 'num_train_trials')).toBe('1');
    expect(summaryValueText(312, 'rating')).toBe('312');
    const lines = summaryLines(reportOf([
      { name: 'test/sst_score', metric: 'sst_score', value: 0.875, n: 2 },
      { name: 'test/sst_claude_score', metric: 'sst_claude_score', value: 1, n: 2 },
      { name: 'test/num_prompt_tokens', metric: 'num_prompt_tokens', value: 15, n: 2 },
      { name: 'test/num_completion_tokens', metric: 'num_completion_tokens', value: 312 },
    ])).slice(1);
    expect(lines[1]).toMatch(/test\/sst_claude_score +1\.0000  on 2 samples$/);
    expect(new Set(lines.map(unitsColumn)).size).toBe(1);
    // The "on N samples" column lines up too.
    expect(new Set(lines.filter((l) => l.includes(' on ')).map((l) => l.indexOf(' on '))).size).toBe(1);
  });
});
