// GitHub Actions: row problems and failed gates as workflow-command annotations (shown on the
// pull request's diff), and the Markdown report appended to the job's step summary.
import { appendFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Report, RowProblem, Severity } from '../core/types';
import type { GateResult } from './gates';
import { gateFailureLines, RUN_PATH } from './gates';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** Workflow-command data: %, CR and LF are the characters the runner decodes. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value: also ':' and ',', which would end the property. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Paths in annotations are relative to the checkout (GITHUB_WORKSPACE) so GitHub can place them on the diff. */
export function workspacePath(path: string, workspace = process.env.GITHUB_WORKSPACE || process.cwd()): string {
  const abs = resolve(path);
  const rel = relative(workspace, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return abs;
  return rel.split(sep).join('/');
}

export function annotation(severity: Severity, props: { file?: string; line?: number; col?: number; endColumn?: number; title?: string }, message: string): string {
  const parts = Object.entries(props)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`);
  return `::${COMMAND[severity]}${parts.length ? ' ' + parts.join(',') : ''}::${escapeData(message)}`;
}

/** Where a problem is shown: its companion file when it names one, else the predictions file. */
export function problemFile(reportPath: string, p: RowProblem): string {
  return p.path ?? reportPath;
}

/**
 * One annotation per listed problem, exactly the list the Problems panel shows for the same file:
 * the core already capped it (MAX_PROBLEMS) and ends it with a 'more-problems' summary.
 */
export function problemAnnotations(r: Report): string[] {
  return r.problems.map((p) => annotation(p.severity, {
    file: workspacePath(problemFile(r.path, p)),
    line: p.line,
    col: p.column,
    endColumn: p.endColumn,
    title: `Eval Lens: ${p.code}`,
  }, p.message));
}

export function gateAnnotations(gates: GateResult[]): string[] {
  const lines = gateFailureLines(gates);
  return gates.filter((g) => g.failed).map((g, i) => annotation('error', {
    file: g.path && g.path !== RUN_PATH ? workspacePath(g.path) : undefined,
    title: `Eval Lens gate ${g.gate}`,
  }, lines[i].replace(/^eval-lens: /, '')));
}

export function inGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Every annotation of a run, then one plain line that counts them (GitHub displays only some per step). */
export function actionsAnnotations(reports: Report[], gates: GateResult[] = []): string {
  const lines = [...reports.flatMap(problemAnnotations), ...gateAnnotations(gates)];
  if (!lines.length) return '';
  const files = reports.filter((r) => r.problems.length).length;
  lines.push(`eval-lens: ${lines.length} annotation${lines.length === 1 ? '' : 's'} (${files} file${files === 1 ? '' : 's'} with problems, at most the Problems panel's cap per file; GitHub displays the first few of each kind per step, the log has all).`);
  return lines.join('\n') + '\n';
}

/** Appends the Markdown report to $GITHUB_STEP_SUMMARY when the runner gives one. */
export function appendStepSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return false;
  appendFileSync(file, markdown.endsWith('\n') ? markdown + '\n' : markdown + '\n\n');
  return true;
}
