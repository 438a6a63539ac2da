// Chart data computed from the per-instance columns: used by the scoring worker (before the columns
// travel, so the first chart does not wait for them) and by the webview (for a report that arrives
// with its columns). Neither side owns it: pure TypeScript, no DOM, no Node, no vscode.
import type { InstanceColumns, Report } from '../core/types';

/** What the charts and the HMR sentence need from the per-instance columns, computed beforehand. */
export interface ReportCharts {
  /** Top-label confidence split by correctness (null when the report has no confidence). */
  histogram: ConfidenceHistogram | null;
  /** Predicted vs true probability, decimated (probability reports only). */
  scatter: ScatterPoints | null;
  /** Right and wrong answers with a finite confidence (what R_O and R_U average over). */
  counts: { right: number; wrong: number } | null;
}

/** Whether any value is finite (a column of NaN means the file did not have it). */
export function hasFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) return true;
  return false;
}

export interface ConfidenceHistogram {
  edges: number[];
  correct: number[];
  incorrect: number[];
}

/**
 * Counts of top-label confidence in `bins` equal-width bins over [lo, 1], split by correctness.
 * lo is 0.5 for binary reports (c = max(s, 1 - s) >= 0.5), else the data's minimum rounded down
 * to a multiple of 0.1, so the bars use the width of the chart.
 */
export function confidenceHistogram(confidence: Float64Array, correct: Uint8Array, bins: number, lo?: number): ConfidenceHistogram {
  let min = 1;
  if (lo === undefined) {
    for (let i = 0; i < confidence.length; i++) {
      const c = confidence[i];
      if (c < min) min = c; // NaN compares false
    }
    lo = Math.max(0, Math.floor(min * 10 + 1e-9) / 10);
    if (lo >= 1) lo = 0.9;
  }
  const width = (1 - lo) / bins;
  const ok = new Array<number>(bins).fill(0);
  const bad = new Array<number>(bins).fill(0);
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i];
    if (!(c >= lo && c <= 1)) continue;
    const b = Math.min(bins - 1, Math.floor((c - lo) / width));
    if (correct[i]) ok[b]++;
    else bad[b]++;
  }
  const edges: number[] = [];
  for (let b = 0; b <= bins; b++) edges.push(lo + b * width);
  return { edges, correct: ok, incorrect: bad };
}

export interface ScatterPoints {
  x: number[];
  y: number[];
  /** How many instances each drawn point stands for. */
  weight: number[];
  /** Index of a representative instance of each point. */
  index: number[];
  /** Instances with both coordinates finite. */
  total: number;
}

/**
 * Decimates a scatter on [0, 1]^2 to at most grid x grid points: one point per occupied cell, at
 * the mean of its instances, weighted by their count. Unlike random sampling this keeps every
 * outlier visible, and the weights keep density visible. Below `keepAllBelow` points nothing is merged.
 */
export function decimateScatter(xs: Float64Array, ys: Float64Array, grid = 64, keepAllBelow = 4000): ScatterPoints {
  const n = Math.min(xs.length, ys.length);
  let total = 0;
  for (let i = 0; i < n; i++) if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) total++;
  if (total <= keepAllBelow) {
    const out: ScatterPoints = { x: [], y: [], weight: [], index: [], total };
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) continue;
      out.x.push(xs[i]);
      out.y.push(ys[i]);
      out.weight.push(1);
      out.index.push(i);
    }
    return out;
  }
  const cells = grid * grid;
  const count = new Uint32Array(cells);
  const sumX = new Float64Array(cells);
  const sumY = new Float64Array(cells);
  const first = new Int32Array(cells).fill(-1);
  for (let i = 0; i < n; i++) {
    const x = xs[i];
    const y = ys[i];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const cx = Math.min(grid - 1, Math.max(0, Math.floor(x * grid)));
    const cy = Math.min(grid - 1, Math.max(0, Math.floor(y * grid)));
    const c = cy * grid + cx;
    count[c]++;
    sumX[c] += x;
    sumY[c] += y;
    if (first[c] < 0) first[c] = i;
  }
  const out: ScatterPoints = { x: [], y: [], weight: [], index: [], total };
  for (let c = 0; c < cells; c++) {
    if (!count[c]) continue;
    out.x.push(sumX[c] / count[c]);
    out.y.push(sumY[c] / count[c]);
    out.weight.push(count[c]);
    out.index.push(first[c]);
  }
  return out;
}

/** Everything the charts and the HMR sentence need from the per-instance columns (see the top of this file). */
export function reportCharts(report: Pick<Report, 'kind' | 'instances'>): ReportCharts {
  const inst = report.instances;
  if (!inst) return { histogram: null, scatter: null, counts: null };
  const histogram = report.kind !== 'probability' && hasFinite(inst.confidence)
    ? confidenceHistogram(inst.confidence, inst.correct, 20, report.kind === 'binary' ? 0.5 : undefined)
    : null;
  const scatter = report.kind === 'probability' ? decimateScatter(inst.value, inst.target) : null;
  return { histogram, scatter, counts: correctnessCounts(inst) };
}

/** Right and wrong answers among the instances with a known confidence (the HMR sentence's counts). */
export function correctnessCounts(inst: Pick<InstanceColumns, 'correct' | 'confidence'>): { right: number; wrong: number } {
  let right = 0;
  let wrong = 0;
  for (let i = 0; i < inst.correct.length; i++) {
    if (!Number.isFinite(inst.confidence[i])) continue;
    if (inst.correct[i]) right++;
    else wrong++;
  }
  return { right, wrong };
}
