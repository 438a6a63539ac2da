// Node's file system as a CompanionReader, and file walking for folders. The core's parsers never
// touch fs themselves, so the extension can hand them an unsaved buffer and a worker can run them.
import { closeSync, fstatSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { join } from 'node:path';
import type { CompanionReader } from './formats/context';
import type { ByteSource } from './formats/zipArchive';

export const nodeCompanionReader: CompanionReader = {
  readText(path) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  list(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return undefined;
    }
  },
};

/** Folders never worth walking for prediction files. */
export const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '.venv', 'venv', '__pycache__', '.vscode-test', 'dist', 'out']);

/**
 * Files below a folder, depth first in name order (stable output for the CLI). Symlinked folders
 * are not followed, so a link loop cannot hang the walk.
 */
export function walkFiles(root: string, limit = 100_000): string[] {
  const found: string[] = [];
  const stack = [root];
  while (stack.length && found.length < limit) {
    const dir = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) stack.push(full);
      } else if (e.isFile()) {
        found.push(full);
      }
    }
  }
  // The stack visits in reverse; put files back in path order.
  return found.sort();
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** readFileSync refuses files of 2 GiB and more (ERR_FS_FILE_TOO_LARGE). */
const READ_FILE_SYNC_LIMIT = 2 ** 31 - 1;

/**
 * A file's bytes. Up to 2 GiB by readFileSync; larger files (a raised size limit) are read in
 * pieces into one buffer, up to Node's largest buffer (buffer.constants.MAX_LENGTH, 4 GiB on
 * Node 20). Beyond that, `tooLarge` says why the file cannot be held (not an exception).
 */
export function readFileBytes(path: string): { bytes: Uint8Array } | { tooLarge: string } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < READ_FILE_SYNC_LIMIT) return { bytes: readFileSync(fd) };
    if (size > bufferConstants.MAX_LENGTH) return { tooLarge: `more than Node can hold in one buffer (${Math.floor(bufferConstants.MAX_LENGTH / 1024 ** 3)} GB)` };
    const buf = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const got = readSync(fd, buf, offset, Math.min(1 << 30, size - offset), offset);
      if (got === 0) break;
      offset += got;
    }
    return { bytes: buf.subarray(0, offset) };
  } finally {
    closeSync(fd);
  }
}

/**
 * A file read by range (a large zip's central directory, then one entry at a time) without holding
 * it. Each read opens and closes the file, so nothing is left open whoever holds the source (one
 * open per zip entry costs microseconds beside the entry's inflation). The size is the file's now.
 */
export function fileByteSource(path: string): ByteSource {
  const size = statSync(path).size;
  return {
    size,
    read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = Buffer.allocUnsafe(n);
      const fd = openSync(path, 'r');
      try {
        let got = 0;
        while (got < n) {
          const k = readSync(fd, buf, got, n - got, offset + got);
          if (k === 0) break;
          got += k;
        }
        return got === n ? buf : buf.subarray(0, got);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Whether a file on disk starts like a zip (PK\x03\x04): read by range, not whole. */
export function isZipFile(path: string): boolean {
  try {
    const b = fileByteSource(path).read(0, 4);
    return b.length === 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;
  } catch {
    return false;
  }
}
