// The "Eval Lens" tree: prediction files grouped by benchmark, each with its headline metric and
// problem count; RAFT task files grouped under their run folder with the run's raft_score.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FormatName } from '../../core/types';
import { FORMAT_NAMES } from '../../core/types';
import type { EvalFiles, FileEntry } from './evalFiles';
import { headlineText, metricRows, plural, problemCount, raftScore, summaryLine, formatNumber } from '../editor/headline';
import { escapeMarkdown } from '../editor/hover';
import type { UnscoredFiles } from './unscoredFiles';
import { OPEN_FILE_COMMAND } from '../report/reportEditor';

export const FORMAT_LABELS: Record<FormatName, string> = {
  folktexts: 'folktexts', raft: 'RAFT', almanacs: 'ALMANACS', 'lm-eval': 'lm-eval', inspect: 'Inspect', generic: 'generic',
  helm: 'HELM', lighteval: 'lighteval', promptfoo: 'promptfoo', opencompass: 'OpenCompass', eee: 'Every Eval Ever',
  alpacaeval: 'AlpacaEval', 'mt-bench': 'MT-Bench', arena: 'arena battles', 'arena-hard': 'Arena-Hard-Auto', summary: 'summaries',
};

export type TreeNode =
  | { kind: 'group'; format: FormatName }
  | { kind: 'raftRun'; dir: string }
  | { kind: 'file'; entry: FileEntry }
  /** Data files discovery looked at and did not take as predictions, each with its reason. */
  | { kind: 'notScoredGroup' }
  | { kind: 'notScored'; uri: vscode.Uri; reason: string };

/**
 * A file's name without what its group already says: "Mistral-7B.ACSIncome" for
 * Mistral-7B.ACSIncome.test_predictions.csv, "arc_easy" for samples_arc_easy_2025-01-01T00-00-00.jsonl,
 * the task folder for RAFT. The sidebar is narrow and the metric must stay visible.
 */
export function shortName(entry: Pick<FileEntry, 'path' | 'format'>): string {
  const name = path.basename(entry.path);
  let short = name;
  if (entry.format === 'raft' && name === 'predictions.csv') short = path.basename(path.dirname(entry.path));
  else if (entry.format === 'folktexts') short = name.replace(/\.test_predictions\.csv$/i, '');
  else if (entry.format === 'lm-eval') short = name.replace(/^samples_/, '').replace(/_\d{4}-\d{2}-\d{2}T[\d.:-]+\.jsonl$/, '').replace(/\.jsonl$/, '');
  else if (entry.format === 'almanacs') short = name.replace(/(\.predictions)?\.jsonl?$/i, '');
  return short || name;
}

/** A RAFT predictions file sits at <run>/<task>/predictions.csv. */
export function raftRunOf(entry: FileEntry): string {
  return path.dirname(path.dirname(entry.path));
}

