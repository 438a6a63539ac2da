// A file with more bad rows than the Problems panel should show: the first MAX_PROBLEMS are listed
// and one summary counts every other bad row, including those a parser had already summarised.
import { describe, expect, it } from 'vitest';
import { textInput } from '../../src/core/formats/context';
import { MAX_PROBLEMS } from '../../src/core/problemCap';
import { scoreInput } from '../../src/core/score';

describe('problem cap', () => {
  it('keeps its words true when the repeated attempts\' duplicate-ID warnings are dropped (issue 28, point 12)', () => {
    // 800 items with 3 attempts each (1,600 later occurrences: more warnings than the cap) and two bad rows.
    const rows = ['id,epoch,score,label'];
    for (let k = 0; k < 800; k++) for (let e = 1; e <= 3; e++) rows.push(`item${k},${e},0.${((k + e) % 9) + 1},${(k + e) % 2}`);
    rows[3] = 'item0,2,abc,1';
    rows[2300] = `${rows[2300].split(',').slice(0, 2).join(',')},xyz,0`;
    const report = scoreInput(textInput('/tmp/attempts.csv', rows.join('\n') + '\n'), { format: 'generic' });
    expect(report.n).toBe(2398);
    const summary = report.problems.filter((p) => p.code === 'more-problems');
    const listedBad = report.problems.filter((p) => p.code === 'not-a-number' || p.severity === 'error');
    // The two bad rows are each listed or counted, and nothing else is counted.
    expect(listedBad.length + summary.reduce((s, p) => s + (p.omitted ?? 0), 0)).toBe(2);
    // Fewer than the cap are listed now: the words do not say "the first 1000 are".
    for (const s of summary) expect(s.message).toBe(`${s.omitted} more problem${s.omitted === 1 ? ' is' : 's are'} not listed (only the file's first ${MAX_PROBLEMS} problems were kept).`);
    expect(report.problems.some((p) => p.code === 'duplicate-id' && p.severity === 'warning')).toBe(false);
    // Every later occurrence's warning is said to be dropped: 2,398 rows, 800 items.
    expect(report.problems.find((p) => p.code === 'duplicate-id')?.message).toMatch(/\(1598 duplicate-ID warnings dropped\)/);
  });

  it.each([500, 20_000])('lists %i bad rows as at most MAX_PROBLEMS problems plus a summary that counts the rest', (bad) => {
    const rows = [',risk_score,label'];
    for (let i = 0; i < bad; i++) rows.push(`${i},abc,1`);
    for (let i = bad; i < bad + 100; i++) rows.push(`${i},0.${(i % 9) + 1},${i % 2}`);
    const report = scoreInput(textInput('/tmp/many.test_predictions.csv', rows.join('\n') + '\n'));
    expect(report.n).toBe(100);
    expect(report.skipped).toBe(bad);
    const listed = report.problems.filter((p) => p.code === 'not-a-number');
    const summaries = report.problems.filter((p) => p.code === 'more-problems');
    expect(listed.length).toBe(Math.min(bad, MAX_PROBLEMS));
    expect(listed[0].line).toBe(2);
    expect(summaries.length).toBe(bad > MAX_PROBLEMS ? 1 : 0);
    // Every bad row is either listed or counted.
    expect(listed.length + summaries.reduce((s, p) => s + (p.omitted ?? 0), 0)).toBe(bad);
  });

  it('caps JSON Lines that do not parse the same way, through the JSON reader and the report', () => {
    const bad = MAX_PROBLEMS + 700;
    const lines: string[] = [];
    for (let i = 0; i < bad; i++) lines.push(`{"score": 0.${(i % 9) + 1}, "label": `);
    for (let i = 0; i < 100; i++) lines.push(JSON.stringify({ score: ((i % 9) + 1) / 10, label: i % 2 }));
    const report = scoreInput(textInput('/tmp/many.predictions.jsonl', lines.join('\n') + '\n'), { format: 'generic' });
    expect(report.n).toBe(100);
    const listed = report.problems.filter((p) => p.code === 'json-parse');
    const summaries = report.problems.filter((p) => p.code === 'more-problems');
    expect(listed.length).toBe(MAX_PROBLEMS);
    expect(summaries.length).toBe(1);
    expect(listed.length + summaries[0].omitted!).toBe(bad);
  });
});
