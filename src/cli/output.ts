// How a command prints its result: the terminal table, --json, --markdown or --csv, plus, inside
// GitHub Actions, annotations and the step summary. Commands describe their result once (a
// Rendered) and share these options, so score, compare and board print alike.
import { UsageError } from './args';
import { appendStepSummary, inGitHubActions } from './github';

export type OutputMode = 'table' | 'json' | 'markdown' | 'csv';

/** parseArgs options every printing command accepts. */
export const OUTPUT_OPTIONS = {
  json: { type: 'boolean' },
  markdown: { type: 'boolean' },
  csv: { type: 'boolean' },
} as const;

export const OUTPUT_USAGE = `  --json            print one JSON document instead of tables
  --markdown        print a Markdown report (a pull-request comment, a step summary)
  --csv             print the figures as CSV, one row per file and metric`;

export function outputMode(values: { json?: boolean; markdown?: boolean; csv?: boolean }): OutputMode {
  const chosen = (['json', 'markdown', 'csv'] as const).filter((m) => values[m]);
  if (chosen.length > 1) throw new UsageError(`choose one of --json, --markdown, --csv (got --${chosen.join(' and --')}).`);
  return chosen[0] ?? 'table';
}

/** A command's result in every form it can be printed in; each is built only when asked for. */
export interface Rendered {
  json(): unknown;
  table(): string;
  markdown(): string;
  csv(): string;
  /** Workflow-command annotations (GitHub Actions), already one per line. */
  annotations?(): string;
}

/**
 * What to print. Inside GitHub Actions the annotations go to stdout beside a table, and to stderr
 * whenever stdout is a document (JSON, Markdown, CSV) that a step may redirect into a file: the
 * runner reads workflow commands from both. With $GITHUB_STEP_SUMMARY set, the Markdown is appended.
 */
export function printResult(mode: OutputMode, r: Rendered, env: NodeJS.ProcessEnv = process.env): { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  if (mode === 'json') stdout = JSON.stringify(r.json(), null, 1) + '\n';
  else if (mode === 'markdown') stdout = r.markdown();
  else if (mode === 'csv') stdout = r.csv();
  else stdout = r.table();
  if (inGitHubActions(env)) {
    const notes = r.annotations?.() ?? '';
    if (mode === 'table') stdout += notes;
    else stderr += notes;
  }
  if (env.GITHUB_STEP_SUMMARY) appendStepSummary(r.markdown(), env);
  return { stdout, stderr };
}
