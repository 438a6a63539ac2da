// CI gates: `--fail-on "ece>0.05"` bounds a metric in every file scored (the regression gate of
// compare is in regression.ts). A failed gate exits 3.
import { METRIC_NAMES, RATE_NAMES, type MetricName, type Report } from '../core/types';
import { UsageError } from './args';
import { gateNumber, RUN_PATH, type Gate, type GateOperator, type GateResult } from '../documents/gateResults';

export { gateNumber, RUN_PATH, type Gate, type GateOperator, type GateResult } from '../documents/gateResults';

/** The exit status of a run in which a gate failed (0 ok, 1 usage, 2 nothing scored). */
export const GATE_FAILED = 3;

const EXPRESSION = /^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_]+))?\s*([<>=!]+)\s*(.*?)\s*$/;
const SIDES = ['lower', 'upper'] as const;
const OPERATORS: readonly GateOperator[] = ['>', '>=', '<', '<='];

/** A metric name as the user typed it, checked; `rates` also admits the binary rates (tpr, fpr, ...). */
export function metricName(name: string, option: string, rates = false): MetricName {
  const m = name.trim().toLowerCase();
  const known: readonly string[] = rates ? [...METRIC_NAMES, ...RATE_NAMES] : METRIC_NAMES;
  if (!known.includes(m)) throw new UsageError(`${option}: unknown metric '${name.trim()}'; metrics are ${known.join(', ')}.`);
  return m as MetricName;
}

/** Parses one --fail-on expression: METRIC[.lower|.upper] OP NUMBER with OP one of > >= < <=. */
export function parseGate(text: string): Gate {
  const match = EXPRESSION.exec(text);
  if (!match) throw new UsageError(`--fail-on takes METRIC OP NUMBER (OP one of ${OPERATORS.join(' ')}), e.g. "ece>0.05" or "accuracy.lower<0.8"; got '${text}'.`);
  const [, name, sideText, op, raw] = match;
  const metric = metricName(name, '--fail-on', true);
  const side = sideText?.toLowerCase();
  if (side !== undefined && !SIDES.includes(side as 'lower')) {
    throw new UsageError(`--fail-on: '${name}.${sideText}' in '${text}': after the metric comes .lower or .upper (a bound of its 95% interval), e.g. "accuracy.lower<0.8".`);
  }
  if (!OPERATORS.includes(op as GateOperator)) {
    throw new UsageError(`--fail-on: operator '${op}' in '${text}' is not one of ${OPERATORS.join(' ')}.`);
  }
  const bound = Number(raw);
  if (raw === '' || !Number.isFinite(bound)) throw new UsageError(`--fail-on: bound '${raw}' in '${text}' is not a number.`);
  return { metric, op: op as GateOperator, bound, text: `${metric}${side ? `.${side}` : ''}${op}${raw}`, ...(side ? { side: side as 'lower' | 'upper' } : {}) };
}

export function parseGates(texts: string[] | undefined): Gate[] {
  return (texts ?? []).map(parseGate);
}

function crosses(value: number, op: GateOperator, bound: number): boolean {
  switch (op) {
    case '>': return value > bound;
    case '>=': return value >= bound;
    case '<': return value < bound;
    case '<=': return value <= bound;
  }
}

/**
 * Checks every gate against every file. A file that computes the metric but has no value for it
 * (AUC with one class) or was not scored at all fails: a gate must not pass on what it cannot see.
 * A file of a kind that never has the metric (spearman on binary predictions) is not checked, but a
 * gate that checks no file at all fails, so a misspelt intent cannot pass silently.
 */
export function checkGates(reports: Report[], gates: Gate[], summary: { raft_score?: number | null } = {}): GateResult[] {
  const out: GateResult[] = [];
  for (const gate of gates) {
    const base = { gate: gate.text, metric: gate.metric, op: gate.op, bound: gate.bound, ...(gate.side ? { side: gate.side } : {}) };
    let checked = 0;
    if (gate.side && gate.metric === 'raft_score' && summary.raft_score !== undefined) {
      out.push({ ...base, path: RUN_PATH, value: null, failed: true, reason: 'raft_score has no interval' });
      continue;
    }
    // raft_score belongs to the run (mean macro_f1 over the tasks), not to one file.
    if (gate.metric === 'raft_score' && summary.raft_score !== undefined) {
      const v = summary.raft_score;
      out.push(v === null ? { ...base, path: RUN_PATH, value: null, failed: true, reason: 'raft_score is undefined' } : { ...base, path: RUN_PATH, value: v, failed: crosses(v, gate.op, gate.bound) });
      continue;
    }
    for (const r of reports) {
      // A data file the folder scan looked at and did not take as predictions is not a run, nor is a summary's figures.
      if (r.notScored || r.summary) continue;
      if (r.fatal || r.n === 0) {
        out.push({ ...base, path: r.path, value: null, failed: true, reason: `not scored${r.fatal ? `: ${r.fatal.replace(/\.$/, '')}` : ''}` });
        checked++;
        continue;
      }
      if (!(gate.metric in r.metrics)) continue;
      checked++;
      if (gate.side) {
        const ci = r.intervals[gate.metric];
        const b = ci?.[gate.side === 'lower' ? 0 : 1];
        if (b === undefined || !Number.isFinite(b)) {
          out.push({ ...base, path: r.path, value: null, failed: true, reason: `${gate.metric} has no 95% interval: use --bootstrap N or --interval t|wilson` });
        } else {
          out.push({ ...base, path: r.path, value: b, failed: crosses(b, gate.op, gate.bound) });
        }
        continue;
      }
      const v = r.metrics[gate.metric];
      if (v === null || v === undefined || !Number.isFinite(v)) {
        out.push({ ...base, path: r.path, value: null, failed: true, reason: `${gate.metric} is undefined for this file` });
      } else {
        out.push({ ...base, path: r.path, value: v, failed: crosses(v, gate.op, gate.bound) });
      }
    }
    if (!checked) out.push({ ...base, path: '', value: null, failed: true, reason: `no file scored has ${gate.metric}` });
  }
  return out;
}

/** One line per failed gate: file, metric, value and bound. */
export function gateFailureLines(results: GateResult[]): string[] {
  return results.filter((g) => g.failed).map((g) => {
    const where = g.path || '(no file)';
    if (g.value === null) return `eval-lens: gate failed: ${where}: ${g.gate}: ${g.reason}.`;
    const what = g.side ? `${g.metric}.${g.side} (the ${g.side} bound of its 95% interval)` : g.metric;
    return `eval-lens: gate failed: ${where}: ${what} = ${gateNumber(g.value)} ${g.op} ${gateNumber(g.bound)} (--fail-on "${g.gate}").`;
  });
}

/** The lines a run prints about its gates: each failure, then one summary line. */
export function gateReport(results: GateResult[], gates: Gate[]): string {
  if (!gates.length) return '';
  const failed = results.filter((g) => g.failed).length;
  const lines = gateFailureLines(results);
  lines.push(failed
    ? `eval-lens: ${failed} of ${results.length} gate check${results.length === 1 ? '' : 's'} failed (exit ${GATE_FAILED}).`
    : `eval-lens: ${results.length === 1 ? 'the gate check' : `all ${results.length} gate checks`} passed (${gates.map((g) => g.text).join(', ')}).`);
  return lines.map((l) => l + '\n').join('');
}
