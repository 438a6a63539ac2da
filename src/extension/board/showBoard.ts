// The leaderboard's host side: the runs below a folder scored in the worker and shown as a board
// (runs × tasks) in the compare panel's page (dist/compare.js, webview/board/), and the pair of
// runs a user ticks on it compared.
import { baseName, dirName } from '../../common/paths';
import { ComparePanel, type CompareDeps } from '../compare/comparePanel';
import type { BoardView, CompareHostToWebview } from '../../common/compareProtocol';

/** The leaderboard of the runs below `folder`. */
export async function showBoard(deps: CompareDeps, folder: string): Promise<ComparePanel> {
  const target = ComparePanel.open(deps, 'board', `Leaderboard: ${baseName(folder)}`);
  await target.run(`Leaderboard of ${baseName(folder)}`, folder, (signal, onProgress) =>
    deps.pool.run(
      { type: 'board', path: folder, options: deps.options(folder), maxBytes: deps.maxBytes() },
      { priority: 'interactive', signal, onProgress },
    ).then((reply) => {
      if (reply.type === 'boarded') return { type: 'board', view: reply.view, restore: { mode: 'board', folder } } as CompareHostToWebview;
      throw new Error(reply.type === 'failed' ? reply.message : `unexpected reply ${reply.type}`);
    }));
  return target;
}

/**
 * What two ticked runs of the board compare: their files for one task, or (task null) the whole runs:
 * a run of one file is that file; a run of several is its folder (RAFT: <run>/<task>/predictions.csv,
 * lm-eval: the folder of its samples files), compared task by task as `eval-lens compare run-1 run-2`
 * does. Undefined when either is missing or the two runs share a folder.
 */
export function boardPairPaths(board: BoardView, runs: unknown, task: unknown): [string, string] | undefined {
  const [a, b] = Array.isArray(runs) ? runs : ['', ''];
  if (typeof task === 'string') {
    const left = board.paths[String(a)]?.[task];
    const right = board.paths[String(b)]?.[task];
    return left && right ? [left, right] : undefined;
  }
  if (task !== null) return undefined;
  const files = (run: unknown) => Object.values(board.paths[String(run)] ?? {});
  const fa = files(a);
  const fb = files(b);
  if (!fa.length || !fb.length) return undefined;
  if (fa.length === 1 && fb.length === 1) return [fa[0], fb[0]];
  const da = runFolder(fa);
  const db = runFolder(fb);
  const inside = (x: string, y: string) => x === y || x.startsWith(y.endsWith('/') || y.endsWith('\\') ? y : `${y}/`) || x.startsWith(`${y}\\`);
  if (!da || !db || inside(da, db) || inside(db, da)) return undefined;
  return [da, db];
}

/** The folder of a run's files: a RAFT run's <run> (above <task>/predictions.csv), else their common folder. */
function runFolder(files: string[]): string {
  if (files.every((f) => /^predictions\.csv$/i.test(baseName(f)))) return dirName(dirName(files[0]));
  let common = dirName(files[0]);
  for (const f of files) {
    while (common && !(dirName(f) === common || dirName(f).startsWith(`${common}/`) || dirName(f).startsWith(`${common}\\`))) {
      const up = dirName(common);
      if (up === common) break;
      common = up;
    }
  }
  return common;
}
