// The core's asynchronous front door: the same as scorePath/scoreFile, and it also reads Parquet
// files (hyparquet reads asynchronously). Callers that can await (the CLI, the extension's worker)
// use this one; everything that is not Parquet goes through the synchronous path unchanged.
import { statSync } from 'node:fs';
import type { Report, ScoreOptions } from './types';
import type { CompanionReader } from './formats/context';
import { textInput } from './formats/context';
import { isParquetPath, parquetColumnNames, parquetFatal, parquetToText, parquetTypedColumns, PARQUET_NEEDS_ASYNC, textTwin } from './formats/parquet';
import { sizeText } from './formats/progress';
import { isLightevalColumns } from './formats/lightevalDetails';
import { resolveOptions } from './report';
import { maxFileBytes, parseParquetText, readHead, scoreFile, scorePath, scoreParsed, summarize, tooLargeResult, type ScoreResult } from './score';
import { lfsPointer, lfsPointerReason } from './formats/detect';
import { notScoredReport } from './unscored';
import { isDirectory, nodeCompanionReader, readFileBytes } from './io';

/** Share of a Parquet parse's progress spent decoding row groups; the JSON Lines reader has the rest. */
const DECODE_SHARE = 0.5;

async function scoreParquet(path: string, given: ScoreOptions, io: CompanionReader): Promise<Report> {
  const size = statSync(path).size;
  const limit = maxFileBytes(given);
  if (size > limit) return scoreParsed(path, tooLargeResult(path, given.format ?? 'generic', size, limit), given);
  const read = readFileBytes(path);
  if ('tooLarge' in read) return scoreParsed(path, parquetFatal(`${path} is ${sizeText(size)}, ${read.tooLarge}.`), given);
  // A harness's own columns say whose table it is, whatever the file is called (lighteval's details).
  const o: ScoreOptions = given.format === undefined && isLightevalColumns(parquetColumnNames(read.bytes)) ? { ...given, format: 'lighteval' } : given;
  // Binary and confidence tables: the planned columns straight into typed arrays, when nothing
  // reads the file's other columns' values (--where, --slices, --cluster and a --group-by of its
  // own column read them from the CSV text); the lists of columns on offer come from the schema.
  if (!readsOwnColumns(o)) {
    const typed = await parquetTypedColumns(path, read.bytes, o, io, DECODE_SHARE);
    if (typed) {
      o.onProgress?.(1, 'parse');
      return scoreParsed(path, typed, o, { input: () => undefined, io, lineOffset: 1, columnNames: () => parquetColumnNames(read.bytes) });
    }
  }
  const converted = await parquetToText(path, read.bytes, o, DECODE_SHARE);
  const onProgress = o.onProgress && ((f: number, phase: 'parse' | 'score') => o.onProgress!(phase === 'parse' ? DECODE_SHARE + (1 - DECODE_SHARE) * f : f, phase));
  const parsed = parseParquetText(path, converted, o, io, onProgress);
  if ('fatal' in converted) return scoreParsed(path, parsed, o);
  return scoreParsed(path, parsed, o, { input: () => textInput(textTwin(path, converted.as), converted.text), io, lineOffset: converted.headerLines });
}

/** Whether scoring reads the values of the file's own columns beyond the ones it scores. */
function readsOwnColumns(o: ScoreOptions): boolean {
  return !!o.where?.terms.length || !!o.slices || !!o.cluster || (!!o.groupBy && !o.groupBy.dataPath) || (!!o.readColumn && !o.readColumn.dataPath);
}

/** scoreFile, and Parquet files too. */
export async function scoreFileAsync(path: string, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): Promise<Report> {
  const o = resolveOptions(options);
  return isParquetPath(path) ? scoreParquet(path, o, io) : scoreFile(path, o, io);
}

/**
 * scorePath, and Parquet files too (one file, or every prediction file in a folder): the folder walk,
 * task splitting and not-scored listing are scorePath's; the Parquet files it could only mark as
 * needing the async reader are then read here.
 */
export async function scorePathAsync(path: string, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): Promise<ScoreResult> {
  const o = resolveOptions(options);
  if (!isDirectory(path) && isParquetPath(path)) {
    // A Git LFS pointer named .parquet reads as it does in a folder walk: not scored, one reason.
    const pointer = lfsPointer(readHead(path) ?? '');
    const reports = [pointer ? notScoredReport(path, lfsPointerReason(path, pointer), o) : await scoreFileAsync(path, o, io)];
    return { reports, summary: summarize(reports) };
  }
  const result = scorePath(path, o, io);
  const reports: Report[] = [];
  for (const r of result.reports) {
    // A Parquet table's format comes from its rows, unless the user forced one.
    reports.push(isParquetPath(r.path) && r.fatal === PARQUET_NEEDS_ASYNC ? await scoreFileAsync(r.path, o, io) : r);
  }
  return { reports, summary: summarize(reports) };
}
