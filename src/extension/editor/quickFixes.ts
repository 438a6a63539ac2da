// Quick fixes for problems with exactly one sensible repair. Today that is a percentage where a
// probability belongs ("73%" -> 0.73). Fixes are offered, never applied by themselves, and apply as
// one WorkspaceEdit, so a single undo reverts them.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from './diagnostics';

const PERCENT_TOKEN = /"?\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*%\s*"?/g;
const PERCENT_EXACT = /^"?\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*%\s*"?$/;

/** "73" -> "0.73", "12.5" -> "0.125", "100" -> "1": the point moves two places, no float noise. */
export function percentToDecimal(percent: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(percent.trim());
  if (!m || (!m[2] && !m[3])) return String(Number(percent) / 100);
  const [, sign, int, frac = ''] = m;
  const padded = int.padStart(3, '0');
  const whole = padded.slice(0, -2).replace(/^0+(?=\d)/, '');
  const fraction = (padded.slice(-2) + frac).replace(/0+$/, '');
  const value = fraction ? `${whole}.${fraction}` : whole;
  return value === '0' || sign !== '-' ? value : `-${value}`;
}

/** The range and replacement that fix one percent-probability diagnostic, or undefined when ambiguous. */
export function percentFix(doc: vscode.TextDocument, d: vscode.Diagnostic): { range: vscode.Range; text: string } | undefined {
  if (d.range.start.line >= doc.lineCount) return undefined;
  const line = doc.lineAt(d.range.start.line);
  if (!d.range.isEmpty && d.range.end.character <= line.range.end.character) {
    const m = PERCENT_EXACT.exec(doc.getText(d.range));
    if (m) return { range: d.range, text: percentToDecimal(m[1]) };
  }
  // No exact span (JSON lines): fix only when the line holds exactly one percentage.
  const matches = [...line.text.matchAll(PERCENT_TOKEN)];
  if (matches.length !== 1) return undefined;
  const m = matches[0];
  const start = m.index ?? 0;
  return { range: new vscode.Range(line.lineNumber, start, line.lineNumber, start + m[0].length), text: percentToDecimal(m[1]) };
}

function isPercentProblem(d: vscode.Diagnostic): boolean {
  return d.source === DIAGNOSTIC_SOURCE && (typeof d.code === 'object' ? d.code.value : d.code) === 'percent-probability';
}

export class QuickFixProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: vscode.DiagnosticCollection) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    // Restricted mode: the extension reads and scores, and offers no edits.
    if (!vscode.workspace.isTrusted) return [];
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics.filter(isPercentProblem)) {
      const fix = percentFix(doc, d);
      if (!fix) continue;
      const action = new vscode.CodeAction(`Write ${doc.getText(fix.range).trim()} as the probability ${fix.text}`, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(doc.uri, fix.range, fix.text);
      action.diagnostics = [d];
      action.isPreferred = true;
      actions.push(action);
    }
    if (actions.length) {
      const all = (this.diagnostics.get(doc.uri) ?? []).filter(isPercentProblem)
        .map((d) => percentFix(doc, d)).filter((f): f is { range: vscode.Range; text: string } => !!f);
      if (all.length > 1) {
        const action = new vscode.CodeAction(`Write all ${all.length} percentages in this file as probabilities`, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        for (const f of all) action.edit.replace(doc.uri, f.range, f.text);
        actions.push(action);
      }
    }
    return actions;
  }
}
