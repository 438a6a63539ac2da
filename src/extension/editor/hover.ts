// Hovering a data row shows that instance as the metrics saw it: value, label, prediction,
// correctness, its reliability bin in both binnings, its Brier contribution. Text from the file
// (ids, class names) is data: every piece is escaped, and the MarkdownString is untrusted.
import * as vscode from 'vscode';
import type { ReliabilityBin, Report } from '../../core/types';
import type { EvalFiles } from '../discovery/evalFiles';
import { formatNumber } from './headline';
import { instanceId } from '../../common/instanceIds';

/** Backslash-escapes every ASCII punctuation character (CommonMark allows it) and flattens lines. */
export function escapeMarkdown(text: string, max = 200): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  const cut = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  return cut.replace(/[\\`*_{}[\]()#+\-.!|<>~"'&:;=?@^$%,/]/g, '\\$&');
}

/** Index of the instance read from a 1-based line, by binary search (lines ascend in file order). */
export function instanceAtLine(lines: Uint32Array, line: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid] === line) return mid;
    if (lines[mid] < line) lo = mid + 1;
    else hi = mid - 1;
  }
  // Not sorted after all (a format that reorders): fall back to a scan.
  for (let i = 0; i < lines.length; i++) if (lines[i] === line) return i;
  return -1;
}

function binText(bins: ReliabilityBin[] | undefined, index: number, closedHigh: boolean): string {
  if (index < 0 || !bins?.[index]) return 'n/a';
  const b = bins[index];
  const last = index === bins.length - 1;
  return `${index + 1} of ${bins.length} \\[${formatNumber(b.lo, 2)}, ${formatNumber(b.hi, 2)}${closedHigh || last ? '\\]' : ')'}`;
}

function className(r: Report, index: number): string {
  if (index < 0) return 'n/a';
  const name = r.classes?.[index];
  return name === undefined ? String(index) : escapeMarkdown(name, 80);
}

/** The hover's Markdown for instance `i` of a report (exported for tests). */
export function instanceMarkdown(r: Report, i: number): string {
  const inst = r.instances!;
  const rows: string[] = [];
  const id = instanceId(inst, i);
  rows.push(`**Eval Lens** · line ${inst.lines[i]}${id !== undefined ? ` · id ${escapeMarkdown(id, 80)}` : ''}`);
  const correct = inst.correct[i] ? '✓ correct' : '✗ incorrect';
  if (r.kind === 'binary') {
    rows.push(`score **${formatNumber(inst.value[i], 4)}** · label **${inst.gold[i]}** · predicted **${inst.pred[i]}** (threshold ${r.options.threshold}) · ${correct}`);
    rows.push(`confidence ${formatNumber(inst.confidence[i], 4)}`);
  } else if (r.kind === 'multiclass') {
    rows.push(`gold **${className(r, inst.gold[i])}** · predicted **${className(r, inst.pred[i])}** · ${correct}`);
    if (!Number.isNaN(inst.confidence[i])) rows.push(`confidence p(predicted) ${formatNumber(inst.confidence[i], 4)}`);
  } else if (r.kind === 'confidence') {
    rows.push(`confidence **${formatNumber(inst.confidence[i], 4)}** · ${correct}`);
  } else {
    const err = inst.value[i] - inst.target[i];
    rows.push(`predicted P(Yes) **${formatNumber(inst.value[i], 4)}** · true P(Yes) **${formatNumber(inst.target[i], 4)}** · error ${formatNumber(err, 4)}`);
  }
  if (inst.bin[i] >= 0 && r.bins) {
    rows.push(`reliability bin: ${binText(r.bins.equalWidth, inst.bin[i], false)} equal-width · ${binText(r.bins.equalCount, inst.binQuantile[i], true)} equal-count`);
  }
  const brier = r.kind === 'probability' ? (inst.value[i] - inst.target[i]) ** 2 : inst.brier[i];
  if (!Number.isNaN(brier)) rows.push(`${r.kind === 'probability' ? 'squared error' : 'Brier contribution'} ${formatNumber(brier, 4)}`);
  return rows.join('  \n');
}

export class InstanceHoverProvider implements vscode.HoverProvider {
  constructor(private readonly files: EvalFiles) {}

  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const entry = this.files.get(doc.uri);
    const report = entry?.result?.reports.find((r) => r.path === entry.path) ?? entry?.result?.reports[0];
    if (!report?.instances) return undefined;
    const i = instanceAtLine(report.instances.lines, position.line + 1);
    if (i < 0) return undefined;
    const md = new vscode.MarkdownString(instanceMarkdown(report, i));
    md.isTrusted = false;
    md.supportHtml = false;
    md.supportThemeIcons = false;
    return new vscode.Hover(md, doc.lineAt(position.line).range);
  }
}
