// The leaderboard's host side: the runs below a folder scored in the worker and shown as a board
// (runs × tasks) in the compare panel's page (dist/compare.js, webview/board/), and the pair of
// runs a user ticks on it compared.
import { baseName } from '../../common/paths';
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

/** The files of two ticked runs for one task of the board, or undefined when either is missing. */
export function boardPairPaths(board: BoardView, runs: unknown, task: string): [string, string] | undefined {
  const [a, b] = Array.isArray(runs) ? runs : ['', ''];
  const left = board.paths[String(a)]?.[task];
  const right = board.paths[String(b)]?.[task];
  return left && right ? [left, right] : undefined;
}
