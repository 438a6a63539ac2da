// Paths as plain strings, with either separator: the core also runs on editor buffers, in workers
// and (for names in titles) in the webview, none of which may lean on Node's `path`.

/** The last part of a path ("a/b.csv" -> "b.csv"; "a\\b\\" -> "b"); the path itself when nothing is left. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || path;
}

/** The folder of a path ("" when it has none; the separator itself for a file at the root). */
export function dirName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  if (i < 0) return '';
  return i === 0 ? path.slice(0, 1) : path.slice(0, i);
}

/** `name` inside folder `dir`, with the folder's own separator (backslash only for a Windows-only path). */
export function joinPath(dir: string, name: string): string {
  if (!dir) return name;
  if (/[\\/]$/.test(dir)) return dir + name;
  return dir + (dir.includes('\\') && !dir.includes('/') ? '\\' : '/') + name;
}
