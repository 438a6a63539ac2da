// Classwise ECE (Kull et al. 2019, "Beyond temperature scaling"; docs/metrics.md#ece_classwise):
// for each class c, the equal-width ECE of p_c against 1[gold = c], and their mean over the classes
// of the probability matrix. Top-label ECE only looks at the predicted class's probability; this
// looks at every class's.
import type { Counts } from './bootstrap';
import { ece, widthBin, widthEdges } from './calibration';

export interface ClasswiseEce {
  /** Per class, parallel to the set's classes (null: no rows). */
  perClass: (number | null)[];
  /** Mean over the classes (null: no rows). */
  mean: number | null;
}

/** probs: n x k row-major; gold: class index per row. */
export function classwiseEce(probs: Float64Array, k: number, gold: Int32Array, nBins: number): ClasswiseEce {
  const n = gold.length;
  if (n === 0 || k === 0) return { perClass: new Array<number | null>(k).fill(null), mean: null };
  const column = new Float64Array(n);
  const target = new Uint8Array(n);
  const perClass: (number | null)[] = [];
  let sum = 0;
  for (let c = 0; c < k; c++) {
    for (let i = 0; i < n; i++) {
      column[i] = probs[i * k + c];
      target[i] = gold[i] === c ? 1 : 0;
    }
    const e = ece(column, target, nBins);
    perClass.push(Number.isFinite(e) ? e : null);
    sum += e;
  }
  return { perClass, mean: Number.isFinite(sum) ? sum / k : null };
}

/**
 * ece_classwise of bootstrap resamples (multiplicities w): each row's bin per class is found once,
 * then a resample is one O(n k) pass of weighted bin sums.
 */
export function classwiseEceResampler(probs: Float64Array, k: number, gold: Int32Array, nBins: number): (w: Counts) => { ece_classwise: number | null } {
  const n = gold.length;
  const nb = Math.floor(nBins);
  const edges = widthEdges(nb);
  const cell = new Int32Array(n * k);
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) cell[i * k + c] = c * nb + widthBin(probs[i * k + c], nb, edges);
  const count = new Float64Array(k * nb);
  const sumP = new Float64Array(k * nb);
  const sumT = new Float64Array(k * nb);
  return (w) => {
    count.fill(0);
    sumP.fill(0);
    sumT.fill(0);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const m = w[i];
      if (m === 0) continue;
      total += m;
      const row = i * k;
      const g = gold[i];
      for (let c = 0; c < k; c++) {
        const b = cell[row + c];
        count[b] += m;
        sumP[b] += m * probs[row + c];
        if (c === g) sumT[b] += m;
      }
    }
    if (total === 0 || k === 0) return { ece_classwise: null };
    let sum = 0;
    for (let b = 0; b < k * nb; b++) {
      const cnt = count[b];
      if (cnt > 0) sum += (cnt / total) * Math.abs(sumP[b] / cnt - sumT[b] / cnt);
    }
    return { ece_classwise: sum / k };
  };
}
