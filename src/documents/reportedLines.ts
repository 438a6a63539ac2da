// The lines under a report's metrics about figures the benchmark reported itself: those without a
// recomputed counterpart (acc_stderr, mcc, ...), and the notes where a name matches but the
// definition differs.
import { METRIC_NAMES, type Report } from '../core/types';
import { formatNumber } from './table';
import { taskMetricDisagrees } from '../common/taskMetrics';
import { reportedOnMore, reportedOnText } from '../common/reportedOn';

/**
 * The task's own per-sample metrics (lm-eval's mae, eqbench, …): name, mean over the samples that
 * logged it with its interval, and the task's reported figure, marked when it disagrees.
 */
export function taskMetricLines(r: Report): string[] {
  const tms = r.taskMetrics ?? [];
  if (!tms.length) return [];
  const withCi = tms.some((t) => t.interval);
  const width = Math.max(13, ...tms.map((t) => t.name.length));
  const out = [`  task metrics (logged per sample by the task; mean${withCi ? ' [95% CI]' : ''}):`];
  for (const t of tms) {
    let line = `    ${t.name.padEnd(width)} ${formatNumber(t.mean).padStart(8)}`;
    if (t.interval) line += `  [${formatNumber(t.interval[0])}, ${formatNumber(t.interval[1])}]`;
    if (t.n !== r.n) line += `  n=${t.n}`;
    if (t.reported !== undefined) line += `   reported ${formatNumber(t.reported)}${reportedOnText(r)}${!reportedOnMore(r) && taskMetricDisagrees(t) ? '  ✗ disagrees' : ''}`;
    out.push(line);
  }
  return out;
}

export function reportedExtras(r: Report): string[] {
  const out: string[] = [];
  // A task metric's reported figure stands beside it (taskMetricLines), not again here.
  const known = new Set<string>([...METRIC_NAMES.filter((m) => r.metrics[m] !== undefined), ...(r.taskMetrics ?? []).filter((t) => t.reported !== undefined).map((t) => t.name)]);
  const extra = Object.entries(r.reported).filter(([name]) => !known.has(name));
  if (extra.length) out.push(`  also reported: ${extra.map(([name, v]) => `${name} ${formatNumber(v)}`).join(', ')}`);
  for (const [name, note] of Object.entries(r.reportedNotes ?? {})) out.push(`  note on ${name}: ${note}`);
  if (r.tasks && r.tasks.length > 1) out.push(`  tasks in this file: ${r.tasks.join(', ')} (--task NAME picks one)`);
  if (r.models && r.models.length > 1) out.push(`  models in this file: ${r.models.join(', ')}; scored: ${r.model} (--model NAME picks another)`);
  return out;
}
