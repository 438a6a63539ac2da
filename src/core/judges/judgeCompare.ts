// Comparing judge files (`eval-lens compare A B`): the paired difference of their figures is only
// a difference of models when both were judged the same way. Said as problems of the comparison:
// AlpacaEval annotations against different baselines (generator_1), and files with different
// judges (annotator, judge model and prompt).
import type { PredictionSet, RowProblem } from '../types';

export function judgeCompareProblems(runs: readonly { path: string }[], sets: readonly PredictionSet[]): RowProblem[] {
  const rows = sets.map((s) => (s.kind === 'scores' ? s.judge : undefined));
  if (!rows[0] || rows.some((r) => !r)) return [];
  const out: RowProblem[] = [];
  const base = rows[0]!;
  rows.forEach((r, i) => {
    if (i === 0 || !r) return;
    if (r.kind === 'preference' && base.kind === 'preference') {
      const baselines = (x: typeof r) => [...new Set(Array.from(x.baseline, (k) => x.models[k]))].sort().join(', ');
      if (baselines(r) !== baselines(base)) {
        out.push({ line: 1, severity: 'warning', code: 'bad-label', path: runs[i].path, message: `Judged against ${baselines(r)}, and the baseline ${runs[0].path} against ${baselines(base)}: win rates against different references are not on one scale, so their difference is not one of the two models alone.` });
      }
    }
    const judges = (x: typeof r) => [...x.judges].sort().join(', ');
    if (judges(r) !== judges(base)) {
      out.push({ line: 1, severity: 'warning', code: 'bad-label', path: runs[i].path, message: `Judged by ${judges(r) || 'an unnamed judge'}, and the baseline ${runs[0].path} by ${judges(base) || 'an unnamed judge'}: a difference may be the judges'.` });
    }
  });
  return out;
}
