// eval-lens convert --to eee: every result `score PATH` gives (a file, each task of a file holding
// several, every predictions file of a folder, Parquet too) written as one Every Eval Ever evaluation
// under OUT/data/<benchmark>/<developer>/<model>/: <uuid4>.json and <uuid4>_samples.jsonl beside it.
// The reports are scored exactly as `score` scores them, with their per-instance columns; the parse
// each was built from comes along (ScoreOptions.onScored) for what a report does not keep per row.
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ParseResult, Report, ScoreOptions } from '../types';
import { scorePathAsync } from '../scoreAsync';
import { notConvertible, writeEvaluation } from './write';

export interface ConvertedEvaluation {
  /** The source file, and the task of it when it holds several. */
  source: string;
  task?: string;
  aggregatePath: string;
  samplesPath: string;
  rows: number;
  report: Report;
}

export interface ConvertResult {
  written: ConvertedEvaluation[];
  /** Results of `score PATH` that were not written, with why (nothing scored, a data file that is not predictions). */
  notWritten: { source: string; task?: string; reason: string }[];
  /** Every report, as `score PATH` gives them (their problems are the rows score skips). */
  reports: Report[];
}

export interface ConvertOptions {
  /** The converter's name and version, written into each aggregate. */
  generator: string;
  /** Overrides for tests: the uuid of each evaluation and the time written. */
  uuid?: () => string;
  now?: () => number;
}

export async function convertToEee(path: string, outDir: string, options: Partial<ScoreOptions>, c: ConvertOptions): Promise<ConvertResult> {
  const parses = new Map<Report, ParseResult>();
  const scored = await scorePathAsync(path, {
    ...options,
    instances: true,
    onScored: (report, parsed) => { parses.set(report, parsed); options.onScored?.(report, parsed); },
  });
  const result: ConvertResult = { written: [], notWritten: [], reports: scored.reports };
  const retrieved = (c.now ?? (() => Date.now() / 1000))();
  for (const report of scored.reports) {
    const parsed = parses.get(report);
    const why = notConvertible(report) ?? (parsed?.set ? null : 'nothing was scored');
    if (why) {
      result.notWritten.push({ source: report.path, ...(report.task ? { task: report.task } : {}), reason: why });
      continue;
    }
    let evaluation;
    try {
      evaluation = writeEvaluation(report, parsed!, { uuid: (c.uuid ?? randomUUID)(), retrieved, generator: c.generator });
    } catch (e) {
      result.notWritten.push({ source: report.path, ...(report.task ? { task: report.task } : {}), reason: e instanceof Error ? e.message : String(e) });
      continue;
    }
    const folder = join(outDir, ...evaluation.folder.split('/'));
    mkdirSync(folder, { recursive: true });
    const aggregatePath = join(folder, evaluation.aggregateName);
    const samplesPath = join(folder, evaluation.samplesName);
    // The samples first: an aggregate never points at a file that is not there.
    writeFileSync(samplesPath, evaluation.samples, { flag: 'wx' });
    writeFileSync(aggregatePath, `${JSON.stringify(evaluation.aggregate, null, 2)}\n`, { flag: 'wx' });
    result.written.push({ source: report.path, ...(report.task ? { task: report.task } : {}), aggregatePath, samplesPath, rows: evaluation.rows, report });
  }
  return result;
}
