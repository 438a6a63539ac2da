// A file's mtime and size: what a scored result is tied to (the worker records it around a read; the
// host compares it before reusing a result made earlier).
import { statSync } from 'node:fs';

export interface FileStamp {
  mtime: number;
  size: number;
}

/** The stamp of `path` now, or undefined when it cannot be read. */
export function fileStamp(path: string): FileStamp | undefined {
  try {
    const st = statSync(path);
    return { mtime: st.mtimeMs, size: st.size };
  } catch {
    return undefined;
  }
}
