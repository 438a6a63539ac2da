// Folder scans never drop a file silently: every data file a scan looks at and does not score
// gets one sentence saying why ("no prediction columns: model, accuracy, f1"), and becomes a
// report with that `fatal`, so the CLI's table and JSON and the editor's tree can list it.
import type { FormatName, Report, ScoreOptions } from './types';
import { detectFormat, firstLine, lfsPointer, lfsPointerReason } from './formats/detect';
import { isParquetPath } from './formats/parquet';
import { parquetHarness } from './formats/parquetFooter';
import { baseName } from '../common/paths';
import { parseCsv, sniffDelimiter, stripBom } from './formats/csv';
import { parsePythonJson } from './formats/pythonJson';
import { buildReport } from './report';
import { tableRolesOfText } from './tableRoles';
import { inspectListingReason, isInspectListing } from './formats/inspectListing';

/** The data files a scan reports on when it cannot score them. */
export const DATA_FILE = /\.(csv|tsv|jsonl|json|parquet|eval)$/i;

/** JSON files of tools and editors: configuration, never data. */
const CONFIG_FILE = /^(package(-lock)?|tsconfig(\..+)?|jsconfig|composer|launch|tasks|settings|extensions|devcontainer|\.eslintrc|\.prettierrc|renovate|lerna|nx|turbo|vercel|tslint|bower|manifest|app)\.json$/i;

export function isDataFile(path: string): boolean {
  return DATA_FILE.test(path) && !CONFIG_FILE.test(baseName(path));
}

function list(names: string[], max = 8): string {
  const shown = names.map((n) => (n === '' ? '(unnamed)' : n)).slice(0, max);
  return `${shown.join(', ')}${names.length > max ? `, ... (${names.length} in all)` : ''}`;
}

/** What a data file is: the format to read it as, or the reason it is not scored. */
export type FileDecision = { format: FormatName } | { reason: string };

/**
 * The one decision on a data file, from its name and first kilobytes (`head`; undefined when it
 * cannot be read): `score FILE`, a folder walk and the editor's tree all take it, so a file reads
 * the same alone or in its folder (the same format, or the same reason).
 */
export function decideFile(path: string, head: string | undefined): FileDecision {
  let format = head === undefined ? null : detectFormat(path, head);
  // A Parquet table's columns (in its footer) can name a harness: lighteval's details.
  if (format === 'generic' && isParquetPath(path)) format = parquetHarness(path) ?? format;
  return format ? { format } : { reason: unscoredReason(path, head) };
}

/** Why a data file is not scored, in one sentence; `head` is its first kilobytes (undefined: unreadable). */
export function unscoredReason(path: string, head: string | undefined): string {
  const name = baseName(path);
  if (head === undefined) return 'It could not be read (not a regular file, or no permission).';
  // Before the name's reasons: a pointer named .parquet or results_*.json is neither.
  const pointer = lfsPointer(head);
  if (pointer) return lfsPointerReason(path, pointer);
  // Parquet tables and Inspect .eval logs are read (detectFormat claims every .eval, and every
  // .parquet that starts with Parquet's magic bytes), so only a misnamed file reaches here.
  if (/\.parquet$/i.test(name)) return 'It is not a Parquet file: it does not start with PAR1, the bytes every Parquet file starts with.';
  // Results files that are summaries are read as such (formats/summary.ts): one here has no figures.
  if (/^results[_.].*\.json$/i.test(name)) return 'It is named like a results summary (lm-eval, lighteval, folktexts), but no results were found in its first kilobytes.';
  if (/^(task\.json|train\.csv|test\.csv)$/i.test(name)) return 'RAFT task data (task.json: the task description and its class names; train.csv: the labelled examples, the gold labels; test.csv: the unlabelled test split), read when scoring the predictions beside it, not predictions itself.';
  const text = stripBom(head);
  if (!text.trim()) return 'The file is empty.';
  // Inspect's logs.json lists logs' headers, not samples: the logs beside it are what is scored.
  if (/\.json$/i.test(name) && isInspectListing(text)) return inspectListingReason(path, text);
  // What the column roles make of it: a results summary, or a table without a gold label.
  const roles = rolesReason(path, text);
  if (roles) return roles;
  if (/\.(jsonl|json)$/i.test(name)) {
    const t = text.trimStart();
    if (t[0] !== '{' && t[0] !== '[') return 'It is not a JSON object or a list of records.';
    const keys = firstRecordKeys(t);
    return keys.length
      ? `No prediction fields: ${list([...new Set(keys)])}; a table of predictions needs score + label, confidence + correct or pred + gold (or a column mapping).`
      : 'No prediction fields were recognised in its first record.';
  }
  const line = firstLine(text);
  const delimiter = /\.tsv$/i.test(name) ? '\t' : sniffDelimiter(line);
  const names = parseCsv(line, delimiter).header;
  return `No prediction columns: ${list(names)}; a table of predictions needs score + label, confidence + correct or pred + gold (or a column mapping).`;
}

/** The keys of a JSON document's first record (the object itself, or the first of a list), read whole when the head holds it all. */
function firstRecordKeys(text: string): string[] {
  try {
    const doc = parsePythonJson(text) as unknown;
    const first = Array.isArray(doc) ? doc[0] : doc;
    if (first && typeof first === 'object' && !Array.isArray(first)) return Object.keys(first);
  } catch {
    // A head cut short: the keys on the first line are what can be said.
  }
  const m = /^\s*\[?\s*\{([^\n]*)/.exec(text);
  return m ? [...m[1].matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((k) => k[1]) : [];
}

/** The column roles' sentence for a table they cannot score (roles.ts), when it says more than a list of columns. */
function rolesReason(path: string, text: string): string | undefined {
  try {
    const t = tableRolesOfText(path, text);
    if (t.roles.notPredictions) return t.roles.notPredictions;
    if (t.message && t.roles.columns.some((c) => c.role !== 'unknown' && c.role !== 'group' && c.role !== 'text')) return t.message;
  } catch {
    // Not a table: the sentences below say what it is.
  }
  return undefined;
}

/** A report for a file that was looked at and not scored: no metrics, the reason as its fatal. */
export function notScoredReport(path: string, reason: string, options: ScoreOptions, format: FormatName = 'generic'): Report {
  const report = buildReport(path, {
    format, set: null, skipped: 0, unlabeled: 0, fatal: reason,
    problems: [{ line: 1, severity: 'info', code: 'unscorable', message: `Not scored: ${reason}` }],
  }, options);
  report.notScored = true;
  return report;
}
