// "Compare Runs", "Compare with…" and "Show Leaderboard": which paths a command was invoked on
// (tree nodes with multi-selection, explorer multi-selection, a uri, the active editor), a pick of
// the other run when only one was given, and the panels (comparePanel.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { modelsOf } from '../../core/compareFiles';
import { targetPath } from '../commands';
import { ComparePanel, type CompareDeps } from './comparePanel';
import { showBoard } from '../board/showBoard';
import type { EvalFiles } from '../discovery/evalFiles';
import { ReportPanel } from '../report/reportPanel';
import { FORMAT_LABELS, raftRunOf, type TreeNode } from '../discovery/tree';

/** Paths of a command's arguments: (clicked, selected[]) from a tree or the explorer, or one target. */
export function selectedPaths(a?: unknown, b?: unknown): string[] {
  const list = Array.isArray(b) && b.length ? b : [a];
  const out: string[] = [];
  for (const item of list) {
    const p = targetPath(item); // undefined: the active editor's file
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** The folder a leaderboard command was invoked on (folder uri, RAFT run node, a group's common folder). */
export function folderOf(files: EvalFiles, arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (typeof arg === 'string') return arg;
  const node = arg as TreeNode | undefined;
  // A run node: the folder of its sibling runs, so the board has a row per run.
  if (node?.kind === 'raftRun') return path.dirname(node.dir);
  if (node?.kind === 'group') {
    const dirs = files.all().filter((e) => e.format === node.format).map((e) => (e.format === 'raft' ? path.dirname(raftRunOf(e)) : path.dirname(e.path)));
    return commonFolder(dirs);
  }
  if (node?.kind === 'file') return path.dirname(node.entry.path);
  return undefined;
}

function commonFolder(dirs: string[]): string | undefined {
  if (!dirs.length) return undefined;
  let common = dirs[0];
  for (const d of dirs) while (common && d !== common && !d.startsWith(common.endsWith(path.sep) ? common : common + path.sep)) {
    const up = path.dirname(common);
    if (up === common) return common;
    common = up;
  }
  return common;
}

/** Asks for the run to compare `baseline` with, among the prediction files of the same format. */
async function pickOther(files: EvalFiles, baseline: string): Promise<string | undefined> {
  const own = files.all().find((e) => e.path === baseline);
  const candidates = files.all()
    .filter((e) => e.path !== baseline && (!own || e.format === own.format))
    .sort((x, y) => x.path.localeCompare(y.path));
  const items: (vscode.QuickPickItem & { path?: string })[] = candidates.map((e) => ({
    label: path.basename(e.format === 'raft' ? path.dirname(e.path) : e.path),
    description: `${FORMAT_LABELS[e.format]}${e.format === 'raft' ? ` · ${path.basename(raftRunOf(e))}` : ''}`,
    detail: vscode.workspace.asRelativePath(e.path),
    path: e.path,
  }));
  items.push({ label: '$(folder-opened) Choose a file…', path: undefined });
  const chosen = await vscode.window.showQuickPick(items, { title: `Compare ${path.basename(baseline)} with…`, matchOnDetail: true, placeHolder: 'The candidate run (the first is the baseline)' });
  if (!chosen) return undefined;
  if (chosen.path) return chosen.path;
  const uris = await vscode.window.showOpenDialog({ canSelectMany: false, canSelectFolders: false, openLabel: 'Compare' });
  return uris?.[0]?.fsPath;
}

/** Asks for a folder: those holding prediction files (and their parents), or any folder. */
async function pickFolder(files: EvalFiles): Promise<string | undefined> {
  const below = new Map<string, number>();
  for (const e of files.all()) {
    // Every folder above the file, up to its workspace folder: runs sit at any depth (a RAFT file at
    // <runs>/<run>/<task>/predictions.csv, a HELM run folder in a suite in a run's folder, ...).
    const workspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(e.path))?.uri.fsPath;
    if (!workspace) continue;
    // A RAFT run is its folder of task files: the run itself is a row, not a board.
    let dir = e.format === 'raft' ? raftRunOf(e) : path.dirname(e.path);
    for (;;) {
      below.set(dir, (below.get(dir) ?? 0) + 1);
      if (dir === workspace || path.dirname(dir) === dir || !dir.startsWith(workspace)) break;
      dir = path.dirname(dir);
    }
  }
  const items: (vscode.QuickPickItem & { path?: string })[] = [...below].sort((x, y) => x[0].localeCompare(y[0])).map(([dir, n]) => ({
    label: vscode.workspace.asRelativePath(dir, false) || path.basename(dir),
    description: `${n} prediction file${n === 1 ? '' : 's'}`,
    path: dir,
  }));
  items.push({ label: '$(folder-opened) Choose a folder…' });
  const chosen = await vscode.window.showQuickPick(items, { title: 'Show the leaderboard of the runs below…', matchOnDescription: true });
  if (!chosen) return undefined;
  if (chosen.path) return chosen.path;
  const uris = await vscode.window.showOpenDialog({
    canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Show Leaderboard',
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return uris?.[0]?.fsPath;
}

/** The `with` of a `{ with: Uri | string }` argument: the run to compare the active one with. */
function withOf(arg: unknown): string | undefined {
  const other = arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as { with?: unknown }).with : undefined;
  return other instanceof vscode.Uri ? other.fsPath : typeof other === 'string' ? other : undefined;
}

export function registerCompareCommands(files: EvalFiles, deps: CompareDeps): vscode.Disposable {
  return vscode.Disposable.from(
    ComparePanel.registerSerializers(deps),
    vscode.commands.registerCommand('evalLens.compare', async (a?: unknown, b?: unknown) => {
      const paths = selectedPaths(a, b);
      // One file with several models' columns (Prob_LogReg, Prob_SVM, ...): its models are the runs.
      if (paths.length === 1 && modelsOf(paths[0]).length >= 2) return ComparePanel.showComparison(deps, paths);
      if (paths.length === 1) {
        const other = await pickOther(files, paths[0]);
        if (!other) return undefined;
        paths.push(other);
      }
      if (paths.length < 2) {
        void vscode.window.showInformationMessage('Eval Lens: select two or more prediction files (Ctrl/Cmd-click in the Eval Lens view), then choose Compare.');
        return undefined;
      }
      return ComparePanel.showComparison(deps, paths);
    }),
    vscode.commands.registerCommand('evalLens.compareWith', async (a?: unknown, b?: unknown) => {
      // `{ with: uri }` names the other run and leaves the baseline to the active tab (tests, keybindings).
      const given = withOf(a);
      const paths = selectedPaths(given ? undefined : a, b);
      // From the command palette: the active tab's file (text, or the report editor via
      // targetPath's active-tab fallback), else the report panel in front.
      const baseline = paths[0] ?? ReportPanel.current?.path;
      if (!baseline) {
        void vscode.window.showInformationMessage('Eval Lens: open a predictions file or its report first.');
        return undefined;
      }
      const other = paths[1] ?? given ?? (await pickOther(files, baseline));
      return other ? ComparePanel.showComparison(deps, [baseline, other]) : undefined;
    }),
    vscode.commands.registerCommand('evalLens.showLeaderboard', async (arg?: unknown) => {
      const folder = folderOf(files, arg) ?? (await pickFolder(files));
      return folder ? showBoard(deps, folder) : undefined;
    }),
  );
}
