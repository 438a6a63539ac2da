// The lines under a report's metrics about figures the benchmark reported itself: those without a
// recomputed counterpart (acc_stderr, mcc, ...), and the notes where a name matches but the
// definition differs.
import { METRIC_NAMES, type Report } from '../core/types';
import { formatNumber } from './table';

export function reportedExtras(r: Report): string[] {
  const out: string[] = [];
  const known = new Set<string>(METRIC_NAMES.filter((m) => r.metrics[m] !== undefined));
  const extra = Object.entries(r.reported).filter(([name]) => !known.has(name));
  if (extra.length) out.push(`  also reported: ${extra.map(([name, v]) => `${name} ${formatNumber(v)}`).join(', ')}`);
  for (const [name, note] of Object.entries(r.reportedNotes ?? {})) out.push(`  note on ${name}: ${note}`);
  if (r.tasks && r.tasks.length > 1) out.push(`  tasks in this file: ${r.tasks.join(', ')} (--task NAME picks one)`);
  if (r.models && r.models.length > 1) out.push(`  models in this file: ${r.models.join(', ')}; scored: ${r.model} (--model NAME picks another)`);
  return out;
}
