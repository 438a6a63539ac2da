// The board's text output listed at most 10 warnings and dropped the rest, and every note, without a
// count (sweep 12, defect 5: 45 problems in --json, 10 lines in the text). Now it counts them by
// severity as score does ("17 problems: 14 warnings, 3 notes"), lists the worst first, and ends with
// "… N more (use --json for all)", in the table on stdout as score and compare print theirs.
import { describe, expect, it } from 'vitest';
import { buildBoard, type BoardEntry } from '../../../src/core/compare/board';
import { formatBoard } from '../../../src/documents/boardTable';
import type { RowProblem } from '../../../src/core/types';

const entries: BoardEntry[] = [
  { run: 'm1', task: 't1', metrics: { accuracy: 0.5 }, format: 'generic', kind: 'binary' },
  { run: 'm2', task: 't1', metrics: { accuracy: 0.6 }, format: 'generic', kind: 'binary' },
];

function boardWith(problems: RowProblem[]) {
  const b = buildBoard(entries, { metric: 'accuracy' });
  b.problems.push(...problems);
  return b;
}

describe('board text: problems', () => {
  const warnings: RowProblem[] = Array.from({ length: 14 }, (_, i) => ({ line: 1, severity: 'warning', code: 'duplicate-id', path: `w${i}.json`, message: `warning ${i}` }));
  const notes: RowProblem[] = Array.from({ length: 3 }, (_, i) => ({ line: 1, severity: 'info', code: 'unscorable', path: `n${i}.jsonl`, message: `Not on the board: note ${i}` }));

  it('counts them all, lists the worst first and says how many more', () => {
    const text = formatBoard(boardWith([notes[0], ...warnings, notes[1], notes[2]]));
    const lines = text.trimEnd().split('\n');
    const head = lines.indexOf('17 problems: 14 warnings, 3 notes');
    expect(head).toBeGreaterThan(0);
    expect(lines.slice(head + 1, head + 11)).toEqual(warnings.slice(0, 10).map((w, i) => `  w${i}.json: warning: warning ${i}`));
    expect(lines[head + 11]).toBe('  … 7 more (use --json for all)');
    expect(lines).toHaveLength(head + 12);
  });

  it('shows the notes of a board with rows (files not on it), not only of an empty one', () => {
    const text = formatBoard(boardWith(notes.slice(0, 2)));
    expect(text).toContain('2 problems: 2 notes\n  n0.jsonl: note: Not on the board: note 0\n  n1.jsonl: note: Not on the board: note 1\n');
    expect(text).not.toMatch(/more \(use --json/);
  });

  it('prints nothing of problems when there are none', () => {
    expect(formatBoard(buildBoard(entries, { metric: 'accuracy' }))).not.toMatch(/problem/);
  });
});
