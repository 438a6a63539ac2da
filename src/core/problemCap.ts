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

/** The summary standing for `omitted` problems left out, on the line of the last one listed. */
export function moreProblems(listed: readonly RowProblem[], omitted: number): RowProblem {
  const line = listed.length ? listed[listed.length - 1].line : 1;
  return { line, severity: 'info', code: 'more-problems', omitted, message: `${omitted} more problems are not listed (the first ${MAX_PROBLEMS} are).` };
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
