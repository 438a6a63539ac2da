// What the CI gates found, as the documents print it (score's and compare's Markdown, CSV and
// JSON): the results' shapes and how their numbers read. Evaluating the gates is the CLI's
// (src/cli/gates.ts, src/cli/regression.ts).
import type { MetricName, RateName } from '../core/types';

export type GateOperator = '>' | '>=' | '<' | '<=';

/** `--fail-on "ece>0.05"`: the run fails when a file's ece is > 0.05. */
export interface Gate {
  metric: MetricName | RateName;
  op: GateOperator;
  bound: number;
  /** The expression as given, for messages. */
  text: string;
  /** `accuracy.lower<0.8`: the gate reads a bound of the metric's 95% interval instead of its value. */
  side?: 'lower' | 'upper';
}

export interface GateResult {
  gate: string;
  path: string;
  metric: MetricName | RateName;
  /** null: the file has no value for the metric (undefined AUC, a file not scored). */
  value: number | null;
  op: GateOperator;
  bound: number;
  failed: boolean;
  /** Why a file without a value fails, in a few words. */
  reason?: string;
  /** The gate read this bound of the metric's 95% interval (`accuracy.lower<0.8`). */
  side?: 'lower' | 'upper';
}

/** The `path` of a gate result about the whole run rather than one file. */
export const RUN_PATH = '(all RAFT tasks)';

/** Enough digits that a value just over its bound never prints as equal to it. */
export function gateNumber(v: number): string {
  return String(Number(v.toPrecision(6)));
}

/** One metric of one candidate in a comparison: delta = candidate - baseline, and its test's p-value. */
export interface ComparedMetric {
  metric: string;
  /** The candidate's name (its path, or the name the comparison gave it). */
  run: string;
  delta: number | null;
  p_value: number | null;
  /** The 95% interval of delta (the paired bootstrap), for the non-inferiority gate (--margin). */
  interval?: [number, number] | null;
}

export interface RegressionResult {
  metric: MetricName;
  run: string | null;
  delta: number | null;
  p_value: number | null;
  direction: 'lower' | 'higher';
  /** Significantly worse: p < alpha with the delta in the metric's bad direction (with --margin: the interval reaches beyond it). */
  failed: boolean;
  reason?: string;
  /** --margin δ: the non-inferiority gate's margin, and the interval of delta it read. */
  margin?: number;
  interval?: [number, number] | null;
}
