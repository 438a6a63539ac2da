// A task's own per-sample metrics (lm-eval's mae, eqbench, exact_match, …; Report.taskMetrics) as
// the CLI's documents and the report panel show them: the figure, NaN and infinities spelled as
// Python's json writes them, and whether the task's reported figure disagrees with the mean.
// Pure; shared by src/documents/ and webview/.
import type { TaskMetric } from '../core/types';

/** NaN, Infinity, -Infinity as Python spells them (the core's nonFiniteText), or undefined for a finite number. */
export function nonFiniteWord(v: number): 'NaN' | 'Infinity' | '-Infinity' | undefined {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return undefined;
}

/**
 * Whether the task's reported figure disagrees with the mean over its samples: the core's tolerance
 * for finite figures (report.ts `agrees`: 5e-4, or 1e-3 relative), and for a non-finite one, equal
 * spelling (Infinity reported for an infinite mean agrees; Infinity against 4.26 does not).
 */
export function taskMetricDisagrees(t: Pick<TaskMetric, 'mean' | 'reported'>): boolean {
  const { mean, reported } = t;
  if (reported === null || reported === undefined || mean === null) return false;
  if (Number.isFinite(reported) && Number.isFinite(mean)) return Math.abs(reported - mean) > Math.max(5e-4, 1e-3 * Math.abs(mean));
  return nonFiniteWord(reported) !== nonFiniteWord(mean);
}

type Spelled = number | null | 'NaN' | 'Infinity' | '-Infinity';

/** A task metric as it travels to the page: a webview message is JSON, so NaN and infinities go as their spelling. */
export interface WireTaskMetric {
  name: string;
  n: number;
  mean: Spelled;
  interval?: [Spelled, Spelled];
  reported?: Spelled;
}

const spell = (v: number | null): Spelled => (v === null ? null : nonFiniteWord(v) ?? v);
const unspell = (v: unknown): number | null => (typeof v === 'number' ? v : v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : null);

export function taskMetricsToWire(tms: readonly TaskMetric[]): WireTaskMetric[] {
  return tms.map((t) => ({
    name: t.name, n: t.n, mean: spell(t.mean),
    ...(t.interval ? { interval: [spell(t.interval[0]), spell(t.interval[1])] as [Spelled, Spelled] } : {}),
    ...(t.reported !== undefined ? { reported: spell(t.reported) } : {}),
  }));
}

/** Back to numbers; numbers pass through, so it reads both forms. */
export function taskMetricsFromWire(tms: readonly (WireTaskMetric | TaskMetric)[]): TaskMetric[] {
  return tms.map((t) => ({
    name: t.name, n: t.n, mean: unspell(t.mean),
    ...(t.interval ? { interval: [unspell(t.interval[0]) ?? NaN, unspell(t.interval[1]) ?? NaN] as [number, number] } : {}),
    ...(t.reported !== undefined ? { reported: unspell(t.reported) } : {}),
  }));
}
