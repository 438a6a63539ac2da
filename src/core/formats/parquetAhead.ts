// Parquet tables read ahead as text for the synchronous readers. hyparquet reads only
// asynchronously, and compare and the leaderboard parse their runs synchronously (so does a
// comparison's slice finder, reading a run's own columns): before such a job, the Parquet files it
// names (or holds in its folders) are converted here, once, and parseFile and the column readers
// take the converted text while the job runs. The texts are dropped when the job ends, so a
// long-lived process (the extension's worker) keeps none of them.
import { statSync } from 'node:fs';
import type { ScoreOptions } from '../types';
import { isDirectory, readFileBytes, walkFiles } from '../io';
import { sizeText } from './progress';
import { isParquetPath, parquetToText, textTwin, type ParquetText } from './parquet';
import { fileInput, textInput, type FileInput } from './context';

interface Ahead {
  /** mtime and size when read: a file written since is read again, not taken from here. */
  stamp: string;
  converted: ParquetText;
}

const ahead = new Map<string, Ahead>();

function stampOf(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return undefined;
  }
}

/** The Parquet files among `paths`: the files named, and those in the folders named. */
export function parquetFilesOf(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (isDirectory(p)) for (const f of walkFiles(p)) { if (isParquetPath(f)) out.add(f); }
    else if (isParquetPath(p)) out.add(p);
  }
  return [...out];
}

/** The text a job's Parquet file was read ahead as (undefined: not read ahead, or changed since). */
export function parquetAhead(path: string): ParquetText | undefined {
  const entry = ahead.get(path);
  return entry && entry.stamp === stampOf(path) ? entry.converted : undefined;
}

/** The read-ahead text of a Parquet file as the input its text twin's reader takes. */
export function parquetAheadInput(path: string): FileInput | undefined {
  const converted = parquetAhead(path);
  return converted && !('fatal' in converted) ? textInput(textTwin(path, converted.as), converted.text) : undefined;
}

/**
 * Runs `job` with the Parquet files among `paths` read ahead (one that cannot be read is read ahead
 * as its reason, which its parse then gives; one over the size limit is left to the parse's own
 * sentence). Nothing to read: `job` runs as it is.
 */
export async function withParquetAhead<T>(paths: readonly string[], options: Pick<ScoreOptions, 'maxFileBytes' | 'format'>, job: () => T | Promise<T>): Promise<T> {
  const files = parquetFilesOf(paths).filter((f) => !ahead.has(f));
  if (!files.length) return job();
  try {
    for (const path of files) {
      const stamp = stampOf(path);
      if (stamp === undefined) continue;
      const size = statSync(path).size;
      // Over the size limit: not read; its parse says so as any file's does.
      if (options.maxFileBytes !== undefined && size > options.maxFileBytes) continue;
      const read = readFileBytes(path);
      const converted: ParquetText = 'tooLarge' in read ? { fatal: `${path} is ${sizeText(size)}, ${read.tooLarge}.` } : await parquetToText(path, read.bytes, { format: options.format, maxFileBytes: options.maxFileBytes }, 0);
      ahead.set(path, { stamp, converted });
    }
    return await job();
  } finally {
    for (const f of files) ahead.delete(f);
  }
}

/** A file on disk as its reader's input (the column readers: --where, slices, groups): a Parquet table as its read-ahead text, any other file as its bytes. */
export function diskInput(path: string): FileInput | undefined {
  if (isParquetPath(path)) return parquetAheadInput(path);
  const read = readFileBytes(path);
  return 'bytes' in read ? fileInput(path, read.bytes) : undefined;
}

/**
 * The input of a file's own columns and the lines before its row 1 that a parse's lines do not
 * count (a Parquet table's CSV header: its instances are numbered by row), for the column readers.
 */
export function diskSource(path: string): { input: () => FileInput | undefined; lineOffset: number } {
  const converted = isParquetPath(path) ? parquetAhead(path) : undefined;
  return { input: () => diskInput(path), lineOffset: converted && !('fatal' in converted) ? converted.headerLines : 0 };
}
