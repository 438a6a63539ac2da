// The one cap on problems, for every parser and for the report: a file with a million bad rows
// lists the first MAX_PROBLEMS and one 'more-problems' summary that counts the rest. Parsers trim
// as they go, so memory stays bounded; the report trims once more after merging parser and scoring
// problems, adding up what earlier summaries stood for.
import type { RowProblem } from './types';

/** Problems listed per file (the Problems panel, the report, the CLI's --json). */
export const MAX_PROBLEMS = 1000;

/** Drops the problems beyond MAX_PROBLEMS (in place) and returns how many it dropped. */
export function trimProblems(problems: RowProblem[]): number {
  if (problems.length <= MAX_PROBLEMS) return 0;
  const dropped = problems.length - MAX_PROBLEMS;
  problems.length = MAX_PROBLEMS;
  return dropped;
}

/**
 * The summary standing for `omitted` problems left out, on the line of the last one listed. When
 * fewer than the cap remain listed (some were dropped since: explained duplicate-ID warnings), it
 * does not claim that the first MAX_PROBLEMS are.
 */
export function moreProblems(listed: readonly RowProblem[], omitted: number): RowProblem {
  const line = listed.length ? listed[listed.length - 1].line : 1;
  const count = listed.filter((p) => p.code !== 'more-problems').length;
  const which = count >= MAX_PROBLEMS ? `the first ${MAX_PROBLEMS} are` : `only the file's first ${MAX_PROBLEMS} problems were kept`;
  return { line, severity: 'info', code: 'more-problems', omitted, message: `${omitted} more problem${omitted === 1 ? ' is' : 's are'} not listed (${which}).` };
}

/**
 * `problems` without those of `code`, of which the file had `total` in all (listed, or counted in
 * the 'more-problems' summary when the list was capped): the summary then counts only the other
 * problems left out, and is gone when none are. Returns the list and how many were dropped.
 */
export function withoutProblems(problems: readonly RowProblem[], code: string, total: number): { problems: RowProblem[]; dropped: number } {
  const listed = problems.filter((p) => p.code === code).length;
  const kept = problems.filter((p) => p.code !== code && p.code !== 'more-problems');
  const omitted = problems.reduce((sum, p) => sum + (p.code === 'more-problems' ? p.omitted ?? 0 : 0), 0);
  const omittedOfCode = Math.min(omitted, Math.max(0, total - listed));
  const rest = omitted - omittedOfCode;
  return { problems: rest > 0 ? [...kept, moreProblems(kept, rest)] : kept, dropped: listed + omittedOfCode };
}

/**
 * The first MAX_PROBLEMS problems (summaries aside) and one summary that counts everything left
 * out, including what earlier summaries stood for. Returns `problems` itself when under the cap.
 */
export function capProblems(problems: RowProblem[]): RowProblem[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const listed = problems.filter((p) => p.code !== 'more-problems');
  const summarised = problems.reduce((sum, p) => sum + (p.code === 'more-problems' ? p.omitted ?? 0 : 0), 0);
  const kept = listed.slice(0, MAX_PROBLEMS);
  const omitted = listed.length - kept.length + summarised;
  return omitted > 0 ? [...kept, moreProblems(kept, omitted)] : kept;
}
