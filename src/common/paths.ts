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

/** File names that say nothing of the run: a RAFT submission's predictions.csv, lm-eval's results.json. */
const GENERIC_NAMES = /^(predictions?|preds|results?|samples?|outputs?|submission)(\.[^.]+)+$/i;

/**
 * A short name for a run's file in a tab's title: the file's name, or, when that name says nothing of
 * the run (`run-2/banking_77/predictions.csv`), the task and the run: `banking_77 · run-2`.
 */
export function runLabel(path: string): string {
  const name = baseName(path);
  if (!GENERIC_NAMES.test(name)) return name;
  const task = dirName(path.replace(/[\\/]+$/, ''));
  const run = dirName(task);
  return [task && baseName(task), run && baseName(run)].filter((p) => p && !/^[\\/]$/.test(p)).join(' · ') || name;
}

/**
 * Labels that tell a set of paths apart: runLabel, then, for labels two paths share, the folders above
 * until they differ (`Mistral.csv · a`, `Mistral.csv · b`). The path itself when nothing differs.
 */
export function runLabels(paths: readonly string[]): string[] {
  const labels = paths.map(runLabel);
  const parents = paths.map((p) => {
    const parts = p.replace(/[\\/]+$/, '').split(/[\\/]/).filter(Boolean);
    // Folders above those runLabel already names.
    return parts.slice(0, Math.max(0, parts.length - (GENERIC_NAMES.test(baseName(p)) ? 3 : 1))).reverse();
  });
  for (let depth = 0; depth < 8; depth++) {
    const seen = new Map<string, number>();
    for (const l of labels) seen.set(l, (seen.get(l) ?? 0) + 1);
    if (![...seen.values()].some((n) => n > 1)) break;
    let grew = false;
    labels.forEach((l, k) => {
      if ((seen.get(l) ?? 0) > 1 && parents[k][depth]) {
        labels[k] = `${l} · ${parents[k][depth]}`;
        grew = true;
      }
    });
    if (!grew) break;
  }
  return labels;
}
