// Whose Parquet table a file is, from its footer alone: a Parquet file's schema is at its end, so
// the first kilobytes detection reads (detect.ts) only say "a Parquet table". The footer is read
// here (the last 8 bytes give its length), never the rows, so the editor's tree and a folder walk
// name a lighteval details file as `score FILE` does, whatever the file is called.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parquetMetadata, parquetSchema } from 'hyparquet';
import type { FormatName } from '../types';
import { isLightevalColumns } from './lightevalDetails';

/** A footer longer than this is not read for detection (the full read says what it holds). */
const MAX_FOOTER_BYTES = 16 * 1024 * 1024;

/** The top-level column names of a Parquet file on disk, from its footer; undefined when it cannot be read. */
export function parquetFooterColumns(path: string): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size < 12) return undefined;
    const tail = Buffer.alloc(8);
    readSync(fd, tail, 0, 8, size - 8);
    if (tail.toString('latin1', 4) !== 'PAR1') return undefined;
    const length = tail.readUInt32LE(0);
    if (length > MAX_FOOTER_BYTES || length + 8 > size - 4) return undefined;
    // The footer and its 8-byte tail, alone: hyparquet reads the metadata from the buffer's end.
    const footer = new Uint8Array(length + 8);
    readSync(fd, footer, 0, length + 8, size - length - 8);
    return parquetSchema(parquetMetadata(footer.buffer)).children.map((c) => c.element.name);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The harness whose table a Parquet file is, by its columns (lighteval's details), if any. */
export function parquetHarness(path: string): FormatName | undefined {
  const names = parquetFooterColumns(path);
  return names && isLightevalColumns(names) ? 'lighteval' : undefined;
}