export class PredictionTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly files: EvalFiles, private readonly unscored?: UnscoredFiles) {}

  /**
   * The files the tree lists: those discovery found, and files opened by hand inside a workspace
   * folder. A file outside the workspace is tracked while it is open (CodeLens, hover), but it is
   * not part of the workspace's prediction files, and nothing would tell the tree it was deleted.
   */
  private listed(): FileEntry[] {
    return this.files.all().filter((e) => e.discovered || vscode.workspace.getWorkspaceFolder(e.uri) !== undefined);
  }

  /** Coalesces the many changes of a discovery run into one redraw. */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed.fire(undefined);
    }, 100);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const byName = (a: FileEntry, b: FileEntry) => a.path.localeCompare(b.path);
    if (!node) {
      const present = new Set(this.listed().map((e) => e.format));
      const groups: TreeNode[] = FORMAT_NAMES.filter((f) => present.has(f)).map((format) => ({ kind: 'group', format }));
      if (this.unscored?.size) groups.push({ kind: 'notScoredGroup' });
      return groups;
    }
    if (node.kind === 'notScoredGroup') {
      return (this.unscored?.all() ?? []).map((f): TreeNode => ({ kind: 'notScored', uri: f.uri, reason: f.reason }));
    }
    if (node.kind === 'group') {
      const entries = this.listed().filter((e) => e.format === node.format).sort(byName);
      if (node.format !== 'raft') return entries.map((entry) => ({ kind: 'file', entry }));
      const runs = [...new Set(entries.map(raftRunOf))].sort();
      return runs.map((dir) => ({ kind: 'raftRun', dir }));
    }
    if (node.kind === 'raftRun') {
      return this.runEntries(node.dir).sort(byName).map((entry) => ({ kind: 'file', entry }));
    }
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node.kind === 'group' || node.kind === 'notScoredGroup') return undefined;
    if (node.kind === 'notScored') return { kind: 'notScoredGroup' };
    if (node.kind === 'raftRun') return { kind: 'group', format: 'raft' };
    if (node.entry.format === 'raft') return { kind: 'raftRun', dir: raftRunOf(node.entry) };
    return { kind: 'group', format: node.entry.format };
  }

  private runEntries(dir: string): FileEntry[] {
    return this.listed().filter((e) => e.format === 'raft' && raftRunOf(e) === dir);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const n = this.listed().filter((e) => e.format === node.format).length;
      const item = new vscode.TreeItem(FORMAT_LABELS[node.format], vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.format}`;
      item.description = plural(n, 'file');
      item.contextValue = 'evalLens.group';
      return item;
    }
    if (node.kind === 'raftRun') return this.runItem(node.dir);
    if (node.kind === 'notScoredGroup') {
      const item = new vscode.TreeItem('Not scored', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = 'group:notScored';
      item.description = plural(this.unscored?.size ?? 0, 'data file');
      item.tooltip = 'Data files found by the include globs that are not prediction files; each says why.';
      item.contextValue = 'evalLens.notScoredGroup';
      return item;
    }
    if (node.kind === 'notScored') return notScoredItem(node.uri, node.reason);
    return this.fileItem(node.entry);
  }

  private runItem(dir: string): vscode.TreeItem {
    const entries = this.runEntries(dir);
    const reports = entries.flatMap((e) => e.result?.reports ?? []);
    const score = raftScore(reports);
    const item = new vscode.TreeItem(path.basename(dir), vscode.TreeItemCollapsibleState.Expanded);
    item.id = `raftRun:${dir}`;
    item.resourceUri = vscode.Uri.file(dir);
    item.iconPath = vscode.ThemeIcon.Folder;
    const busy = entries.some((e) => e.pending || (!e.result && !e.error));
    const problems = problemCount(reports);
    item.description = [`raft_score ${formatNumber(score)}`, plural(entries.length, 'task'), problems ? plural(problems, 'problem') : '', busy ? 'scoring…' : '']
      .filter(Boolean).join(' · ');
    const scored = reports.filter((r) => typeof r.metrics.macro_f1 === 'number').length;
    const summary = scored
      ? `raft\\_score (mean macro\\-F1 over ${scored === entries.length ? plural(scored, 'task') : `${scored} of ${plural(entries.length, 'task')} scored`}): **${formatNumber(score, 4)}**`
      : `raft\\_score: not computed: ${entries.length === 1 ? 'the task could not' : `none of the ${entries.length} tasks could`} be scored`;
    const md = new vscode.MarkdownString(`**RAFT run** ${escapeMarkdown(dir, 300)}  \n${summary}`);
    md.isTrusted = false;
    item.tooltip = md;
    item.contextValue = 'evalLens.raftRun';
    return item;
  }

  private fileItem(entry: FileEntry): vscode.TreeItem {
    const report = entry.result?.reports[0];
    // The short name, unless another file of the group has the same one.
    const short = shortName(entry);
    const clash = this.listed().some((e) => e !== entry && e.format === entry.format && shortName(e) === short
      && (entry.format !== 'raft' || raftRunOf(e) === raftRunOf(entry)));
    const label = clash ? path.basename(entry.path) : short;
    // Files of the same name in different folders (a baseline's and a candidate's run) say their folder.
    const twin = clash && this.listed().some((e) => e !== entry && e.format === entry.format && path.basename(e.path) === path.basename(entry.path));
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `file:${entry.uri.toString()}`;
    item.resourceUri = entry.uri;
    const problems = problemCount(entry.result?.reports ?? []);
    const parts: string[] = twin ? [folderOf(entry)] : [];
    if (entry.error) parts.push('not scored');
    else if (report) parts.push(headlineText(report));
    if (problems) parts.push(plural(problems, 'problem'));
    if (entry.pending || (!report && !entry.error)) parts.push('scoring…');
    item.description = parts.join(' · ');
    item.tooltip = fileTooltip(entry);
    item.contextValue = 'evalLens.file';
    // evalLens.openFile: the text, or the report when the text editor would refuse the file.
    item.command = { title: 'Open', command: OPEN_FILE_COMMAND, arguments: [entry.uri] };
    return item;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.changed.dispose();
  }
}

/** The file's folder as the Explorer shows it: relative to its workspace folder ("runs/candidate"), "." at its root. */
function folderOf(entry: FileEntry): string {
  const dir = path.dirname(entry.path);
  const root = vscode.workspace.getWorkspaceFolder(entry.uri)?.uri.fsPath;
  return root === undefined ? dir : path.relative(root, dir).split(path.sep).join('/') || '.';
}

function notScoredItem(uri: vscode.Uri, reason: string): vscode.TreeItem {
  const item = new vscode.TreeItem(path.basename(uri.fsPath), vscode.TreeItemCollapsibleState.None);
  item.id = `notScored:${uri.toString()}`;
  item.resourceUri = uri;
  item.description = 'not scored';
  const md = new vscode.MarkdownString(`**${escapeMarkdown(path.basename(uri.fsPath), 200)}** is not scored.\n\n${escapeMarkdown(reason, 500)}`);
  md.isTrusted = false;
  md.supportHtml = false;
  item.tooltip = md;
  item.contextValue = 'evalLens.notScored';
  item.command = { title: 'Open', command: 'vscode.open', arguments: [uri] };
  return item;
}

function fileTooltip(entry: FileEntry): vscode.MarkdownString {
  const lines = [`**${escapeMarkdown(path.basename(entry.path), 200)}**`, escapeMarkdown(vscode.workspace.asRelativePath(entry.uri), 300)];
  const report = entry.result?.reports[0];
  if (entry.error) lines.push(`Not scored: ${escapeMarkdown(entry.error, 300)}`);
  if (report) {
    lines.push(`${FORMAT_LABELS[report.format]}${report.kindUnknown ? '' : ` · ${report.kind}`}${report.task ? ` · task ${escapeMarkdown(report.task, 80)}` : ''}`);
    lines.push(escapeMarkdown(summaryLine(report), 400));
    if (report.fatal && report.n === 0) lines.push(escapeMarkdown(report.fatal, 300));
    const rows = metricRows(report);
    if (rows.length) lines.push(rows.map(([k, v]) => `${escapeMarkdown(k)}: ${escapeMarkdown(v)}`).join('  \n'));
    const problems = problemCount(entry.result!.reports);
    lines.push(problems ? `${plural(problems, 'problem')} (see the Problems panel)` : 'no problems');
  }
  const md = new vscode.MarkdownString(lines.join('\n\n'));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
