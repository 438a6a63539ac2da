// The report's "Group by", "Cluster by" (issue 18) and "Join data file…": the data file of a predictions file (picked in the
// report, else the evalLens.dataFiles setting), the column chosen, both remembered per predictions
// file (workspaceState, through ReportScoring), and the options that make the worker slice; also
// the "Model" scored in a file holding several models' columns, remembered the same way.
import * as vscode from 'vscode';
import type { ScoreOptions } from '../../core/types';
import { globToRegExp } from '../discovery/glob';
import type { EvalLensSettings } from '../settings';
import type { ReportScoring, ScoreChoice } from '../worker/scoring';

/** The data file for `path`: the one picked for it, else the first evalLens.dataFiles glob it matches. */
export function dataFileFor(path: string, choice: ScoreChoice, settings: EvalLensSettings): string | undefined {
  if (choice.dataFile) return choice.dataFile;
  const relative = vscode.workspace.asRelativePath(path, false).replace(/\\/g, '/');
  const posix = path.replace(/\\/g, '/');
  return settings.dataFiles.find(({ glob }) => {
    const re = globToRegExp(glob);
    return re.test(relative) || re.test(posix);
  })?.dataPath;
}

/** Options for the panel: the columns on offer always, the groups when a column is chosen. */
export function sliceOptions(path: string, choice: ScoreChoice, settings: EvalLensSettings): Partial<ScoreOptions> {
  const dataPath = dataFileFor(path, choice, settings);
  const o: Partial<ScoreOptions> = { listColumns: dataPath ? { dataPath } : {} };
  if (choice.model) o.model = choice.model;
  if (choice.groupBy) o.groupBy = { column: choice.groupBy, ...(dataPath && choice.groupByData !== false ? { dataPath } : {}) };
  if (choice.clusterBy) o.cluster = { column: choice.clusterBy, ...(dataPath && choice.clusterByData !== false ? { dataPath } : {}) };
  return o;
}

/** The webview asked for a column (null: no grouping) or a data file: remember it; true to re-score. */
export async function handleSliceRequest(
  scoring: ReportScoring, path: string,
  request: { type: 'groupBy' | 'clusterBy'; column: string | null; fromData?: boolean } | { type: 'pickDataFile' } | { type: 'chooseModel'; model: string },
): Promise<boolean> {
  const choice = scoring.choiceFor(path);
  if (request.type === 'chooseModel') {
    if (typeof request.model !== 'string' || !request.model) return false;
    scoring.remember(path, { ...choice, model: request.model });
    return true;
  }
  if (request.type === 'groupBy') {
    scoring.remember(path, { ...choice, groupBy: request.column ?? undefined, groupByData: request.column ? request.fromData !== false : undefined });
    return true;
  }
  if (request.type === 'clusterBy') {
    if (request.column !== null && (typeof request.column !== 'string' || !request.column)) return false;
    scoring.remember(path, { ...choice, clusterBy: request.column ?? undefined, clusterByData: request.column ? request.fromData !== false : undefined });
    return true;
  }
  const picked = await vscode.window.showOpenDialog({
    title: 'Join a data file to the predictions on their IDs',
    openLabel: 'Join',
    canSelectMany: false,
    defaultUri: vscode.Uri.file(path).with({ path: vscode.Uri.file(path).path.replace(/[^/]*$/, '') }),
    filters: { 'Data files': ['csv', 'tsv'] },
  });
  if (!picked?.length) return false;
  scoring.remember(path, { ...choice, dataFile: picked[0].fsPath });
  return true;
}
