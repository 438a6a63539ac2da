// What a sample page is sent: each target (a run's file and row) with the reader's answer for it,
// its record or why it could not be read. Used by the sample panel and the report page's sample
// peek alike. No vscode import: plain data.
import type { FormatName, Report, SampleRow } from '../../core/types';
import type { SampleSide } from '../../protocol';
import { instanceId } from '../../common/instanceIds';
import { SAMPLE_FILE_FORMATS } from '../../common/sampleView';
import { baseName } from '../../common/paths';
import type { SampleReply } from '../worker/workerProtocol';

/** What to show on one side: which file and row (the record is read when shown). */
export interface SampleTarget {
  label: string;
  path: string;
  format: FormatName;
  row: SampleRow;
  task?: string;
}

/** Reads the samples (the sample worker's 'sample' request). */
export type SampleReader = (targets: SampleTarget[]) => Promise<SampleReply[]>;

/** Each target with its answer (a missing answer is said as such). */
export function sampleSides(targets: readonly SampleTarget[], answers: readonly (SampleReply | undefined)[]): SampleSide[] {
  return targets.map((t, k) => {
    const a = answers[k] ?? { error: 'no answer' };
    return { label: t.label, path: t.path, format: t.format, row: t.row, ...('error' in a ? { error: a.error } : { record: a.record, from: a.from }) };
  });
}

/** Reads `targets`, a failure of the reader being each side's error. */
export async function readSides(reader: SampleReader | undefined, targets: SampleTarget[]): Promise<SampleSide[]> {
  let answers: SampleReply[];
  try {
    if (!reader) throw new Error('Eval Lens is not ready to read samples yet.');
    answers = await reader(targets);
  } catch (error) {
    answers = targets.map(() => ({ error: error instanceof Error ? error.message : String(error) }));
  }
  return sampleSides(targets, answers);
}

/**
 * The first row of the first report whose file keeps its samples: read ahead when the report is
 * shown, so that the first click's read runs on a warm reader (the first read of a fresh worker
 * took 50 to 85 ms on the 300 MB log, the next ones 8 to 30 ms).
 */
export function firstSampleTarget(reports: readonly Report[]): SampleTarget | undefined {
  for (const report of reports) {
    const inst = report.instances;
    if (!SAMPLE_FILE_FORMATS.includes(report.format) || !inst?.lines.length) continue;
    const row: SampleRow = { line: inst.lines[0] };
    const id = instanceId(inst, 0);
    if (id !== undefined) row.id = id;
    return { label: baseName(report.path), path: report.path, format: report.format, task: report.task, row };
  }
  return undefined;
}
