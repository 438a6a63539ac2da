// A judge against humans on the same samples (docs/metrics.md#kappa): the share of samples where
// the two agree, Cohen's kappa (agreement beyond what the two sides' label frequencies give by
// chance; as sklearn.metrics.cohen_kappa_score), its large-sample standard error (Fleiss, Cohen
// and Everitt 1969, "Large sample standard errors of kappa and weighted kappa") and the interval
// kappa ± 1.96 SE, and the confusion table of the two.
import { Z_975 } from '../metrics/errorBars';
import type { JudgeAgreement } from './types';

/**
 * Agreement between `judge[i]` and `human[i]` (labels as text), over the samples where both are
 * given. Labels are ordered by `order` when given (known labels first), then as first seen (the judge's, then the human's).
 */
export function judgeAgreement(judge: readonly string[], human: readonly string[], names: { judge: string; human: string }, order: readonly string[] = []): JudgeAgreement {
  const labels: string[] = [];
  const index = new Map<string, number>();
  const add = (l: string) => { if (!index.has(l)) { index.set(l, labels.length); labels.push(l); } };
  const seen = new Set([...judge, ...human]);
  for (const l of order) if (seen.has(l)) add(l);
  for (const l of judge) add(l);
  for (const l of human) add(l);
  const k = labels.length;
  const confusion = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < judge.length; i++) confusion[index.get(judge[i])!][index.get(human[i])!]++;
  const n = judge.length;
  const stats = kappaOf(confusion);
  return {
    judge: names.judge, human: names.human, n,
    agreement: n ? stats.po : null,
    kappa: stats.kappa,
    kappa_se: stats.se,
    kappa_interval: stats.kappa !== null && stats.se !== null ? [stats.kappa - Z_975 * stats.se, stats.kappa + Z_975 * stats.se] : null,
    labels, confusion,
  };
}

/** Cohen's kappa of a confusion table (rows: one rater, columns: the other) and its FCE standard error. */
export function kappaOf(table: readonly (readonly number[])[]): { po: number; pe: number; kappa: number | null; se: number | null } {
  const k = table.length;
  let n = 0;
  for (const row of table) for (const c of row) n += c;
  if (n === 0) return { po: NaN, pe: NaN, kappa: null, se: null };
  const rowM = table.map((row) => row.reduce((a, b) => a + b, 0) / n);
  const colM = Array.from({ length: k }, (_, j) => table.reduce((a, row) => a + row[j], 0) / n);
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++) { po += table[i][i] / n; pe += rowM[i] * colM[i]; }
  if (pe >= 1) return { po, pe, kappa: null, se: null };
  const kappa = (po - pe) / (1 - pe);
  // Fleiss, Cohen and Everitt (1969), eq. 13.
  let a = 0;
  let b = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const pij = table[i][j] / n;
      if (pij === 0) continue;
      if (i === j) a += pij * (1 - (rowM[i] + colM[i]) * (1 - kappa)) ** 2;
      else b += pij * (colM[i] + rowM[j]) ** 2;
    }
  }
  const v = (a + (1 - kappa) ** 2 * b - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2);
  return { po, pe, kappa, se: v >= 0 ? Math.sqrt(v) : null };
}
