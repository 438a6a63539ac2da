// A bootstrap split between threads (issue 28 point 11: the report panel's intervals pass on a
// million rows is ~5 s of CPU on one thread). Each share scores the file with
// ScoreOptions.bootstrapPart and computes its range of the resamples, which are the same draws as
// in a single pass (CountDraws starts at the share's first resample); its report keeps the values
// (Report.bootstrapPart). mergeBootstrapParts joins the shares' values in resample order and takes
// the percentiles: the intervals (and the smoothed curve's band) of the single pass, exactly.
//
// Only the set's resampled metrics are split (report.ts intervalsFor). Everything else a report
// bootstraps (cluster resamples, task metrics, groups, ratings) is computed whole by every share,
// and taken from the first.
import type { Report } from './types';
import { percentileIntervals } from './metrics/bootstrap';
import { SmoothBand } from './metrics/smoothCalibration';

/**
 * The resamples [from, to) of share `index` of `count` (side by side, in resample order); with
 * `span`, of parts index .. index + span - 1 together (the same resamples as those parts one by one).
 */
export function bootstrapPartRange(resamples: number, part: { index: number; count: number; span?: number }): [number, number] {
  const span = part.span ?? 1;
  if (!(Number.isInteger(part.count) && part.count >= 1 && Number.isInteger(part.index) && part.index >= 0 && Number.isInteger(span) && span >= 1 && part.index + span <= part.count)) {
    throw new RangeError(`bootstrap part must be index 0..count-1 of a whole count, spanning parts up to the last, got ${part.index} (span ${span}) of ${part.count}`);
  }
  return [Math.floor((resamples * part.index) / part.count), Math.floor((resamples * (part.index + span)) / part.count)];
}

/**
 * One report from the reports of every share of the same file (in share order): the first's, with
 * the intervals the bootstrap gave (those another method replaced stay) and the smoothed curve's
 * band taken over every share's resamples. A first share with no share data (a cluster bootstrap,
 * which is never split) is returned as it is.
 */
export function mergeBootstrapParts(parts: readonly Report[]): Report {
  const base = parts[0];
  const first = base?.bootstrapPart;
  if (!first) {
    if (!base) throw new RangeError('mergeBootstrapParts: no part');
    return base;
  }
  const shares = parts.map((p) => p.bootstrapPart);
  // Each share starts where the one before ended, and together they hold every part.
  let next = 0;
  for (const s of shares) {
    if (!s || s.index !== next || s.count !== first.count) throw new RangeError(`mergeBootstrapParts: expected shares covering parts 0..${first.count - 1} in order, side by side`);
    next += s.span ?? 1;
  }
  if (next !== first.count) throw new RangeError(`mergeBootstrapParts: the shares hold parts 0..${next - 1} of ${first.count}`);
  const lists: Record<string, number[]> = {};
  for (const share of shares) for (const [key, values] of Object.entries(share!.lists)) (lists[key] ??= []).push(...values);
  const merged = percentileIntervals(lists);
  const intervals: Report['intervals'] = { ...base.intervals };
  const keys = new Set(shares.flatMap((s) => s!.keys));
  for (const key of keys) {
    const iv = merged[key];
    if (iv) intervals[key as keyof Report['intervals']] = iv;
    else delete intervals[key as keyof Report['intervals']];
  }
  let smoothReliability = base.smoothReliability;
  if (smoothReliability && shares.every((s) => s!.curves)) {
    const band = new SmoothBand(smoothReliability.sigma);
    for (const share of shares) for (const curve of share!.curves!) band.add(curve);
    smoothReliability = band.count > 0 ? { ...smoothReliability, ...band.finish() } : smoothReliability;
  }
  const { bootstrapPart: _share, ...rest } = base;
  return { ...rest, intervals, smoothReliability };
}
