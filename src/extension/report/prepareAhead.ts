// Which files get their report made ahead (preparedReports.ts), with evalLens.prepareReports on
// (the default): once the tree has scored every file it knows (its worker then keeps their
// parses), the PREPARE_COUNT newest files that a click opens as a report (large or binary,
// reportEditor.ts trackedOpensAsReport; so nothing is prepared with evalLens.openLargeFilesAsReport off),
// unless a report tab shows them already. Chosen again whenever the tree's scores change (a file
// written, settings changed) or either setting does.
import * as vscode from 'vscode';
import type { EvalFiles } from '../discovery/evalFiles';
import type { ReportScoring } from '../worker/scoring';
import { choosePrepared, type PrepareCandidate } from './preparedReports';
import { REPORT_EDITOR_VIEW_TYPE, trackedOpensAsReport } from './reportEditor';
import { SECTION } from '../settings';

/** After the tree's last score, before choosing (a burst of file events scores files one by one). */
const SETTLE_MS = 250;

/** evalLens.prepareReports (default on). */
function prepareReports(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('prepareReports', true) !== false;
}

function reportTabOpen(path: string): boolean {
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === REPORT_EDITOR_VIEW_TYPE && t.input.uri.fsPath === path));
}

export function registerPrepareAhead(files: EvalFiles, scoring: ReportScoring, log: (line: string) => void): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const choose = () => {
    if (!prepareReports()) {
      scoring.prepared.clear();
      return;
    }
    // The mtime and size the tree scored each file at: no file is read or stat'ed to choose (the
    // tree is idle, so they are the files' own; prepare() checks the chosen ones' again).
    const candidates: PrepareCandidate[] = files.all()
      .filter((e) => e.discovered && e.result && !e.error && e.disk && trackedOpensAsReport(e.path, e.disk.size))
      .map((e) => ({ path: e.path, mtime: e.disk!.mtime, size: e.disk!.size }));
    const chosen = choosePrepared(candidates);
    scoring.prepared.retain(new Set(chosen));
    for (const path of chosen) {
      if (reportTabOpen(path)) continue;
      if (!scoring.prepared.paths().includes(path)) log(`prepare: the report of ${path} is made ahead (one of the ${chosen.length} newest files that open as a report)`);
      scoring.prepare(path);
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (files.pendingCount === 0) choose();
    }, SETTLE_MS);
  };
  const subs = [
    files.onDidChange(schedule),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.prepareReports`) || e.affectsConfiguration(`${SECTION}.openLargeFilesAsReport`)) schedule();
    }),
  ];
  return {
    dispose: () => {
      clearTimeout(timer);
      for (const sub of subs) sub.dispose();
    },
  };
}
