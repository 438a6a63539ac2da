// Node's file system as a CompanionReader, and file walking for folders. The core's parsers never
// touch fs themselves, so the extension can hand them an unsaved buffer and a worker can run them.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanionReader } from './formats/context';

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
